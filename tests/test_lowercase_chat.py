"""Chat written all in lower case: the names greeted or signing off and a numbered street
after a preposition of place are found; endearments, group greetings and phrases with a
number are not. Also: a pronoun with a contracted verb is never a name in a list of names.
Sentences written for these tests."""

from __future__ import annotations

import pytest

from agent.entities import Label
from agent.session.conversation import Conversation


def persons(engine, text: str) -> set[str]:
    return {s.text for s in engine.detect(text) if s.label is Label.PERSON}


@pytest.mark.parametrize(
    "text, names",
    [
        ("rewrite this pls: hi priya, sorry i missed ur call. - tom", {"priya", "tom"}),
        ("can you make this nicer: hey sam, the report is late again. thanks, dave", {"sam", "dave"}),
        ("ok see u then - mark", {"mark"}),
        ("hello ingrid, the keys are under the mat", {"ingrid"}),
    ],
)
def test_a_lower_case_name_greeted_or_signing_off_is_a_person(privacy_engine, text, names):
    assert names <= persons(privacy_engine, text), persons(privacy_engine, text)
    sanitized = privacy_engine.sanitize(text, Conversation("lower-greeting")).sanitized
    assert not any(f" {n}" in sanitized for n in names), sanitized


@pytest.mark.parametrize(
    "text",
    [
        "hi love, dinner at 7? x",
        "thanks boss, will do",
        "hey guys, who is free tonight",
        "hello there, i need help with my taxes",
        "hi will be late today",
    ],
)
def test_endearments_and_greetings_to_a_group_are_no_names(privacy_engine, text):
    assert not persons(privacy_engine, text)


@pytest.mark.parametrize(
    "text, street",
    [
        ("meet me at 42 baker street tomorrow", "42 baker street"),
        ("ill be at the clinic on 7 ashford rd till 5", "7 ashford rd"),
        ("drop it off at 19 willow lane pls", "19 willow lane"),
    ],
)
def test_a_lower_case_numbered_street_after_a_preposition_is_an_address(privacy_engine, text, street):
    addresses = [s.text for s in privacy_engine.detect(text) if s.label is Label.ADDRESS]
    assert street in addresses, addresses
    assert street not in privacy_engine.sanitize(text, Conversation("lower-street")).sanitized


@pytest.mark.parametrize(
    "text",
    ["we walked on 2 sides of the green", "meet at 10 by the main gate", "i ate 5 main road snacks"],
)
def test_a_phrase_with_a_number_and_a_street_word_is_no_address(privacy_engine, text):
    assert not [s for s in privacy_engine.detect(text) if s.label is Label.ADDRESS]


def test_a_pronoun_with_a_contracted_verb_ends_a_list_of_names(privacy_engine):
    text = "Can you check my essay? My name is Oluwaseun Adeyemi and I'm applying to college."
    result = privacy_engine.sanitize(text, Conversation("contraction"))
    assert "I'm applying" in result.sanitized, result.sanitized
    assert "I'm" not in persons(privacy_engine, text)


@pytest.mark.parametrize(
    "text, name",
    [
        ("write a dating bio for me, im jake, 27, nurse, love hiking", "jake"),
        ("hi my name is frank and i need help with a letter", "frank"),  # "my name is" says a name follows
        ("im priya and i run a small bakery", "priya"),  # a name that is no English word
    ],
)
def test_a_lower_case_self_introduction_names_a_person(privacy_engine, text, name):
    assert name in persons(privacy_engine, text)


@pytest.mark.parametrize("text", ["i'm frank, i dont like this", "i'm tired, can u help", "im grace under pressure lol"])
def test_a_word_after_im_is_no_name_without_an_age_after_it(privacy_engine, text):
    assert not persons(privacy_engine, text)


@pytest.mark.parametrize(
    "text, town",
    [
        ("im a nurse in glasgow and i hate the night shifts", "glasgow"),
        ("i moved here from leeds last year, how do i register with a gp", "leeds"),
    ],
)
def test_a_lower_case_town_after_a_preposition_is_a_place(privacy_engine, text, town):
    places = [s.text for s in privacy_engine.detect(text) if s.label is Label.LOCATION]
    assert town in places, places


@pytest.mark.parametrize("text", ["im reading in bath tonight", "we are going to nice places", "it broke in split seconds"])
def test_a_lower_case_word_that_names_a_town_too_is_left_alone(privacy_engine, text):
    assert not [s for s in privacy_engine.detect(text) if s.label is Label.LOCATION]


def test_a_lower_case_city_asked_about_is_kept(privacy_engine):
    text = "what to do in new york for a weekend"
    assert "new york" in privacy_engine.sanitize(text, Conversation("lower-city")).sanitized


def test_a_greeting_before_im_does_not_hide_the_name_after_it(privacy_engine):
    """"Hey, I'm Sven": the greeting's cue took "I'm" for the name and used up the text, so
    the "I'm" cue never saw "Sven"."""
    text = "Hey, I'm Sven from Göteborg. How do we price cinnamon buns?"
    assert "Sven" in persons(privacy_engine, text)


@pytest.mark.parametrize(
    "text, name",
    [
        # a name only one locale lists (en_IN), after a relation word
        ("can u rewrite this for linkedin: huge thanks to my manager deepa and the whole crew", "deepa"),
        # a name no list has, greeted with a comma after it
        ("hi sunita, the plumber comes at 3 so pls leave the key", "sunita"),
    ],
)
def test_a_lower_case_name_few_or_no_lists_have_is_found_where_a_person_stands(privacy_engine, text, name):
    assert name in persons(privacy_engine, text), persons(privacy_engine, text)


@pytest.mark.parametrize("text", ["thanks bff, see u", "hey guys, dinner at 8?", "hi there, quick question"])
def test_chat_words_greeted_are_no_person(privacy_engine, text):
    assert not persons(privacy_engine, text), persons(privacy_engine, text)
