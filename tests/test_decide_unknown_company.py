"""A firm few people know, read from its name's shape (agent/knowledge/company_shapes.py),
is a private company to the rules; a well-known one, one the prompt asks about and a
library named in a technical prompt are not. Sentences and names written for these tests."""

import pytest

from agent.decide.relevance import RelevanceRules, Verdict
from agent.entities import Label, Span
from agent.knowledge.company_shapes import UnknownShape, unknown_shape
from agent.session.conversation import Conversation


def _span(text: str, value: str, label: Label = Label.ORG) -> Span:
    start = text.index(value)
    return Span(start, start + len(value), label, value, 0.9, "spacy")


@pytest.mark.parametrize("name, shape", [
    ("Pruitt Inc.", UnknownShape.SURNAMES),
    ("Whitaker-Pollard", UnknownShape.SURNAMES),
    ("Gallagher, Blevins and Dorsey", UnknownShape.SURNAMES),
    ("Brennan & Söhne", UnknownShape.SURNAMES),
    ("Quillorax", UnknownShape.COINED_WORD),
    ("Brindlecore Systems", UnknownShape.COINED_WORD),
    ("HarborPay", UnknownShape.COINED_WORD),
    ("Silver Harbor Solutions", UnknownShape.TRADE_NAME),
    ("Quiet Meadow Logistics", UnknownShape.TRADE_NAME),
])
def test_shapes_of_little_known_firms(name, shape):
    assert unknown_shape(name) is shape


@pytest.mark.parametrize("name", [
    "Microsoft", "Goldman Sachs", "Pacific Northwest", "Lehman Brothers", "Pumpkin Company",
    "Gardeners' Network", "NBA", "Adobe Software", "Кузнецов и партнёры", "Zentrova",
])
def test_names_without_an_unknown_firm_shape(name):
    assert unknown_shape(name) is None


def _last_word(text: str, name: str, rule=None):
    return RelevanceRules.unknown_company(text, _span(text, name), rule)


@pytest.mark.parametrize("text, name", [
    ("Draft a polite reminder to Pruitt Inc. that their invoice is overdue.", "Pruitt Inc."),
    ("Our supplier Quillorax shipped the wrong parts again; write a complaint.", "Quillorax"),
    ("Tomorrow I meet the team at Brindlecore Systems, give me three icebreakers.", "Brindlecore Systems"),
    ("Write a thank-you note to Gallagher, Blevins and Dorsey for the audit.", "Gallagher, Blevins and Dorsey"),
    ("Silver Harbor Solutions wants a quote for forty laptops, help me reply.", "Silver Harbor Solutions"),
])
def test_a_little_known_firm_kept_by_the_judge_is_swapped(text, name):
    verdict = _last_word(text, name, Verdict(False, 0.6, "an organisation"))
    assert verdict is not None and not verdict.keep, verdict


@pytest.mark.parametrize("text, name", [
    ("Tell me about Quillorax and what it sells.", "Quillorax"),
    ("Write a report on Brindlecore Systems for my class.", "Brindlecore Systems"),
    ("How do I call the Quillorax API from Python to upload a file?", "Quillorax"),
    ("Draft a polite reminder to Microsoft that their invoice is overdue.", "Microsoft"),
])
def test_asked_about_technical_or_well_known_organisations_are_left_alone(text, name):
    assert _last_word(text, name) is None


def test_a_rule_that_keeps_the_firm_wins():
    text = "Our supplier Quillorax shipped the wrong parts again; write a complaint."
    assert _last_word(text, "Quillorax", Verdict(True, 0.55, "organisation asked about")) is None


@pytest.mark.parametrize("text, name", [
    ("Draft a short thank-you email to the team at Brindlecore Systems for hosting us.", "Brindlecore"),
    ("Write a limerick about the quarterly picnic at Gallagher, Blevins and Dorsey.", "Blevins"),
    ("Give me five catchy taglines for Quillorax, which sells garden tools.", "Quillorax"),
    ("Write a friendly announcement that Pruitt Inc. has moved to a new office.", "Pruitt"),
    ("Silver Harbor Solutions wants a quote for forty laptops, help me reply.", "Silver Harbor"),
])
def test_the_engine_swaps_a_little_known_firm(privacy_engine, text, name):
    result = privacy_engine.sanitize(text, Conversation("unknown-company"))
    assert name not in result.sanitized, result.sanitized


@pytest.mark.parametrize("text, name, label", [
    ("Let's have lunch on Friday at Fernhill Bakery, 14 Mill Lane, before the workshop.", "Fernhill Bakery", Label.ORG),
    ("The Ravelstone office is at 27 Harbour Road, next to the ferry.", "Ravelstone", Label.ORG),
    ("The address of Marrowby is 8 Quarry Street, Dunmere.", "Marrowby", Label.LOCATION),
])
def test_a_business_named_with_its_street_address_is_swapped(text, name, label):
    verdict = RelevanceRules.unknown_company(text, _span(text, name, label), Verdict(False, 0.6, "an organisation"))
    assert verdict is not None and not verdict.keep and "address" in verdict.reason, verdict


@pytest.mark.parametrize("text, name, label", [
    ("Our call with Brightwick is at 10 am tomorrow.", "Brightwick", Label.ORG),
    ("I flew to Berlin, 2019 was a good year.", "Berlin", Label.LOCATION),
    ("Meet me at Tesco, 5 Station Road.", "Tesco", Label.ORG),
])
def test_times_places_and_well_known_chains_are_not_premises(text, name, label):
    verdict = RelevanceRules.unknown_company(text, _span(text, name, label), None)
    assert verdict is None or "address" not in verdict.reason, verdict
