"""One shared context booster (after Presidio's context enhancer): the cue words of every
type in the table, found in one pass over the text, and asked per candidate "which
types are announced near here?" instead of a private look-back window per detector."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass

GENERIC = "*"  # the key of cue words that announce an identifier of any type


@dataclass(frozen=True, slots=True)
class CueHit:
    start: int
    end: int
    keys: frozenset[str]


def _alternation(words: Iterable[str]) -> str:
    parts = sorted({w for w in words}, key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(p) for p in w.split()) for w in parts)


class ContextBooster:
    """cues: type key -> its cue words. A cue written in capitals ("PAN", "SIN") matches
    only in capitals, so the common words "pan" and "sin" announce nothing; the others
    match in any case."""

    def __init__(self, cues: dict[str, Iterable[str]], *, before: int = 60, after: int = 25):
        self.before = before
        self.after = after
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
        self._insensitive = re.compile(bounds.format(_alternation(insensitive)), re.IGNORECASE) if insensitive else None

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

    def near(self, hits: list[CueHit], start: int, end: int) -> dict[str, int]:
        """Keys of the cues that end within `before` characters before start, or begin
        within `after` characters after end ("912-70-1234 (ITIN)"), with the distance of
        the nearest one."""
        if not hits:
            return {}
        found: dict[str, int] = {}
        i = bisect.bisect_left([h.start for h in hits], start - self.before - 40)
        for hit in hits[i:]:
            if hit.start > end + self.after:
                break
            if start - self.before <= hit.end <= start:
                distance = start - hit.end
            elif end <= hit.start <= end + self.after:
                distance = hit.start - end
            else:
                continue
            for key in hit.keys:
                found[key] = min(distance, found.get(key, distance))
        return found

    def words(self) -> frozenset[str]:
        """Every cue word (folded): never a name or a place."""
        return frozenset(" ".join(k.casefold().split()) for k in self._keys)
