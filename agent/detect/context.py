"""One shared context booster (after Presidio's context enhancer): the cue words of every
type in the table, found in one pass over the text, and asked per candidate "which
types are announced near here?" instead of a private look-back window per detector.

The identifier table's rows share one window (a cue up to 60 characters before or 25
after); a row may have its own (`Window`): a phone word only shortly before the number,
"zip code" only right before the code (`between`: what may stand between the two)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass

from agent.detect.trie_regex import trie_alternation

GENERIC = "*"  # the key of cue words that announce an identifier of any type


@dataclass(frozen=True)
class Window:
    """Where a row's cue counts: ending at most `before` characters before the candidate,
    or starting at most `after` characters after it (0: not after). `between`, when given,
    must match the whole text between a cue before and the candidate."""

    before: int
    after: int = 0
    between: re.Pattern[str] | None = None


@dataclass(frozen=True, slots=True)
class CueHit:
    start: int
    end: int
    keys: frozenset[str]


def _alternation(words: Iterable[str], ignore_case: bool = False) -> str:
    """The cue words longest first, any run of spaces between their words, as a trie
    (agent/detect/trie_regex.py): the same matches without trying every cue at every
    position. Cue words are written with single spaces, so longest first is the same
    order whether spaces are counted as written or as one."""
    return trie_alternation(set(words), ignore_case=ignore_case, spaces=r"\s+")


class ContextBooster:
    """cues: type key -> its cue words. A cue written in capitals ("PAN", "SIN") matches
    only in capitals, so the common words "pan" and "sin" announce nothing; the others
    match in any case."""

    def __init__(
        self, cues: dict[str, Iterable[str]], *, before: int = 60, after: int = 25, windows: dict[str, Window] | None = None
    ):
        self.before = before
        self.after = after
        self._default = Window(before, after)
        self._windows = dict(windows or {})
        self._reach = max([before, after] + [max(w.before, w.after) for w in self._windows.values()])
        self._last: tuple[str, list[CueHit]] | None = None
        self._keys: dict[str, set[str]] = {}
        sensitive, insensitive = set(), set()
        for key, words in cues.items():
            for word in words:
                exact = any(c.isalpha() for c in word) and word.upper() == word and word.lower() != word
                (sensitive if exact else insensitive).add(word)
                self._keys.setdefault(word if exact else word.casefold(), set()).add(key)
        # Word bounds in Latin script only: a cue in CJK, Hangul or Devanagari text runs into
        # the words around it ("身份证号是").
        bounds = r"(?<![0-9A-Za-z\u00c0-\u024f_#])(?:{})(?![0-9A-Za-z\u00c0-\u024f_])"
        self._sensitive = re.compile(bounds.format(_alternation(sensitive))) if sensitive else None
        self._insensitive = (
            re.compile(bounds.format(_alternation(insensitive, ignore_case=True)), re.IGNORECASE) if insensitive else None
        )

    def scan(self, text: str) -> list[CueHit]:
        hits = []
        for regex, fold in ((self._sensitive, False), (self._insensitive, True)):
            if regex is None:
                continue
            for m in regex.finditer(text):
                word = " ".join(m.group().split())
                keys = self._keys.get(word.casefold() if fold else word)
                if keys:
                    hits.append(CueHit(m.start(), m.end(), frozenset(keys)))
        hits.sort(key=lambda h: h.start)
        return hits

    def hits(self, text: str) -> list[CueHit]:
        """scan(text), kept for the last text asked about (several detectors ask about the
        same text in turn)."""
        last = self._last
        if last is not None and last[0] is text:
            return last[1]
        found = self.scan(text)
        self._last = (text, found)
        return found

    def near(self, hits: list[CueHit], start: int, end: int, text: str = "") -> dict[str, int]:
        """Keys of the cues within their row's window of the candidate [start, end): by
        default ending within `before` characters before start, or beginning within
        `after` characters after end ("912-70-1234 (ITIN)"); with the distance of the
        nearest one. `text` is needed by windows that say what may stand `between`."""
        if not hits:
            return {}
        found: dict[str, int] = {}
        i = bisect.bisect_left([h.start for h in hits], start - self._reach - 40)
        for hit in hits[i:]:
            if hit.start > end + self._reach:
                break
            for key in hit.keys:
                window = self._windows.get(key, self._default)
                if start - window.before <= hit.end <= start:
                    if window.between is not None and not window.between.fullmatch(text, hit.end, start):
                        continue
                    distance = start - hit.end
                elif window.after and end <= hit.start <= end + window.after:
                    distance = hit.start - end
                else:
                    continue
                found[key] = min(distance, found.get(key, distance))
        return found

    def announced(self, text: str, start: int, end: int | None = None) -> dict[str, int]:
        """near() for a candidate of `text`, scanning the text once per text."""
        return self.near(self.hits(text), start, start if end is None else end, text)

    def words(self) -> frozenset[str]:
        """Every cue word (folded): never a name or a place."""
        return frozenset(" ".join(k.casefold().split()) for k in self._keys)
