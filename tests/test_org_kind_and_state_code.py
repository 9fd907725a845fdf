"""A name NER called a person but whose last word is a kind of organisation is a firm or
a school ("Fernhollow Labs", "Larkspur Elementary") and gets a firm's stand-in; "his
school, X" and "her employer, X" are private; an address's "Town ST 12345" keeps its
state's code while the town changes (agent/detect/ner.py, agent/decide/relevance.py,
agent/substitute/substituter.py). Sentences of our own."""

from __future__ import annotations

import pytest

from agent.entities import Action, Label
from agent.knowledge.names import lexicon
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, org, kind",
    [
        ("Write a resignation letter; my last day at Fernhollow Labs is next week.", "Fernhollow Labs", "Labs"),
        ("My son Teodor has ADHD; his school, Larkspur Elementary, wants a meeting.", "Larkspur Elementary", "Elementary"),
        ("Her employer, Quillmoor Systems, denied the claim. Draft an appeal.", "Quillmoor Systems", "Systems"),
    ],
)
def test_an_organisation_keeps_its_kind_and_is_private(privacy_engine, text, org, kind):
    result = privacy_engine.sanitize(text, Conversation("org-kind", seed=8))
    entry = next(e for e in result.entities if e.real == org)
    assert entry.label is Label.ORG and entry.action is not Action.KEEP, (entry.label, entry.reason)
    assert entry.sent.endswith(" " + kind) and org not in result.sanitized


def test_surnames_that_are_organisation_words_stay_people(privacy_engine):
    result = privacy_engine.sanitize("Ask John Church and Mary Law about the lease.", Conversation("org-surname", seed=8))
    people = {e.real for e in result.entities if e.label is Label.PERSON}
    assert {"John Church", "Mary Law"} <= people


@pytest.mark.parametrize(
    "text, state",
    [("Here is my CV: Ana Ruiz, 42 Birchwood Ave, Apt 5, Hoboken NJ 07030", "NJ"),
     ("Send it to 400 Oak Street, Springfield IL 62701 please", "IL")],
)
def test_an_address_keeps_its_state_code(privacy_engine, text, state):
    for seed in range(4):
        result = privacy_engine.sanitize(text, Conversation(f"state-{seed}", seed=seed))
        address = next(e for e in result.entities if e.label is Label.ADDRESS)
        town = address.real.split(",")[-1].split()[0]
        assert f" {state} " in address.sent and town not in address.sent, address.sent
        assert not lexicon().is_first_name(address.sent.split(",")[-1].split()[0])


@pytest.mark.parametrize(
    "text, street_kind",
    [("I attach the lease for Flat 2, 17 Wexford Gardens, Bristol BS8 4QA.", "Gardens"),
     ("Deliver to Unit 4B, 88 Harbour Road, Cork", "Road")],
)
def test_a_unit_before_the_street_leaves_the_street_a_street(privacy_engine, text, street_kind):
    for seed in range(4):
        result = privacy_engine.sanitize(text, Conversation(f"unit-{seed}", seed=seed))
        address = next(e for e in result.entities if e.label is Label.ADDRESS)
        street = address.sent.split(",")[1].split()
        assert street[0].isdigit() and street[-1] == street_kind, address.sent
        assert street[1] not in address.real, address.sent
