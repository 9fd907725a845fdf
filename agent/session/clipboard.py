"""Sanitize and restore clipboard text (the desktop hotkeys, the tray actions and
`veil clipboard ...` call this).

Text copied from anywhere is sanitized in a dedicated conversation per day
("clipboard-YYYY-MM-DD", kept in the vault): the same person copied twice the same day
gets the same stand-in, so an LLM's answer about several snippets restores whole, while
different days share nothing. Restoring uses that map; an answer pasted back after
midnight is restored with the most recent clipboard map that recognises its stand-ins.

Pitfalls handled here:
- Sanitizing twice (the hotkey pressed again) would swap the stand-ins for new ones and
  restore would undo one layer only, handing back a stand-in as if it were real. Stand-ins
  of the day already in the text are kept as they are (new real values in it are still
  replaced) and the outcome says so. Restore also peels layers left by older versions.
- "the card ending 8623": the last digits of a card's stand-in are put back too
  (agent.restore.tails).
- Notifications count entities, not mentions: "Restored 1 person (4 mentions)".
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

from agent.detect.table import nouns
from agent.engine.interface import PrivacyEngine
from agent.entities import Action, Label, RestoredSpan, SanitizeResult
from agent.session.conversation import (
    Conversation,
    ConversationNotFound,
    MapEntry,
    fold,
)
from agent.session.stored_sanitize import sanitize_and_save
from agent.session.stores import ConversationStore

CONVERSATION_PREFIX = "clipboard-"
RESTORE_LOOKBACK_DAYS = 7
MAX_RESTORE_LAYERS = 3  # stand-ins of stand-ins, from a text sanitized more than once

SANITIZE, RESTORE = "sanitize", "restore"


@dataclass(frozen=True, slots=True)
class ClipboardOutcome:
    """What a clipboard action did, ready for a notification."""

    kind: str  # SANITIZE | RESTORE
    text: str  # the new clipboard text (unchanged input when nothing was found)
    changed: bool
    counts: dict[str, int] = field(default_factory=dict)  # distinct entities by type
    mentions: dict[str, int] = field(default_factory=dict)  # mentions by type (>= counts)
    kept: int = 0  # entities sent as they are (the prompt is about them)
    # Sanitize: stand-ins of the day that were already in the text (left as they are), by type.
    already: dict[str, int] = field(default_factory=dict)
    conversation_id: str = ""
    warnings: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def already_sanitized(self) -> bool:
        """Nothing new was replaced because the text only held the day's stand-ins."""
        return self.kind == SANITIZE and bool(self.already) and not self.counts

    def summary(self) -> str:
        """The notification's text, in words: "Replaced 2 persons (3 mentions), 1 email"."""
        if self.already_sanitized:
            return (f"Already sanitized: the clipboard holds Veil's stand-ins for {_phrases(self.already)}, "
                    "so it was not sanitized again (Ctrl+Alt+R puts the real values back).")
        if not self.counts:
            nothing = "nothing to replace" if self.kind == SANITIZE else "no stand-ins found"
            return f"Clipboard unchanged: {nothing}."
        verb = "Replaced" if self.kind == SANITIZE else "Restored"
        line = f"{verb} {_phrases(self.counts, self.mentions)}."
        if self.already:
            line += f" Stand-ins already in it ({_phrases(self.already)}) were left as they are."
        if self.kept:
            line += f" {self.kept} left as {'it is' if self.kept == 1 else 'they are'}."
        return line


_NOUNS = nouns()  # one, many per entity type: from the type table (agent/detect/table.py)


def _count_phrase(label: str, n: int, mentions: int = 0) -> str:
    one, many = _NOUNS.get(label, (label.lower(), label.lower() + "s"))
    phrase = f"{n} {one if n == 1 else many}"
    return phrase + (f" ({mentions} mentions)" if mentions > n else "")


def _phrases(counts: dict[str, int], mentions: dict[str, int] | None = None) -> str:
    mentions = mentions or {}
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], -mentions.get(kv[0], 0), kv[0]))
    return ", ".join(_count_phrase(label, n, mentions.get(label, 0)) for label, n in ordered)


def conversation_id_for(day: dt.date) -> str:
    return f"{CONVERSATION_PREFIX}{day.isoformat()}"


