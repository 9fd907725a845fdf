"""Sanitize and restore clipboard text (the desktop hotkeys and tray actions call this).

Text copied from anywhere is sanitized in a dedicated conversation per day
("clipboard-YYYY-MM-DD", kept in the vault): the same person copied twice the same day
gets the same stand-in, so an LLM's answer about several snippets restores whole, while
different days share nothing. Restoring uses that map; an answer pasted back after
midnight is restored with the most recent clipboard map that recognises its stand-ins.
"""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass, field

from agent.engine.interface import PrivacyEngine
from agent.session.conversation import Conversation, ConversationNotFound, ConversationStore
from agent.entities import SanitizeResult

CONVERSATION_PREFIX = "clipboard-"
RESTORE_LOOKBACK_DAYS = 7


@dataclass(frozen=True, slots=True)
class ClipboardOutcome:
    """What a clipboard action did, ready for a notification."""

    kind: str  # "sanitize" | "restore"
    text: str  # the new clipboard text (unchanged input when nothing was found)
    changed: bool
    counts: dict[str, int] = field(default_factory=dict)  # by entity type
    kept: int = 0  # entities sent as they are (the prompt is about them)
    conversation_id: str = ""
    warnings: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def summary(self) -> str:
        """One line for the notification: "Replaced 2 persons, 1 email"."""
        verb = "Replaced" if self.kind == "sanitize" else "Restored"
        if not self.counts:
            nothing = "nothing to replace" if self.kind == "sanitize" else "no stand-ins found"
            return f"Clipboard unchanged: {nothing}."
        parts = [_count_phrase(label, n) for label, n in sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0]))]
        line = f"{verb} {', '.join(parts)}."
        if self.kept:
            line += f" {self.kept} left as {'it is' if self.kept == 1 else 'they are'}."
        return line


_NOUNS = {
    "PERSON": ("person", "persons"), "ORG": ("organisation", "organisations"),
    "LOCATION": ("place", "places"), "ADDRESS": ("address", "addresses"), "EMAIL": ("email", "emails"),
    "PHONE": ("phone number", "phone numbers"), "DATE": ("date", "dates"), "ID": ("ID", "IDs"),
    "URL": ("URL", "URLs"), "IP": ("IP address", "IP addresses"), "MAC": ("MAC address", "MAC addresses"),
    "CREDIT_CARD": ("card number", "card numbers"), "IBAN": ("IBAN", "IBANs"), "SSN": ("SSN", "SSNs"),
    "USERNAME": ("username", "usernames"), "SECRET": ("secret", "secrets"), "NORP": ("group", "groups"),
    "MISC": ("other item", "other items"),
}


def _count_phrase(label: str, n: int) -> str:
    one, many = _NOUNS.get(label, (label.lower(), label.lower() + "s"))
    return f"{n} {one if n == 1 else many}"


def conversation_id_for(day: dt.date) -> str:
    return f"{CONVERSATION_PREFIX}{day.isoformat()}"


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
            return self.store.create_conversation(title=title, conversation_id=conversation_id)

    def sanitize(self, text: str) -> ClipboardOutcome:
        with self._lock:
            conversation = self.conversation()
            assert conversation is not None
            result: SanitizeResult = self.engine.sanitize(text, conversation)
            self.store.save_conversation(conversation)  # the map is needed to restore later
            counts = result.counts_by_label()
            kept = len(result.entities) - sum(counts.values())
            return ClipboardOutcome(
                "sanitize", result.sanitized, result.sanitized != text, counts, kept, conversation.id,
                tuple(result.warnings),
            )

    def restore(self, text: str) -> ClipboardOutcome:
        with self._lock:
            today = self._today()
            best = None
            for back in range(RESTORE_LOOKBACK_DAYS + 1):
                conversation = self.conversation(today - dt.timedelta(days=back), create=False)
                if conversation is None or not conversation.entries:
                    continue
                result = self.engine.restore(text, conversation)
                if best is None or len(result.spans) > len(best[0].spans):
                    best = (result, conversation.id)
                if result.spans and not result.unrestored:
                    break  # the most recent map that restores everything wins
            if best is None:
                return ClipboardOutcome("restore", text, False)
            result, conversation_id = best
            counts: dict[str, int] = {}
            for span in result.spans:
                counts[span.label.value] = counts.get(span.label.value, 0) + 1
            warnings = ()
            if result.unrestored:
                warnings = (f"not restored: {', '.join(result.unrestored)}",)
            return ClipboardOutcome(
                "restore", result.text, result.text != text, counts, 0, conversation_id, warnings
            )
