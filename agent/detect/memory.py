"""Conversation memory: real values already mapped in this conversation are found again
in later messages even when NER misses them, including partial mentions (first or last
name alone, "Ms. Mitchell", possessives, other casing) and re-formatted phone numbers."""

from __future__ import annotations

import re
import threading
import weakref
from dataclasses import dataclass

from agent.detect.base import DetectionContext
from agent.detect.validators import digits_of
from agent.entities import Action, Label, Span
from agent.knowledge.not_names import CALENDAR_WORDS
from agent.knowledge.person_words import TITLE_WORDS
from agent.session.conversation import Conversation, MapEntry, fold

_PHONE_LIKE = re.compile(r"\+?\(?\d[\d\s().\-]{5,}\d")


@dataclass(frozen=True)
class _Needle:
    entry: MapEntry
    canonical: str
    case_sensitive_initial: bool  # partial name parts must be capitalised to count
    score: float


def name_parts(real: str) -> list[str]:
    """The parts of a multi-word name that identify the person on their own."""
    tokens = [t.strip(",.") for t in real.split()]
    tokens = [t for t in tokens if t.casefold().rstrip(".") not in TITLE_WORDS]
    if len(tokens) < 2:
        return []
    # "May" of "May Chen" alone is more often the month: months and weekdays are not parts.
    return [t for t in tokens if len(t) >= 3 and t[0].isupper() and t not in CALENDAR_WORDS]


class MentionFinder:
    """Finds mentions of known values (full, name parts, re-formatted phones) in a text."""

    def __init__(self, entries: list[MapEntry], *, detector: str = "memory", full_score: float = 0.98,
                 part_score: float = 0.9):
        self.detector = detector
        self.full_score = full_score
        self.needles: dict[str, _Needle] = {}
        self.phones: dict[str, MapEntry] = {}
        for entry in entries:
            if entry.action is Action.KEEP:
                continue
            canonical = entry.parent or entry.real
            self.needles.setdefault(fold(entry.real), _Needle(entry, canonical, False, full_score))
            if entry.label is Label.PERSON:
                for part in name_parts(entry.real):
                    self.needles.setdefault(fold(part), _Needle(entry, canonical, True, part_score))
            if entry.label is Label.PHONE:
                self.phones[digits_of(entry.real)[-10:]] = entry
        surfaces = sorted(self.needles, key=len, reverse=True)
        alternatives = "|".join(_flexible(s) for s in surfaces)
        self.regex = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE) if surfaces else None

    def find(self, text: str) -> list[Span]:
        spans = []
        if self.regex is not None:
            for match in self.regex.finditer(text):
                value = match.group()
                needle = self.needles.get(fold(value))
                if needle is None:
                    continue
                if needle.case_sensitive_initial and not value[0].isupper():
                    continue  # "will" is not "Will Smith"
                spans.append(
                    Span(match.start(), match.end(), needle.entry.label, value, needle.score,
                         self.detector, canonical=needle.canonical)
                )
        if self.phones:
            for match in _PHONE_LIKE.finditer(text):
                entry = self.phones.get(digits_of(match.group())[-10:])
                if entry is not None:
                    spans.append(
                        Span(match.start(), match.end(), Label.PHONE, match.group(), self.full_score,
                             self.detector, canonical=entry.real)
                    )
        return spans


def _flexible(folded: str) -> str:
    # Any run of whitespace in the text matches a single space of the stored value.
    return r"\s+".join(re.escape(part) for part in folded.split(" "))


class ConversationMemoryDetector:
    name = "memory"
    labels = frozenset(Label)

    def __init__(self) -> None:
        # Per conversation object and map revision (an id can be reused by a new one).
        self._cache: weakref.WeakKeyDictionary[Conversation, tuple[int, MentionFinder]] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def _compiled(self, conversation: Conversation) -> MentionFinder:
        with self._lock:
            cached = self._cache.get(conversation)
            if cached and cached[0] == conversation.revision:
                return cached[1]
        revision = conversation.revision
        compiled = MentionFinder(conversation.entries)
        with self._lock:
            self._cache[conversation] = (revision, compiled)
        return compiled

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        conversation = context.conversation
        if conversation is None or not conversation.entries:
            return []
        return self._compiled(conversation).find(text)
