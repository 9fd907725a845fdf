"""Structured identifiers from the type table, all types in one pass.

A candidate is proposed by shape and confirmed by validation: one regex finds the runs of
ID-like tokens (tokens with digits, short capitalised tokens, joined by single spaces,
dashes, dots, slashes or plus signs); every window of consecutive tokens in a run is
looked up by its length among the types whose values have that many letters and digits,
so a type is tried only on candidates of its size. A window that fits a type's written
form is scored from its validation and the cue words near it (one shared booster):

    valid, the type's own cue near             0.95
    valid, a generic cue ("ID:", "No.")        the pattern's score + 0.3 (at most 0.9)
    valid, no cue                              the pattern's score (0 = never without a cue)
    invalid, the type's own cue near           the type's invalid_with_cue (a mistyped ID)

Overlapping windows: the higher score wins, then the longer one, so "GB82 WEST 1234 5698
7654 32 thanks" is the whole IBAN and nothing more.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from agent.detect.base import DetectionContext
from agent.detect.context import GENERIC, ContextBooster
from agent.detect.spec import EntityType
from agent.entities import Span
from agent.substitute.id_standins import parse_mask

MIN_SCORE = 0.35
_CUE_SCORE = 0.95
_GENERIC_BOOST = 0.3
_MAX_TOKENS = 8

_TOKEN = r"(?:[A-Za-z]*\d[A-Za-z0-9]*|[A-Z]{1,6}(?![A-Za-z0-9]))"
# Not inside a word, an e-mail, a path or a longer number; CJK and Hangul text around an
# identifier is fine ("身份证号是360426199101010071").
_RUN = re.compile(rf"(?<![A-Za-z0-9_@#$%&/\\.+\-]){_TOKEN}(?:[ .\-/+]{_TOKEN})*")
_ALNUM = re.compile(r"[A-Za-z0-9]+")


def _lengths(kind: EntityType) -> set[int]:
    if kind.lengths:
        return set(kind.lengths)
    if any(m == "*" for m in kind.masks):
        return set(range(5, 15))
    return {len(parse_mask(m)) for m in kind.masks}


@dataclass(frozen=True)
class _Compiled:
    kind: EntityType
    patterns: tuple[tuple[re.Pattern[str], float], ...]

    def shape_score(self, value: str) -> float | None:
        for regex, score in self.patterns:
            if regex.fullmatch(value):
                return score
        return None


@dataclass(frozen=True, slots=True)
class _Candidate:
    start: int
    end: int
    kind: EntityType
    score: float
    cue_distance: int  # to the type's own cue word; large when there is none


class IdentifierDetector:
    """Every row of the table that has patterns and masks, in one detector."""

    name = "ids"

    def __init__(self, types: Sequence[EntityType], booster: ContextBooster | None = None):
        self.types = [t for t in types if t.patterns and (t.masks or t.lengths)]
        self.labels = frozenset(t.label for t in self.types)
        self._by_length: dict[int, list[_Compiled]] = {}
        for kind in self.types:
            compiled = _Compiled(kind, tuple((re.compile(p.regex, re.IGNORECASE), p.score) for p in kind.patterns))
            for n in _lengths(kind):
                self._by_length.setdefault(n, []).append(compiled)
        cues = {t.key: t.context for t in self.types}
        from agent.detect.id_table import GENERIC_CUES, OTHER_CUES

        cues[GENERIC] = GENERIC_CUES
        cues["OTHER"] = OTHER_CUES
        self.booster = booster or ContextBooster(cues)

    def detect(self, text: str, context: DetectionContext | None = None) -> list[Span]:
        if not any(ch.isdigit() for ch in text):
            return []
        found: list[tuple[int, int, list[_Compiled]]] = []
        for run in _RUN.finditer(text):
            if not any(ch.isdigit() for ch in run.group()):
                continue
            tokens = [(run.start() + m.start(), run.start() + m.end()) for m in _ALNUM.finditer(run.group())]
            for i in range(len(tokens)):
                size = 0
                for j in range(i, min(len(tokens), i + _MAX_TOKENS)):
                    size += tokens[j][1] - tokens[j][0]
                    kinds = self._by_length.get(size)
                    if kinds:
                        found.append((tokens[i][0], tokens[j][1], kinds))
        if not found:
            return []
        hits = None
        candidates: list[_Candidate] = []
        for start, end, kinds in found:
            value = text[start:end]
            for compiled in kinds:
                shape = compiled.shape_score(value)
                if shape is None:
                    continue
                if hits is None:
                    hits = self.booster.hits(text)  # the registry asks about the same text: scanned once
                cues = self.booster.near(hits, start, end)
                score = self._score(compiled.kind, value, shape, cues)
                if score >= MIN_SCORE:
                    distance = cues.get(compiled.kind.key, 1_000)
                    candidates.append(_Candidate(start, end, compiled.kind, score, distance))
        return [
            Span(c.start, c.end, c.kind.label, text[c.start : c.end], c.score, f"{self.name}:{c.kind.key}")
            for c in _best(candidates)
        ]

    @staticmethod
    def _score(kind: EntityType, value: str, shape: float, cues: dict[str, int]) -> float:
        valid = kind.validate is None or kind.validate("".join(value.split()))
        own = kind.key in cues
        if own:
            return _CUE_SCORE if valid else (kind.invalid_with_cue or 0.0)
        if not valid or kind.cue_required or shape <= 0:
            return 0.0
        if GENERIC in cues:
            return min(0.9, shape + _GENERIC_BOOST)
        return shape


def _best(candidates: list[_Candidate]) -> list[_Candidate]:
    """Non-overlapping: higher score first, then the nearer own cue word, then longer,
    then the table's order."""
    order = {id(c): i for i, c in enumerate(candidates)}
    ranked = sorted(candidates, key=lambda c: (-c.score, c.cue_distance, -(c.end - c.start), order[id(c)]))
    taken: list[_Candidate] = []
    for c in ranked:
        if all(c.end <= t.start or t.end <= c.start for t in taken):
            taken.append(c)
    return sorted(taken, key=lambda c: c.start)
