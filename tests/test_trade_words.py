"""A surgery, a practice or a trade named by who does it keeps that word in its stand-in
("Brookside Surgery" -> "<X> Surgery"; before: "Lakeoak Birch", which no answer could
treat as a GP's surgery). Sentences written for these tests."""

from __future__ import annotations

import pytest

from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, real, kind",
    [
        ("Our GP is at Brookside Surgery; can you draft a complaint about the wait?", "Brookside Surgery", "Surgery"),
        ("My dentist is at Fernleigh Practice; write to ask for my records.", "Fernleigh Practice", "Practice"),
    ],
)
def test_the_stand_in_keeps_the_kind_of_practice(privacy_engine, text, real, kind):
    result = privacy_engine.sanitize(text, Conversation("trade"))
    found = [e for e in result.entities if e.real == real]
    assert found and found[0].sent != real, result.entities
    assert found[0].sent.endswith(" " + kind), found[0].sent


def test_a_shipping_firms_stand_in_keeps_its_trade(privacy_engine):
    text = "Please proofread: further to our call with Fjordline Shipping AS, we confirm the order."
    result = privacy_engine.sanitize(text, Conversation("shipping"))
    found = [e for e in result.entities if e.real == "Fjordline Shipping AS"]
    assert found and found[0].sent.endswith(" Shipping AS") and found[0].sent != found[0].real, result.entities


@pytest.mark.parametrize("text, code", [("we confirm the invoice of NOK 12,400 for the repair.", "NOK"),
                                        ("Please pay 300 CHF to the landlord by Monday.", "CHF")])
def test_a_currency_next_to_an_amount_is_no_organisation(privacy_engine, text, code):
    result = privacy_engine.sanitize(text, Conversation("currency"))
    assert code in result.sanitized and not any(e.real == code for e in result.entities), result.entities
