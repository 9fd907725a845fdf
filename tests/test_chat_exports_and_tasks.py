"""Speakers of a chat export after their time stamps (one per line or run on in one line),
a person given a task in a list of action items even when a small town shares the name,
and a phrase of another language that NER took for a name. Sentences written for these
tests."""

from __future__ import annotations

import pytest

from agent.entities import Label


def persons(engine, text: str) -> set[str]:
    return {s.text for s in engine.detect(text) if s.label is Label.PERSON}


@pytest.mark.parametrize(
    "text, speakers",
    [
        ("Can you summarise this thread? [10:02] Bartholomew: deploy is blocked [10:03] Xiomara: on it",
         {"Bartholomew", "Xiomara"}),
        ("Summarise:\n[09:14] Odalys: the build failed again\n(9:20 PM) Ambrosius: I'll look after lunch",
         {"Odalys", "Ambrosius"}),
    ],
)
def test_speakers_after_chat_time_stamps_are_people(privacy_engine, text, speakers):
    assert speakers <= persons(privacy_engine, text), persons(privacy_engine, text)


def test_a_time_before_a_colon_is_no_speaker(privacy_engine):
    assert not persons(privacy_engine, "Meeting at 10:30: Agenda follows. [11:00] Break: coffee")


def test_a_person_given_a_task_is_a_person_though_a_town_has_the_name(privacy_engine):
    # Ngozi is a town in Burundi and a given name; a town is not "to send invites".
    text = "Action items: Ngozi to send invites, the rest of us to tidy up."
    found = {s.text: s.label for s in privacy_engine.detect(text) if s.text == "Ngozi"}
    assert found.get("Ngozi") is Label.PERSON, found


@pytest.mark.parametrize(
    "text, name",
    [
        ("Next steps: Chidubem to book the room for Thursday.", "Chidubem"),
        ("Minutes\n- Oyelaran to chase the supplier invoice\n- budget review in May", "Oyelaran"),
    ],
)
def test_a_name_no_list_has_given_a_task_is_a_person(privacy_engine, text, name):
    found = {s.text: s.label for s in privacy_engine.detect(text) if s.text == name}
    assert found.get(name) is Label.PERSON, privacy_engine.detect(text)


@pytest.mark.parametrize("text", ["Remember to bring snacks. Plan to leave early.", "Reminder: Returns to close at noon."])
def test_everyday_words_before_to_are_no_person(privacy_engine, text):
    assert not any(s.label is Label.PERSON for s in privacy_engine.detect(text)), privacy_engine.detect(text)


def test_a_big_city_given_a_task_stays_a_city(privacy_engine):
    text = "Next steps: Lagos to host the summit in May."
    assert "Lagos" not in persons(privacy_engine, text)


def test_a_phrase_of_another_language_is_no_person(privacy_engine):
    text = "Vielen Dank, Feliz Navidad is a song we sing at the office party."
    found = persons(privacy_engine, text)
    assert not any(w in f for f in found for w in ("Vielen", "Dank", "Feliz", "Navidad")), found


def test_a_reply_goes_to_a_person_though_a_country_has_the_name(privacy_engine):
    text = "Draft a reply to Jordan from the plumbing firm about the late invoice."
    found = {s.text: s.label for s in privacy_engine.detect(text) if s.text == "Jordan"}
    assert found.get("Jordan") is Label.PERSON, found


def test_a_letter_to_a_country_stays_a_country(privacy_engine):
    text = "Write a letter to France about tariffs on cheese."
    assert "France" not in persons(privacy_engine, text)


@pytest.mark.parametrize(
    "text, firm",
    [
        ("Reference for Aisling Brennan: she worked under me at Halcyon Dental from 2019 to 2023.", "Halcyon Dental"),
        ("Write a reference: he worked with us at Halcyon Dental for three years.", "Halcyon Dental"),
        ("He has worked part-time for Brindlewood Bakery since May; write his reference.", "Brindlewood Bakery"),
    ],
)
def test_where_someone_written_about_works_is_swapped(privacy_engine, text, firm):
    from agent.session.conversation import Conversation

    result = privacy_engine.sanitize(text, Conversation("works-at"))
    assert firm not in result.sanitized, result.sanitized


def test_a_household_name_employer_of_someone_else_stays(privacy_engine):
    from agent.session.conversation import Conversation

    result = privacy_engine.sanitize("She works at Google and wants advice on a promotion case.", Conversation("g"))
    assert "Google" in result.sanitized, result.sanitized


def test_a_street_ner_read_as_a_person_gets_a_streets_stand_in(privacy_engine):
    from agent.session.conversation import Conversation

    text = "Write a eulogy for my uncle, who ran the hardware shop on Kettering Lane for 40 years."
    result = privacy_engine.sanitize(text, Conversation("street"))
    assert "Kettering" not in result.sanitized, result.sanitized
    assert " Lane " in result.sanitized, result.sanitized  # a street's stand-in keeps its kind


def test_a_person_whose_surname_is_a_street_word_stays_a_person(privacy_engine):
    assert "Nathan Lane" in persons(privacy_engine, "We had lunch with Nathan Lane yesterday.")
