"""Decide, per entity: keep it, swap it for a stand-in, or swap it for a label.

Order of authority: secrets are never sent; then the user's choice (preview click,
remembered per conversation); then consistency with earlier turns; then the per-type
policy, where "auto" asks the relevance rules (and the local judge, when one is loaded).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from itertools import pairwise

from agent.config import Settings
from agent.decide.choices import swap_action
from agent.decide.judge.runtime import LearnedJudge, shipped_head
from agent.decide.relevance import RelevanceRules, Verdict
from agent.detect.table import risk_of, risk_weights
from agent.engine.local_tasks import RelevanceJudge
from agent.entities import DIRECT_IDENTIFIERS, Action, Decision, Label, RiskScore, Span
from agent.knowledge.geonames import geo_index, is_region_of
from agent.knowledge.reference_sites import is_public_reference_url
from agent.session.conversation import Conversation, fold

log = logging.getLogger(__name__)

# Residual-risk weight of an entity that is sent as is (after the call-transcript paper):
# one fact of the type table (agent/detect/table.py), per label and per identifier row.
RISK_WEIGHTS = risk_weights()
# A public entity the prompt is about (Chicago, Shakespeare) says little about the user.
_PUBLIC_DISCOUNT = 0.25


class Decider:
    def __init__(self, settings: Settings, judge: RelevanceJudge | None = None, learned: LearnedJudge | None = None):
        self.settings = settings
        self.judge = judge
        self.rules = _RulesOncePerText()
        # The trained keep/swap head (resources/judge.json): it decides, the rules are its
        # inputs. Without it (file missing or stale) the rules decide as before.
        head = shipped_head() if learned is None else None
        self.learned = learned or (LearnedJudge(head, self.rules) if head is not None else None)

    def decide(
        self,
        text: str,
        spans: Sequence[Span],
        conversation: Conversation | None = None,
        overrides: Mapping[str, Action] | None = None,
    ) -> list[Decision]:
        overrides = {fold(k): v for k, v in (overrides or {}).items()}
        decisions: list[Decision | None] = []
        undecided: list[int] = []
        for span in spans:
            decision = self._fixed(span, conversation, overrides)
            decisions.append(decision)
            if decision is None:
                undecided.append(len(decisions) - 1)
        judged = self._judge(text, [spans[i] for i in undecided])
        # One verdict per value: the mention with the clearest evidence speaks for all
        # ("Aragorn (from The Lord of the Rings)" decides the later bare "Aragorn" too).
        rules = {i: self.rules.verdict(text, spans[i]) for i in undecided}
        best: dict[str, Verdict] = {}
        for i, rule in rules.items():
            key = fold(spans[i].canonical or spans[i].text)
            if rule is not None and (key not in best or rule.confidence > best[key].confidence):
                best[key] = rule
        learned = self._learned(text, [spans[i] for i in undecided])
        for index, model_verdict, learned_verdict in zip(undecided, judged, learned):
            span = spans[index]
            rule = best.get(fold(span.canonical or span.text))
            keep, reason = self._default(span), "default for its type"
            if rule is not None:
                keep, reason = rule.keep, rule.reason
            if learned_verdict is not None and learned_verdict != keep:
                keep, reason = learned_verdict, "judge: " + ("needed for the answer" if learned_verdict else "not needed for the answer")
            if model_verdict is not None and (rule is None or rule.confidence < 0.85):
                keep, reason = model_verdict, "local model: " + ("needed for the answer" if model_verdict else "not needed")
            overriding = self.rules.last_word(text, span, rule) if keep else None
            if overriding is not None:
                keep, reason = overriding.keep, overriding.reason
            action = Action.KEEP if keep else self._swap_action()
            decisions[index] = Decision(span, action, reason, public=keep)
        _one_decision_for_town_and_region(text, decisions, undecided, self._swap_action())
        return _consistent([d for d in decisions if d is not None])

    def _swap_action(self) -> Action:
        return swap_action(self.settings)

    def _policy_action(self, label: Label) -> Action | None:
        policy = self.settings.policy_for(label)
        if policy == "auto":
            return None
        if policy == "label":
            return Action.LABEL
        if policy == "keep":
            return Action.KEEP
        return self._swap_action()

    def _fixed(self, span: Span, conversation: Conversation | None, overrides: Mapping[str, Action]) -> Decision | None:
        """Decisions that need no relevance judgement."""
        if span.label is Label.SECRET:
            action = Action.LABEL if self.settings.policy_for(span.label) == "label" else self._swap_action()
            return Decision(span, action, "secret: never sent")
        keys = [fold(span.text)] + ([fold(span.canonical)] if span.canonical else [])
        for key in keys:
            if key in overrides:
                return Decision(span, overrides[key], "your choice")
        if conversation is not None:
            for key in keys:
                choice = conversation.choice_for(key)
                if choice is not None:
                    return Decision(span, choice, "your choice")
        if span.detector == "always_protect":
            return Decision(span, self._policy_action(span.label) or self._swap_action(), "on your always-protect list")
        if conversation is not None:
            entry = conversation.lookup_real(span.canonical or span.text)
            if entry is not None:
                return Decision(span, entry.action, "as earlier in this conversation")
        if span.label in DIRECT_IDENTIFIERS:
            action = self._policy_action(span.label)
            if action is None or action is Action.KEEP:
                action = self._swap_action()  # direct identifiers are always replaced
            return Decision(span, action, "direct identifier")
        if span.label is Label.URL and self.settings.policy_for(Label.URL) != "label" and is_public_reference_url(span.text):
            # An encyclopedia article or a documentation page names a topic, not a person:
            # its stand-in was random letters for the title. Accounts, queries and private
            # hosts are not reference pages (agent/knowledge/reference_sites.py).
            return Decision(span, Action.KEEP, "a public reference page", public=True)
        action = self._policy_action(span.label)
        if action is not None:
            return Decision(span, action, "your policy for " + span.label.value)
        if not self.settings.relevance:
            return Decision(span, self._swap_action(), "relevance check off")
        return None

    def _default(self, span: Span) -> bool:
        """Keep (True) or swap when no rule has an opinion."""
        return span.label in (Label.LOCATION, Label.NORP)

    def _learned(self, text: str, spans: list[Span]) -> list[bool | None]:
        if self.learned is None or not spans:
            return [None] * len(spans)
        return list(self.learned.judge(text, spans))

    def _judge(self, text: str, spans: list[Span]) -> list[bool | None]:
        if self.judge is None or not spans:
            return [None] * len(spans)
        try:
            verdicts = list(self.judge.judge(text, spans))
        except Exception:  # a local model is advisory: any failure means "no opinion"
            log.exception("relevance judge failed")
            return [None] * len(spans)
        if len(verdicts) != len(spans) or any(v not in (True, False, None) for v in verdicts):
            log.warning("relevance judge returned %r for %d spans; ignored", verdicts, len(spans))
            return [None] * len(spans)
        return verdicts


class _RulesOncePerText(RelevanceRules):
    """The relevance rules with their verdicts kept for the last text: the decider and the
    learned judge (its input) ask about the same entities of a text, and a verdict costs
    several regex searches around the entity. A verdict depends only on the text and the
    entity's place, type and value, so the kept one is the one computed again."""

    def __init__(self) -> None:
        self._last: tuple[str, dict[tuple, Verdict | None]] | None = None

    def verdict(self, text: str, span: Span) -> Verdict | None:
        last = self._last
        if last is None or last[0] is not text:
            last = self._last = (text, {})
        key = (span.start, span.end, span.label, span.text)
        if key not in last[1]:
            last[1][key] = super().verdict(text, span)
        return last[1][key]


