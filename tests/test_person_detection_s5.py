"""Person detection, session 5: people named by letters in family-relation puzzles,
surname-in-capitals rosters, two lower-case first names joined by "and", a first name
NER read as a person that a country shares, lower-cased names found again by their
parts, and person names as values of data fields. Sentences written for these tests."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.detect import person_names
from agent.detect.person_names import PersonNameDetector
from agent.engine.core import Engine


@pytest.fixture(scope="module")
def engine():
    return Engine(default_settings())


def _persons(engine, text):
    return [s.text for s in engine.detect(text) if s.label.value == "PERSON"]


def _labels(engine, text):
    return {s.text: s.label.value for s in engine.detect(text)}


# -- letters in relation puzzles -----------------------------------------------------------


def test_letters_next_to_kinship_words_are_people(engine):
    text = "K is the uncle of T. T's daughter is married to V. How is K related to V?"
    found = _persons(engine, text)
    # "T" is also the usual type parameter of code: here it is a person.
    assert found.count("K") == 2 and found.count("T") == 2 and found.count("V") == 2


def test_a_letter_puzzle_is_not_read_as_an_organisation(engine):
    # NER reads "V. W" across the sentence end as one name or organisation.
    text = "Nell is the aunt of V. W is the brother of Nell. How is V related to W?"
    labels = _labels(engine, text)
    assert labels.get("V") == "PERSON" and labels.get("W") == "PERSON"
    assert "V. W" not in labels


def test_the_letter_a_as_article_is_not_a_person():
    text = "A is the mother of B and B is the son of C. A good puzzle has one answer."
    spans = PersonNameDetector(None)._by_kinship_letter(text)
    starts = [s.start for s in spans if s.text == "A"]
    assert starts == [0]  # the person, not the article of "A good puzzle"


def test_two_letters_make_a_puzzle_one_does_not():
    assert person_names.kinship_letters("X is the niece of Y.") == frozenset({"X", "Y"})
    assert person_names.kinship_letters("Vitamin D is good for your mother.") == frozenset()
    assert person_names.kinship_letters("Plan B: ask my brother. Then call about form C.") == frozenset()


# -- rosters with the surname in capitals ---------------------------------------------------


def test_a_roster_of_surname_in_capitals_pairs(engine):
    text = "Team sheet: VANTERPOOL Ingrid 3, OKONJO Tamsin 5, HALLDORS Bjorn 2, DEVEREUX Paulette 4"
    found = set(_persons(engine, text))
    assert {"VANTERPOOL Ingrid", "OKONJO Tamsin", "HALLDORS Bjorn", "DEVEREUX Paulette"} <= found
    text = "Our NEW Release ships today with FREE Delivery and a SPECIAL Offer."
    assert _persons(engine, text) == []


# -- lower-case first names joined by "and" --------------------------------------------------


def test_two_lower_case_first_names_joined_by_and(engine):
    found = set(_persons(engine, "tell a short story about brad and tomas opening a bakery"))
    assert {"brad", "tomas"} <= found
    text = "we compared salt and pepper, grace and mercy, ruby and python, jordan and georgia"
    assert _persons(engine, text) == []


# -- a country's name used for a person -------------------------------------------------------


def test_a_first_name_a_country_shares_doing_what_people_do(engine):
    text = "Plan the office party. Chad booked the room, but nobody brought snacks."
    assert _labels(engine, text).get("Chad") == "PERSON"
    assert _labels(engine, "We flew over Chad and Niger on the way to Lagos.").get("Chad") == "LOCATION"


def test_a_lower_case_name_in_a_pair_makes_its_capitalised_mentions_people(engine):
    text = "write a tale about chad and tomas at a bakery. Chad hired a new baker but Tomas did not agree."
    labels = [(s.text, s.label.value) for s in engine.detect(text)]
    assert ("Chad", "PERSON") in labels and ("chad", "PERSON") in labels


# -- lower-cased full names and their parts ---------------------------------------------------


def test_the_surname_of_a_lower_cased_full_name_alone(engine):
    text = "book a table for ingrid halvorsen and tell halvorsen the time."
    found = _persons(engine, text)
    assert "ingrid halvorsen" in found and "halvorsen" in found
    assert "ingrid" in _persons(engine, "the badge for ingrid halvorsen is ready. ask ingrid to pick it up.")
    text = "please draft a welcome note for ingrid halvorsen. the note should be short."
    assert "note" not in _persons(engine, text)


# -- data fields whose value is a person ------------------------------------------------------


def test_a_yaml_author_field():
    text = "title: Field notes\nauthor: Halvard Strom\nversion: 3\n"
    found = {s.text for s in PersonNameDetector(None)._by_name_field(text, _NoDoc(), [])}
    assert found == {"Halvard Strom"}


def test_name_fields_of_records_where_most_names_are_known():
    text = '[{"name": "odalys", "team": "ops"}, {"name": "Greta Lindqvist"}, {"name": "brennick"}, {"name": "tomas"}]'
    found = {s.text for s in PersonNameDetector(None)._by_name_field(text, _NoDoc(), [])}
    assert {"odalys", "Greta Lindqvist", "brennick", "tomas"} <= found
    text = '{"name": "my-app", "version": "1.0.0", "scripts": {"name": "build"}}'
    assert PersonNameDetector(None)._by_name_field(text, _NoDoc(), []) == []


class _NoDoc:
    ents = ()


# -- a lower-cased surname opening a sentence -------------------------------------------------


def test_a_lower_cased_surname_as_the_subject_of_a_persons_verb(engine):
    assert "novotná" in _persons(engine, "novotná started a bakery last spring and she still runs it.")
    assert _persons(engine, "python runs the tests and it reports errors. she reads them.") == []


def test_a_lower_case_guess_of_ner_alone_is_not_sought_again():
    from agent.detect.registry import _repeated_mentions
    from agent.entities import Label, Span

    text = "ask the zorvex team. the zorvex team knows. ask halvorsen, halvorsen knows."
    guess = Span(8, 19, Label.PERSON, "zorvex team", 0.65, "spacy")
    known = Span(48, 57, Label.PERSON, "halvorsen", 0.65, "spacy")
    assert text[guess.start:guess.end] == "zorvex team" and text[known.start:known.end] == "halvorsen"
    found = {(s.start, s.text) for s in _repeated_mentions(text, [guess, known])}
    assert (25, "zorvex team") not in found  # no word of it is a name the lists know
    assert (59, "halvorsen") in found


# -- lists whose items the name lists know ------------------------------------------------------


def test_a_list_of_surnames_the_lists_know_makes_its_other_items_names():
    text = "Seats went to Okafor, Lindqvist, Brzezinski and Quattlebaum after the vote."
    found = {s.text for s in PersonNameDetector(None)._by_list(text, [])}
    assert {"Brzezinski", "Quattlebaum"} <= found
    # Places and ordinary words do not count towards a list of names.
    assert PersonNameDetector(None)._by_list("We toured Lisbon, Porto, Braga and Quattlebaum.", []) == []
