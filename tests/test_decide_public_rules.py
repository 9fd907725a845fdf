"""The general relevance rules of b3a634a, one behaviour per test: places a prompt asks
about (and the private cues that win over them), people of a work the prompt names,
authors cited in a prompt about ideas, listed companies as people write them, word
frequencies, and how a confident rule binds the learned judge. Every sentence and name
here is made up for these tests; none comes from the evaluation data."""

from __future__ import annotations

import numpy as np
import pytest

from agent.decide.judge.features import FEATURE_NAMES
from agent.decide.judge.runtime import PROTECTIVE_RULE_CONFIDENCE, decided_by_rule, protective
from agent.decide.relevance import ACADEMIC, PLACE_TOPIC, RelevanceRules, is_public, names_a_work
from agent.entities import Action, Label, Span
from agent.knowledge.companies import company_index, is_listed_company
from agent.knowledge.frequency import name_zipf, zipf


def _verdict(text: str, value: str, label: Label):
    start = text.index(value)
    return RelevanceRules().verdict(text, Span(start, start + len(value), label, value, 0.8, "spacy"))


# -- places asked about ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, place",
    [
        ("What is the climate of Manitoba like in winter?", "Manitoba"),
        ("Manitoba: is the weather in January too cold for a road trip?", "Manitoba"),
        ("List the landmarks of Lisbon a first-time visitor should not miss.", "Lisbon"),
        ("Is Nairobi a good market for a small solar business?", "Nairobi"),
    ],
)
def test_a_known_place_the_prompt_asks_about_is_kept_with_confidence(text, place):
    verdict = _verdict(text, place, Label.LOCATION)
    assert verdict is not None and verdict.keep
    assert verdict.confidence >= PROTECTIVE_RULE_CONFIDENCE


@pytest.mark.parametrize("text, town", [
    ("Make a packing list for my trip to Banff with my two kids.", "Banff"),
    ("Plan a 2-day itinerary in Zermatt for a couple who love hiking.", "Zermatt"),
])
def test_a_small_town_a_trip_goes_to_is_kept_with_confidence(text, town):
    """Too small for the place index (GeoNames towns of 15,000), a town all the same
    (GeoNames towns of 5,000): the destination of a trip."""
    verdict = _verdict(text, town, Label.LOCATION)
    assert verdict is not None and verdict.keep and verdict.confidence >= PROTECTIVE_RULE_CONFIDENCE


def test_a_made_up_place_a_trip_goes_to_is_still_not_public():
    verdict = _verdict("Make a packing list for my trip to Quorrindale with my two kids.", "Quorrindale", Label.LOCATION)
    assert verdict is not None and not verdict.keep


@pytest.mark.parametrize(
    "text, place",
    [
        ("Our Denver office needs a new printer, draft the request.", "Denver"),
        ("Send the parcel to my address in Denver by Friday.", "Denver"),
        ("We are from Saskatchewan and need a trip plan for our guests.", "Saskatchewan"),
        ("My sister lives in Saskatchewan, write her a note about her holiday.", "Saskatchewan"),
    ],
)
def test_a_private_cue_wins_over_a_trip_or_a_question(text, place):
    verdict = _verdict(text, place, Label.LOCATION)
    assert verdict is not None and not verdict.keep
    assert verdict.confidence >= PROTECTIVE_RULE_CONFIDENCE


def test_an_unknown_place_is_not_kept_for_the_topic_alone():
    verdict = _verdict("Plan a trip to Quillbrook Hollow with my cousins.", "Quillbrook Hollow", Label.LOCATION)
    assert verdict is not None and not verdict.keep


def test_place_topic_words_are_whole_words():
    assert PLACE_TOPIC.search("any hotels near the station?")
    assert not PLACE_TOPIC.search("the guidelines for factsheets")  # 'guide', 'facts' inside other words


# -- characters of a work the prompt names -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Which season of Harbor Lights was the best?",
        "Summarise the Harbor Lights novel in three lines.",
        "Describe the characters from Glass Orchard in a table.",
        'Recap the film called "Paper Comets" for my book club.',
        'Jokes in the style of the sitcom "Maple Street Nights", please.',
        "List the characters in Paper Comets.",
    ],
)
def test_a_title_with_the_kind_of_work_names_a_work(text):
    assert names_a_work(text)


