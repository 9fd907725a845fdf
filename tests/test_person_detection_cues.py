"""Person detection from cues NER does not use: a name line of a signature followed by a
blank line, a lower-case pair that one locale's lists know above contact details, the
list after a word for a group of people, lower-case self-introductions; and ordinary
capitalised words that are no one's name. Sentences written for these tests."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.detect.code_zones import is_code_text
from agent.detect.person_names import PersonNameDetector
from agent.entities import Label, Span
from agent.engine.core import Engine


@pytest.fixture(scope="module")
def engine():
    return Engine(default_settings())


def _persons(engine, text):
    return {s.text for s in engine.detect(text) if s.label.value == "PERSON"}


def _all(engine, text):
    return {s.text for s in engine.detect(text)}


@pytest.mark.parametrize(
    "text, name",
    [
        ("greta lindqvist\n\nphysiotherapist\n\ncontact:\nphone: 0461 2239 817", "greta lindqvist"),
        ("Ilona Marsh\n\nPharmacist\n\nphone: 0461 2239 817", "Ilona Marsh"),
    ],
)
def test_a_name_line_before_a_blank_line(text, name):
    # The name's words are on one line: the job title two lines down is not a third word.
    found = {s.text for s in PersonNameDetector(None)._by_line(text)}
    assert name in found


def test_a_lower_case_pair_one_locale_knows_above_contact_details(engine):
    text = "aksel kristensen\nwillowbrook analytics inc.\npo box 4471\nmobile: 41 883210"
    assert "aksel kristensen" in _persons(engine, text)


def test_surnames_listed_after_a_word_for_people(engine):
    text = "The studio was started by its founders: Whitlock, Haines and Okafor. They met at school."
    assert {"Whitlock", "Haines", "Okafor"} <= _persons(engine, text)


def test_lower_case_role_play_names_and_their_other_mentions(engine):
    text = "for this game, you are kofiwe and i am tamsyn, kofiwe and tamsyn are neighbours. Tamsyn lends Kofiwe a ladder."
    found = _persons(engine, text)
    assert {"kofiwe", "tamsyn", "Tamsyn", "Kofiwe"} <= found


def test_a_self_introduction_with_an_apposition(engine):
    assert "ruslanov" in _persons(engine, "hello, i am ruslanov a night-shift pharmacist with a question")


@pytest.mark.parametrize(
    "text",
    [
        "I am intrested, and you are kofiwe.",  # a misspelt word is not a name
        "I am fine. You are kofiwe, and I am tired.",
        "my name is not important, you are kofiwe.",
    ],
)
def test_only_the_name_after_i_am_or_you_are(engine, text):
    assert _persons(engine, text) == {"kofiwe"}


@pytest.mark.parametrize(
    "text, word",
    [
        ("Originally, Jonas wrote the first draft of the chapter.", "Originally"),
        ("Dear Mr. Okafor, As promised we send the form today.", "As"),
    ],
)
def test_a_capitalised_word_at_the_edge_of_a_list_is_no_name(engine, text, word):
    assert word not in _persons(engine, text)


def test_nicknames_in_the_middle_of_a_list_stay_names():
    # The word opening a clause after the list goes; the ordinary word "Sprout" between two
    # names stays a name.
    text = "For the plan we call them Pip, Sprout and Ingrid, As agreed on Monday."
    found = [Span(text.index(n), text.index(n) + len(n), Label.PERSON, n, 0.8, "person_names") for n in ("Pip", "Ingrid")]
    listed = {s.text for s in PersonNameDetector(None)._by_list(text, found)}
    assert "Sprout" in listed and "As" not in listed


def test_a_capitalised_word_the_text_also_writes_in_lower_case_is_no_entity(engine):
    text = "Columns: Name, Rank (the rank in the league), Hits (how many hits in total)."
    found = _all(engine, text)
    assert "Rank" not in found and "Hits" not in found


def test_a_one_word_organisation_that_is_her_or_his_is_a_person(engine):
    found = {s.text: s.label.value for s in engine.detect("Okumba had given Okumba her phone number.")}
    assert found.get("Okumba") == "PERSON"


def test_a_first_name_read_as_a_verb_after_you_and(engine):
    assert "Mark" in _persons(engine, "I will take you and Mark out for a walk later.")


def test_someone_addressed_before_a_request(engine):
    assert "Algot" in _persons(engine, "Algot, could you send me the invoice again?")


def test_a_name_after_a_sign_off_on_the_same_line(engine):
    assert "Zoreh" in _persons(engine, "The room is booked for ten. Kind regards, Zoreh")


@pytest.mark.parametrize("text", ["Sure, can you send it?", "Honestly, do you think so?", "Kind regards, Team Alpha"])
def test_an_ordinary_word_before_a_request_is_no_name(text):
    assert not PersonNameDetector(None)._by_address(text)


def test_a_lower_case_partner_of_a_found_name(engine):
    assert "ysolde" in _persons(engine, "On Friday we had dinner with ysolde and Kevin at the harbour.")


def test_a_latin_name_against_chinese_or_korean_letters():
    detector = PersonNameDetector(None)
    assert {s.text for s in detector._by_script_border("请把报告转发给Ingrid，谢谢")} == {"Ingrid"}
    assert {s.text for s in detector._by_script_border("내일 Ingrid Solberg는 회의에 옵니다")} == {"Ingrid Solberg"}


def test_a_product_with_a_version_next_to_korean_letters_is_no_name():
    text = "Gemma 2 모델이 나왔습니다. Gemma는 가볍고 빠릅니다."
    assert not PersonNameDetector(None)._by_script_border(text)


def test_a_sentence_opening_with_let_is_not_a_code_line(engine):
    # "let" declares a variable only in a declaration's shape; "let us ..." is English.
    found = _persons(engine, "let us play a game where you are kofiwe and i am tamsyn, two pilots.")
    assert {"kofiwe", "tamsyn"} <= found
    assert is_code_text("let a = 1;\nlet mut b = 2;\nconst { c } = obj;")
