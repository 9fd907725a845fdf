"""Sanitize one document's segments with the project's map.

Segments are joined into chunks of a few tens of kilobytes (detection sees a paragraph's
neighbours, and spaCy's cost per call is paid once per chunk), each chunk goes through
Engine.sanitize with the project's conversation, and each replacement is handed back to
the segment it came from as an edit. Before the engine runs, the spoken identifiers of
the chunk get their spoken stand-ins in the map (see spoken.py), the cells of "always"
columns and the corpus-swapped organisations and places are prepared as spans, and the
speaker roles of a transcript are kept as they are ("Agent:", "Speaker 2:").
"""

from __future__ import annotations

import bisect
import copy
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from agent.config import Settings
from agent.engine.core import Engine
from agent.entities import Action, Label, Replacement, SanitizeResult, Span
from agent.files.corpus import CorpusPool
from agent.files.detectors import PreparedSpans, ProjectHotwords
from agent.files.document import CellMode, Document, Edit, Segment
from agent.files.project import Project
from agent.files.spoken import SpokenEntity, find_spoken, render_spoken
from agent.files.transcript import structure_spans
from agent.knowledge.names import lexicon
from agent.session.conversation import Conversation, MapEntry
from agent.substitute.persons import derive_partial
from agent.substitute.substituter import Substituter

log = logging.getLogger(__name__)

CHUNK_CHARS = 30_000


@dataclass(frozen=True, slots=True)
class Finding:
    """One entity of a document: what it was, what was written instead, and why."""

    label: str
    real: str
    sent: str
    action: str
    reason: str
    detector: str
    score: float
    where: str

    def to_json(self) -> dict:
        return {"label": self.label, "real": self.real, "sent": self.sent, "action": self.action,
                "reason": self.reason, "detector": self.detector, "score": round(self.score, 3), "where": self.where}


@dataclass
class Chunk:
    """One piece of a document as the engine saw it, for the risk analysis."""

    text: str
    result: SanitizeResult
    structure: list[tuple[int, int]]  # speaker prefixes kept as structure
    risk: tuple[list, list] | None = None  # risk.chunk_risk(self), when worked out already


@dataclass
class DocumentOutcome:
    edits: list[list[Edit]]
    findings: list[Finding]
    chunks: list[Chunk]
    warnings: list[str] = field(default_factory=list)


def project_settings(settings: Settings, project: Project) -> Settings:
    """The user's settings with the project's policy: documents have no question an
    entity could be relevant to, so every type is replaced unless the project says
    keep or label; exclusions and dictionary terms join the user's lists."""
    out = copy.deepcopy(settings)
    out.relevance = False
    out.policy = {label.value: "replace" for label in Label}
    out.policy.update({Label.parse(k).value: v for k, v in project.policy.types.items()})
    out.lists.never_protect = list(out.lists.never_protect) + list(project.policy.exclusions)
    out.lists.always_protect = list(out.lists.always_protect) + list(project.policy.dictionary)
    if out.substitution_level == 2:
        out.substitution_level = 1  # level 2 asks the local model per entity: too slow for folders
    return out


def chunks_of(segments: list[Segment], limit: int = CHUNK_CHARS) -> Iterable[list[int]]:
    """Indexes of consecutive segments whose joined text stays under `limit` (a longer
    segment is a chunk alone)."""
    current: list[int] = []
    size = 0
    for index, segment in enumerate(segments):
        length = len(segment.text) + len(segment.joiner)
        if current and size + length > limit:
            yield current
            current, size = [], 0
        current.append(index)
        size += length
    if current:
        yield current


