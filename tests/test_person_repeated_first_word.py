"""A name run into the next mention of it ("Ada Kowalczyk Ada" in a list without commas or
under a signature) is two mentions, not one three-word name: each gets its own span, so the
stand-in of "Ada Kowalczyk" is the one used for the later mentions too. Every name and
sentence here is made up for these tests."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.detect.person_names import split_repeated_first_word
from agent.detect.registry import build_registry
from agent.entities import Label, Span


def _span(text: str, value: str, label: Label = Label.PERSON) -> Span:
    start = text.index(value)
    return Span(start, start + len(value), label, value, 0.8, "spacy")


@pytest.mark.parametrize(
    "value, parts",
    [
        ("Ada Kowalczyk Ada", ["Ada Kowalczyk", "Ada"]),
        ("Milo Brandt Milo Brandt", ["Milo Brandt", "Milo Brandt"]),
        ("Ada Kowalczyk Ada Kowalczyk Ines Duarte", ["Ada Kowalczyk", "Ada Kowalczyk", "Ines Duarte"]),
        ("Tomasz Nowak, Tomasz", ["Tomasz Nowak", "Tomasz"]),
        ("Humbert Humbert", ["Humbert Humbert"]),  # a doubled name right away stays whole
        ("Ines Duarte", ["Ines Duarte"]),
    ],
)
def test_split_at_the_repeated_first_word(value, parts):
    text = f"The sheet lists {value} twice by mistake."
    spans = split_repeated_first_word(_span(text, value))
    assert [s.text for s in spans] == parts
    assert all(text[s.start : s.end] == s.text for s in spans)


def test_other_types_are_not_split():
    text = "We met at Bay Street Bay today."
    span = _span(text, "Bay Street Bay", Label.LOCATION)
    assert split_repeated_first_word(span) == [span]


@pytest.mark.parametrize(
    "text, first",
    [
        ("Team for Saturday: Ada Kowalczyk Ada will bring the lemonade.", "Ada Kowalczyk"),
        ("Kind regards,\nMilo Brandt Milo\n", "Milo Brandt"),
    ],
)
def test_detection_gives_the_name_and_its_repeat(text, first):
    spans = build_registry(default_settings()).detect(text).spans
    people = [s.text for s in spans if s.label is Label.PERSON]
    assert first in people
    assert not any(p.startswith(first + " ") for p in people)
