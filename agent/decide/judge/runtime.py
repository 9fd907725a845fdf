"""The judge at run time: features of the entities the rules leave to relevance, the
trained head's probability of "keep", and its threshold. No model to load: the head is a
few hundred numbers and a text's entities are judged in well under a millisecond."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import lru_cache

from agent import paths
from agent.decide.judge.features import FEATURE_NAMES, LABELS, RuleOpinion, extract
from agent.decide.judge.head import HeadMismatch, LogisticHead
from agent.decide.relevance import RelevanceRules
from agent.entities import Span
from agent.session.conversation import fold

log = logging.getLogger(__name__)


class LearnedJudge:
    """Keep (True) or swap (False) per entity, from the trained head."""

    def __init__(self, head: LogisticHead, rules: RelevanceRules | None = None):
        self.head = head
        self.rules = rules or RelevanceRules()

    def probabilities(self, text: str, spans: Sequence[Span]) -> list[float]:
        if not spans:
            return []
        opinions = []
        for span in spans:
            verdict = self.rules.verdict(text, span)
            opinions.append(None if verdict is None else RuleOpinion(verdict.keep, verdict.confidence, verdict.reason))
        rows = extract(text, spans, opinions)
        return protective(rows, value_mean(spans, [float(p) for p in self.head.probability(rows)]))

    def judge(self, text: str, spans: Sequence[Span]) -> list[bool | None]:
        """A verdict for the types it was trained on (LABELS), None ("no opinion") for others."""
        mine = [i for i, s in enumerate(spans) if s.label in LABELS]
        out: list[bool | None] = [None] * len(spans)
        for i, p in zip(mine, self.probabilities(text, [spans[i] for i in mine])):
            out[i] = p >= self.head.threshold
        return out


# A rule at this confidence or more is strong general evidence the judge does not overrule:
# it finds the entity is the user's own (their home, employer, contact: "I live in", "my
# colleague"), or that the prompt is about it (a place it travels to, a listed company, a
# work's characters, an author cited). The judge decides what such rules leave open.
PROTECTIVE_RULE_CONFIDENCE = 0.8
_RULE_KEEP = FEATURE_NAMES.index("rule_keep")


def decided_by_rule(row) -> bool:
    """A confident rule decides this entity; the head's probability is not used."""
    return abs(float(row[_RULE_KEEP])) >= PROTECTIVE_RULE_CONFIDENCE


def protective(rows, probabilities: Sequence[float]) -> list[float]:
    """Probabilities with the findings of confident rules forced: 0 for private, 1 for
    needed."""
    out = []
    for i, p in enumerate(probabilities):
        rule = rows[i][_RULE_KEEP] if len(rows) else 0.0
        out.append(0.0 if rule <= -PROTECTIVE_RULE_CONFIDENCE else 1.0 if rule >= PROTECTIVE_RULE_CONFIDENCE else p)
    return out


def value_mean(spans: Sequence[Span], probabilities: Sequence[float]) -> list[float]:
    """One value, one verdict: every mention gets the mean over the value's mentions (a
    lone mention with odd context does not decide a name the prompt uses five times;
    on the fit half's cross-validation this lowered the summed errors by 0.02-0.05)."""
    groups: dict[str, list[float]] = {}
    keys = [fold(s.canonical or s.text) for s in spans]
    for key, p in zip(keys, probabilities):
        groups.setdefault(key, []).append(p)
    return [sum(groups[k]) / len(groups[k]) for k in keys]


@lru_cache(maxsize=1)
def shipped_head() -> LogisticHead | None:
    """resources/judge.json, or None (logged) when it is missing or stale."""
    try:
        return LogisticHead.load(paths.resource("judge.json"), FEATURE_NAMES)
    except FileNotFoundError:
        log.warning("resources/judge.json is missing: relevance falls back to the rules")
    except HeadMismatch as exc:
        log.warning("%s", exc)
    return None