class ProjectSanitizer:
    """Sanitizes documents into one project's map. Not thread-safe: one per worker."""

    def __init__(self, settings: Settings, project: Project, *, spoken: bool = True,
                 corpus: CorpusPool | None = None):
        self.project = project
        self.settings = project_settings(settings, project)
        self.prepared = PreparedSpans()
        self.engine = Engine(self.settings, extra_detectors=[self.prepared, ProjectHotwords(project.policy.hotwords)])
        self.substituter = Substituter(self.settings.substitution_level)
        self.spoken = spoken
        self.corpus = corpus
        self.hotwords = tuple((h.phrase, h.label) for h in project.policy.hotwords)

    @property
    def conversation(self) -> Conversation:
        return self.project.conversation

    def warm_up(self) -> None:
        self.engine.warm_up()

    # -- one document ---------------------------------------------------------------------
    def sanitize(self, document: Document, document_id: str = "") -> DocumentOutcome:
        segments = document.segments
        outcome = DocumentOutcome([[] for _ in segments], [], [], list(getattr(document, "warnings", [])))
        if self.corpus is not None and document_id:
            self.corpus.assign(document_id, self.conversation)
        for indexes in chunks_of(segments):
            self.sanitize_chunk(segments, indexes, outcome)
        return outcome

    def detect_only(self, document: Document) -> list[Span]:
        """The entities the engine finds in a document, without changing the map (the
        first pass of corpus swapping)."""
        spans: list[Span] = []
        for indexes in chunks_of(document.segments):
            text, _ = join_segments(document.segments, indexes)
            spans.extend(self.engine.detect(text, self.conversation))
        return spans

    def sanitize_chunk(self, segments: list[Segment], indexes: list[int], outcome: DocumentOutcome) -> None:
        """Sanitize the segments `indexes` (one chunk) into outcome (edits, findings, chunk)."""
        text, starts = join_segments(segments, indexes)
        prepared: list[Span] = []
        overrides: dict[str, Action] = {}
        for index, start in zip(indexes, starts):
            segment = segments[index]
            if segment.mode is CellMode.ALWAYS and segment.text.strip():
                value = segment.text.strip()
                offset = start + segment.text.index(value)
                label = segment.label or Label.MISC
                prepared.append(Span(offset, offset + len(value), label, value, 1.0, "files:column"))
                overrides[value] = Action.LABEL if self.settings.policy_for(label) == "label" else Action.REPLACE
        structure = structure_spans(text)
        for start, end in structure:
            overrides[text[start:end].strip()] = Action.KEEP
            for piece in re.findall(r"[^\W\d_][\w'’.-]*(?:[ \t]+\d+)?", text[start:end]):
                overrides.setdefault(piece, Action.KEEP)
        if self.spoken:
            for entity in find_spoken(text, self.hotwords):
                if any(s <= entity.start < e or s < entity.end <= e for s, e in structure):
                    continue  # a number read over turns holds speaker prefixes, but never starts or ends in one
                if any(p.start < entity.end and entity.start < p.end for p in prepared):
                    continue
                self._register_spoken(entity, text)
                prepared.append(Span(entity.start, entity.end, entity.label, entity.text, 1.0, "files:spoken"))
        self.prepared.prepare(text, prepared)
        try:
            result = self.engine.sanitize(text, self.conversation, overrides)
        finally:
            self.prepared.clear()
        outcome.warnings.extend(w for w in result.warnings if w not in outcome.warnings)
        outcome.chunks.append(Chunk(text, result, structure))
        self._distribute(result.entities, segments, indexes, starts, outcome)

    def _distribute(self, entities: list[Replacement], segments, indexes, starts, outcome: DocumentOutcome) -> None:
        changes = []
        for entity in entities:
            first = max(bisect.bisect_right(starts, entity.start) - 1, 0)
            outcome.findings.append(Finding(entity.label.value, entity.real, entity.sent, entity.action.value,
                                            entity.reason, entity.detector, entity.score,
                                            segments[indexes[first]].where))
            if entity.action is not Action.KEEP and entity.sent != entity.real:
                changes.append((entity.start, entity.end, entity.real, entity.sent))
        place_changes(changes, segments, indexes, starts, outcome.edits, outcome.warnings)

    # -- spoken identifiers -------------------------------------------------------------
    def _register_spoken(self, entity: SpokenEntity, text: str) -> None:
        """Put the spoken form and its spoken stand-in in the map, so the engine swaps
        the whole spoken run for a stand-in said the same way."""
        conversation = self.conversation
        if conversation.lookup_real(entity.text, Action.REPLACE) is not None:
            return
        written = self._written_stand_in(entity, text)
        if written is None:
            return
        spoken = render_spoken(entity, written)
        if not spoken or conversation.is_taken(spoken) or spoken.casefold() == entity.text.casefold():
            return
        try:
            conversation.add_entry(MapEntry(entity.text, spoken, entity.label, Action.REPLACE, parent=entity.canonical))
        except ValueError:
            log.debug("spoken stand-in collided; the engine will choose one")

    def _stand_in_for(self, label: Label, value: str, text: str) -> MapEntry | None:
        entry = self.substituter.stand_in(Span(0, len(value), label, value, 1.0, "files:spoken"), Action.REPLACE,
                                          text, self.conversation)
        return entry if entry.action is Action.REPLACE else None

    def _written_stand_in(self, entity: SpokenEntity, text: str) -> str | None:
        names = lexicon()
        if entity.form == "email":
            local = re.split(r"[._\-]", entity.canonical.partition("@")[0])
            if len(local) == 2 and all(p.isalpha() for p in local) and names.is_first_name(local[0].title()):
                self._stand_in_for(Label.PERSON, f"{local[0].title()} {local[1].title()}", text)
        if entity.form == "spelled" and entity.label is Label.PERSON:
            full = self._context_person(entity, text)
            if full is not None:
                derived = derive_partial(entity.canonical, full.real, full.stand_in)
                if derived:
                    return derived
        entry = self._stand_in_for(entity.label, entity.canonical, text)
        return entry.stand_in if entry else None

    def _context_person(self, entity: SpokenEntity, text: str) -> MapEntry | None:
        """"John Baker" said before "B A K E R" gets its stand-in first, so the spelled
        surname is the stand-in's surname."""
        name = entity.context_name
        if not name:
            return None
        parts = name.split()
        index = next((i for i, p in enumerate(parts) if p.casefold() == entity.canonical.casefold()), None)
        if index is None:
            return None
        names = lexicon()
        if index > 0 and names.is_first_name(parts[index - 1]):
            full = f"{parts[index - 1]} {parts[index]}"
        elif index + 1 < len(parts) and names.is_first_name(parts[index]) and parts[index + 1][:1].isupper():
            full = f"{parts[index]} {parts[index + 1]}"
        else:
            return None
        existing = self.conversation.lookup_real(full, Action.REPLACE)
        return existing or self._stand_in_for(Label.PERSON, full, text)


