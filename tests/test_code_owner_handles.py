"""A handle after a code header ("// owner: mbeckett", "# Author: dmitri.volkov") and a
to-do owner whose surname no list knows ("# TODO(tkowalewska)") are swapped; topics
("TODO(cleanup)", "NOTE(perf)") and ordinary header values stay
(agent/detect/code_names.py). Lines of our own."""

from __future__ import annotations

import pytest

from agent.entities import Action, Label
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, handle",
    [
        ("const retries = 3; // owner: mbeckett", "mbeckett"),
        ("# Author: dmitri.volkov\nimport os", "dmitri.volkov"),
        ("# TODO(tkowalewska): fix the retry loop\nx = 1", "tkowalewska"),
        ("// FIXME(zbrzezinska) the cache leaks", "zbrzezinska"),
    ],
)
def test_an_owner_handle_in_code_is_swapped(privacy_engine, text, handle):
    result = privacy_engine.sanitize(text, Conversation("owner-handle", seed=6))
    entry = next(e for e in result.entities if e.real == handle)
    assert entry.label is Label.USERNAME and entry.action is not Action.KEEP
    assert handle not in result.sanitized


@pytest.mark.parametrize(
    "text",
    ["# TODO(cleanup): remove the shim\nx = 1", "# NOTE(perf): slow path\ny = 2", "# contact: support\nz = 3",
     "# TODO(refactoring): split this\nw = 4"],
)
def test_a_topic_or_a_word_stays(privacy_engine, text):
    result = privacy_engine.sanitize(text, Conversation("owner-topic", seed=6))
    assert result.sanitized == text, result.sanitized
