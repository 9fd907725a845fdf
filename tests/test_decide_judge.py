"""The learned keep/swap judge: its head, its features and its place in the decider.
Sentences are written for these tests (none comes from the evaluation data)."""

from __future__ import annotations

import numpy as np

from agent.config import default_settings
from agent.decide.decider import Decider
from agent.decide.judge.features import FEATURE_NAMES, RuleOpinion, extract
from agent.decide.judge.head import LogisticHead, fit_logistic
from agent.decide.judge.runtime import LearnedJudge, shipped_head
from agent.engine.core import Engine
from agent.entities import Action, Label, Span
from agent.session.conversation import Conversation


def _span(text: str, value: str, label: Label, detector: str = "spacy") -> Span:
    start = text.index(value)
    return Span(start, start + len(value), label, value, 0.8, detector)


def test_shipped_head_matches_the_features_and_says_how_it_was_trained():
    head = shipped_head()
    assert head is not None
    assert head.feature_names == FEATURE_NAMES
    assert 0.0 < head.threshold < 1.0
    assert "fit half" in head.about["trained_on"]
    assert set(head.about["validation"]) == {"utility_error", "privacy_error", "other_kept"}


def test_judge_keeps_what_a_question_is_about_and_swaps_a_private_contact():
    judge = LearnedJudge(shipped_head())
    question = "How many people live in Shanghai, and what is its oldest temple?"
    email = "Please write an email to my neighbour Gwendolyn Oakes about the broken fence."
    keep_city = judge.probabilities(question, [_span(question, "Shanghai", Label.LOCATION)])[0]
    keep_neighbour = judge.probabilities(email, [_span(email, "Gwendolyn Oakes", Label.PERSON)])[0]
    assert keep_city > keep_neighbour
    assert judge.judge(email, [_span(email, "Gwendolyn Oakes", Label.PERSON)]) == [False]


def test_features_see_the_prompt_and_the_words_around_the_entity():
    text = "Translate for my sister Odile: the museum in Lisbon opens at ten."
    spans = [_span(text, "Odile", Label.PERSON, "person_names"), _span(text, "Lisbon", Label.LOCATION)]
    rows = extract(text, spans, [RuleOpinion(False, 0.9, "a private person"), None])
    named = [dict(zip(FEATURE_NAMES, row)) for row in rows]
    assert named[0]["prompt=translation"] == 1.0 and named[1]["prompt=translation"] == 1.0
    assert named[0]["possessive_before"] == 1.0 and named[0]["rule_keep"] == -0.9
    assert named[1]["place=city"] == 1.0 and named[1]["place_population"] > 0.5
    assert named[1]["rule_no_opinion"] == 1.0


def test_features_read_the_sentence_of_a_cjk_text_not_the_whole_text():
    # "We meet tomorrow. Lucas brings the papers." in Chinese: "。" ends a sentence with no
    # space after it, so "Lucas" opens the second sentence.
    text = "我们明天开会。Lucas会带资料。"
    rows = extract(text, [_span(text, "Lucas", Label.PERSON, "person_names")], [None])
    assert dict(zip(FEATURE_NAMES, rows[0]))["sentence_start"] == 1.0


def test_logistic_fit_is_deterministic_and_learns_a_simple_rule():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(400, 3)).astype(np.float32)
    y = (x[:, 0] - 0.5 * x[:, 2] > 0).astype(int)
    first = fit_logistic(x, y, l2=1.0)
    second = fit_logistic(x, y, l2=1.0)
    assert all(np.array_equal(a, b) for a, b in zip(first[:3], second[:3]))
    head = LogisticHead(("a", "b", "c"), *first, 0.5, {})
    accuracy = ((head.probability(x) >= 0.5) == y).mean()
    assert accuracy > 0.95
    again = LogisticHead.from_json(head.to_json(), ("a", "b", "c"))
    assert np.allclose(again.probability(x), head.probability(x), atol=1e-4)


def _constant_head(bias: float) -> LogisticHead:
    names = FEATURE_NAMES
    return LogisticHead(names, np.zeros(len(names), np.float32), np.ones(len(names), np.float32),
                        np.zeros(len(names), np.float32), bias, 0.5, {})


def test_decider_follows_the_judge_over_the_rules():
    # The rules swap an unknown person ("a person", a weak verdict); a head that says keep wins.
    text = "Send Bartholomew Quince the minutes."
    span = _span(text, "Bartholomew Quince", Label.PERSON)
    decision = Decider(default_settings(), learned=LearnedJudge(_constant_head(5.0))).decide(text, [span])[0]
    assert decision.action is Action.KEEP and decision.reason.startswith("judge:")
    decision = Decider(default_settings(), learned=LearnedJudge(_constant_head(-5.0))).decide(text, [span])[0]
    assert decision.action is Action.REPLACE


def test_the_judge_never_keeps_what_a_confident_rule_found_private():
    text = "Send my colleague Bartholomew Quince the minutes."
    span = _span(text, "Bartholomew Quince", Label.PERSON)
    decision = Decider(default_settings(), learned=LearnedJudge(_constant_head(5.0))).decide(text, [span])[0]
    assert decision.action is Action.REPLACE


def test_engine_uses_the_shipped_judge():
    engine = Engine(default_settings())
    assert engine.decider.learned is not None
    result = engine.sanitize("Ask my landlord Cornelius Bramble to fix the boiler.", Conversation("judge-test"))
    assert "Cornelius Bramble" not in result.sanitized


def test_every_mention_of_a_value_gets_the_value_verdict():
    from agent.decide.judge.runtime import value_mean

    text = "Rosalind met Rosalind's aunt; then Rosalind left for Quito."
    spans = [Span(m, m + 8, Label.PERSON, "Rosalind", 0.8, "spacy") for m in (0, 13, 35)]
    spans.append(_span(text, "Quito", Label.LOCATION))
    assert value_mean(spans, [0.9, 0.3, 0.6, 0.2]) == [0.6, 0.6, 0.6, 0.2]
