"""An identifier's cue word is no organisation ("MRN 44-1923-88" had sent "ZCE
21-4244-36"), and a personal title makes the name after it a person whatever NER or a
gazetteer read ("ms. delgado" had been swapped for a Salvadoran town) (agent/detect/registry.py,
agent/detect/ner.py). Texts of our own."""

from __future__ import annotations

import pytest

from agent.entities import Label
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, cue",
    [
        ("Patient: Leopold Vanterpool, MRN 44-1923-88. Presents with chest pain.", "MRN"),
        ("Re: Policy #QX-7731902, the claim was denied.", "Policy"),
    ],
)
def test_a_cue_word_stays_and_its_number_is_swapped(privacy_engine, text, cue):
    result = privacy_engine.sanitize(text, Conversation("cue-word", seed=14))
    assert cue in result.sanitized
    assert not [e for e in result.entities if e.real == cue]
    number = text.split(cue, 1)[1].split()[0].strip("#.,")
    assert number not in result.sanitized


@pytest.mark.parametrize(
    "text, name",
    [("how do I ask his teacher ms. delgado for extra homework", "delgado"),
     ("Please write to Mrs. Paris about the fence.", "Paris")],
)
def test_a_title_makes_a_person(privacy_engine, text, name):
    result = privacy_engine.sanitize(text, Conversation("title-person", seed=14))
    entry = next(e for e in result.entities if e.real == name)
    assert entry.label is Label.PERSON, entry.label
    assert name not in result.sanitized
