"""Decide: what is kept, swapped or labelled, who wins (secrets > the user > earlier
turns > policy > relevance rules), one decision per value, and the residual risk."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.decide.decider import RISK_WEIGHTS, Decider, residual_risk
from agent.engine.core import Engine
from agent.entities import DIRECT_IDENTIFIERS, Action, Decision, Label, Span
from agent.session.conversation import Conversation

SECRET = "sk-proj-abcDEF123ghiJKL456mnoPQR789stuVWX0yz"
MIXED = f"My SSN is 536-22-8473, email me at jo@globaltech.com or call +1 415-555-2671; password: hunter22, key {SECRET}."


def by_real(result) -> dict[str, tuple[Action, str]]:
    return {e.real: (e.action, e.reason) for e in result.entities}


@pytest.fixture(scope="module")
def keep_everything_engine(privacy_engine):
    settings = default_settings()
    settings.policy = {label.value: "keep" for label in Label}
    return Engine(settings)


def test_secrets_and_direct_identifiers_replaced_even_with_policy_keep(keep_everything_engine):
    result = keep_everything_engine.sanitize(MIXED, Conversation(seed=1))
    actions = by_real(result)
    for real in ("536-22-8473", "jo@globaltech.com", "+1 415-555-2671", "hunter22", SECRET):
        assert actions[real][0] is Action.REPLACE, (real, actions[real])
        assert real not in result.sanitized
    assert all(e.label in DIRECT_IDENTIFIERS | {Label.SECRET} for e in result.entities)
    assert result.risk.total == 0


def test_policy_keep_applies_to_the_rest(keep_everything_engine):
    result = keep_everything_engine.sanitize("Please email my landlord John Baker about the leak.", Conversation(seed=1))
    assert by_real(result)["John Baker"] == (Action.KEEP, "your policy for PERSON")
    assert "John Baker" in result.sanitized


def test_secrets_are_never_sent_even_when_the_user_says_keep(privacy_engine):
    overrides = {"hunter22": Action.KEEP, SECRET: Action.KEEP}
    conversation = Conversation(seed=1)
    conversation.set_choice("hunter22", Label.SECRET, Action.KEEP)
    result = privacy_engine.sanitize(f"password: hunter22 and key {SECRET}", conversation, overrides)
    assert {a for a, _ in by_real(result).values()} == {Action.REPLACE}
    assert "hunter22" not in result.sanitized and SECRET not in result.sanitized


def test_user_override_wins(privacy_engine):
    text = "My SSN is 536-22-8473. What is the population of Chicago? Please email my landlord John Baker."
    plain = by_real(privacy_engine.sanitize(text, Conversation(seed=1)))
    assert plain["536-22-8473"][0] is Action.REPLACE
    assert plain["Chicago"][0] is Action.KEEP
    assert plain["John Baker"][0] is Action.REPLACE
    overrides = {"536-22-8473": Action.KEEP, "chicago": Action.REPLACE, "John Baker": Action.LABEL}
    result = privacy_engine.sanitize(text, Conversation(seed=1), overrides)
    chosen = by_real(result)
    assert chosen["536-22-8473"] == (Action.KEEP, "your choice")
    assert chosen["Chicago"] == (Action.REPLACE, "your choice")
    assert chosen["John Baker"] == (Action.LABEL, "your choice")
    assert "536-22-8473" in result.sanitized and "Chicago" not in result.sanitized
    assert "[PERSON_1]" in result.sanitized


def test_conversation_choice_wins_and_is_remembered(privacy_engine):
    conversation = Conversation(seed=4)
    conversation.set_choice("Chicago", Label.LOCATION, Action.REPLACE)
    conversation.set_choice("John Baker", Label.PERSON, Action.KEEP)
    first = privacy_engine.sanitize("What is the population of Chicago?", conversation)
    assert by_real(first)["Chicago"] == (Action.REPLACE, "your choice")
    second = privacy_engine.sanitize("Please email my landlord John Baker. Is Chicago big?", conversation)
    assert by_real(second)["John Baker"] == (Action.KEEP, "your choice")
    assert by_real(second)["Chicago"][0] is Action.REPLACE
    # The same stand-in for Chicago in both turns.
    sent = [e.sent for r in (first, second) for e in r.entities if e.real == "Chicago"]
    assert len(set(sent)) == 1 and sent[0] != "Chicago"


def test_a_choice_about_a_full_name_covers_its_partial_mentions(privacy_engine):
    conversation = Conversation(seed=3)
    privacy_engine.sanitize("Sarah Mitchell called.", conversation)
    result = privacy_engine.sanitize("Mitchell called again.", conversation, {"Sarah Mitchell": Action.KEEP})
    assert by_real(result)["Mitchell"] == (Action.KEEP, "your choice")


def test_earlier_turns_decide_later_mentions(privacy_engine):
    conversation = Conversation(seed=8)
    privacy_engine.sanitize("Please email my landlord John Baker about the leak.", conversation)
    # On its own "Who is John Baker?" might keep the name; here it is the landlord.
    later = privacy_engine.sanitize("Who is John Baker?", conversation)
    assert by_real(later)["John Baker"] == (Action.REPLACE, "as earlier in this conversation")


@pytest.mark.parametrize(
    "text, real",
    [
        ("What is the population of Chicago?", "Chicago"),
        ("What is the capital of Portugal?", "Portugal"),
        ("Who was Abraham Lincoln?", "Abraham Lincoln"),
        ("Tell me about the history of Microsoft.", "Microsoft"),
    ],
)
def test_public_entities_asked_about_are_kept(privacy_engine, text, real):
    result = privacy_engine.sanitize(text, Conversation(seed=1))
    assert by_real(result)[real][0] is Action.KEEP
    assert result.sanitized == text


@pytest.mark.parametrize(
    "text, real",
    [
        ("Please email my landlord John Baker about the leak.", "John Baker"),
        ("I live in Chicago and need a plumber.", "Chicago"),
        ("My company Acme Corp. is hiring.", "Acme Corp."),
        ("Draft a birthday note for my friend Priya Raman.", "Priya Raman"),
    ],
)
def test_private_entities_are_swapped(privacy_engine, text, real):
    result = privacy_engine.sanitize(text, Conversation(seed=1))
    assert by_real(result)[real][0] is Action.REPLACE
    assert real not in result.sanitized


def test_an_employer_is_not_sent(privacy_engine):
    result = privacy_engine.sanitize("My employer Initech LLC pays well.", Conversation(seed=1))
    assert "Initech" not in result.sanitized


def test_same_value_gets_one_decision_per_text(privacy_engine):
    # Alone, the first mention would be kept (a public place asked about) and the second
    # swapped (where I live): sending one copy would reveal the other, so every mention of
    # a value gets the same decision (the judge decides per value, the rules' protective
    # choice wins when they disagree).
    text = "What is the population of Chicago? I live in Chicago."
    result = privacy_engine.sanitize(text, Conversation(seed=1))
    chicago = [e for e in result.entities if e.real == "Chicago"]
    assert len(chicago) == 2
    assert len({e.action for e in chicago}) == 1
    assert len({e.sent for e in chicago}) == 1
    if chicago[0].action is not Action.KEEP:
        assert "Chicago" not in result.sanitized


def test_user_keep_of_one_value_keeps_every_mention(privacy_engine):
    text = "What is the population of Chicago? I live in Chicago."
    result = privacy_engine.sanitize(text, Conversation(seed=1), {"Chicago": Action.KEEP})
    assert [e.action for e in result.entities if e.real == "Chicago"] == [Action.KEEP, Action.KEEP]


# -- residual risk --------------------------------------------------------------------------------------
def test_risk_weights_match_the_design():
    assert RISK_WEIGHTS[Label.PERSON] == RISK_WEIGHTS[Label.SSN] == 5
    assert RISK_WEIGHTS[Label.EMAIL] == RISK_WEIGHTS[Label.PHONE] == RISK_WEIGHTS[Label.ADDRESS] == 4
    assert RISK_WEIGHTS[Label.USERNAME] == 3
    assert RISK_WEIGHTS[Label.ORG] == RISK_WEIGHTS[Label.LOCATION] == 2


def test_residual_risk_counts_only_what_is_kept():
    def decision(text, label, action, canonical=None, public=False):
        return Decision(Span(0, len(text), label, text, 0.9, "test", canonical=canonical), action, "test", public=public)

    decisions = [
        decision("John Baker", Label.PERSON, Action.KEEP),  # 5
        decision("Mitchell", Label.PERSON, Action.KEEP, canonical="Sarah Mitchell"),  # partial: 2.5
        decision("jo@globaltech.com", Label.EMAIL, Action.KEEP),  # 4
        decision("cminh730", Label.USERNAME, Action.KEEP),  # 3
        decision("Globex GmbH", Label.ORG, Action.KEEP),  # 2
        decision("Chicago", Label.LOCATION, Action.KEEP, public=True),  # 2 x 0.25
        decision("536-22-8473", Label.SSN, Action.REPLACE),  # sent as a stand-in: 0
        decision("Anna Berg", Label.PERSON, Action.LABEL),  # 0
    ]
    risk = residual_risk(decisions)
    assert risk.total == 5 + 2.5 + 4 + 3 + 2 + 0.5
    assert [text for text, _, _ in risk.items] == ["John Baker", "Mitchell", "jo@globaltech.com", "cminh730", "Globex GmbH", "Chicago"]
    assert risk.level == "high"
    assert residual_risk([]).total == 0 and residual_risk([]).level == "none"


def test_residual_risk_of_a_sanitized_text(privacy_engine):
    conversation = Conversation(seed=3)
    privacy_engine.sanitize("Sarah Mitchell called.", conversation)
    overrides = {"Sarah Mitchell": Action.KEEP, "John Baker": Action.KEEP, "jo@globaltech.com": Action.KEEP}
    result = privacy_engine.sanitize(
        "Mitchell and John Baker wrote from jo@globaltech.com; my SSN is 536-22-8473.", conversation, overrides
    )
    assert {t: w for t, _, w in result.risk.items} == {"Mitchell": 2.5, "John Baker": 5.0, "jo@globaltech.com": 4.0}
    assert result.risk.total == 11.5 and result.risk.level == "high"
    assert result.to_json()["risk"] == {"score": 11.5, "level": "high"}


def test_nothing_kept_no_risk(privacy_engine):
    result = privacy_engine.sanitize("Please email my landlord John Baker at jb@globaltech.com.", Conversation(seed=1))
    assert result.risk.total == 0 and result.risk.level == "none"


# -- a local judge plugs in (a small real implementation of the protocol) ----------------------------------
class KeepEverything:
    def judge(self, text, spans):
        return [True] * len(spans)


class Broken:
    def judge(self, text, spans):
        raise RuntimeError("model crashed")


def test_judge_decides_where_rules_are_unsure_but_never_for_secrets():
    settings = default_settings()
    spans = [
        Span(0, 9, Label.ORG, "Acme Corp", 0.8, "test"),
        Span(14, 22, Label.SECRET, "hunter22", 1.0, "test"),
        Span(24, 41, Label.EMAIL, "jo@globaltech.com", 1.0, "test"),
    ]
    text = "Acme Corp pwd hunter22; jo@globaltech.com is all"
    decisions = Decider(settings, judge=KeepEverything()).decide(text, spans)
    assert [d.action for d in decisions] == [Action.KEEP, Action.REPLACE, Action.REPLACE]
    assert decisions[0].reason.startswith("local model")
    fallback = Decider(settings, judge=Broken()).decide(text, spans)
    assert [d.action for d in fallback] == [Action.REPLACE, Action.REPLACE, Action.REPLACE]
