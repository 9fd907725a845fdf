"""The one overlap-resolution step: many detectors' spans in, non-overlapping spans out."""

from __future__ import annotations

import bisect
from dataclasses import replace

from agent.entities import Label, Span

# Ties on score and length go to the more specific detector.
_DETECTOR_PRIORITY = {
    "secrets": 6,
    "ids": 5,
    "always_protect": 5,
    "custom": 5,
    "memory": 4,
    "repeat": 2,
    "email": 4,
    "phone": 4,
    "credit_card": 4,
    "iban": 4,
    "ssn": 4,
    "ip": 4,
    "url": 3,
    "mac": 4,
    "address": 3,
    "hotword_id": 3,
    "date": 3,
    "local_llm": 2,
    "person_names": 2,
    "org_names": 1,
    "places": 1,
    "home_path": 4,
    "domain": 2,
    "spacy": 1,
}


def _priority(span: Span) -> int:
    return _DETECTOR_PRIORITY.get(span.detector.split(":")[0], 2)


def _absorb_contained(spans: list[Span]) -> list[Span]:
    """A span that contains a same-label span takes the higher score of the two, so that
    "Sarah Mitchell" (NER) is not beaten by "Mitchell" (memory) and cut in half."""
    ordered = sorted(spans, key=lambda s: (s.start, -s.end))
    out = []
    for i, outer in enumerate(ordered):
        best = outer.score
        canonical = outer.canonical
        j = i + 1
        while j < len(ordered) and ordered[j].start < outer.end:
            inner = ordered[j]
            if inner.end <= outer.end and inner.label is outer.label and inner.score > best:
                best = inner.score
            if (inner.start, inner.end) == (outer.start, outer.end) and inner.canonical and not canonical:
                canonical = inner.canonical  # the same text found by memory: keep its link
            j += 1
        changed = best != outer.score or canonical != outer.canonical
        out.append(replace(outer, score=best, canonical=canonical) if changed else outer)
    return out


def resolve_overlaps(spans: list[Span]) -> list[Span]:
    """Greedy: strongest first (score, then length, then detector priority); a span that
    overlaps one already taken is dropped. Result sorted by position."""
    if len(spans) < 2:
        return list(spans)
    candidates = _absorb_contained(spans)
    # A secret is taken before anything it overlaps: losing it to a longer span of another
    # type ("pa&ss@db.host" read as an e-mail from the "ss") would send the rest of it.
    candidates.sort(key=lambda s: (s.label is Label.SECRET, s.score, len(s), _priority(s)), reverse=True)
    starts: list[int] = []
    ends: list[int] = []
    taken: list[Span] = []
    for span in candidates:
        i = bisect.bisect_left(starts, span.start)
        if i > 0 and ends[i - 1] > span.start:
            continue  # overlaps the taken span before it
        if i < len(starts) and starts[i] < span.end:
            continue  # overlaps the taken span after it
        starts.insert(i, span.start)
        ends.insert(i, span.end)
        taken.insert(i, span)
    return taken
