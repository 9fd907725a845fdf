"""Where someone the writer knows works, studies or is treated is theirs to keep private
("our GP is Dr. X at <clinic>", "my brother at <academy>"); a famous institution stays
for the judge to weigh. A role's abbreviation after a possessive ("our GP", "her PM") is no
country's code, and a preposition NER ran into a firm's name is not part of it
(agent/decide/relevance.py _RELATION_AT_BEFORE, agent/detect/ner.py). Sentences of our own."""

from __future__ import annotations

import pytest

from agent.entities import Action, Label
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, org",
    [
        ("Our GP is Dr. Ilse Marchetti at Brightwater Clinic, can you help me write to her?", "Brightwater Clinic"),
        ("My brother teaches at Quillfield Academy and wants a new CV.", "Quillfield Academy"),
        ("Our nanny used to work for Pebblestone Childcare; write her a reference.", "Pebblestone Childcare"),
    ],
)
def test_the_workplace_of_someone_known_is_swapped(privacy_engine, text, org):
    result = privacy_engine.sanitize(text, Conversation("known-works", seed=4))
    entry = next(e for e in result.entities if e.real == org)
    assert entry.action is not Action.KEEP, entry.reason
    assert org not in result.sanitized


@pytest.mark.parametrize("text", ["Our GP says I should rest.", "Her PM moved the deadline.", "Ask your TA for the slides."])
def test_a_role_abbreviation_after_a_possessive_is_no_place(privacy_engine, text):
    result = privacy_engine.sanitize(text, Conversation("role-abbrev", seed=4))
    assert result.sanitized == text, result.sanitized
    assert not [e for e in result.entities if e.label is Label.LOCATION]


def test_a_preposition_after_a_firm_is_not_part_of_it(privacy_engine):
    text = "Rewrite for LinkedIn: after six years in logistics I'm joining Halvorsen & Pike as CFO."
    result = privacy_engine.sanitize(text, Conversation("firm-as", seed=4))
    firm = next(e for e in result.entities if e.label is Label.ORG)
    assert firm.real == "Halvorsen & Pike"
    assert " as CFO." in result.sanitized
