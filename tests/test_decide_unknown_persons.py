"""A person's name no source knows is swapped even where the prompt writes of them as of
a known author ("early <surname>", "the <surname> novel", "<name>'s <title>"): the keep
came from how the name is used, and a name that wordfreq does not list, that no public list
knows and that is no near spelling of a public name is not one the answer can lean on.
Signs that a person is public (an office, a character of a named work, a list entry, a
near spelling of a famous name) still keep them. Every name and sentence here is made up."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.decide.decider import Decider
from agent.decide.relevance import RelevanceRules, Verdict
from agent.decide.unknown_names import unknown_name
from agent.entities import Action, Label, Span

_REASON = "a name nobody writes about"


def _span(text: str, value: str, label: Label = Label.PERSON, nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(value, start + 1)
    return Span(start, start + len(value), label, value, 0.8, "spacy")


def _decide(text: str, values: list[tuple[str, Label]]) -> list:
    spans = [_span(text, v, label) for v, label in values]
    return Decider(default_settings()).decide(text, spans)


@pytest.mark.parametrize(
    "name",
    ["Vostrikhin", "Zelvinskaya", "Oksana T. Zelvinskaya", "Brunhart Quellmoor", "Teodor Vostrikhin's"],
)
def test_names_nobody_writes_about(name):
    assert unknown_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "Tolkien",  # a list entry and a frequent word
        "Hemingway",
        "Smith",  # frequent as a word: no evidence either way, so not "unknown"
        "Rooseveldt",  # one letter from a public name: a misspelling of it
        "Einstien",  # two letters swapped
        "Maria Castro",
        "UNICEF",  # not written as a name
        "J. K.",
    ],
)
def test_names_known_or_not_names(name):
    assert not unknown_name(name)


@pytest.mark.parametrize(
    "text, unknown, known",
    [
        ("Unlike the {} novel, this one never leaves the lighthouse. Is that a flaw?", "Vostrikhin", "Tolkien"),
        ("Is there a braver poet than early {}?", "Zelvinskaya", "Hemingway"),
    ],
)
def test_unknown_author_swapped_known_author_kept(text, unknown, known):
    (decision,) = _decide(text.format(unknown), [(unknown, Label.PERSON)])
    assert decision.action is not Action.KEEP
    assert decision.reason == _REASON
    (decision,) = _decide(text.format(known), [(known, Label.PERSON)])
    assert decision.reason != _REASON


def test_unknown_word_typed_org_before_a_kind_of_authored_work():
    text = "Unlike the Quellmoor novel, this one is funny. What else should I read?"
    span = _span(text, "Quellmoor", Label.ORG)
    rule = Verdict(True, 0.6, "part of a known work")
    assert RelevanceRules.unknown_person(text, span, rule) is not None


def test_unknown_word_typed_org_elsewhere_is_not_a_person():
    text = "I ordered the parts from Quellmoor last week. When will they arrive?"
    span = _span(text, "Quellmoor", Label.ORG)
    assert RelevanceRules.unknown_person(text, span, None) is None


@pytest.mark.parametrize(
    "rule",
    [
        Verdict(True, 0.75, "public office holder"),
        Verdict(True, 0.75, "character in a known work"),
        Verdict(True, 0.65, "named with a public figure"),
        Verdict(True, 0.8, "public figure asked about"),  # a citation or "in the style of"
    ],
)
def test_signs_of_a_public_person_keep_an_unknown_name(rule):
    text = "What did Vostrikhin promise the miners before the vote?"
    assert RelevanceRules.unknown_person(text, _span(text, "Vostrikhin"), rule) is None


def test_weak_keep_from_how_a_name_is_used_is_overruled():
    text = "What did Vostrikhin promise the miners before the vote?"
    rule = Verdict(True, 0.6, "public figure asked about")
    verdict = RelevanceRules.unknown_person(text, _span(text, "Vostrikhin"), rule)
    assert verdict is not None and not verdict.keep and verdict.reason == _REASON