def _one_decision_for_town_and_region(
    text: str, decisions: list[Decision | None], judged: Sequence[int], swap: Action
) -> None:
    """"Dayton, Ohio" with the town kept and the state swapped read "Dayton, North
    Dakota": a town that does not lie there, and the state is sent anyway, since the town
    says which state it is in. So a town and the region written right after it (of the
    town's country) get one decision, wherever each is mentioned: both kept when the
    judgement kept the town, both swapped when the user (or an earlier turn, or a policy)
    swapped the region. Only judged decisions move."""
    judged_set = set(judged)
    spans = sorted((d.span.start, i) for i, d in enumerate(decisions) if d is not None)
    keep: set[str] = set()
    swapped: set[str] = set()
    for (_, a), (_, b) in pairwise(spans):
        town, region = decisions[a], decisions[b]
        if town.action is not Action.KEEP or region.action is Action.KEEP:
            continue
        if town.span.label is not Label.LOCATION or region.span.label is not Label.LOCATION:
            continue
        if text[town.span.end:region.span.start].strip() != ",":
            continue
        inner, outer = geo_index().lookup(town.span.text), geo_index().lookup(region.span.text)
        if inner is None or outer is None or not is_region_of(outer, inner):
            continue
        if b in judged_set:
            keep.add(fold(region.span.canonical or region.span.text))
        elif a in judged_set:
            swapped.add(fold(town.span.canonical or town.span.text))
    for i in judged:
        d = decisions[i]
        key = fold(d.span.canonical or d.span.text) if d is not None else ""
        if d is not None and d.action is not Action.KEEP and key in keep:
            decisions[i] = Decision(d.span, Action.KEEP, "the region of a town that is sent", public=True)
        elif d is not None and d.action is Action.KEEP and key in swapped:
            decisions[i] = Decision(d.span, swap, "the town of a region that is swapped")


def _consistent(decisions: list[Decision]) -> list[Decision]:
    """One value, one decision within a text: keeping "Chicago" in one sentence and
    swapping it in another would send it anyway. The protective choice wins, unless the
    user chose to keep it."""
    swapped: dict[str, Decision] = {}
    user_kept: set[str] = set()
    for d in decisions:
        key = fold(d.span.canonical or d.span.text)
        if d.action is Action.KEEP and d.reason == "your choice":
            user_kept.add(key)
        elif d.action is not Action.KEEP:
            swapped.setdefault(key, d)
    out = []
    for d in decisions:
        key = fold(d.span.canonical or d.span.text)
        first = swapped.get(key)
        if d.action is Action.KEEP and first is not None and key not in user_kept:
            d = Decision(d.span, first.action, first.reason)
        out.append(d)
    return out


def residual_risk(decisions: Sequence[Decision]) -> RiskScore:
    """Weighted count of what is sent as is. Partial mentions count half."""
    items = []
    for decision in decisions:
        if decision.action is not Action.KEEP:
            continue
        weight = float(risk_of(decision.span))
        if decision.span.canonical and fold(decision.span.canonical) != fold(decision.span.text):
            weight /= 2
        if decision.public:
            weight *= _PUBLIC_DISCOUNT
        items.append((decision.span.text, decision.span.label, weight))
    return RiskScore(round(sum(w for _, _, w in items), 2), tuple(items))
