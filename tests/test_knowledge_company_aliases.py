"""A listed company's name without its kind words is an alias ("Honda Motor Company" is
"Honda"), but an everyday word left alone names no company: "American International Group"
is not every "American ...", "General Motors" not every "General ...". Names written for
these tests."""

import pytest

from agent.decide.relevance import RelevanceRules
from agent.entities import Label, Span
from agent.knowledge.companies import is_listed_company


@pytest.mark.parametrize("word", ["American", "General", "City", "Heritage", "Regions"])
def test_an_everyday_word_alone_is_no_listed_company(word):
    assert not is_listed_company(word)


@pytest.mark.parametrize("name", [
    "American International Group", "General Motors", "Apple", "Target", "Honda", "ING", "Siemens",
])
def test_listed_names_and_their_usual_short_forms_stay_listed(name):
    assert is_listed_company(name)


@pytest.mark.parametrize("text, name", [
    ("Please ask American Lantern Movers when the van arrives.", "American Lantern Movers"),
    ("Write a short note to General Pelham Supply about the late crates.", "General Pelham Supply"),
])
def test_a_firm_starting_with_an_everyday_word_is_not_well_known(text, name):
    start = text.index(name)
    verdict = RelevanceRules().verdict(text, Span(start, start + len(name), Label.ORG, name, 0.9, "spacy"))
    assert verdict is None or verdict.reason != "well-known organisation", verdict
