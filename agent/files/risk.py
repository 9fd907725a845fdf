"""Residual risk of one sanitized document: what a reviewer should look at.

- counts of what was replaced, by type;
- every entity kept, and why (the project's exclusions, a per-type "keep", structure);
- leftovers: things in the output that look identifying but no detector was sure of
  (long numbers, e-mail-like text, runs of capitalised words, spelled letters);
- quasi-identifiers that remain together: a job title, an employer, a town, a date, an
  age, a nationality within one passage can point at one person even when no name is
  left (the named-entity-swapping paper's point: risk is in combinations);
- a score with its reasons: kept entities weighted like the engine's residual risk
  (after the call-transcript paper: names, SSNs, cards 5; e-mails, phones, addresses 4;
  organisations 2), leftovers, combinations and warnings. The run's report sorts the
  documents by it, so a reviewer of 200 outputs reads the top few first.

Nothing here holds a real value that the output does not already show.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from agent.decide.decider import RISK_WEIGHTS
from agent.entities import Action, Label

_WINDOW = 600  # characters: how close quasi-identifiers must be to count as one combination
_MAX_LISTED = 25
_LEFTOVER_WEIGHT = {"number": 2.0, "e-mail-like": 4.0, "spelled letters": 2.0, "capitalised words": 0.5}
_COMBINATION_WEIGHT = 2.0  # per kind in a combination of 3 or more
_WARNING_WEIGHT = 2.0
_PER_TYPE_CAP = 4  # kept values of one type count at most this many times the type's weight

_NUMBER = re.compile(r"(?<![\w.])\+?\d(?:[\d \-./]{3,}\d)(?![\w])")
_EMAIL_LIKE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b\w+\s*(?:\[at\]|\(at\))\s*\w+")
_SPELLED = re.compile(r"(?<![\w'])(?:[A-Z][ .-]){3,}[A-Z](?![\w'])")
_CAPITALISED = re.compile(r"(?<=[a-z,;:] )(?:[A-Z][a-z'’-]+(?:[ \t]+(?:of|de|van|von|the|and|&)?[ \t]*[A-Z][a-z'’-]+)+)")
_AGE = re.compile(r"\b(?:aged?\s+\d{1,3}|\d{1,3}[- ]year[- ]old|\d{1,3}\s+years\s+old)\b", re.IGNORECASE)
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")


@lru_cache(maxsize=1)
def _job_titles() -> frozenset[str]:
    """Job titles from Faker's curated list ("Nurse, adult" -> "nurse", "adult nurse"), folded."""
    from faker.providers.job.en_US import Provider

    titles = set()
    for title in Provider.jobs:
        head = title.split(",")[0].strip().casefold()
        if 3 <= len(head) <= 40 and "/" not in head:
            titles.add(head)
            titles.add(head.split()[-1])
    return frozenset(t for t in titles if len(t) > 3)


_WORDS = re.compile(r"[^\W\d_][\w'’-]*")


def _job_mentions(text: str):
    """(start, end, text) of job titles: the longest title of 1-3 words at each word (a
    set lookup per word, not one regex of 600 alternatives over the text)."""
    titles = _job_titles()
    words = list(_WORDS.finditer(text))
    folded = [w.group().casefold() for w in words]
    i = 0
    while i < len(words):
        for size in (3, 2, 1):
            if i + size > len(words):
                continue
            start, end = words[i].start(), words[i + size - 1].end()
            phrase = " ".join(folded[i : i + size])
            if phrase in titles or (phrase.endswith("s") and phrase[:-1] in titles):
                yield start, end, text[start:end]
                i += size - 1
                break
        i += 1


@dataclass
class Kept:
    label: str
    value: str
    reason: str
    count: int = 1

    def to_json(self) -> dict:
        return {"label": self.label, "value": self.value, "reason": self.reason, "count": self.count}


@dataclass
class Leftover:
    kind: str
    text: str
    where: str

    def to_json(self) -> dict:
        return {"kind": self.kind, "text": self.text, "where": self.where}


@dataclass
class Combination:
    kinds: list[str]
    values: list[str]
    where: str

    def to_json(self) -> dict:
        return {"kinds": self.kinds, "values": self.values, "where": self.where}


