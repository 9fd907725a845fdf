"""Spoken identifiers in transcripts: found whole, with the right type, and stand-ins
written back in the same spoken form."""

from __future__ import annotations

from agent.entities import Label
from agent.files.spoken import find_spoken, render_spoken
from agent.files.transcript import is_role, structure_spans


def _one(text: str):
    found = find_spoken(text)
    assert len(found) == 1, [(f.label, f.text) for f in found]
    return found[0]


def test_phone_digits_grouped_with_double():
    entity = _one("Customer: sure, it's six four six, double two one, nine oh eight four.\n")
    assert entity.label is Label.PHONE
    assert entity.canonical == "6462219084"
    assert entity.text == "six four six, double two one, nine oh eight four"
    assert render_spoken(entity, "6463319084") == "six four six, double three one, nine oh eight four"
    assert render_spoken(entity, "6463419084") == "six four six, three four one, nine oh eight four"


def test_email_spoken_and_rendered_the_same_way():
    entity = _one("Caller: my address is priya underscore nair at outlook dot com thanks\n")
    assert entity.label is Label.EMAIL and entity.canonical == "priya_nair@outlook.com"
    assert render_spoken(entity, "leela_menon@outlook.com") == "leela underscore menon at outlook dot com"


def test_spelled_surname_after_the_name_was_said():
    entity = _one("Caller: I'm Tomasz Wierzbicki, that's W I E R Z B I C K I.\n")
    assert entity.label is Label.PERSON and entity.canonical == "Wierzbicki"
    assert entity.text == "W I E R Z B I C K I"  # the full stop is the sentence's
    assert entity.context_name == "Tomasz Wierzbicki"
    assert render_spoken(entity, "Kowalski") == "K O W A L S K I"


def test_spelled_with_as_in():
    entity = _one("Caller: it's D as in delta, U as in uniform, N as in nancy, N, E.\n")
    assert entity.canonical == "Dunne"
    assert render_spoken(entity, "Ross") == "R as in Romeo, O as in Oscar, S as in Sierra, S as in Sierra"


def test_card_read_over_turns_is_one_entity():
    text = ("Agent: the card number please?\nCaller: four five three nine, five seven eight seven\n"
            "Agent: go on\nCaller: then six three six two, one four eight six\nAgent: thanks\n")
    entity = _one(text)
    assert entity.label is Label.CREDIT_CARD and entity.canonical == "4539578763621486"
    assert "Agent: go on" in entity.text
    rendered = render_spoken(entity, "4111111111111111")
    assert rendered == ("four one one one, one one one one\nAgent: go on\nCaller: then one one one one, one one one one")


def test_new_question_starts_a_new_number():
    text = ("Caller: nine four one two two eight\nAgent: and your account number?\n"
            "Caller: three three eight one seven\n")
    found = find_spoken(text)
    assert [f.canonical for f in found] == ["941228", "33817"]
    assert found[1].label is Label.ID


def test_ordinary_speech_is_not_a_number():
    for text in ("Caller: I have two kids and one dog.\n", "Caller: oh, two things first.\n",
                 "Agent: it takes three to five days\n", "Caller: I called twice, at nine and at one.\n"):
        assert find_spoken(text) == [], text


def test_short_number_needs_a_hotword():
    assert find_spoken("Caller: it was five two one\n") == []
    entity = _one("Caller: my pin is five two one\n")
    assert entity.label is Label.ID and entity.canonical == "521"


def test_speaker_roles_are_structure_names_are_not():
    assert is_role("Agent") and is_role("Speaker 2") and is_role("Customer") and is_role("Interviewer")
    assert not is_role("John Baker") and not is_role("Mark")
    text = "[00:01:12] Speaker 2: hello\nJohn Baker: hi\nAgent: yes\n"
    spans = [text[s:e] for s, e in structure_spans(text)]
    assert spans == ["[00:01:12] Speaker 2:", "Agent:"]
