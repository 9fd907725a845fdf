"""Two rare capitalised words that no place or company list knows are a person's name,
whatever type NER guessed ("Kasia Wrona" read as a place, "Teodor Mălăescu" as a company)."""

import pytest

from agent.detect.ner_labels import rare_word_pair as _rare_word_pair
from agent.entities import Label
from agent.session.conversation import Conversation


@pytest.mark.parametrize("value", ["Kasia Wrona", "Teodor Mălăescu", "Ilario Vukašinović", "Ilse Brankovich"])
def test_rare_foreign_names_are_a_pair(value):
    assert _rare_word_pair(value)


@pytest.mark.parametrize(
    "value",
    [
        "San Jose",  # a known place
        "Ballyfane Workhouse",  # a trade word is no rare word
        "Leipzig Gohlis",  # a city's name is common in English text
        "Globex GmbH",  # a legal form
        "Kasia",  # one word: left to the other rules
        "KASIA WRONA",  # all capitals: a heading or a code, not this rule
        "Wrona Analytics",  # a trade word
    ],
)
def test_what_is_not_a_rare_pair(value):
    assert not _rare_word_pair(value)


def test_rare_pair_guessed_as_place_is_swapped_as_a_person(privacy_engine):
    text = "I want to add Kasia Wrona as a beneficiary to my account."
    spans = [s for s in privacy_engine.detect(text) if "Wrona" in s.text]
    assert spans and all(s.label is Label.PERSON for s in spans), spans
    result = privacy_engine.sanitize(text, Conversation("rare-pair"))
    assert "Wrona" not in result.sanitized and "Kasia" not in result.sanitized, result.sanitized


def test_an_unknown_word_guessed_as_a_place_that_acts_as_a_person(privacy_engine):
    # NER often reads a coined one-word name as a place; "he" right after says who it is.
    text = "Marlsburg smiled and said he would carry the lantern himself."
    spans = [s for s in privacy_engine.detect(text) if s.text == "Marlsburg"]
    assert spans and all(s.label is Label.PERSON for s in spans), spans
