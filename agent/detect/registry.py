"""The registry composes detectors from configuration (spaCy-style: config is data) and
runs them all over a text, then resolves overlaps once."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from agent.config import Settings
from agent.detect.base import DetectionContext, Detector
from agent.detect.cjk_names import CjkNameDetector, cjk_names_first, trim_at_script_change
from agent.detect.code_names import CodeNameDetector
from agent.detect.code_zones import (
    CODE_NAMES,
    TechnicalZones,
    has_person_cue,
    has_place_cue,
    in_foreign_word_list,
    in_log_header,
    is_code,
    is_code_text,
    is_term_of_the_trade,
    is_word_in_code,
    looks_like_code_token,
    looks_like_person_name,
)
from agent.detect.config_secrets import ConfigSecretDetector
from agent.detect.context import GENERIC, ContextBooster
from agent.detect.cyrillic_names import CyrillicNameDetector
from agent.detect.gazetteer import OrganisationDetector, PlaceDetector
from agent.detect.glued_dates import trim_at_glued_date
from agent.detect.id_table import ID_TYPES
from agent.detect.identifiers import IdentifierDetector
from agent.detect.list_mates import people_in_lists
from agent.detect.logins import LoginNameDetector
from agent.detect.memory import ConversationMemoryDetector, MentionFinder, name_parts
from agent.detect.merge import resolve_overlaps
from agent.detect.ner import SpacyNerDetector
from agent.detect.nlp import LazyAnalysis, ModelMissing, SpacyPipeline, shared_pipeline
from agent.detect.obfuscated import ObfuscatedEmailDetector
from agent.detect.one_word_names import OneWordNameDetector
from agent.detect.org_cues import OrgCueDetector
from agent.detect.patterns import ID_HOTWORDS, pattern_detectors
from agent.detect.person_names import PersonNameDetector, kinship_letters, split_repeated_first_word
from agent.detect.person_repeats import person_word_repeats
from agent.detect.scene_headings import in_scene_heading
from agent.detect.secrets import SecretDetector
from agent.detect.table import propagating_labels
from agent.detect.user_lists import AlwaysProtectDetector, CustomPatternDetector
from agent.entities import Label, Span
from agent.knowledge.languages import ordinary_foreign_words
from agent.knowledge.names import lexicon
from agent.knowledge.org_words import ENDS_WITH_LEGAL_FORM
from agent.knowledge.person_words import (
    ET_AL,
    ET_AL_AFTER,
    ROLE_NOUN_PATTERN,
    TITLE_PATTERN,
    TITLE_WORDS,
)
from agent.knowledge.words import is_common_word
from agent.session.conversation import Conversation, MapEntry, fold

log = logging.getLogger(__name__)


@dataclass
class Detection:
    spans: list[Span]
    warnings: list[str] = field(default_factory=list)


class DetectorRegistry:
    def __init__(
        self,
        detectors: Iterable[Detector] = (),
        *,
        allow: Iterable[str] = (),
        min_score: float = 0.35,
        pipeline: SpacyPipeline | None = None,
        booster: ContextBooster | None = None,
    ):
        self.detectors: list[Detector] = list(detectors)
        self.allow = frozenset(fold(a) for a in allow if a.strip())
        self.min_score = min_score
        self.pipeline = pipeline
        self.booster = booster
        self._cue_hits: tuple[str, list] | None = None
        self._code_text: tuple[str, bool] | None = None
        self._zones: tuple[str, TechnicalZones] | None = None

    def _zones_of(self, text: str) -> TechnicalZones:
        if self._zones is None or self._zones[0] is not text:
            self._zones = (text, TechnicalZones(text))
        return self._zones[1]

    def _technical(self, text: str, span: Span) -> bool:
        return self._zones_of(text).technical(span.start)

    def _code_or_cue(self, text: str, span: Span, *, named_in_prose: bool = False) -> bool:
        """A name, place or organisation that is really an identifier in code, or the cue
        word of an identifier ("my ITIN is ...", "NPI:", "nino:"): not an entity. What the
        user listed and what the conversation already mapped are never second-guessed.
        `named_in_prose`: the same value is an entity in the text's prose, so a mention of it
        in a template or technical line is that entity too (left as written there, it would
        show which stand-in it is)."""
        if span.detector in _AUTHORITATIVE:
            return False
        if span.label is Label.PERSON and len(span.text) == 1 and span.text in kinship_letters(text):
            return False  # "T" of a relation puzzle is a person there, not a type parameter
        if span.label is Label.PERSON and ET_AL_AFTER.match(text, span.end):
            return False  # "results(Lindgren et al., 2020)": a citation typed without a space, not a call
        if (span.label in _GUESSED or span.label is Label.DATE) and in_log_header(text, span):
            return True  # "2026-03-02T10:11:12Z INFO [auth]": when and how a program logged
        if not named_in_prose and in_scene_heading(text, span):
            return True  # "INT. KITCHEN - NIGHT": a screenplay's set and time, no company
        if span.detector == "domain" and span.text.rsplit(".", 1)[-1].casefold() in _CODE_TLDS and self._technical(text, span):
            return True  # selected.id, libfoo.abi3.so, corpora.dev in code: attributes and files
        if span.label is Label.DATE and span.score < 0.9 and self._technical(text, span):
            # A release date, a timestamp or a version in code, config or logs; explicit
            # dates of birth (scored 0.9 by their cue) stay.
            return True
        if span.label not in _GUESSED:
            return False
        if span.label is not Label.USERNAME and ordinary_foreign_words(text, span.text):
            return True  # "Ihre Rechnung Nr", "Groetjes": the prompt's own language, not a name
        if _ID_CUE.fullmatch(span.text) and _ID_AFTER.match(text, span.end):
            return True  # "MRN 44-1923-88", "Policy #A-77": the cue of the number after it, no firm
        if is_code(text, span, token_rules=span.label is not Label.USERNAME):
            return True
        if self._code_text is None or self._code_text[0] is not text:
            self._code_text = (text, is_code_text(text))
        if self._code_text[1] and is_word_in_code(text, span):
            return True
        if in_foreign_word_list(text, span):
            return True
        if self._technical(text, span) and not named_in_prose and not _strong_evidence(text, span):
            return True
        if span.label is not Label.USERNAME and self._zones_of(text).about_code and _all_terms(span.text):
            return True
        if self.booster is None:
            return False
        if self._cue_hits is None or self._cue_hits[0] is not text:
            self._cue_hits = (text, self.booster.hits(text))  # shared with the identifier detector
        # "my ITIN", "Meine Steuer-ID", "RSA ID", "Not a MAC:": a cue word, or part of one
        # (a generic one such as "id" or "number" only when it is the whole span).
        core = span.text.strip(_EDGE_JUNK + ".")
        start = span.start + span.text.index(core) if core else span.start
        whole = (start, start + len(core))
        return any(
            h.start < span.end and span.start < h.end and (h.keys != {GENERIC} or (h.start, h.end) == whole)
            for h in self._cue_hits[1]
        )

    def add(self, detector: Detector) -> None:
        self.detectors.append(detector)

    def names(self) -> list[str]:
        return [d.name for d in self.detectors]

    def detect(self, text: str, conversation: Conversation | None = None) -> Detection:
        analysis = LazyAnalysis(self.pipeline, text) if self.pipeline else None
        context = DetectionContext(conversation=conversation, allow=self.allow, analysis=analysis)
        spans: list[Span] = []
        warnings: list[str] = []
        for detector in self.detectors:
            try:
                found = detector.detect(text, context)
            except ModelMissing as exc:
                warnings.append(str(exc))
                continue
            except Exception as exc:  # one broken detector must not stop the others
                log.exception("detector %s failed", detector.name)
                warnings.append(f"detector {detector.name} failed: {exc.__class__.__name__}")
                continue
            for span in found:
                if not (0 <= span.start < span.end <= len(text)) or text[span.start : span.end] != span.text:
                    continue  # a detector's offsets are checked, never trusted
                if _CITATION_PIECE.fullmatch(span.text) or (span.label in _GUESSED and _only_titles(span.text) and (span.label is Label.PERSON or "." in span.text)):
                    continue  # "al." of a citation, "Dr." or "Ms." alone: no one's name
                spans.extend(split_repeated_first_word(_normalized(span)))
        kept = [
            s for s in spans
            if s.score >= self.min_score and fold(s.text) not in self.allow and not self._code_or_cue(text, s)
        ]
        kept = cjk_names_first(_validated_first(kept))
        merged = people_in_lists(text, resolve_overlaps(kept))
        in_prose = _named_in_prose(merged, lambda s: self._technical(text, s))
        repeats = [
            s for s in _repeated_mentions(text, merged)
            if not self._code_or_cue(text, s, named_in_prose=fold(s.text) in in_prose)
        ]
        merged = resolve_overlaps(merged + repeats)
        return Detection(_linked_partials(_consistent_labels(person_word_repeats(merged))), warnings)


# Types that detectors guess from the look of words (and code can imitate); the others come
# from validated patterns.
_GUESSED = frozenset({Label.PERSON, Label.ORG, Label.LOCATION, Label.NORP, Label.MISC, Label.USERNAME})
_AUTHORITATIVE = frozenset({"always_protect", "custom", "memory"})
# An identifier's cue word, and the number right after it.
_ID_CUE = re.compile(rf"(?i)(?:{ID_HOTWORDS})(?:\s+(?:number|num|no|nr|id))?\.?")
_ID_AFTER = re.compile(r"[ \t]*(?:[:#=]|no\.?)?[ \t]*#?[A-Za-z]{0,4}-?\d")
# Top-level domains that are also file extensions or attribute names in code.
_CODE_TLDS = frozenset({"id", "so", "sh", "py", "js", "ts", "md", "rs", "go", "pl", "rb", "cc", "in", "is", "it", "to",
                        "me", "no", "at", "be", "us", "dev", "app", "info", "name", "ai", "co", "tv", "ly"})

# Types whose values are worth finding again wherever they recur in the same text.
_PROPAGATE = propagating_labels()  # from the type table


def _validated_first(spans: list[Span]) -> list[Span]:
    """The language model's guess loses to a validated identifier it overlaps: "1969 3325
    2053" (a Japanese My Number, check digit and all) is not the year 1969, and
    "362705637605 लिखा" is no date."""
    ids = [s for s in spans if s.detector.startswith("ids:")]
    if not ids:
        return spans
    return [
        s for s in spans
        if s.detector != "spacy" or not any(i.start < s.end and s.start < i.end for i in ids)
    ]


def _strong_evidence(text: str, span: Span) -> bool:
    """In a technical zone a capitalised word is a class, a constant or a product far more
    often than a person or a place: a guessed name stays only with evidence that it is one
    (a name-shaped pair the name lists know, a cue word before it, a legal form)."""
    if span.detector.startswith("code_names"):
        return True
    value = span.text
    if span.label is Label.PERSON:
        if looks_like_person_name(value):
            return True
        shaped = 1 <= len(value.split()) <= 4 and value[:1].isupper() and not looks_like_code_token(value)
        return shaped and value not in CODE_NAMES and not is_common_word(value) and has_person_cue(text, span.start)
    if span.label is Label.ORG:
        return ENDS_WITH_LEGAL_FORM.search(value) is not None and not looks_like_code_token(value)
    if span.label is Label.LOCATION:
        return has_place_cue(text, span.start) and not looks_like_code_token(value)
    if span.label is Label.USERNAME:
        return value not in CODE_NAMES and not is_common_word(value)
    return False  # NORP, MISC


def _all_terms(value: str) -> bool:
    """Every word an ordinary word, a short acronym or a code literal ("Cloud Storage",
    "Server VAD", "Returns True"), and no name a list knows: a term in a text about code."""
    words = value.split()
    if len(words) > 1 and looks_like_person_name(value):
        return False
    return all(is_term_of_the_trade(w) or w.strip(".,;:") in CODE_NAMES for w in words)


def _named_in_prose(spans: list[Span], technical) -> frozenset[str]:
    """The (folded) values of guessed names found outside technical zones."""
    return frozenset(fold(s.text) for s in spans if s.label in _GUESSED and not technical(s))


def _repeated_mentions(text: str, spans: list[Span]) -> list[Span]:
    """A value found once is the same value everywhere in the text ("Ruby" tagged in one
    sentence and missed in the next), and a person's first or last name alone refers
    to them. Found like conversation memory, at a lower score than a real detection."""
    seen: dict[str, Span] = {}
    for span in spans:
        if span.score < 0.5 or len(span.text) < 2 or span.label not in _PROPAGATE:
            continue
        if span.label is Label.PERSON and not span.text[0].isupper():
            # A lower-cased name ("ines okafor", "tomas") is sought again only when it is no
            # ordinary word; its words alone then refer to the person too ("okafor said").
            # (Scripts without letter case, such as Hangul, are not lower case: NER's guesses
            # there are not sought again.)
            # NER's lower-case guesses ("sous chef", "helpdesk") count only with a word the
            # name lists know.
            words = span.text.split()
            if not span.text.islower() or span.score < 0.55 or (len(words) == 1 and is_common_word(span.text)):
                continue
            if span.detector == "spacy" and not any(lexicon().is_first_name(w) or lexicon().is_last_name(w) for w in words):
                continue
            # Its words alone are found as its parts (name_parts: those that are no ordinary word).
        seen.setdefault(fold(span.text), span)
    if not seen:
        return []
    entries = [MapEntry(real=s.text, stand_in=s.text, label=s.label) for s in seen.values()]
    found = MentionFinder(entries, detector="repeat", full_score=0.8, part_score=0.7).find(text)
    # "Ruby" found once is "Ruby" elsewhere, but not every lower-case "ruby", "that", "mark".
    return [s for s in found if s.text[:1].isupper() or " " in s.text or not is_common_word(s.text)]


def _linked_partials(spans: list[Span]) -> list[Span]:
    """"Mitchell" in a text that also says "Sarah Mitchell" is that person: link it, so
    its stand-in is the surname of hers."""
    full_names: dict[str, str] = {}
    for span in spans:
        if span.label is Label.PERSON and len(span.text.split()) > 1:
            for part in name_parts(span.text):
                full_names.setdefault(fold(part), span.text)
    if not full_names:
        return spans
    return [
        replace(s, canonical=full_names[fold(s.text)])
        if s.label is Label.PERSON and s.canonical is None and fold(s.text) in full_names
        else s
        for s in spans
    ]


def _consistent_labels(spans: list[Span]) -> list[Span]:
    """One value, one type within a text: the type of its strongest detection."""
    best: dict[str, Span] = {}
    for span in spans:
        key = fold(span.text)
        if key not in best or span.score > best[key].score:
            best[key] = span
    return [s if best[fold(s.text)].label is s.label else replace(s, label=best[fold(s.text)].label) for s in spans]


# Titles, and role nouns written as titles ("Applicant Tomas Arvelo Lima": NER takes the
# role word into the name, and its stand-in then replaced "Applicant" too).
_LEADING_TITLE = re.compile(rf"^(?:(?:{TITLE_PATTERN})\.?\s+|(?:{ROLE_NOUN_PATTERN})\s+(?=(?-i:[A-Z])))+", re.IGNORECASE)


_NAMED = frozenset({Label.PERSON, Label.ORG, Label.LOCATION, Label.NORP, Label.MISC, Label.DATE})
_EDGE_JUNK = " \t\r\n\"'“”‘’«»()[]{}<>,;:*_"
# What follows a first author in a citation ("et al.", "et al"), and what spaCy tags of
# it alone ("al.", never "al": that can be a lower-case name).
_CITATION_TAIL = re.compile(ET_AL + r"\.?[\s,;)]*$")
_CITATION_PIECE = re.compile(r"\s*(?:et\.?\s+al\b\.?|al\.)[\s,;)]*")


def _only_titles(value: str) -> bool:
    """"Dr.", "Ms.": titles with no name. (Other types only when abbreviated: "Coach" is a brand.)"""
    words = value.split()
    return bool(words) and all(w.casefold().rstrip(".,:") in TITLE_WORDS for w in words)


def _normalized(span: Span) -> Span:
    """Trim what detectors drag along: surrounding quotes and brackets, a line break (a
    name does not run over lines), a possessive ("Mitchell's" is a mention of
    "Mitchell") and a title ("Uncle Victor" of "Victor"). The trimmed characters stay in
    the text as written; the stand-in replaces the name only. A Latin name runs into the
    particle glued to it in CJK text ("<name>은"): it ends at the change of script, and a
    name run on into a timestamp ends at its weekday or month name."""
    span = trim_at_script_change(span)
    span = trim_at_glued_date(span)  # "<name>Wed Mar 8": the name ends where the weekday begins
    tail = _CITATION_TAIL.search(span.text) if span.label in _NAMED else None
    if tail and tail.start() > 0:
        # "Lindgren et al.": the first author's surname, a person (spaCy says ORG or GPE).
        span = replace(span, end=span.start + tail.start(), text=span.text[: tail.start()], label=Label.PERSON)
    if span.label in _NAMED:
        text = span.text
        if "\n" in text.strip() and span.label is not Label.MISC:
            text = text[: text.index("\n", len(text) - len(text.lstrip()))]
        lead = len(text) - len(text.lstrip(_EDGE_JUNK))
        text = text.strip(_EDGE_JUNK)
        if not text:
            return span
        if text != span.text:
            start = span.start + lead
            span = replace(span, start=start, end=start + len(text), text=text)
    if span.label in (Label.PERSON, Label.ORG, Label.LOCATION) and len(span.text) > 3 and span.text.endswith(("'s", "’s")):
        span = replace(span, end=span.end - 2, text=span.text[:-2])
    if span.label is Label.PERSON:
        title = _LEADING_TITLE.match(span.text)
        if title and title.end() < len(span.text):
            span = replace(span, start=span.start + title.end(), text=span.text[title.end():])
    return span


def build_registry(settings: Settings, extra: Sequence[Detector] = ()) -> DetectorRegistry:
    cfg = settings.detectors
    pipeline = shared_pipeline(cfg.spacy_model) if cfg.ner else None
    detectors: list[Detector] = []
    identifiers = IdentifierDetector(ID_TYPES)
    if cfg.secrets:
        detectors.append(SecretDetector())
        detectors.append(ConfigSecretDetector())
    if cfg.patterns:
        detectors.extend(pattern_detectors())
        detectors.append(identifiers)
        detectors.append(ObfuscatedEmailDetector())
    if pipeline is not None:
        detectors.append(SpacyNerDetector(pipeline))
    detectors.append(PersonNameDetector(pipeline))
    detectors.append(OneWordNameDetector())
    detectors.append(CjkNameDetector())
    detectors.append(CyrillicNameDetector())
    detectors.append(CodeNameDetector())
    detectors.append(LoginNameDetector())
    detectors.append(OrganisationDetector())
    detectors.append(OrgCueDetector())
    detectors.append(PlaceDetector())
    if cfg.memory:
        detectors.append(ConversationMemoryDetector())
    if settings.lists.always_protect:
        detectors.append(AlwaysProtectDetector(settings.lists.always_protect))
    for pattern in settings.lists.custom_patterns:
        detectors.append(CustomPatternDetector(Label.parse(pattern.label), pattern.pattern, pattern.name))
    detectors.extend(extra)
    return DetectorRegistry(
        detectors, allow=settings.lists.never_protect, min_score=cfg.min_score, pipeline=pipeline,
        booster=identifiers.booster,
    )
