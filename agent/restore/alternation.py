"""One long alternation `screen(?:p1|p2|...|pn)` as several compiled regular expressions.

The restorer looks for every stand-in of a conversation at once. As one pattern, a map of
thousands of entries (a 1 MB text sent through `veil serve`) made Python's regex parser
build hundreds of megabytes of intermediate objects while compiling (a transient peak of
~170 MB on top of the engine). Compiled in groups of GROUP alternatives, the peak stays
small, and a search over the groups gives exactly the matches the one pattern would: at the
leftmost position where any alternative matches, the first alternative in order (the
group with the lowest index wins a tie, and inside a group its regex picks its first).
A map of up to GROUP entries is one group: one regex, as before."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

GROUP = 400


class Alternation:
    def __init__(self, screen: str, alternatives: Sequence[str], flags: int = re.IGNORECASE):
        self._regexes = [
            re.compile(screen + "(?:" + "|".join(alternatives[i : i + GROUP]) + ")", flags)
            for i in range(0, len(alternatives), GROUP)
        ]

    @classmethod
    def bounded(cls, screen: str, parts: Sequence[tuple[str, str, str]], flags: int = re.IGNORECASE) -> Alternation:
        """The alternation of `before + body + after` for each (before, body, after) of
        `parts`, written with each run of neighbours that share their look-arounds as
        `before(?:body1|body2|...)after`: the same matches (the engine tries body1, then the
        look-ahead, then body2, as it would in `before body1 after|before body2 after`), but
        the look-arounds are parsed and compiled once per run, not once per alternative
        (Python's re compiler is most of the restore time of a short answer)."""
        alternation = cls.__new__(cls)
        alternation._regexes = [
            re.compile(screen + "(?:" + _runs(parts[i : i + GROUP]) + ")", flags) for i in range(0, len(parts), GROUP)
        ]
        return alternation

    def finditer(self, string: str, pos: int = 0, endpos: int | None = None) -> Iterator[re.Match[str]]:
        """Non-overlapping matches, left to right, as the single pattern's finditer."""
        end = len(string) if endpos is None else endpos
        if len(self._regexes) == 1:
            yield from self._regexes[0].finditer(string, pos, end)
            return
        ahead: list[re.Match[str] | None] = [r.search(string, pos, end) for r in self._regexes]
        while True:
            best = None
            for i, match in enumerate(ahead):
                if match is not None and (best is None or match.start() < ahead[best].start()):
                    best = i
            if best is None:
                return
            found = ahead[best]
            yield found
            position = found.end() if found.end() > found.start() else found.end() + 1
            for i, match in enumerate(ahead):
                if match is not None and match.start() < position:
                    ahead[i] = self._regexes[i].search(string, position, end)


def _runs(parts: Sequence[tuple[str, str, str]]) -> str:
    """ "|"-joined alternatives, neighbours with the same look-arounds sharing them."""
    runs: list[str] = []
    i = 0
    while i < len(parts):
        before, _, after = parts[i]
        j = i
        while j < len(parts) and parts[j][0] == before and parts[j][2] == after:
            j += 1
        bodies = "|".join(body for _, body, _ in parts[i:j])
        runs.append(f"(?:{before}(?:{bodies}){after})")
        i = j
    return "|".join(runs)
