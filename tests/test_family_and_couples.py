"""People a prompt names as a household: a couple NER read as a firm ("Arjun & Meera Iyer")
is two people, a family by its surname ("the Kowalczyks") gets another surname with its
"s", a relative by title gets a given name ("Uncle Ferdie"), a child's given name NER took
for a place is a person ("about Lilou missing school"), and the user's insurer named in
brackets is theirs ("my insurer (Northgate Mutual, ...)"). Law firms and mountain ranges
stay what they are (agent/detect/ner.py, agent/substitute/label_standins.py,
agent/substitute/persons.py, agent/decide/relevance.py). Sentences of our own."""

from __future__ import annotations

from agent.entities import Action, Label
from agent.knowledge.names import lexicon
from agent.session.conversation import Conversation


def _sanitize(engine, text, seed=11):
    return engine.sanitize(text, Conversation(f"household-{seed}", seed=seed))


def test_a_couple_is_two_people(privacy_engine):
    text = "Our wedding is on June 14; guests: Arjun & Meera Iyer and Uncle Ferdie."
    for seed in range(3):
        result = _sanitize(privacy_engine, text, seed)
        people = {e.real: e for e in result.entities if e.label is Label.PERSON}
        assert {"Arjun", "Meera Iyer"} <= people.keys(), people.keys()
        assert " & " in result.sanitized and not ({"Arjun", "Meera", "Iyer", "Ferdie"} & set(result.sanitized.replace(",", " ").split()))
        uncle = people["Ferdie"].sent
        assert lexicon().is_first_name(uncle), uncle


def test_a_family_by_its_surname_gets_a_surname(privacy_engine):
    result = _sanitize(privacy_engine, "Write a thank-you note to the Kowalczyks for hosting us.")
    family = next(e for e in result.entities if e.real == "Kowalczyks")
    assert family.label is Label.PERSON and family.action is not Action.KEEP
    stem = family.sent[:-2] if family.sent.endswith("es") and family.sent[-3] in "sxzh" else family.sent[:-1]
    assert family.sent.endswith("s") and lexicon().is_last_name(stem), family.sent
    assert "the " + family.sent in result.sanitized


def test_law_firms_and_ranges_stay_what_they_are(privacy_engine):
    result = _sanitize(privacy_engine, "We hiked the Rockies, then wrote to Quenby & Aldous LLP about the lease.")
    assert "Rockies" in result.sanitized
    firm = next(e for e in result.entities if "Aldous" in e.real)
    assert firm.label is Label.ORG and " & " in firm.sent


def test_a_childs_name_taken_for_a_place_is_a_person(privacy_engine):
    result = _sanitize(privacy_engine, "Help me write to my daughter's teacher about Lilou missing school on Friday.")
    child = next(e for e in result.entities if e.real == "Lilou")
    assert child.label is Label.PERSON and child.action is not Action.KEEP
    assert "Lilou" not in result.sanitized


def test_the_users_insurer_in_brackets_is_theirs(privacy_engine):
    result = _sanitize(privacy_engine, "My insurer (Northgate Mutual, policy NGM-77341920) denied my claim. Draft an appeal.")
    insurer = next(e for e in result.entities if e.real == "Northgate Mutual")
    assert insurer.action is not Action.KEEP, insurer.reason
