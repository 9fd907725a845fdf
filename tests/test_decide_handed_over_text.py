"""A text the prompt hands over to work on ("Rewrite this paragraph: ...", "Proofread the
following:", "the e-mail below:"): the cues that make a name the topic of a request (a trip
word near a place, a year after an author) belong to that text, not to the request, so
its names are not kept on their strength. Every sentence and name here is made up for
these tests."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.decide.decider import Decider
from agent.decide.relevance import RelevanceRules, in_handed_over_text
from agent.entities import Action, Label, Span

_REASON = "in a text handed over to work on"


def _span(text: str, value: str, label: Label, occurrence: int = 0) -> Span:
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(value, start + 1)
    return Span(start, start + len(value), label, value, 0.8, "spacy")


def _verdict(text: str, value: str, label: Label, occurrence: int = 0):
    return RelevanceRules().verdict(text, _span(text, value, label, occurrence))


@pytest.mark.parametrize(
    "text, value, label",
    [
        ("Rewrite this paragraph so it sounds warmer: Our hiking trip through Portugal ran two days late.",
         "Portugal", Label.LOCATION),
        ("Proofread the following:\nAs Varga (2017) showed, wet soil speeds early growth in clay.",
         "Varga", Label.PERSON),
        ("Please make the e-mail below shorter.\nThe e-mail:\nHi all, the tour of Norway moves to May. Regards",
         "Norway", Label.LOCATION),
    ],
)
def test_a_sure_keep_read_from_the_handed_over_text_is_a_swap(text, value, label):
    verdict = _verdict(text, value, label)
    assert verdict is not None and not verdict.keep and verdict.reason == _REASON


def test_the_request_keeps_what_it_asks_about_and_the_handed_over_text_does_not():
    text = "Plan a trip to Portugal for us. Then rewrite this note: My trip to Portugal was booked by my aunt."
    asked = _verdict(text, "Portugal", Label.LOCATION, 0)
    handed_over = _verdict(text, "Portugal", Label.LOCATION, 1)
    assert asked is not None and asked.keep
    assert handed_over is not None and not handed_over.keep and handed_over.reason == _REASON


def test_in_a_text_to_translate_only_people_are_swapped():
    # A translated place name would no longer match its stand-in, so the place keeps its
    # verdict; a person's name is not translated.
    text = "Translate the following into Spanish:\nAs Varga (2017) showed, a trip to Portugal in May is cheap."
    place = _verdict(text, "Portugal", Label.LOCATION)
    person = _verdict(text, "Varga", Label.PERSON)
    assert not in_handed_over_text(text, _span(text, "Portugal", Label.LOCATION))
    assert place is not None and place.keep
    assert person is not None and not person.keep and person.reason == _REASON


def test_the_decider_swaps_the_place_of_a_handed_over_text():
    text = "Rewrite this paragraph so it sounds warmer: Our hiking trip through Portugal ran two days late."
    decisions = Decider(default_settings()).decide(text, [_span(text, "Portugal", Label.LOCATION)])
    assert decisions[0].action is not Action.KEEP and decisions[0].reason == _REASON


def test_questions_introduced_by_the_following_are_not_a_handed_over_text():
    text = "Answer the following:\n1. Which sights should a first trip to Portugal include?"
    verdict = _verdict(text, "Portugal", Label.LOCATION)
    assert verdict is not None and verdict.keep and verdict.reason == "public place"


def test_a_story_handed_over_to_continue_keeps_its_characters():
    text = "Continue this story: in the episode of Night Harbor, Pell Ostrander finds the key."
    verdict = _verdict(text, "Pell Ostrander", Label.PERSON)
    assert verdict is not None and verdict.keep and verdict.reason == "character in a known work"