@dataclass
class DocumentRisk:
    score: float = 0.0
    reasons: list[str] = field(default_factory=list)
    replaced: dict[str, int] = field(default_factory=dict)
    kept: list[Kept] = field(default_factory=list)
    leftovers: list[Leftover] = field(default_factory=list)
    combinations: list[Combination] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def level(self) -> str:
        if self.score == 0:
            return "none"
        return "low" if self.score < 5 else ("medium" if self.score < 15 else "high")

    def to_json(self) -> dict:
        return {
            "score": round(self.score, 2), "level": self.level, "reasons": self.reasons,
            "replaced": self.replaced, "kept": [k.to_json() for k in self.kept],
            "leftovers": [x.to_json() for x in self.leftovers],
            "combinations": [c.to_json() for c in self.combinations], "warnings": self.warnings,
        }

    @classmethod
    def from_json(cls, data: dict) -> DocumentRisk:
        return cls(
            data.get("score", 0.0), list(data.get("reasons", [])), dict(data.get("replaced", {})),
            [Kept(**k) for k in data.get("kept", [])], [Leftover(**x) for x in data.get("leftovers", [])],
            [Combination(**c) for c in data.get("combinations", [])], list(data.get("warnings", [])),
        )


def assess(outcome, policy) -> DocumentRisk:
    """The residual risk of one document from its DocumentOutcome (sanitizer.py)."""
    risk = DocumentRisk(warnings=list(outcome.warnings))
    replaced: Counter[str] = Counter()
    kept: dict[tuple[str, str], Kept] = {}
    for finding in outcome.findings:
        if finding.action != Action.KEEP.value and finding.sent != finding.real:
            replaced[finding.label] += 1
        else:
            key = (finding.label, finding.real.casefold())
            if key in kept:
                kept[key].count += 1
            else:
                kept[key] = Kept(finding.label, finding.real, _kept_reason(finding, policy))
    # Excluded terms never reach the findings (the engine drops them first): count them here.
    for term in policy.exclusions:
        pattern = re.compile(rf"(?<!\w){re.escape(term)}(?!\w)", re.IGNORECASE)
        count = sum(len(pattern.findall(chunk.text)) for chunk in outcome.chunks)
        if count:
            kept[(Label.MISC.value, term.casefold())] = Kept(Label.MISC.value, term,
                                                           "excluded by the project (never replace)", count)
    risk.replaced = dict(sorted(replaced.items()))
    risk.kept = sorted(kept.values(), key=lambda k: -RISK_WEIGHTS.get(Label(k.label), 1))
    contributions: list[tuple[float, str]] = []
    by_type: Counter[str] = Counter()
    for item in risk.kept:
        weight = float(RISK_WEIGHTS.get(Label(item.label), 1))
        if item.reason.startswith("excluded"):
            weight *= 0.25  # the project said these are not personal (its own product names)
        if item.reason.startswith("speaker role"):
            continue  # "Agent:", "Speaker 2:" are structure, not a person
        # Each kept value counts (a repeated one up to 3 times), and one type at most 4
        # values' worth: fifty kept dates must not outweigh one kept name and a leftover
        # card number; what many kept values of a type add is their combinations, below.
        amount = min(weight * min(item.count, 3), max(0.0, _PER_TYPE_CAP * weight - by_type[item.label]))
        by_type[item.label] += amount
        if amount > 0:
            contributions.append((amount, f"kept {item.label} '{item.value}' ({item.reason})"))
    for chunk in outcome.chunks:
        leftovers, combinations = chunk.risk if chunk.risk is not None else chunk_risk(chunk)
        risk.leftovers.extend(leftovers)
        risk.combinations.extend(combinations)
    risk.leftovers = _dedupe(risk.leftovers)
    for kind, count in Counter(x.kind for x in risk.leftovers).items():
        weight = _LEFTOVER_WEIGHT.get(kind, 1.0) * min(count, 10)
        contributions.append((weight, f"{count} {kind} left that no detector was sure of"))
    for combination in risk.combinations:
        contributions.append((_COMBINATION_WEIGHT * len(combination.kinds),
                              "quasi-identifiers together: " + " + ".join(
                                  f"{k} '{v}'" for k, v in zip(combination.kinds, combination.values))))
    for warning in risk.warnings:
        contributions.append((_WARNING_WEIGHT, f"warning: {warning}"))
    contributions.sort(key=lambda c: -c[0])
    risk.score = round(sum(weight for weight, _ in contributions), 2)
    risk.reasons = [f"+{weight:g}: {why}" for weight, why in contributions[:_MAX_LISTED]]
    risk.leftovers = risk.leftovers[:_MAX_LISTED]
    risk.combinations = risk.combinations[:_MAX_LISTED]
    return risk


