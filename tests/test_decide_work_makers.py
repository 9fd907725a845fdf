"""The person who made a work (its author, director, the researchers who wrote a book) is
not one of the work's characters, even in a prompt that names the work: a pasted review or
essay mentions makers, and keeping them as characters sends real people's names. Every
sentence and name here is made up for these tests."""

from __future__ import annotations

import pytest

from agent.decide.relevance import RelevanceRules, made_the_work
from agent.entities import Label, Span


def _span(text: str, value: str, label: Label = Label.PERSON) -> Span:
    start = text.index(value)
    return Span(start, start + len(value), label, value, 0.8, "spacy")


def _verdict(text: str, value: str):
    return RelevanceRules().verdict(text, _span(text, value))


@pytest.mark.parametrize(
    "text, name",
    [
        # "the <name> novel" next to a named work: the novelist, not a character.
        ("Our reading circle picked the Tomasz Wierzba novel \"Glass Orchard\" after an episode of Night Harbor.", "Tomasz Wierzba"),
        # "<name> and <name> argued in their book": the authors.
        ("For the episode of Night Harbor we discussed, Lena Hartwig and Omar Quist argued in their book that tides matter.", "Lena Hartwig"),
        ("For the episode of Night Harbor we discussed, Lena Hartwig and Omar Quist argued in their book that tides matter.", "Omar Quist"),
        # "director <name>": the maker named by their role.
        ("The season of Night Harbor that director Ilse Marwood shot in winter is my favourite; list its episodes.", "Ilse Marwood"),
    ],
)
def test_the_maker_of_a_work_is_not_called_its_character(text, name):
    assert made_the_work(text, _span(text, name))
    verdict = _verdict(text, name)
    assert verdict is None or verdict.reason != "character in a known work"


def test_in_one_prompt_the_maker_is_swapped_and_the_character_kept():
    text = "Write an episode of Night Harbor where Pell Ostrander finds the key, in the style the Ilse Marwood novel uses."
    maker = _verdict(text, "Ilse Marwood")
    character = _verdict(text, "Pell Ostrander")
    assert maker is not None and maker.reason != "character in a known work"
    assert character is not None and character.keep and character.reason == "character in a known work"
