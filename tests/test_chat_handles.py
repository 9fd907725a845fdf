"""Chat and payment handles: a handle with hyphens is swapped whole ("@kat-mcallister-7"),
a Cash App "$cashtag" is a handle where the app is named (a "$TSLA" ticker is not),
broadcast mentions ("@channel", "@here") reach no one in particular and stay, an
environment's name is nobody's ("prod-eu"), and a given name NER read as a firm that then
acts is a person ("Sunniva pls check"). Messages of our own (agent/detect/patterns.py,
agent/detect/ner.py)."""

from __future__ import annotations

from agent.entities import Action, Label
from agent.session.conversation import Conversation


def _sanitize(engine, text):
    return engine.sanitize(text, Conversation("chat-handles", seed=12))


def test_a_hyphenated_handle_and_a_cashtag_are_swapped_whole(privacy_engine):
    text = "Pay me back: my handle is @kat-mcallister-7 and my Cash App is $KatMcA. I also hold $TSLA."
    result = _sanitize(privacy_engine, text)
    handles = {e.real for e in result.entities if e.label is Label.USERNAME and e.action is not Action.KEEP}
    assert {"@kat-mcallister-7", "$KatMcA"} <= handles, handles
    assert "mcallister" not in result.sanitized and "KatMcA" not in result.sanitized
    assert "$TSLA" in result.sanitized


def test_broadcast_mentions_and_environments_stay(privacy_engine):
    text = "@channel the deploy to prod-eu failed again; @here please check, cc @dana.okafor"
    result = _sanitize(privacy_engine, text)
    assert result.sanitized.startswith("@channel the deploy to prod-eu failed again; @here please check")
    assert "@dana.okafor" not in result.sanitized


def test_a_given_name_read_as_a_firm_that_acts_is_a_person(privacy_engine):
    text = "The deploy failed again, Sunniva pls check the runbook before noon."
    result = _sanitize(privacy_engine, text)
    person = next(e for e in result.entities if e.real == "Sunniva")
    assert person.label is Label.PERSON and person.action is not Action.KEEP
    assert "Sunniva" not in result.sanitized
