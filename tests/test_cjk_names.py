"""Names in and beside Chinese, Japanese and Korean text, end to end: a Latin name glued
to a Korean particle or a Japanese honorific is swapped without the particle (the
particle stays in the text the LLM reads), found again where a later sentence or message
glues it to another particle, and put back in the answer."""

from __future__ import annotations

import pytest

from agent.detect.cjk_names import trim_at_script_change
from agent.entities import Label, Span
from agent.session.conversation import Conversation


def _span(text: str, label: Label = Label.PERSON, start: int = 0) -> Span:
    return Span(start, start + len(text), label, text, 0.8, "spacy")


@pytest.mark.parametrize(
    "found, name",
    [
        ("Velmora은", "Velmora"),
        ("Ines Varga先生は来週", "Ines Varga"),
        ("给Ingrid", "Ingrid"),
        ("후에 Ingrid에게", "Ingrid"),
        ("Tarsk Labs의 연구", "Tarsk Labs"),
    ],
)
def test_a_span_is_cut_where_the_script_changes(found, name):
    span = trim_at_script_change(_span(found, start=5))
    assert span.text == name
    assert (span.start, span.end) == (5 + found.index(name), 5 + found.index(name) + len(name))


@pytest.mark.parametrize(
    "span",
    [_span("이서연"), _span("Ingrid Solberg"), _span("2024年3月", Label.DATE), _span("田中さん")],
)
def test_spans_in_one_script_or_without_a_latin_name_stay(span):
    assert trim_at_script_change(span) == span


def _persons(conversation: Conversation) -> dict[str, str]:
    return {e.real: e.stand_in for e in conversation.entries if e.label is Label.PERSON}


@pytest.mark.parametrize(
    "text, name, glued",
    [
        ("Greta Lindqvist은 내일 오후에 도착합니다.", "Greta Lindqvist", "은 내일"),
        ("어제 Tobias Reinholt에게 메일을 보냈어요.", "Tobias Reinholt", "에게 메일"),
        ("Lukas Brennerさんに会いました。", "Lukas Brenner", "さんに"),
        ("Henrik Aalto先生は来週来ます。", "Henrik Aalto", "先生は"),
    ],
)
def test_glued_name_is_swapped_and_its_particle_stays(privacy_engine, text, name, glued):
    conversation = Conversation(seed=41)
    result = privacy_engine.sanitize(text, conversation)
    persons = _persons(conversation)
    assert name in persons, persons
    assert persons[name] + glued in result.sanitized
    back = privacy_engine.restore(result.sanitized, conversation)
    assert back.text == text and back.unrestored == []


def test_surname_glued_later_in_the_text_is_the_same_person(privacy_engine):
    text = "Greta Lindqvist은 내일 서울에 옵니다. 회의 후에 Lindqvist에게 자료를 보내세요."
    conversation = Conversation(seed=43)
    result = privacy_engine.sanitize(text, conversation)
    persons = _persons(conversation)
    assert "Lindqvist" in persons
    surname = persons["Greta Lindqvist"].split()[-1]
    assert persons["Lindqvist"] == surname
    assert f"후에 {surname}에게" in result.sanitized and "Lindqvist" not in result.sanitized
    assert privacy_engine.restore(result.sanitized, conversation).text == text


def test_a_name_from_an_earlier_message_is_found_glued_to_a_particle(privacy_engine):
    conversation = Conversation(seed=47)
    privacy_engine.sanitize("Please book a table for Oskar Brandvold on Friday.", conversation)
    stand_in = _persons(conversation)["Oskar Brandvold"]
    later = privacy_engine.sanitize("Brandvold에게 예약 확인을 보내 주세요.", conversation)
    assert "Brandvold" not in later.sanitized
    assert later.sanitized.startswith(stand_in.split()[-1] + "에게")
