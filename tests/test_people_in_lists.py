"""A name in a list of people is a person (agent/detect/list_mates.py), the last item after a
serial comma included (agent/detect/person_names.py), and a name restated by "he"/"she"
after a comma is a person whatever NER guessed (agent/detect/ner.py). Sentences of our own."""

from __future__ import annotations

import pytest

from agent.detect.list_mates import people_in_lists
from agent.entities import Label, Span
from agent.session.conversation import Conversation


def _span(text: str, value: str, label: Label, detector: str = "spacy", nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(value, start + 1)
    return Span(start, start + len(value), label, value, 0.7, detector)


def _labels(spans: list[Span]) -> dict[str, Label]:
    return {s.text: s.label for s in spans}


def test_a_given_name_typed_as_a_place_in_a_list_of_people_is_a_person():
    text = "The rota: Ottilie, Bertram, Linnea and Cosima close the shop."
    spans = [
        _span(text, "Ottilie", Label.PERSON), _span(text, "Bertram", Label.PERSON),
        _span(text, "Linnea", Label.LOCATION), _span(text, "Cosima", Label.PERSON),
    ]
    assert _labels(people_in_lists(text, spans))["Linnea"] is Label.PERSON


@pytest.mark.parametrize("separator", [", ", " and ", ", and ", " & ", "; ", ", or "])
def test_every_list_separator_joins_items(separator):
    text = f"Ask Philippa, Augustin{separator}Dalia to sign."
    spans = [_span(text, "Philippa", Label.PERSON), _span(text, "Augustin", Label.PERSON), _span(text, "Dalia", Label.ORG)]
    assert _labels(people_in_lists(text, spans))["Dalia"] is Label.PERSON


def test_titles_between_items_do_not_end_the_list():
    text = "Seats for Mr. Halloran, Mrs. Okafor, Rosalind and Dr. Marisol."
    spans = [
        _span(text, "Halloran", Label.PERSON), _span(text, "Okafor", Label.PERSON),
        _span(text, "Rosalind", Label.PERSON), _span(text, "Marisol", Label.LOCATION),
    ]
    assert _labels(people_in_lists(text, spans))["Marisol"] is Label.PERSON


@pytest.mark.parametrize(
    "text, items, odd",
    [
        # mostly places: the given-name-shaped one is left as it is
        ("We toured Vienna, Lisbon, Linnea and Budapest.", ["Vienna", "Lisbon", "Linnea", "Budapest"], "Linnea"),
        # a known place in a list of people keeps its type
        ("Ottilie, Bertram, Paris and Cosima", ["Ottilie", "Bertram", "Paris", "Cosima"], "Paris"),
        # a listed company keeps its type
        ("Ottilie, Bertram, Apple and Cosima", ["Ottilie", "Bertram", "Apple", "Cosima"], "Apple"),
        # a word that is no given name keeps its type
        ("Ottilie, Bertram, Brightwave and Cosima", ["Ottilie", "Bertram", "Brightwave", "Cosima"], "Brightwave"),
        # not a list: a full stop between the items
        ("Ottilie. Bertram. Linnea. Cosima.", ["Ottilie", "Bertram", "Linnea", "Cosima"], "Linnea"),
    ],
)
def test_what_a_list_of_people_does_not_retype(text, items, odd):
    spans = [_span(text, v, Label.LOCATION if v == odd else Label.PERSON) for v in items]
    if text.startswith("We toured"):
        spans = [_span(text, v, Label.PERSON if v == "Linnea" else Label.LOCATION) for v in items]
        assert _labels(people_in_lists(text, spans))["Linnea"] is Label.PERSON  # it was a person already
        spans = [_span(text, v, Label.LOCATION) for v in items]
    assert _labels(people_in_lists(text, spans))[odd] is not Label.PERSON


def test_what_the_user_listed_keeps_its_type():
    text = "Ottilie, Bertram, Linnea and Cosima"
    spans = [_span(text, v, Label.PERSON) for v in ("Ottilie", "Bertram", "Cosima")]
    spans.append(_span(text, "Linnea", Label.ORG, detector="always_protect"))
    assert _labels(people_in_lists(text, spans))["Linnea"] is Label.ORG


def test_the_engine_swaps_every_name_of_a_roster_after_a_serial_comma(privacy_engine):
    text = "Table four seats Ottilie, Marisol, Bertram, Linnea, and Cosima; Cosima brings the cake."
    result = privacy_engine.sanitize(text, Conversation("roster"))
    for name in ("Ottilie", "Marisol", "Bertram", "Linnea", "Cosima"):
        assert name not in result.sanitized, result.sanitized


@pytest.mark.parametrize(
    "text, name",
    [
        # invented names NER reads as places
        ("Please write a progress note for Orlin, he is a six year old pupil who loves drawing.", "Orlin"),
        ("Draft a thank-you card to Caddo, she was our tutor last spring.", "Caddo"),
    ],
)
def test_a_name_restated_by_he_or_she_is_a_person(privacy_engine, text, name):
    spans = [s for s in privacy_engine.detect(text) if s.text == name]
    assert spans and all(s.label is Label.PERSON for s in spans), spans


def test_a_pupil_restated_by_he_is_swapped(privacy_engine):
    text = "Please write a progress note for Orlin, he is a six year old pupil who loves drawing."
    assert "Orlin" not in privacy_engine.sanitize(text, Conversation("restated")).sanitized


def test_a_place_followed_by_he_said_stays_a_place(privacy_engine):
    text = "Our office moved to Lyon, he said it was cheaper."
    spans = [s for s in privacy_engine.detect(text) if s.text == "Lyon"]
    assert spans and all(s.label is Label.LOCATION for s in spans), spans


def test_a_list_item_never_starts_inside_a_word(privacy_engine):
    # A capital inside a surname ("DinWoodie") is no start of an item: a stand-in glued to
    # "Din" could not be restored.
    text = "Congratulate the winners Tomas Ferreira, Ines Kowal, Pietro DinWoodie, and Kevin Abbot for this year's cup."
    for span in privacy_engine.detect(text):
        assert span.start == 0 or not text[span.start - 1].isalnum(), span
