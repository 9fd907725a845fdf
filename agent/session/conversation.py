"""A conversation: its entity map (real value <-> stand-in), the user's choices, and
the store interface that keeps them.

The map is what makes Veil consistent: the same real value always gets the same
stand-in within a conversation, and a later message that mentions it (even partly)
reuses it. Different conversations have different seeds, so nothing links them.

Several processes may add to one conversation's map at once (the tray app, `veil serve`
and the CLI share the vault). A store persists new entries in one transaction that
checks them against what the others stored meanwhile; when one clashes (the value got
another stand-in elsewhere, or the stand-in was taken) it raises MapConflict, and the
text must be sanitized again: `render_and_store` (agent/session/stores.py, with the store
interface and the in-memory store) does that loop for every caller.
"""

from __future__ import annotations

import secrets
import threading
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from agent.entities import Action, Label


def fold(text: str) -> str:
    """The key under which values are matched: case- and whitespace-insensitive."""
    return " ".join(text.casefold().split())


@dataclass(frozen=True, slots=True)
class MapEntry:
    real: str
    stand_in: str
    label: Label
    action: Action = Action.REPLACE  # REPLACE (realistic stand-in) or LABEL ([PERSON_1])
    first_seen: float = field(default_factory=time.time)
    # For partial mentions ("Mitchell" of "Sarah Mitchell"): the full real value.
    parent: str | None = None


@dataclass(frozen=True, slots=True)
class EntityChoice:
    """The user's keep/replace decision for one real value, remembered per conversation."""

    real: str
    label: Label
    action: Action
    chosen_at: float = field(default_factory=time.time)


class MessageState(str, Enum):
    UNSENT = "unsent"  # typed, not (successfully) sent yet: can be retried
    SENDING = "sending"
    ANSWERED = "answered"
    FAILED = "failed"  # the provider failed; the typed text is kept
    CANCELLED = "cancelled"


@dataclass(slots=True)
class Message:
    conversation_id: str
    typed: str  # what the user typed (real values)
    sent: str = ""  # what left the machine (sanitized)
    received: str = ""  # what came back (stand-ins)
    shown: str = ""  # what the user saw (restored)
    state: MessageState = MessageState.UNSENT
    provider: str = ""
    model: str = ""
    error: str = ""
    created_at: float = field(default_factory=time.time)
    id: int | None = None


@dataclass(frozen=True, slots=True)
class ConversationSummary:
    id: str
    title: str
    created_at: float
    updated_at: float
    message_count: int = 0
    origin: str = "chat"  # see ORIGINS


# Where a conversation was started. The chat list shows "chat" ones; the others (a `veil`
# command, the clipboard, the local proxy, `veil files`) only when the user opens them,
# which makes them "chat" (set_conversation_origin).
ORIGINS = ("chat", "cli", "clipboard", "proxy", "files")


class ConversationNotFound(KeyError):
    def __init__(self, conversation_id: str):
        super().__init__(conversation_id)
        self.conversation_id = conversation_id

    def __str__(self) -> str:
        return f"no conversation with id {self.conversation_id!r}"


class MapConflict(RuntimeError):
    """Storing the map failed because another process (or another copy of this
    conversation) mapped one of the same values to another stand-in, or gave one of
    these stand-ins to another value, since this copy last read the map. Nothing was
    stored; the conversation has dropped its unsaved entries and learnt the stored ones,
    so sanitizing the text again gives stand-ins that agree with the vault."""