def is_clipboard_conversation(conversation_id: str) -> bool:
    return conversation_id.startswith(CONVERSATION_PREFIX)


def _entity_key(conversation: Conversation, label: Label, real: str) -> tuple[str, str]:
    """Mentions of one entity share a key: "Sarah", "Ms. Mitchell" and "SARAH MITCHELL"
    are the person "Sarah Mitchell" (the map records each mention's full value)."""
    entry = conversation.lookup_real(real)
    whole = (entry.parent or entry.real) if entry is not None else real
    return label.value, fold(whole)


def _tally(conversation: Conversation, items: Iterable[tuple[Label, str]]) -> tuple[dict[str, int], dict[str, int]]:
    """(distinct entities, mentions) by type."""
    entities: dict[str, set[tuple[str, str]]] = {}
    mentions: dict[str, int] = {}
    for label, real in items:
        entities.setdefault(label.value, set()).add(_entity_key(conversation, label, real))
        mentions[label.value] = mentions.get(label.value, 0) + 1
    return {label: len(keys) for label, keys in entities.items()}, mentions


def stand_in_matches(text: str, conversation: Conversation) -> list[tuple[int, int, MapEntry]]:
    """Where the conversation's stand-ins occur in `text` as written (whole words):
    (start, end, entry), longest stand-in first at each place."""
    swapped = [e for e in conversation.entries if e.action is not Action.KEEP and e.stand_in.strip()]
    if not swapped:
        return []
    by_text: dict[str, MapEntry] = {}
    for entry in swapped:
        by_text.setdefault(entry.stand_in, entry)
    alternation = "|".join(re.escape(s) for s in sorted(by_text, key=len, reverse=True))
    return [(m.start(), m.end(), by_text[m.group(0)])
            for m in re.finditer(rf"(?<!\w)(?:{alternation})(?!\w)", text)]


def stand_ins_in(text: str, conversation: Conversation) -> list[MapEntry]:
    """The conversation's stand-ins that occur in `text` (each once)."""
    seen: dict[str, MapEntry] = {}
    for _, _, entry in stand_in_matches(text, conversation):
        seen.setdefault(entry.stand_in, entry)
    return list(seen.values())


