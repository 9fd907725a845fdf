"""A word of a person's name found again alone is that person, whatever type the lone
word was given (agent/detect/person_repeats.py): a surname cut off a glued timestamp and
read as a CamelCase firm, a bare surname NER calls an organisation. Every name and sentence
here is made up for these tests."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.detect.person_repeats import person_word_repeats
from agent.detect.registry import build_registry
from agent.entities import Label, Span


@pytest.fixture(scope="module")
def registry():
    return build_registry(default_settings())


def _span(text: str, value: str, label: Label, detector: str = "spacy", nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(value, start + 1)
    return Span(start, start + len(value), label, value, 0.8, detector)


def test_a_glued_surname_after_the_full_name_is_the_person(registry):
    text = (
        "Replies\nProfile picture for Doreen Halvorsen Doreen HalvorsenThu Jul 6, 2023 at 12:10 pm\n"
        "Lovely photos, thanks for sharing the trail map.\n"
    )
    spans = registry.detect(text).spans
    lone = [s for s in spans if s.text == "Halvorsen"]
    assert lone and all(s.label is Label.PERSON for s in lone), spans
    assert all(s.canonical == "Doreen Halvorsen" for s in lone)


@pytest.mark.parametrize("label", [Label.ORG, Label.LOCATION, Label.MISC, Label.NORP])
def test_a_lone_surname_of_a_named_person_takes_person(label):
    text = "Tobias Wendtlinger chaired the meeting. Afterwards Wendtlinger sent the minutes."
    spans = [_span(text, "Tobias Wendtlinger", Label.PERSON), _span(text, "Wendtlinger", label, nth=1)]
    assert [s.label for s in person_word_repeats(spans)] == [Label.PERSON, Label.PERSON]


@pytest.mark.parametrize(
    "text, person, other, label, detector",
    [
        # a well-known place keeps its type
        ("Georgia Brantley flew to Georgia last spring.", "Georgia Brantley", "Georgia", Label.LOCATION, "spacy"),
        # what the user listed is never second-guessed
        ("Mirela Quast wrote to Quast about the lease.", "Mirela Quast", "Quast", Label.ORG, "custom"),
        # a multi-word organisation is not one word of the name
        ("Edda Lundqvist works at Lundqvist Timber.", "Edda Lundqvist", "Lundqvist Timber", Label.ORG, "spacy"),
    ],
)
def test_other_types_stay(text, person, other, label, detector):
    spans = [_span(text, person, Label.PERSON), _span(text, other, label, detector, nth=1 if other in person else 0)]
    assert person_word_repeats(spans)[1].label is label