@pytest.mark.parametrize(
    "text",
    [
        "My Novel is due on Monday.",
        "The Best Movies list is long.",
        "Write a story about my dog and our new neighbour.",
        "Episodes of coughing kept me awake.",
        "Best Road Trip movies for a rainy day, please.",  # capitals of a heading
        "Recommend an RPG game for two players.",  # a genre, not a title
        "My son likes TV shows about trains.",
        "The latest Quarterly Sales shows that the spring campaign worked.",  # 'shows' as a verb
        "Okafor's books are on the top shelf.",  # an author's books, not a title
        "You are a video blogger on Bright Lake Book in Kenya.",  # where, not which work
    ],
)
def test_headings_and_plain_words_name_no_work(text):
    assert not names_a_work(text)


def test_the_works_people_are_its_characters():
    verdict = _verdict("Write the characters from Glass Orchard arguing, with Pell and Odalys.", "Odalys", Label.PERSON)
    assert verdict is not None and verdict.keep and verdict.confidence >= PROTECTIVE_RULE_CONFIDENCE


def test_a_work_named_far_away_in_a_long_text_says_nothing_of_a_person():
    text = "Write an episode of Harbor Lights. " + "Some unrelated filler words here. " * 30 + "Please email Odalys about the rent."
    verdict = _verdict(text, "Odalys", Label.PERSON)
    assert verdict is not None and not verdict.keep


def test_a_work_with_the_users_own_people_keeps_them_private():
    text = "Write an episode of Harbor Lights for my family where Odalys and Brannock lose the keys."
    verdict = _verdict(text, "Odalys", Label.PERSON)
    assert verdict is not None and not verdict.keep


# -- authors cited in a prompt about ideas ---------------------------------------------------


@pytest.mark.parametrize(
    "text, name",
    [
        ("Summarise how Quorrin and Vastell (1987) describe scientific paradigms.", "Quorrin"),
        ("Summarise how Quorrin and Vastell (1987) describe scientific paradigms.", "Vastell"),
        ("Compare the critique of induction by Quorrin, Vastell and Maretti.", "Maretti"),
        ("Explain the Halvorsen paradox in simple words.", "Halvorsen"),
    ],
)
def test_cited_authors_are_kept_with_confidence(text, name):
    verdict = _verdict(text, name, Label.PERSON)
    assert verdict is not None and verdict.keep and verdict.confidence >= PROTECTIVE_RULE_CONFIDENCE


@pytest.mark.parametrize(
    "text, name, keep",
    [
        ("Make slides for a presentation about Orla Brennagh, her life and her poems.", "Orla Brennagh", True),
        ("I need an essay on Tomasz Kelleway and the 1848 revolutions.", "Tomasz Kelleway", True),
        ("Write a speech about my grandfather Tomasz Kelleway for his funeral.", "Tomasz Kelleway", False),
        ("Write a report on Orla Brennagh's sales this quarter.", "Orla Brennagh", False),
    ],
)
def test_the_subject_of_a_talk_or_an_essay_is_kept_and_a_relative_or_a_report_is_not(text, name, keep):
    """An input of the judge (below the confidence that binds it): a made-up name is still
    "a name nobody writes about" to the engine."""
    verdict = _verdict(text, name, Label.PERSON)
    assert verdict is not None and verdict.keep is keep


def test_a_list_of_names_outside_a_prompt_about_ideas_is_no_citation():
    verdict = _verdict("A painting by Quorrin and Vastell hangs in my hallway.", "Vastell", Label.PERSON)
    assert verdict is not None and not verdict.keep


def test_a_lower_case_everyday_noun_after_a_name_is_no_named_idea():
    # 'solution' makes an idea only with a capital ('the Brannigan Solution').
    verdict = _verdict("Tell Dalia that Tobias's solution for the fence is fine.", "Tobias", Label.PERSON)
    assert verdict is not None and not verdict.keep


def test_a_capital_noun_makes_a_name_an_idea_and_a_lower_case_one_does_not():
    idea = _verdict("Read about the Quorrin Plan for pensions.", "Quorrin Plan", Label.PERSON)
    assert idea is not None and idea.keep
    plain = _verdict("Read about the Quorrin plan for pensions.", "Quorrin plan", Label.PERSON)
    assert plain is not None and not plain.keep