def chunk_risk(chunk) -> tuple[list[Leftover], list[Combination]]:
    """What one chunk leaves: unsure leftovers and quasi-identifier combinations. Workers
    of `veil files --workers` work it out next to the chunk (Chunk.risk), so the parent
    does not do every chunk's share after the last one is in (~0.4 s per 200 kB)."""
    covered = _covered(chunk)
    return _leftovers(chunk.text, covered), _combinations(chunk, covered)


def _kept_reason(finding, policy) -> str:
    if finding.real.casefold() in {e.casefold() for e in policy.exclusions}:
        return "excluded by the project (never replace)"
    if finding.reason == "your choice":
        return "speaker role (transcript structure)" if finding.label == Label.PERSON.value else "project choice"
    return finding.reason or "kept"


class _Ranges:
    """Sorted (start, end) ranges; overlaps() is a binary search (a 30 kB chunk has
    thousands of ranges and thousands of candidates)."""

    def __init__(self, ranges: list[tuple[int, int]]):
        ranges = sorted(ranges)
        self.starts = [s for s, _ in ranges]
        self.max_ends: list[int] = []  # the largest end among the ranges up to each one
        for _, e in ranges:
            self.max_ends.append(max(e, self.max_ends[-1]) if self.max_ends else e)

    def overlaps(self, start: int, end: int) -> bool:
        """Some range has s < end and start < e: among the ranges starting before `end`,
        the one reaching furthest reaches past `start`."""
        before = bisect.bisect_left(self.starts, end)
        return before > 0 and self.max_ends[before - 1] > start


def _covered(chunk) -> _Ranges:
    """Ranges of the chunk that were replaced or are structure: not leftovers."""
    ranges = [(e.start, e.end) for e in chunk.result.entities if e.action is not Action.KEEP]
    ranges += list(chunk.structure)
    return _Ranges(ranges)


def _inside(start: int, end: int, covered: _Ranges) -> bool:
    return covered.overlaps(start, end)


def _where(text: str, start: int) -> str:
    line = text.count("\n", 0, start) + 1
    return f"line {line} of its part"


def _leftovers(text: str, covered: _Ranges) -> list[Leftover]:
    out = []
    for kind, pattern in (("number", _NUMBER), ("e-mail-like", _EMAIL_LIKE), ("spelled letters", _SPELLED),
                          ("capitalised words", _CAPITALISED)):
        for match in pattern.finditer(text):
            value = match.group().strip()
            if kind == "number" and (sum(ch.isdigit() for ch in value) < 5 or _YEAR.fullmatch(value)):
                continue
            if not _inside(match.start(), match.end(), covered):
                out.append(Leftover(kind, value, _where(text, match.start())))
    return out


def _combinations(chunk, covered: _Ranges) -> list[Combination]:
    """Kinds of quasi-identifier left in the output, found close together."""
    text = chunk.text
    found: list[tuple[int, str, str]] = []  # (position, kind, value)
    for entity in chunk.result.entities:
        if entity.action is not Action.KEEP:
            continue
        kind = {Label.ORG: "employer/organisation", Label.LOCATION: "place", Label.ADDRESS: "place",
                Label.DATE: "date", Label.NORP: "nationality/group"}.get(entity.label)
        if kind:
            found.append((entity.start, kind, entity.real))
    for start, end, value in _job_mentions(text):
        if not _inside(start, end, covered):
            found.append((start, "job title", value))
    for kind, pattern in (("age", _AGE), ("date", _YEAR)):
        for match in pattern.finditer(text):
            if not _inside(match.start(), match.end(), covered):
                found.append((match.start(), kind, match.group()))
    found.sort()
    out: list[Combination] = []
    last_end = -1
    for i, (position, _, _) in enumerate(found):
        if position < last_end:
            continue
        window = [f for f in found[i:] if f[0] - position <= _WINDOW]
        kinds: dict[str, str] = {}
        seen_values: set[str] = set()
        for _, kind, value in window:
            if kind in kinds or value.casefold() in seen_values:
                continue  # "aged 42" is an age, not an age and a date
            kinds[kind] = value
            seen_values.add(value.casefold())
        if len(kinds) >= 3:
            out.append(Combination(list(kinds), list(kinds.values()), _where(text, position)))
            last_end = window[-1][0] + 1
    return out


def _dedupe(leftovers: list[Leftover]) -> list[Leftover]:
    seen = set()
    out = []
    for item in leftovers:
        key = (item.kind, item.text.casefold())
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out
