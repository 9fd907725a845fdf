"""A character the prompt itself defines ("{{char}} is X, the main character of this story",
"You are X, a character in my campaign") is not a character of a published work: the rule
"character in a known work" needs a sign of the work (its title, a franchise, its author, its
fame). Every sentence and name here is made up for these tests."""

from __future__ import annotations

import pytest

from agent.decide.relevance import RelevanceRules
from agent.entities import Label, Span

KNOWN_WORK = "character in a known work"


def _verdict(text: str, value: str):
    start = text.index(value)
    return RelevanceRules().verdict(text, Span(start, start + len(value), Label.PERSON, value, 0.8, "spacy"))


@pytest.mark.parametrize(
    "text, name",
    [
        ("{{char}} is Hollis Brandywell, the main character of this story. Hollis Brandywell works nights.", "Hollis Brandywell"),
        ("You are Petra Illingsworth, a character in my interactive story. Stay in role and answer as her.", "Petra Illingsworth"),
        ("Meet Corvin Aldmoor, one of the characters I made up for our tabletop campaign.", "Corvin Aldmoor"),
        ("Play Jessamy Rook, a character of mine, and greet the traveller at the gate.", "Jessamy Rook"),
    ],
)
def test_a_character_the_prompt_defines_is_not_from_a_known_work(text, name):
    verdict = _verdict(text, name)
    assert verdict is None or verdict.reason != KNOWN_WORK


@pytest.mark.parametrize(
    "text, name",
    [
        # the work's title after the apposition
        ("What do you think of Oberon Faye, a character in the play \"The Copper Lantern\"?", "Oberon Faye"),
        ("Describe Wendeline Harrow, a minor character from Saltmarsh Chronicles, in three lines.", "Wendeline Harrow"),
        # a franchise before "character", an author, or the work's fame
        ("Draw Pippa Glint, a Moonlark Studios character, riding a bicycle.", "Pippa Glint"),
        ("Summarise the arc of Teodor Vane, a character created by Alma Reyes-Sutton.", "Teodor Vane"),
        ("Why is Caspar Lindqvist, a character in a famous novel, so often quoted?", "Caspar Lindqvist"),
    ],
)
def test_a_character_of_a_named_work_is_kept(text, name):
    verdict = _verdict(text, name)
    assert verdict is not None and verdict.keep and verdict.reason == KNOWN_WORK