def test_a_story_task_keeps_a_bare_surname_private_even_near_ideas():
    verdict = _verdict("Write a story where Marwick explains his theory of dreams.", "Marwick", Label.PERSON)
    assert verdict is not None and not verdict.keep


def test_academic_words_are_whole_words():
    assert ACADEMIC.search("a paper on epistemology")
    assert not ACADEMIC.search("the newspapers and the reviewer")


# -- listed companies -----------------------------------------------------------------------


@pytest.mark.parametrize("written", ["Unilever's", "The Coca-Cola Company", "Siemens AG", "siemens"])
def test_listed_companies_as_written_in_prose(written):
    assert is_listed_company(written)


def test_a_listed_company_is_public_as_an_org_or_misc_but_not_as_a_place_or_person():
    assert is_public("Unilever", Label.ORG) and is_public("Unilever", Label.MISC)
    assert not is_public("Unilever", Label.LOCATION) and not is_public("Unilever", Label.PERSON)


def test_kind_words_alone_are_no_company():
    for words in ("Group", "Holdings", "The Company", "International"):
        assert company_index().listed_name(words) is None


def test_a_listed_company_asked_about_is_kept_and_a_client_is_not():
    asked = _verdict("What were Unilever's biggest brands in the nineties?", "Unilever's", Label.ORG)
    assert asked is not None and asked.keep
    client = _verdict("Our client Siemens asked for a quote by Monday.", "Siemens", Label.ORG)
    assert client is not None and not client.keep and client.confidence >= PROTECTIVE_RULE_CONFIDENCE


# -- word frequencies -------------------------------------------------------------------------


def test_zipf_ignores_punctuation_and_case():
    assert zipf("Toyota,") == zipf("toyota") > 3.0
    assert zipf("...") == 0.0


def test_name_zipf_reads_only_words_with_letters():
    rare, common = name_zipf("Zebulon 42 Quillfeatherton")
    assert rare == 0.0 and common == zipf("Zebulon")
    assert name_zipf("42") == (0.0, 0.0)


# -- a confident rule binds the judge ---------------------------------------------------------


def _rows(*rule_keeps: float) -> np.ndarray:
    rows = np.zeros((len(rule_keeps), len(FEATURE_NAMES)), np.float32)
    rows[:, FEATURE_NAMES.index("rule_keep")] = rule_keeps
    return rows


def test_confident_rules_force_the_probability_both_ways_and_weak_ones_do_not():
    rows = _rows(0.85, -0.9, 0.6, -0.6, 0.0)
    assert protective(rows, [0.1, 0.9, 0.3, 0.7, 0.5]) == [1.0, 0.0, 0.3, 0.7, 0.5]
    assert [decided_by_rule(r) for r in rows] == [True, True, False, False, False]


# -- a full name NER took for a place or an organisation -------------------------------------


@pytest.mark.parametrize("name", ["Ildikó Hoffmann", "Réka Sandoval", "Enikő Vogel", "Anikó Portillo"])
def test_a_first_name_and_a_surname_are_a_person_whatever_the_parse_says(name):
    from agent.config import default_settings
    from agent.engine.core import Engine
    from agent.session.conversation import Conversation

    text = f"I want to add {name} as a beneficiary to my account."
    result = Engine(default_settings()).sanitize(text, Conversation("full-name-test"))
    found = [e for e in result.entities if e.real == name]
    assert found and found[0].label is Label.PERSON and found[0].action is not Action.KEEP


def test_names_that_are_also_surnames_or_companies_are_left_to_the_parse():
    from agent.detect.ner_labels import full_name_shape as _full_name_shape
    from agent.knowledge.names import lexicon

    names = lexicon()
    assert _full_name_shape("Réka Sandoval", names)
    assert not _full_name_shape("Spencer Quintero", names)  # 'Spencer' is a surname too
    assert not _full_name_shape("Wells Fargo", names)
    assert not _full_name_shape("Réka SANDOVAL", names)
    assert not _full_name_shape("Réka", names)