class Conversation:
    """In-memory state of one conversation. Thread-safe for one writer and many readers.

    `synced_through` is the store's own bookkeeping: the last stored map row this copy
    has seen (0 for a conversation that was never stored)."""

    def __init__(
        self,
        conversation_id: str | None = None,
        *,
        seed: int | None = None,
        title: str = "",
        created_at: float | None = None,
        entries: Iterable[MapEntry] = (),
        choices: Iterable[EntityChoice] = (),
    ):
        self.id = conversation_id or uuid.uuid4().hex[:16]
        self.seed = seed if seed is not None else secrets.randbits(63)
        self.title = title
        self.created_at = created_at if created_at is not None else time.time()
        self._lock = threading.RLock()
        self._entries: list[MapEntry] = []
        self._by_real: dict[str, MapEntry] = {}
        self._by_stand_in: dict[str, MapEntry] = {}
        self._choices: dict[str, EntityChoice] = {}
        self._unsaved: list[MapEntry] = []
        self.revision = 0  # bumped on every map change: caches of the compiled map key on it
        self._unsaved_choices: list[EntityChoice] = []
        self._forgotten_choices: set[str] = set()  # folded values whose stored choice must go
        self.synced_through = 0
        for entry in entries:
            self._index(entry)
        for choice in choices:
            self._choices[fold(choice.real)] = choice

    # -- entity map -------------------------------------------------------------------
    def _index(self, entry: MapEntry) -> None:
        self.revision += 1
        self._entries.append(entry)
        self._by_real.setdefault(fold(entry.real), entry)
        self._by_stand_in.setdefault(fold(entry.stand_in), entry)

    def add_entry(self, entry: MapEntry) -> MapEntry:
        """Record a new mapping; returns the existing one if the real value is known."""
        with self._lock:
            existing = self._by_real.get(fold(entry.real))
            if existing is not None and existing.action is entry.action:
                return existing
            if fold(entry.stand_in) in self._by_stand_in or fold(entry.stand_in) in self._by_real:
                raise ValueError("stand-in collides with a value already in this conversation")
            self._index(entry)
            self._unsaved.append(entry)
            return entry

    def add_variant(self, entry: MapEntry, mention: str, stand_in: str) -> MapEntry:
        """Record how one mention of a mapped value was written and replaced when it
        differs in letter case ("ReLU" and "relu"), so restore can give back each form."""
        with self._lock:
            for existing in self._entries:
                if existing.real == mention and existing.stand_in == stand_in:
                    return existing
            variant = MapEntry(mention, stand_in, entry.label, entry.action, parent=entry.parent or entry.real)
            self.revision += 1
            self._entries.append(variant)
            self._by_stand_in.setdefault(fold(stand_in), variant)
            self._unsaved.append(variant)
            return variant

    def lookup_real(self, real: str, action: Action | None = None) -> MapEntry | None:
        with self._lock:
            entry = self._by_real.get(fold(real))
            if entry is not None and action is not None and entry.action is not action:
                for candidate in self._entries:
                    if candidate.action is action and fold(candidate.real) == fold(real):
                        return candidate
                return None
            return entry

    def lookup_stand_in(self, stand_in: str) -> MapEntry | None:
        with self._lock:
            return self._by_stand_in.get(fold(stand_in))

    @property
    def entries(self) -> list[MapEntry]:
        with self._lock:
            return list(self._entries)

    def is_taken(self, value: str) -> bool:
        """True if value is already a real value or a stand-in here (collision check)."""
        key = fold(value)
        with self._lock:
            return key in self._by_real or key in self._by_stand_in

    def take_unsaved(self) -> list[MapEntry]:
        """Entries added since the last call: what a store must persist."""
        with self._lock:
            out, self._unsaved = self._unsaved, []
            return out

    def absorb(self, entries: Iterable[MapEntry], synced_through: int) -> int:
        """Learn entries another process stored (a store calls this). An entry already
        known (same value, stand-in and action) is skipped. Returns how many were new."""
        with self._lock:
            known = {(e.real, e.stand_in, e.action) for e in self._entries}
            added = 0
            for entry in entries:
                if (entry.real, entry.stand_in, entry.action) not in known:
                    known.add((entry.real, entry.stand_in, entry.action))
                    self._index(entry)
                    added += 1
            self.synced_through = max(self.synced_through, synced_through)
            return added

    def forget(self, entries: Iterable[MapEntry]) -> None:
        """Drop entries that could not be stored (a store calls this on MapConflict):
        no text that uses them was kept, and their values must be mapped again."""
        with self._lock:
            gone = list(entries)
            if not gone:
                return
            kept = list(self._entries)
            for entry in gone:
                for i in range(len(kept) - 1, -1, -1):
                    if kept[i] is entry:
                        del kept[i]
                        break
            self._unsaved = [e for e in self._unsaved if all(e is not g for g in gone)]
            self._entries, self._by_real, self._by_stand_in = [], {}, {}
            for entry in kept:
                self._index(entry)
            self.revision += 1

    # -- the user's choices -----------------------------------------------------------
    def choice_for(self, real: str) -> Action | None:
        with self._lock:
            choice = self._choices.get(fold(real))
            return choice.action if choice else None

    def set_choice(self, real: str, label: Label, action: Action) -> EntityChoice:
        choice = EntityChoice(real=real, label=label, action=action)
        with self._lock:
            self._choices[fold(real)] = choice
            self._unsaved_choices.append(choice)
            self._forgotten_choices.discard(fold(real))
        return choice

    def forget_choices(self, reals: Iterable[str] | None = None) -> list[str]:
        """Drop the user's choices for these values (None: all): the engine decides again.
        Returns the values forgotten; the store deletes them at the next save."""
        with self._lock:
            keys = list(self._choices) if reals is None else [fold(r) for r in reals if fold(r) in self._choices]
            gone = [self._choices.pop(key).real for key in keys]
            self._unsaved_choices = [c for c in self._unsaved_choices if fold(c.real) not in keys]
            self._forgotten_choices.update(keys)
            return gone

    def forgotten_choices(self) -> list[str]:
        """Folded values whose stored choices a store must delete (see forget_choices)."""
        with self._lock:
            return sorted(self._forgotten_choices)

    def choices_deleted(self, keys: Iterable[str]) -> None:
        """The store deleted these choices: nothing left to do for them."""
        with self._lock:
            self._forgotten_choices.difference_update(keys)

    @property
    def choices(self) -> list[EntityChoice]:
        with self._lock:
            return list(self._choices.values())

    def take_unsaved_choices(self) -> list[EntityChoice]:
        with self._lock:
            out, self._unsaved_choices = self._unsaved_choices, []
            return out

    # -- per-conversation constants ----------------------------------------------------
    @property
    def date_shift_days(self) -> int:
        """One offset for every date in this conversation, so intervals survive."""
        rng = (self.seed >> 7) % 700
        days = 21 + rng  # 3 weeks .. ~2 years
        return days if (self.seed & 1) else -days
