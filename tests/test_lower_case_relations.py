"""A name typed in lower case next to a relation is a person even when its first name is
an ordinary word ("will ortega, my coworker", "my boss rose whitfield"), and a verb that
NER ran into the name is not part of it ("dana okafor keeps ..."). Ordinary words after
a relation stay (agent/detect/person_names.py _by_lower_relation, agent/detect/ner.py).
Sentences of our own."""

from __future__ import annotations

import pytest

from agent.entities import Action, Label
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, name",
    [
        ("can you write a birthday note for will ortega, my coworker", "will ortega"),
        ("i told my boss rose whitfield about the move", "rose whitfield"),
        ("my neighbour dana okafor keeps parking in my spot", "dana okafor"),
        ("draft a thank-you to mark kowalczyk, our landlord", "mark kowalczyk"),
    ],
)
def test_a_lower_case_name_beside_a_relation_is_swapped_whole(privacy_engine, text, name):
    result = privacy_engine.sanitize(text, Conversation("lower-relation", seed=5))
    person = next(e for e in result.entities if e.label is Label.PERSON)
    assert person.real == name and person.action is not Action.KEEP
    for word in name.split():
        assert word not in result.sanitized.split(), result.sanitized
    rest = text.replace(name, "")
    assert all(w in result.sanitized for w in rest.split())  # the words around it stay


@pytest.mark.parametrize(
    "text",
    ["my mom rose early and my dad will visit", "tell my sister grace notes are due", "my friend will help tomorrow"],
)
def test_ordinary_words_after_a_relation_stay(privacy_engine, text):
    result = privacy_engine.sanitize(text, Conversation("lower-words", seed=5))
    assert result.sanitized == text, result.sanitized
