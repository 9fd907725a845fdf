"""Training and evaluation rows for the judge: every entity the engine detects in a dev
text and leaves to relevance (after secrets, direct identifiers and the per-type policy),
with its features and, where a gold entity overlaps it, its label.

Labels: LOPSIDED gives keep (relevant) or swap per entity; in the other prompt sets every
labelled entity is private (swap). Detected spans no gold entity overlaps have no label.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from agent.bench.data import Example
from agent.bench.split import Half, half_of
from agent.decide.judge.features import LABELS, RuleOpinion, extract
from agent.engine.core import Engine
from agent.entities import Action, Span
from agent.session.conversation import fold


@dataclass
class ExampleRows:
    dataset: str
    example: Example
    half: Half
    spans: list[Span]  # every detected span
    fixed: list[Action | None]  # the decision that needs no judge, else None
    features: np.ndarray  # one row per span with fixed None (in order)
    labels: list[int | None] = field(default_factory=list)  # 1 keep, 0 swap, None unknown; per judged span

    @property
    def judged(self) -> list[Span]:
        return [s for s, f in zip(self.spans, self.fixed) if f is None]


def gold_label(dataset: str, example: Example, span: Span) -> int | None:
    overlapping = [g for g in example.entities if g.start < span.end and span.start < g.end]
    if not overlapping:
        return None
    if dataset == "lopsided":
        votes = [g.relevant for g in overlapping if g.relevant is not None]
        if not votes:
            return None
        return 1 if sum(votes) * 2 >= len(votes) else 0
    return 0  # a labelled private entity of another prompt set


def collect(engine: Engine, datasets: dict[str, list[Example]]) -> Iterable[ExampleRows]:
    decider = engine.decider
    for name, examples in datasets.items():
        for example in examples:
            spans = engine.detect(example.text)
            fixed = []
            for span in spans:
                decision = decider._fixed(span, None, {})
                if decision is None and span.label not in LABELS:
                    decision = decider.decide(example.text, [span])[0]  # the rules decide other types
                fixed.append(None if decision is None else decision.action)
            judged = [s for s, f in zip(spans, fixed) if f is None]
            opinions = []
            for span in judged:
                verdict = decider.rules.verdict(example.text, span)
                opinions.append(None if verdict is None else RuleOpinion(verdict.keep, verdict.confidence, verdict.reason))
            rows = extract(example.text, judged, opinions)
            labels = [gold_label(name, example, s) for s in judged]
            yield ExampleRows(name, example, half_of(name, example), spans, fixed, rows, labels)


def lopsided_errors(rows: list[ExampleRows], keep_of: dict[int, np.ndarray]) -> dict:
    """Utility and privacy error on LOPSIDED as the bench counts them (a value swapped
    anywhere in the text is gone everywhere), from per-example keep decisions
    (keep_of[id(rows)] = bool per judged span)."""
    relevant = relevant_swapped = irrelevant = irrelevant_left = 0
    for r in rows:
        if r.dataset != "lopsided":
            continue
        keeps = iter(keep_of[id(r)])
        swapped_values: set[str] = set()
        swapped_spans: list[Span] = []
        for span, fixed in zip(r.spans, r.fixed):
            keep = bool(next(keeps)) if fixed is None else fixed is Action.KEEP
            if not keep:
                swapped_values.add(fold(span.text))
                swapped_spans.append(span)
        for g in r.example.entities:
            if g.relevant is None:
                continue
            gone = fold(g.text) in swapped_values or any(
                s.start <= g.start and g.end <= s.end for s in swapped_spans
            )
            if g.relevant:
                relevant += 1
                relevant_swapped += gone
            else:
                irrelevant += 1
                irrelevant_left += not gone
    return {
        "utility_error": relevant_swapped / relevant if relevant else None,
        "privacy_error": irrelevant_left / irrelevant if irrelevant else None,
        "relevant": relevant, "irrelevant": irrelevant,
    }
