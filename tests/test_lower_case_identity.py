"""What people type in a hurry, all in lower case, is still theirs: a full name after "my name
is" (agent/detect/person_names.py) whose surname comes back alone later (name_parts in
agent/detect/memory.py, agent/detect/person_repeats.py), a street address with its town and
postcode after "i live at" (agent/detect/addresses.py), and a medical record number after
its hotword (agent/detect/patterns.py). Sentences of our own."""

from __future__ import annotations

import pytest

from agent.detect.memory import name_parts
from agent.entities import Label
from agent.session.conversation import Conversation


def test_a_lower_case_full_name_after_my_name_is_is_one_person(privacy_engine):
    text = "hi my name is marisol quintanar and i need help with a cover letter. quintanar is my family name."
    spans = [s for s in privacy_engine.detect(text) if s.label is Label.PERSON]
    assert any(s.text == "marisol quintanar" for s in spans), spans
    result = privacy_engine.sanitize(text, Conversation("lower-name"))
    assert "quintanar" not in result.sanitized and "marisol" not in result.sanitized, result.sanitized
    full = next(e for e in result.entities if e.real == "marisol quintanar")
    alone = next(e for e in result.entities if e.real == "quintanar")
    # the surname alone gets the surname of the full name's stand-in
    assert alone.sent == full.sent.split()[-1], (full.sent, alone.sent)


def test_my_name_is_stops_where_ordinary_words_begin(privacy_engine):
    text = "my name is marisol and i need a recipe for dinner"
    persons = [s.text for s in privacy_engine.detect(text) if s.label is Label.PERSON]
    assert persons == ["marisol"], persons


def test_parts_of_a_lower_case_name_leave_out_ordinary_words():
    assert name_parts("marisol quintanar") == ["marisol", "quintanar"]
    assert name_parts("will quintanar") == ["quintanar"]  # "will" alone is a word
    assert name_parts("Marisol Quintanar") == ["Marisol", "Quintanar"]


@pytest.mark.parametrize(
    "text, address",
    [
        ("i live at 42 thornbury road, bristol bs6 7ab and work from home", "42 thornbury road, bristol bs6 7ab"),
        ("please ship to 118 alder lane, springfield 62704 by friday", "118 alder lane, springfield 62704"),
        ("my address is 9 quarry street", "9 quarry street"),
    ],
)
def test_a_lower_case_street_address_after_an_address_cue(privacy_engine, text, address):
    spans = [s for s in privacy_engine.detect(text) if s.label is Label.ADDRESS]
    assert [s.text for s in spans] == [address], spans
    assert address not in privacy_engine.sanitize(text, Conversation("lower-address")).sanitized


@pytest.mark.parametrize(
    "text",
    ["we got 5 main road works done and 3 side street lamps fixed", "the 2 high street shops close at 6"],
)
def test_lower_case_numbers_and_street_words_without_a_cue_are_no_address(privacy_engine, text):
    assert not [s for s in privacy_engine.detect(text) if s.label is Label.ADDRESS]


@pytest.mark.parametrize(
    "text, value",
    [
        ("Patient seen today, MRN 00482913, follow-up in two weeks.", "00482913"),
        ("medical record number: MR-5531-08 on the discharge form", "MR-5531-08"),
        ("Subscriber ID W2214 9087 is on the back of the card", "W2214"),
    ],
)
def test_a_medical_record_or_subscriber_number_after_its_hotword(privacy_engine, text, value):
    result = privacy_engine.sanitize(text, Conversation("mrn"))
    assert value not in result.sanitized, result.sanitized
