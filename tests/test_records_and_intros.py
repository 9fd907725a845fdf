"""A person's name in a data record, in a self-introduction in French, German or Spanish,
a note's owner written as a handle in code, and a private network's host name. Sentences of
our own."""

from __future__ import annotations

import pytest

from agent.entities import Label
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, name",
    [
        ('{"customer": {"name": "Tavita Soliai", "email": "t.soliai@example.org"}}', "Tavita Soliai"),
        ('{"name": "Tavita Soliai", "dob": "1991-03-04", "plan": "gold"}', "Tavita Soliai"),
        ('{"patient": {"name": "Tavita Soliai"}}', "Tavita Soliai"),
    ],
)
def test_a_name_in_a_record_about_a_person(privacy_engine, text, name):
    persons = [s.text for s in privacy_engine.detect(text) if s.label is Label.PERSON]
    assert name in persons, persons
    assert name not in privacy_engine.sanitize(text, Conversation("record")).sanitized


@pytest.mark.parametrize(
    "text",
    ['{"name": "Blue Widget", "price": 12}', '{"product": {"name": "Quantum Sprocket", "sku": "A1"}}',
     '{"name": "requests", "version": "2.32"}'],
)
def test_a_name_field_of_a_thing_stays(privacy_engine, text):
    assert not [s for s in privacy_engine.detect(text) if s.label is Label.PERSON]


@pytest.mark.parametrize(
    "text, name, verb",
    [
        ("Bonjour, je m'appelle Ambroise Ténier et j'ai une question.", "Ambroise Ténier", "m'appelle"),
        ("Hallo, ich bin Wiebke Oltmanns und brauche Hilfe.", "Wiebke Oltmanns", "ich bin"),
        ("Hola, me llamo Itziar Goikoetxea y tengo una duda.", "Itziar Goikoetxea", "me llamo"),
    ],
)
def test_a_self_introduction_verb_is_not_part_of_the_name(privacy_engine, text, name, verb):
    persons = [s.text for s in privacy_engine.detect(text) if s.label is Label.PERSON]
    assert name in persons, persons
    assert verb in privacy_engine.sanitize(text, Conversation("intro")).sanitized


def test_bin_stays_inside_an_arabic_name(privacy_engine):
    persons = [s.text for s in privacy_engine.detect("Tariq bin Hamdan Al Qasimi signed the letter.") if s.label is Label.PERSON]
    assert any("bin Hamdan" in p for p in persons), persons


def test_a_note_owner_written_as_a_handle_is_swapped(privacy_engine):
    code = (
        "def sync():\n"
        "    # TODO(olek.brzezinski): drop the retry\n"
        "    # FIXME(alindqvist) flaky on CI\n"
        "    # TODO(later): tidy\n"
        "    # NOTE(perf): cache this\n"
        "    # TODO(PROJ-481): ticket\n"
        "    return 1\n"
    )
    result = privacy_engine.sanitize(code, Conversation("todo"))
    assert "olek.brzezinski" not in result.sanitized and "alindqvist" not in result.sanitized, result.sanitized
    for kept in ("TODO(later)", "NOTE(perf)", "TODO(PROJ-481)", "def sync():"):
        assert kept in result.sanitized, result.sanitized


def test_a_private_network_host_name_is_swapped(privacy_engine):
    text = "The VPN gateway is vpn.quillmark.internal and the NAS is nas01.corp"
    urls = [s.text for s in privacy_engine.detect(text) if s.label is Label.URL]
    assert "vpn.quillmark.internal" in urls and "nas01.corp" in urls, urls
