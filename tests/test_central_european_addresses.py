"""Addresses of Central and Eastern Europe and Turkey, written with no street word: the
street, its number and the postcode line are found whole, and the stand-in is a street
of the same country with its abbreviations ("pr.", "Cad.", "No:"), flat word and the
postcode's country letters kept. A word and a number before a year are no address.
Addresses of our own."""

from __future__ import annotations

import re

import pytest

from agent.detect.addresses import AddressDetector
from agent.detect.base import DetectionContext
from agent.knowledge.geonames import geo_index
from agent.session.conversation import Conversation


def addresses(text: str) -> set[str]:
    return {s.text for s in AddressDetector().detect(text, DetectionContext())}


@pytest.mark.parametrize(
    "text, address",
    [
        ("Send it to ul. Wiosenna 12/4, 00-001 Warszawa please.", "ul. Wiosenna 12/4, 00-001 Warszawa"),
        ("My address is Jelšová 45, 811 05 Bratislava.", "Jelšová 45, 811 05 Bratislava"),
        ("Deliver to Vilniaus pr. 9, LT-01103 Vilnius by Friday.", "Vilniaus pr. 9, LT-01103 Vilnius"),
        ("Adresim: Lale Sok. No: 7 Daire 2, 34000 Fatih/İstanbul", "Lale Sok. No: 7 Daire 2, 34000 Fatih/İstanbul"),
    ],
)
def test_a_street_with_its_number_and_postcode_line_is_one_address(text, address):
    assert address in addresses(text), addresses(text)


@pytest.mark.parametrize("text", ["We met in Room 12, 2024 Annual Review.", "See Chapter 3, 1999 Edition for more."])
def test_a_word_and_a_number_before_a_year_are_no_address(text):
    assert not addresses(text), addresses(text)


@pytest.mark.parametrize("seed", range(4))
def test_the_stand_in_is_a_street_of_the_same_country_with_its_labels_kept(privacy_engine, seed):
    text = "Deliver to Vilniaus pr. 9, LT-01103 Vilnius by Friday."
    result = privacy_engine.sanitize(text, Conversation(f"lt-{seed}", seed=seed))
    fake = next(e.sent for e in result.entities if e.real.startswith("Vilniaus"))
    assert " pr. " in fake and ", LT-" in fake, fake
    town = fake.rsplit(" ", 1)[-1]
    place = geo_index().lookup(town)
    assert place is None or place.country == "LT", fake


def test_a_turkish_address_keeps_its_labels(privacy_engine):
    text = "Adresim: Lale Sok. No: 7 Daire 2, 34000 Fatih/İstanbul"
    result = privacy_engine.sanitize(text, Conversation("tr"))
    assert re.search(r"\w+ Sok\. No: \d+ Daire \d+, \d{5} ", result.sanitized), result.sanitized
    assert "Lale" not in result.sanitized and "34000" not in result.sanitized, result.sanitized


def test_an_american_street_named_after_a_foreign_city_keeps_american_stand_ins(privacy_engine):
    from agent.knowledge.names import lexicon

    text = "I live at 12 Paris Avenue, Boston, MA 02116."
    result = privacy_engine.sanitize(text, Conversation("us-street"))
    fake = next(e.sent for e in result.entities if e.real.startswith("12 Paris"))
    street_word = fake.split()[1]
    assert street_word in lexicon().last_names("en_US"), fake


def test_a_name_in_a_street_is_swapped_though_it_is_a_flat_word_elsewhere(privacy_engine):
    result = privacy_engine.sanitize("Ship to 4410 Stan Musial Drive, St. Louis, MO 63102", Conversation("stan"))
    assert "Stan " not in result.sanitized, result.sanitized
