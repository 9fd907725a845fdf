"""A person whose relation to the writer is told after the name is private and swapped:
"Caddo, she was our tutor", "Ines (my landlady)", "Tomas - our neighbour"; a public
figure with an admirer's words after the name stays (agent/decide/relevance.py
_RELATION_AFTER). Sentences of our own."""

from __future__ import annotations

import pytest

from agent.entities import Action, Label
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, name",
    [
        ("Please write a thank-you card to Caddo, she was our tutor", "Caddo"),
        ("Write a short poem for Ines (my landlady) who fixed the roof", "Ines"),
        ("Can you help me reply to Tomas - our neighbour - about the fence?", "Tomas"),
        ("Draft a note to Wren, who is my sister's coach", "Wren"),
    ],
)
def test_a_relation_after_the_name_makes_it_private(privacy_engine, text, name):
    result = privacy_engine.sanitize(text, Conversation("relation-after", seed=2))
    person = next(e for e in result.entities if e.label is Label.PERSON and e.real == name)
    assert person.action is not Action.KEEP, person.reason
    assert name not in result.sanitized


def test_a_public_figure_with_an_admirers_words_stays(privacy_engine):
    text = "Summarise the last tour of Taylor Swift, my favourite singer"
    result = privacy_engine.sanitize(text, Conversation("relation-public", seed=2))
    assert "Taylor Swift" in result.sanitized
