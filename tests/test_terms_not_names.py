"""Words the answer needs that were read as names and swapped: medical and everyday
acronyms ("my father's MRI results", "a CT scan"), a language ("the letter is in German"),
polities, events and landmarks ("the Roman Empire", "the Berlin Wall"), a listed maker's
car ("Ford Focus"), a listed firm after a preposition ("a message to Airbnb support"), a
month beside a day ("on 8 Jan."). Sentences written for these tests."""

from __future__ import annotations

import pytest

from agent.entities import Label
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, term",
    [
        ("Can you explain my father's MRI results in plain words?", "MRI"),
        ("My CT scan was normal but the headaches go on.", "CT"),
        ("Her thesis focuses on TB in children under five.", "TB"),
    ],
)
def test_an_everyday_acronym_is_kept_as_written_and_is_no_entity(privacy_engine, text, term):
    result = privacy_engine.sanitize(text, Conversation("acronym"))
    assert term in result.sanitized, result.entities
    # not found at all: the judge alone kept some of these, and "CT" went out as "OREGON"
    assert not any(s.text == term for s in privacy_engine.detect(text)), privacy_engine.detect(text)


def test_rare_initials_are_still_an_organisation(privacy_engine):
    text = "I lead the data team at VKT, and our QBR slides are due Friday."
    assert any(s.text == "VKT" for s in privacy_engine.detect(text)), privacy_engine.detect(text)


def test_a_state_code_in_an_address_is_still_a_place(privacy_engine):
    spans = privacy_engine.detect("Ship it to 12 Elm Street, Hartford, CT 06103.")
    assert any("CT" in s.text for s in spans), spans


@pytest.mark.parametrize("text", ["The letter is in German and asks for a reply.",
                                  "Why was the unification of Italy slower than German unification?"])
def test_a_language_is_no_person(privacy_engine, text):
    result = privacy_engine.sanitize(text, Conversation("language"))
    assert "German" in result.sanitized, result.entities
    assert not any(e.label is Label.PERSON and "German" in e.real for e in result.entities), result.entities


@pytest.mark.parametrize(
    "text, words",
    [
        ("What caused the fall of the Berlin Wall?", "Berlin Wall"),
        ("How did the Holy Roman Empire end?", "Roman Empire"),
        ("Summarise the causes of the Boer War.", "Boer War"),
    ],
)
def test_polities_events_and_landmarks_are_no_people(privacy_engine, text, words):
    result = privacy_engine.sanitize(text, Conversation("history"))
    assert words in result.sanitized, result.entities


def test_a_surname_that_is_a_landmark_word_is_still_a_surname(privacy_engine):
    result = privacy_engine.sanitize("Please forward this to Dana Wall, our new tenant.", Conversation("tenant"))
    assert "Dana Wall" not in result.sanitized, result.entities


def test_a_listed_makers_car_is_no_person(privacy_engine):
    result = privacy_engine.sanitize("My car (Ford Focus, reg. WN19 XKD) was hit in the car park.", Conversation("car"))
    assert "Ford Focus" in result.sanitized, result.entities
    assert "WN19 XKD" not in result.sanitized and "XKD" not in result.sanitized, result.entities


def test_a_listed_firm_after_to_is_no_person(privacy_engine):
    result = privacy_engine.sanitize("Draft a message to Airbnb support about a refund.", Conversation("firm"))
    assert "Airbnb" in result.sanitized, result.entities
    assert not any(e.label is Label.PERSON for e in result.entities), result.entities


@pytest.mark.parametrize("text", ["The van hit me on 8 Jan. Write to the insurer.", "Can I still pay before 31 Jan?"])
def test_a_month_beside_a_day_is_no_person(privacy_engine, text):
    result = privacy_engine.sanitize(text, Conversation("month"))
    assert not any(e.label is Label.PERSON for e in result.entities), result.entities


@pytest.mark.parametrize("text", ["I worked as a line cook for two years before college.",
                                  "How do I complain about my student loan servicer?"])
def test_everyday_word_pairs_are_no_people(privacy_engine, text):
    result = privacy_engine.sanitize(text, Conversation("words"))
    assert not any(e.label is Label.PERSON for e in result.entities), result.entities


def test_a_role_noun_before_a_name_is_not_part_of_it(privacy_engine):
    result = privacy_engine.sanitize("Driver Paweł will call you at 9 tomorrow.", Conversation("role"))
    assert result.sanitized.startswith("Driver ") and "Paweł" not in result.sanitized, result.entities


def test_a_public_figure_written_without_the_lists_middle_initial_is_kept(privacy_engine):
    result = privacy_engine.sanitize("What did Lyndon Johnson sign in 1964, and why?", Conversation("public"))
    assert "Lyndon Johnson" in result.sanitized, result.entities


@pytest.mark.parametrize(
    "text, term",
    [
        ("My father has Parkinson's disease; what exercises help?", "Parkinson's disease"),
        ("She was diagnosed with Hashimoto's thyroiditis last spring.", "Hashimoto's thyroiditis"),
        ("Explain Occam's razor with an example from medicine.", "Occam's razor"),
    ],
)
def test_a_term_named_after_someone_is_kept_whole(privacy_engine, text, term):
    result = privacy_engine.sanitize(text, Conversation("eponym"))
    assert term in result.sanitized, result.entities
