"""Names in lower-case chat ("hey its ravi", "my wife sunita", "vikram to email the
client"), given or family names NER left beside a name it found ("Subhash Chandra Ghosh",
"Nguyễn Thị Lan"), a surname that is also a character's ("Sven de Groot"), a relation told
with "is" ("her mum is Rosa ..."), and phone stand-ins of the same kind in the same plan.
Sentences written for these tests."""

from __future__ import annotations

import random

import phonenumbers
import pytest

from agent.session.conversation import Conversation
from agent.substitute.formats import fake_phone


@pytest.mark.parametrize(
    "text, name",
    [
        ("hey its ravindra, can u cover my shift on sat", "ravindra"),
        ("my wife sunita wants to visit her parents, plan a route", "sunita"),
        ("notes from today\nvikram to email the client\nme to fix the build", "vikram"),
    ],
)
def test_a_name_in_lower_case_chat_is_swapped(privacy_engine, text, name):
    result = privacy_engine.sanitize(text, Conversation("chat"))
    assert name not in result.sanitized, result.entities


@pytest.mark.parametrize("text", ["hey its me, call me back", "its fine, thanks anyway", "remember to water the plants"])
def test_everyday_chat_has_no_names(privacy_engine, text):
    result = privacy_engine.sanitize(text, Conversation("chat"))
    assert result.sanitized == text, result.entities


@pytest.mark.parametrize(
    "text, word",
    [
        ("Please explain my father Subhash Chandra Ghosh's scan report.", "Subhash"),
        ("Customer: Nguyễn Thị Lan, order pending since Monday", "Nguyễn"),
    ],
)
def test_the_rest_of_a_name_ner_cut_short_is_swapped_with_it(privacy_engine, text, word):
    result = privacy_engine.sanitize(text, Conversation("whole-name"))
    assert word not in result.sanitized, result.entities


def test_a_surname_that_is_a_characters_name_is_no_character(privacy_engine):
    text = "I, Sven de Groot, declare that the statement below is true."
    result = privacy_engine.sanitize(text, Conversation("groot"))
    assert "Sven de Groot" not in result.sanitized, result.entities


def test_a_relation_told_with_is_makes_the_person_private(privacy_engine):
    text = "Write a note to parents about lice. (It was Ivy Marlow, age 4, her mum is Rosa Marlow, 0412 338 907.)"
    result = privacy_engine.sanitize(text, Conversation("relation"))
    assert "Rosa Marlow" not in result.sanitized, result.entities


@pytest.mark.parametrize("real, region", [("+61 412 338 907", "AU"), ("06 12 48 93 57", "FR"), ("+90 532 123 45 67", "TR")])
def test_a_mobile_gets_a_valid_mobile_of_its_plan(real, region):
    for seed in range(5):
        fake = fake_phone(random.Random(seed), real)
        parsed = phonenumbers.parse(fake, region)
        assert phonenumbers.is_valid_number(parsed), fake
        assert phonenumbers.number_type(parsed) == phonenumbers.PhoneNumberType.MOBILE, fake


@pytest.mark.parametrize(
    "text, nickname",
    [
        ('Katarzyna ("Kasia") Nowak is our architect; draft a thank-you note.', "Kasia"),
        ("Invite Robert (Bobby) Tanaka to the kick-off.", "Bobby"),
    ],
)
def test_a_nickname_in_brackets_is_swapped_with_the_name(privacy_engine, text, nickname):
    result = privacy_engine.sanitize(text, Conversation("nickname"))
    assert nickname not in result.sanitized, result.entities


def test_a_dutch_postcode_and_town_are_an_address(privacy_engine):
    text = "Mijn adres: Prinsengracht 263-II, 1016 GV Amsterdam. Kun je de brief nakijken?"
    result = privacy_engine.sanitize(text, Conversation("postcode"))
    assert "1016 GV" not in result.sanitized, result.entities
