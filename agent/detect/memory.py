"""Conversation memory: real values already mapped in this conversation are found again
in later messages even when NER misses them, including partial mentions (first or last
name alone, "Ms. Mitchell", possessives, other casing) and re-formatted phone numbers."""

from __future__ import annotations

import _sre
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from re._casefix import _EXTRA_CASES

from agent.detect.base import DetectionContext
from agent.detect.validators import digits_of
from agent.entities import Action, Label, Span
from agent.knowledge.not_names import CALENDAR_WORDS
from agent.knowledge.person_words import TITLE_WORDS
from agent.knowledge.words import is_common_word
from agent.knowledge.scripts import (
    CJK,
    HAN,
    HANGUL,
    HIRAGANA,
    KOREAN_PARTICLES,
    cjk_script,
    has_cjk,
)
from agent.session.conversation import MapEntry, fold
from agent.session.map_cache import MapCache

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
    if real.islower():
        # A name typed in lower case ("priya raghunathan"): its words that are no ordinary
        # word ("will" of "will ortega" would take every "will" of the text with it).
        return [t for t in tokens if len(t) >= 3 and t.title() not in CALENDAR_WORDS and not is_common_word(t)]
    # "May" of "May Chen" alone is more often the month: months and weekdays are not parts.
    return [t for t in tokens if len(t) >= 3 and t[0].isupper() and t not in CALENDAR_WORDS]