class ClipboardGuard:
    """sanitize(text) / restore(text) with the day's clipboard conversation.

    `engine` is anything with the Engine interface (Engine, EngineHost); `store` a
    ConversationStore (the vault). Thread-safe: actions are serialized."""

    def __init__(self, engine: PrivacyEngine, store: ConversationStore, *, today=dt.date.today):
        self.engine = engine
        self.store = store
        self._today = today
        self._lock = threading.Lock()

    def conversation(self, day: dt.date | None = None, *, create: bool = True) -> Conversation | None:
        conversation_id = conversation_id_for(day or self._today())
        try:
            return self.store.load_conversation(conversation_id)
        except ConversationNotFound:
            if not create:
                return None
            title = f"Clipboard {(day or self._today()).isoformat()}"
            # Kept for restoring, not a chat: the chat window's list leaves it out.
            return self.store.create_conversation(title=title, conversation_id=conversation_id, origin="clipboard")

    def sanitize(self, text: str) -> ClipboardOutcome:
        with self._lock:
            conversation = self.conversation()
            assert conversation is not None
            matches = stand_in_matches(text, conversation)
            present = stand_ins_in(text, conversation)
            # The day's stand-ins already in the text stay as they are: swapping them again
            # would hand a stand-in back as "real" on restore.
            overrides = {e.stand_in: Action.KEEP for e in present}
            result: SanitizeResult = sanitize_and_save(self.engine, self.store, conversation, text, overrides or None)
            reverted = self._swapped_stand_ins(result, matches)
            sanitized = _with_originals(result, reverted)
            replaced = [(e.label, e.real) for i, e in enumerate(result.entities)
                        if e.action is not Action.KEEP and i not in reverted]
            counts, mentions = _tally(conversation, replaced)
            already, _ = _tally(conversation, [(e.label, e.real) for e in present])
            standing = set(overrides)
            kept_entities = {_entity_key(conversation, e.label, e.real) for e in result.entities
                             if e.action is Action.KEEP and e.real not in standing}
            return ClipboardOutcome(
                SANITIZE, sanitized, sanitized != text, counts, mentions, len(kept_entities),
                already, conversation.id, tuple(result.warnings),
            )

    def _swapped_stand_ins(self, result: SanitizeResult, matches: list[tuple[int, int, MapEntry]]) -> set[int]:
        """Replacements that swapped a stand-in anyway, to be written back as they were:
        secrets (never kept, whatever the choice) and spans a detector drew over a stand-in
        and a word next to it ("KELLI CLARKE Please"), when what is left of the span holds
        nothing personal (the engine is asked about the rest on its own)."""
        reverted: set[int] = set()
        for index, entity in enumerate(result.entities):
            if entity.action is Action.KEEP:
                continue
            inside = [(start, end) for start, end, _ in matches if start < entity.end and entity.start < end]
            if not inside:
                continue
            rest = list(result.original[entity.start:entity.end])
            for start, end in inside:
                for i in range(max(start, entity.start), min(end, entity.end)):
                    rest[i - entity.start] = " "
            remainder = "".join(rest).strip(" \t\n,.;:-()[]'\"")
            if not remainder or not any(e.action is not Action.KEEP for e in
                                        self.engine.sanitize(remainder, Conversation()).entities):
                reverted.add(index)
        return reverted

    def restore(self, text: str) -> ClipboardOutcome:
        with self._lock:
            today = self._today()
            best = None
            for back in range(RESTORE_LOOKBACK_DAYS + 1):
                conversation = self.conversation(today - dt.timedelta(days=back), create=False)
                if conversation is None or not conversation.entries:
                    continue
                restored, spans, unrestored = self._restore_layers(text, conversation)
                if best is None or len(spans) > len(best[1]):
                    best = (restored, spans, unrestored, conversation)
                if spans and not unrestored:
                    break  # the most recent map that restores everything wins
            if best is None:
                return ClipboardOutcome(RESTORE, text, False)
            restored, spans, unrestored, conversation = best
            counts, mentions = _tally(conversation, [(s.label, s.real) for s in spans])
            warnings = (f"not restored: {', '.join(unrestored)}",) if unrestored else ()
            return ClipboardOutcome(
                RESTORE, restored, restored != text, counts, mentions, 0, {}, conversation.id, warnings
            )

    def _restore_layers(self, text: str, conversation: Conversation) -> tuple[str, list[RestoredSpan], list[str]]:
        """Restore with the map flattened (a text sanitized twice by an older Veil holds
        stand-ins of stand-ins: each goes straight to the real value); the restorer also
        puts back the cued last digits of swapped numbers."""
        result = self.engine.restore(text, flattened(conversation))
        return result.text, list(result.spans), list(result.unrestored)


def flattened(conversation: Conversation) -> Conversation:
    """The conversation itself, or, when some entry's real value is another entry's
    stand-in (a stand-in swapped again), a copy whose entries all lead to real values."""
    by_stand_in: dict[str, MapEntry] = {}
    for e in conversation.entries:
        by_stand_in.setdefault(fold(e.stand_in), e)
    exact = {e.stand_in: e for e in reversed(conversation.entries)}  # the first entry wins
    if not any(fold(e.real) in by_stand_in for e in conversation.entries):
        return conversation
    entries = []
    for entry in conversation.entries:
        real, parent, seen = entry.real, entry.parent, {fold(entry.stand_in)}
        for _ in range(MAX_RESTORE_LAYERS):
            below = exact.get(real) or by_stand_in.get(fold(real))  # "Olga" before "OLGA"
            if below is None or fold(below.stand_in) in seen or fold(real) == fold(below.real):
                break
            seen.add(fold(below.stand_in))
            real, parent = below.real, below.parent
        entries.append(MapEntry(real, entry.stand_in, entry.label, entry.action, entry.first_seen, parent))
    return Conversation(conversation.id, seed=conversation.seed, title=conversation.title,
                        created_at=conversation.created_at, entries=entries, choices=conversation.choices)


def _with_originals(result: SanitizeResult, reverted: set[int]) -> str:
    """The sanitized text with the replacements in `reverted` written as the original had them."""
    if not reverted:
        return result.sanitized
    pieces, position = [], 0
    for index, e in sorted(enumerate(result.entities), key=lambda item: item[1].start):
        pieces += [result.original[position:e.start], e.real if index in reverted else e.sent]
        position = e.end
    pieces.append(result.original[position:])
    return "".join(pieces)
