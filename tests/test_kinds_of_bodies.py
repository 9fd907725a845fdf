"""An acronym everyone writes after "our"/"my" ("our HOA", "my ISP") names a kind of body
or system, and the answer needs it; a rare one is the writer's own organisation and is
swapped. Sentences written for these tests."""

from __future__ import annotations

import pytest

from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, kept",
    [
        ("Can you draft a complaint to our HOA about the parking spaces?", "HOA"),
        ("Write a short note to my ISP about last night's outage.", "ISP"),
        ("Our PTA wants a flyer for the bake sale.", "PTA"),
    ],
)
def test_a_common_acronym_after_our_is_kept(privacy_engine, text, kept):
    sanitized = privacy_engine.sanitize(text, Conversation("kinds")).sanitized
    assert kept in sanitized, sanitized


def test_a_rare_acronym_after_our_is_the_writers_own_and_swapped(privacy_engine):
    text = "Our QZV team ships the release on Friday; draft the announcement."
    result = privacy_engine.sanitize(text, Conversation("kinds-own"))
    assert any(e.real == "QZV" for e in result.entities), result.entities
    assert "QZV" not in result.sanitized, result.sanitized