def place_changes(changes, segments: list[Segment], indexes: list[int], starts: list[int],
                  edits: list[list[Edit]], warnings: list[str]) -> None:
    """Hand changes made to a chunk, (start, end, old text, new text) with offsets in the
    chunk, back to its segments as edits. A change over several segments (a number read
    over two subtitle cues) is cut where the old text crosses from one segment to the
    next, at the same joiner in the new text (spoken stand-ins keep the text between the
    blocks as it was); when the new text has no such joiner, all of it goes into the
    first segment."""
    ends = [start + len(segments[i].text) for i, start in zip(indexes, starts)]
    for start, end, old, new in changes:
        first = max(bisect.bisect_right(starts, start) - 1, 0)
        last = max(bisect.bisect_left(starts, end) - 1, first)
        pieces: list[str] = []
        rest = new
        for k in range(first, last):
            joiner = segments[indexes[k]].joiner
            # How often the joiner occurs in the old text before this boundary tells
            # which occurrence in the new text is the boundary.
            skip = old[: max(0, ends[k] - start)].count(joiner) if joiner else 0
            at, cursor = -1, 0
            for _ in range(skip + 1):
                at = rest.find(joiner, cursor) if joiner else -1
                if at < 0:
                    break
                cursor = at + len(joiner)
            if at < 0:
                pieces = [new] + [""] * (last - first)
                warnings.append("a value ran over several parts of the file; its replacement is in the first part")
                break
            pieces.append(rest[:at])
            rest = rest[at + len(joiner) :]
        else:
            pieces.append(rest)
        for k, piece in zip(range(first, last + 1), pieces):
            lo = min(max(start, starts[k]), ends[k])
            hi = max(min(end, ends[k]), lo)
            edits[indexes[k]].append(Edit(lo - starts[k], hi - starts[k], piece))


def join_segments(segments: list[Segment], indexes: list[int]) -> tuple[str, list[int]]:
    """The chunk text of these segments (with their joiners) and where each starts in it."""
    pieces, starts = [], []
    position = 0
    for k, index in enumerate(indexes):
        starts.append(position)
        pieces.append(segments[index].text)
        position += len(segments[index].text)
        if k < len(indexes) - 1:
            pieces.append(segments[index].joiner)
            position += len(segments[index].joiner)
    return "".join(pieces), starts

