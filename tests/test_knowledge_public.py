"""Public knowledge from well-kept sources (listed companies, word frequencies, places) and
the general relevance rules built on it. Every sentence is written for these tests; none
comes from the evaluation data."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.decide.decider import Decider
from agent.decide.relevance import RelevanceRules, is_public, names_a_work
from agent.entities import Action, Label, Span
from agent.knowledge.companies import _aliases, company_index
from agent.knowledge.frequency import name_zipf, zipf


def _span(text: str, value: str, label: Label, detector: str = "spacy") -> Span:
    start = text.index(value)
    return Span(start, start + len(value), label, value, 0.8, detector)


def test_companies_come_from_the_index_constituents_as_shipped():
    """Every alias names a company of pytickersymbols' own data, unedited: the index is
    derived from the source, nothing is added by hand."""
    from pytickersymbols import PyTickerSymbols

    listed = {s["name"] for s in PyTickerSymbols().get_all_stocks() if s.get("name")}
    index = company_index()
    assert len(index) >= len(listed)
    assert set(index._names.values()) <= listed
    assert all(index.listed_name(name) is not None for name in listed)
    for alias, name in index._names.items():
        assert alias in _aliases(name)


@pytest.mark.parametrize("written", ["Siemens", "Siemens AG", "Nestlé", "Toyota", "Unilever", "Ericsson"])
def test_listed_companies_are_found_as_people_write_them(written):
    assert company_index().listed_name(written) is not None


def test_a_made_up_company_is_not_listed():
    assert company_index().listed_name("Quillfeather Dynamics") is None
    assert not is_public("Quillfeather Dynamics", Label.ORG)


def test_legal_form_and_kind_words_are_dropped_only_at_the_end():
    assert _aliases("Northwind Motor Company") >= {"northwind motor company", "northwind motor", "northwind"}
    assert "the" not in _aliases("The Example Group")


def test_word_frequency_tells_a_household_name_from_a_made_up_one():
    assert zipf("Toyota") > 3.5 > zipf("Quillfeatherton")
    rare, common = name_zipf("Zebulon Quillfeatherton")
    assert rare == 0.0 and common > rare


def test_a_listed_company_is_kept_unless_it_is_the_users_employer():
    rules = RelevanceRules()
    text = "Compare the electric cars of Toyota and Volkswagen for a magazine column."
    assert rules.verdict(text, _span(text, "Toyota", Label.ORG)).keep
    mine = "I work at Toyota and need a note to my manager about leave."
    assert not rules.verdict(mine, _span(mine, "Toyota", Label.ORG)).keep


@pytest.mark.parametrize(
    "text",
    [
        "Write an episode of Harbor Lights where Odalys and Brannock lose the keys.",
        "A short Moonfall fan fiction in which Quenby meets Tarrant.",
        "Give me a funny Skyreach episode with Ilsa, Dorrin and Pell.",
    ],
)
def test_a_prompt_that_names_a_work_keeps_its_characters(text):
    assert names_a_work(text)
    decider = Decider(default_settings())
    name = next(w.strip(",.") for w in text.split()[4:] if w[:1].isupper() and w.strip(",.") not in ("Harbor", "Lights", "Moonfall", "Skyreach"))
    span = _span(text, name, Label.PERSON)
    assert decider.decide(text, [span])[0].action is Action.KEEP


def test_a_story_about_the_users_own_people_is_no_work():
    text = "Write a story about my friend Odalys and her brother Brannock."
    assert not names_a_work(text)
    decider = Decider(default_settings())
    assert decider.decide(text, [_span(text, "Odalys", Label.PERSON)])[0].action is not Action.KEEP


def test_headings_are_not_titles():
    assert not names_a_work("Write a Story about the trip.")
    assert not names_a_work("I read a book yesterday.")


@pytest.mark.parametrize(
    "text, name",
    [
        ("Summarise the debate on falsification by Quorrin and Vastell.", "Vastell"),
        ("How does the Brannigan Solution apply to a two-player bargaining problem?", "Brannigan Solution"),
        ("Prove Halvorsen's theorem for finite groups.", "Halvorsen"),
    ],
)
def test_authors_and_named_ideas_in_knowledge_prompts_are_kept(text, name):
    verdict = RelevanceRules().verdict(text, _span(text, name, Label.PERSON))
    assert verdict is not None and verdict.keep


def test_a_private_plan_is_no_named_idea():
    text = "Remind Tobias that Tobias's plan for Friday is a picnic."
    verdict = RelevanceRules().verdict(text, _span(text, "Tobias", Label.PERSON))
    assert verdict is not None and not verdict.keep


@pytest.mark.parametrize(
    "text, place",
    [
        ("I am planning a trip to Wyoming next spring: what places should I see?", "Wyoming"),
        ("Give me an overview of Chile for a week of travel.", "Chile"),
        ("Which beaches in Queensland are best for families?", "Queensland"),
    ],
)
def test_a_place_the_prompt_travels_to_is_kept_whatever_the_judge_says(text, place):
    import numpy as np

    from agent.decide.judge.features import FEATURE_NAMES
    from agent.decide.judge.head import LogisticHead
    from agent.decide.judge.runtime import LearnedJudge

    n = len(FEATURE_NAMES)
    swap_all = LogisticHead(FEATURE_NAMES, np.zeros(n, np.float32), np.ones(n, np.float32), np.zeros(n, np.float32), -5.0, 0.5, {})

    span = _span(text, place, Label.LOCATION)
    rules = RelevanceRules().verdict(text, span)
    assert rules is not None and rules.keep and rules.confidence >= 0.8
    decider = Decider(default_settings(), learned=LearnedJudge(swap_all))
    assert decider.decide(text, [span])[0].action is Action.KEEP


def test_the_users_home_town_stays_private_even_on_a_trip():
    text = "I live in Porto and want a trip plan for visitors coming to see me."
    span = _span(text, "Porto", Label.LOCATION)
    assert Decider(default_settings()).decide(text, [span])[0].action is not Action.KEEP


def test_a_region_named_like_a_person_after_in_is_a_place():
    from agent.config import default_settings as settings
    from agent.engine.core import Engine
    from agent.session.conversation import Conversation

    engine = Engine(settings())
    text = "What are the nicest villages to visit in Dorset in May?"
    result = engine.sanitize(text, Conversation("places-test"))
    found = [e for e in result.entities if e.real == "Dorset"]
    assert found and found[0].label is Label.LOCATION and found[0].action is Action.KEEP