class MentionFinder:
    """Finds mentions of known values (full, name parts, re-formatted phones) in a text.

    A mention is a known value written in any letter case, with any run of whitespace
    between its words, and not inside a longer word; where several start at one place the
    longest wins, and mentions do not overlap: what one regular expression of all the
    values, longest first, would find. The values are kept in sets instead of being
    compiled into such an expression, so that `add` can take new map entries in (the
    memory grows with the map) and finding costs the same whatever the map's size."""

    def __init__(self, entries: Sequence[MapEntry] = (), *, detector: str = "memory", full_score: float = 0.98,
                 part_score: float = 0.9):
        self.detector = detector
        self.full_score = full_score
        self.part_score = part_score
        self.needles: dict[str, _Needle] = {}
        self.phones: dict[str, MapEntry] = {}
        self._keys: set[str] = set()  # the values as compared (_compared_char), single spaces
        self._prefixes: set[str] = set()  # their beginnings that end just before a non-word character
        # Their first two characters (a one-character value: itself): a place in the text
        # where none of these starts cannot start a mention, and is passed over at once.
        self._openings: set[str] = set()
        self.add(entries)

    def add(self, entries: Sequence[MapEntry]) -> None:
        """Take in more entries, in map order (a value's first entry is the one found)."""
        for entry in entries:
            if entry.action is Action.KEEP:
                continue
            canonical = entry.parent or entry.real
            self._add_needle(fold(entry.real), _Needle(entry, canonical, False, self.full_score))
            if entry.label is Label.PERSON:
                # A part of a capitalised name counts only capitalised ("will" is not "Will
                # Smith"); the parts of a name typed in lower case are no ordinary words.
                capitalised = not entry.real.islower()
                for part in name_parts(entry.real):
                    self._add_needle(fold(part), _Needle(entry, canonical, capitalised, self.part_score))
            if entry.label is Label.PHONE:
                self.phones[digits_of(entry.real)[-10:]] = entry

    def _add_needle(self, key: str, needle: _Needle) -> None:
        if not key or key in self.needles:
            return
        self.needles[key] = needle
        compared = "".join(_compared_char(c) for c in key)
        self._keys.add(compared)
        self._openings.add(compared[:2])
        # Where the text may have a non-word character (a word ends there): 'ι' is
        # compared as the combining 'ͅ', which is none.
        self._prefixes.update(compared[:i] for i in range(1, len(key))
                              if not _is_word(compared[i]) or _may_end_inside(key, i))

    def find(self, text: str) -> list[Span]:
        spans = []
        for start, end in self._mentions(text) if self._keys else ():
            value = text[start:end]
            needle = self.needles.get(fold(value))
            if needle is None:
                continue
            if needle.case_sensitive_initial and not value[0].isupper():
                continue  # "will" is not "Will Smith"
            spans.append(
                Span(start, end, needle.entry.label, value, needle.score, self.detector, canonical=needle.canonical)
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

    def _mentions(self, text: str) -> list[tuple[int, int]]:
        """(start, end) of each mention, left to right, none overlapping."""
        flat, at, ends, starts = _prepared(text)
        keys, prefixes, openings = self._keys, self._prefixes, self._openings
        found: list[tuple[int, int]] = []
        done = 0
        for start in starts:
            if start < done:
                continue
            first = at[start]
            if flat[first : first + 2] not in openings and flat[first] not in openings:
                continue  # no value starts with what is written here
            best = None
            i = bisect_right(ends, start)
            while i < len(ends):
                end = ends[i]
                i += 1
                piece = flat[at[start] : at[end]]
                if piece in keys:
                    best = end
                if piece not in prefixes:
                    break
            if best is not None:
                found.append((start, best))
                done = best
        return found


_last_prepared: list = [None, None]  # [text, its _prepared parts]: the memory and the repeats ask in turn


def _prepared(text: str) -> tuple[str, Sequence[int], list[int], list[int]]:
    """What finding mentions in a text needs, kept for the last text (the same parts for
    every finder): the text as compared, one character for each, and then with each run of
    whitespace as one space (`flat`; at[i] is where text[i] went in it); where a mention
    may end (before a non-word character, not inside a run of whitespace, or at the end)
    and where one may start (after a non-word character, never on whitespace)."""
    last_text, parts = _last_prepared
    if last_text is text:
        return parts
    flat = _WHITESPACE.sub(" ", text.translate(_COMPARED))
    if len(flat) == len(text):
        at: Sequence[int] = range(len(text) + 1)
    else:
        dropped = bytearray(len(text))
        for run in _LONG_WHITESPACE.finditer(text):
            dropped[run.start() + 1 : run.end()] = b"\x01" * (run.end() - run.start() - 1)
        at = [i - d for i, d in enumerate(accumulate(dropped, initial=0))]
    cjk = has_cjk(text)
    ends = [m.start() for m in (_CJK_END if cjk else _END).finditer(text)] + [len(text)]
    starts = [m.start() for m in (_CJK_START if cjk else _START).finditer(text)]
    parts = (flat, at, ends, starts)
    _last_prepared[:] = [text, parts]
    return parts


def _is_word(char: str) -> bool:
    """Whether a regular expression's \\w (Unicode) matches the character."""
    return char.isalnum() or char == "_"


def _compared_code(code: int) -> int:
    """A character as a case-insensitive regular expression compares it: its simple lower
    case, the same one for the letters such an expression takes as one ('ı' and 'i', 'ſ'
    and 's', 'µ' and 'μ', ...)."""
    lower = _sre.unicode_tolower(code)
    same = _EXTRA_CASES.get(lower)
    return min(lower, *same) if same else lower


def _compared_char(char: str) -> str:
    """A character of a value as compared: one without case is compared as it is."""
    return chr(_compared_code(ord(char))) if _sre.unicode_iscased(ord(char)) else char


class _ComparedTable(dict):
    """The str.translate table: code point -> the code point it is compared as."""

    def __missing__(self, code: int) -> int:
        self[code] = compared = _compared_code(code)
        return compared


_COMPARED = _ComparedTable()
_WHITESPACE = re.compile(r"\s+")
_LONG_WHITESPACE = re.compile(r"\s{2,}")
_END = re.compile(r"[^\w\s]|\s(?<!\s\s)")  # not whitespace after whitespace: inside a run
_START = re.compile(r"(?<!\w)\S")
# In a text with Chinese, Japanese or Korean letters, a Latin word glued to them ends (or
# starts) where the script changes: "<name>은", "<name>さん", "给<name>".
_LATIN_WORD = f"[^\\W{CJK}]"
# A Korean word ends before the particle glued to it ("<name>에게", "<name>님이"), a
# Japanese one where kanji meet kana ("<name>さん", "<name>に").
_PARTICLE = "|".join(sorted(KOREAN_PARTICLES, key=len, reverse=True))
_PARTICLE_STARTS = tuple(KOREAN_PARTICLES)
_KOREAN_WORD_END = f"(?<=[{HANGUL}])(?=(?:님|씨)?(?:{_PARTICLE})(?![{HANGUL}]))"
_CJK_END = re.compile(
    _END.pattern + f"|(?<={_LATIN_WORD})(?=[{CJK}])|(?<=[{CJK}])(?={_LATIN_WORD})"
    f"|{_KOREAN_WORD_END}|(?<=[{HAN}])(?=[{HIRAGANA}])"
)
_CJK_START = re.compile(_START.pattern + f"|(?<=[{CJK}]){_LATIN_WORD}|(?<={_LATIN_WORD})[{CJK}]")


def _script_change(before: str, after: str) -> bool:
    """Whether a Latin word character and a CJK letter meet (in either order)."""
    return _is_word(before) and _is_word(after) and (cjk_script(before) is None) != (cjk_script(after) is None)


def _may_end_inside(key: str, i: int) -> bool:
    """Whether a text may have a word end between key[i - 1] and key[i] (what follows the
    key decides some: a Korean particle ends a word only before a non-Hangul letter)."""
    if not _is_word(key[i]) or _script_change(key[i - 1], key[i]):
        return True
    before, after = cjk_script(key[i - 1]), cjk_script(key[i])
    if before == "HAN" and after == "HIRAGANA":
        return True
    return before == "HANGUL" and key.startswith(_PARTICLE_STARTS, i)


class ConversationMemoryDetector:
    name = "memory"
    labels = frozenset(Label)

    def __init__(self) -> None:
        # Per conversation object, taking in the entries added since the last call.
        self._finders: MapCache[MentionFinder] = MapCache(MentionFinder, MentionFinder.add)

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        conversation = context.conversation
        if conversation is None or not conversation.revision:
            return []
        return self._finders.get(conversation).find(text)
