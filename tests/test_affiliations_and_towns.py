"""A private person's organisation named right after them ("<Name> from <Firm>") is
swapped; towns a person list does not hold are places, in capitals too; a firm named
after someone ("<Given name> Investments") is a firm; the venue the writer is at now
("I'm at <park>", "a photo @ <brewery>") is swapped. Sentences written for these tests."""

from __future__ import annotations

import pytest

from agent.entities import Label
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, firm",
    [
        ("Priya Natarajan from Quantiva is the keynote speaker on Friday.", "Quantiva"),
        ("Tomas Berg from Brightwell Labs will present the results.", "Brightwell"),
        ("I had coffee with Jorge from Quantiva yesterday; draft a follow-up.", "Quantiva"),
    ],
)
def test_a_private_persons_firm_after_their_name_is_swapped(privacy_engine, text, firm):
    result = privacy_engine.sanitize(text, Conversation("affiliation"))
    assert firm not in result.sanitized, result.entities


def test_a_public_persons_well_known_firm_is_kept(privacy_engine):
    result = privacy_engine.sanitize("What did Satya Nadella of Microsoft say about AI?", Conversation("public"))
    assert "Microsoft" in result.sanitized and "Satya Nadella" in result.sanitized, result.entities


@pytest.mark.parametrize(
    "text, town",
    [
        ("I am in Ørsta for a week, any tips for the evenings?", "Ørsta"),
        ("We have a flat near Ørsta with a view of the fjord.", "Ørsta"),
    ],
)
def test_a_town_after_in_or_near_is_no_person(privacy_engine, text, town):
    result = privacy_engine.sanitize(text, Conversation("town"))
    labels = {e.label for e in result.entities if e.real == town}
    assert labels == {Label.LOCATION}, result.entities


@pytest.mark.parametrize(
    "text, town",
    [
        ("Our design agency is based in STAVANGER and hires in spring.", "STAVANGER"),
        ("I AM WRITING FROM a hotel; I am in ØRSTA for a business trip.", "ØRSTA"),
    ],
)
def test_a_town_in_capitals_after_a_place_word_is_a_place(privacy_engine, text, town):
    result = privacy_engine.sanitize(text, Conversation("capitals"))
    assert any(e.real == town and e.label is Label.LOCATION for e in result.entities), result.entities


def test_everyday_words_in_capitals_are_no_towns(privacy_engine):
    result = privacy_engine.sanitize("Please reply in GENERAL terms, not in DETAIL.", Conversation("caps"))
    assert not any(e.label is Label.LOCATION for e in result.entities), result.entities


@pytest.mark.parametrize(
    "text, firm",
    [
        ("Doris Investments is a design agency with twelve staff.", "Doris Investments"),
        ("Send the signed lease to Melissa Holdings by Friday.", "Melissa Holdings"),
    ],
)
def test_a_firm_named_after_a_given_name_is_a_firm(privacy_engine, text, firm):
    result = privacy_engine.sanitize(text, Conversation("firm"))
    found = [e for e in result.entities if e.real == firm]
    assert found and found[0].label is Label.ORG, result.entities


def test_a_trade_word_is_no_persons_name(privacy_engine):
    result = privacy_engine.sanitize("Solvent Analytics is hiring two data engineers.", Conversation("trade"))
    assert not any(e.label is Label.PERSON for e in result.entities), result.entities


@pytest.mark.parametrize(
    "text, venue",
    [
        ("Just posted a photo @ Kettlewell Brewery", "Kettlewell"),
        ("I'm at Hollingsworth Park with the kids, it is freezing", "Hollingsworth"),
    ],
)
def test_the_venue_the_writer_is_at_now_is_swapped(privacy_engine, text, venue):
    result = privacy_engine.sanitize(text, Conversation("venue"))
    assert venue not in result.sanitized, result.entities


def test_a_well_known_venue_the_writer_is_at_is_kept(privacy_engine):
    result = privacy_engine.sanitize("I'm at IKEA, what should I buy for a tiny flat?", Conversation("venue"))
    assert "IKEA" in result.sanitized, result.entities
