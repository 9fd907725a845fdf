"""Continental addresses are found whole and their towns stay in their country: a street
kind written in lower case ("12 rue des Lilas"), the words between kind and name ("de
los", "della", "des"), the postcode and town after the street (", 75011 Paris"); a
form's label in another language ("Lieferadresse:") is no person; a big city written as
its people write it ("Torino") gets a town of its own country, and a town named on its
own and in an address gets one stand-in (agent/detect/addresses.py, agent/detect/ner.py,
agent/substitute/towns.py, agent/substitute/substituter.py). Addresses of our own."""

from __future__ import annotations

import pytest

from agent.detect.addresses import AddressDetector
from agent.detect.base import DetectionContext
from agent.entities import Action, Label
from agent.session.conversation import Conversation
from agent.substitute.towns import towns


@pytest.mark.parametrize(
    "text, address",
    [
        ("Adresse de livraison : 12 rue des Lilas, 75011 Paris", "12 rue des Lilas, 75011 Paris"),
        ("Envoyez-le au 4 bis Rue d'Alsace, 1000 Bruxelles.", "4 bis Rue d'Alsace, 1000 Bruxelles"),
        ("Vivo en calle Mayor 4, 28013 Madrid desde 2019", "calle Mayor 4, 28013 Madrid"),
        ("Mi dirección es Calle de los Olivos 4, 28001 Madrid.", "Calle de los Olivos 4, 28001 Madrid"),
        ("Abito in via Garibaldi 14, 10122 Torino", "via Garibaldi 14, 10122 Torino"),
        ("Spedire a: Via della Spiga 7, 20121 Milano", "Via della Spiga 7, 20121 Milano"),
        ("Meine Adresse: Hauptstraße 12, 80331 München", "Hauptstraße 12, 80331 München"),
        ("Moro na Rua das Flores 27, 1200-195 Lisboa.", "Rua das Flores 27, 1200-195 Lisboa"),
        ("Post: Herengracht 12, 1017 AB Amsterdam. Thanks", "Herengracht 12, 1017 AB Amsterdam"),
    ],
)
def test_a_continental_address_is_found_whole(text, address):
    found = [s.text for s in AddressDetector().detect(text, DetectionContext())]
    assert address in found, found


@pytest.mark.parametrize("text", ["We chatted via Zoom 3 times last week.", "Send it via Signal 2 days before."])
def test_a_lower_case_street_word_needs_a_house_number_or_postcode(text):
    assert AddressDetector().detect(text, DetectionContext()) == []


@pytest.mark.parametrize(
    "text, label",
    [
        ("Lieferadresse: Musterweg 12, 10115 Berlin", "Lieferadresse"),
        ("Meine Adresse: Hauptstraße 12, 80331 München", "Meine Adresse"),
        ("Adresse de livraison: 12 rue des Lilas, 75011 Paris", "Adresse de livraison"),
        ("Dirección de envío: Calle de los Olivos 4, 28001 Madrid", "Dirección de envío"),
    ],
)
def test_a_foreign_field_label_is_no_person(privacy_engine, text, label):
    result = privacy_engine.sanitize(text, Conversation("field-label", seed=3))
    assert result.sanitized.startswith(label + ":"), result.sanitized
    address = next(e for e in result.entities if e.label is Label.ADDRESS)
    assert address.action is not Action.KEEP and address.real.endswith(text.rsplit(" ", 1)[1])


def test_a_city_by_its_own_peoples_name_is_known():
    assert [t.country for t in towns().readings("Torino")][:1] == ["IT"]
    assert [t.country for t in towns().readings("München")][:1] == ["DE"]
    assert towns().readings("Springfield")[0].country == "US"  # a town's own name comes first


@pytest.mark.parametrize(
    "text",
    [
        "I grew up in Torino and now live at Via Roma 12, Torino.",
        "I now live at Via Roma 12, Torino. I grew up in Torino.",
    ],
)
def test_a_town_alone_and_in_an_address_get_one_italian_stand_in(privacy_engine, text):
    for seed in range(5):
        conversation = Conversation(f"torino-{seed}", seed=seed)
        result = privacy_engine.sanitize(text, conversation)
        assert "Torino" not in result.sanitized, result.sanitized
        town = next(e for e in result.entities if e.label is Label.LOCATION and e.real == "Torino")
        address = next(e for e in result.entities if e.label is Label.ADDRESS)
        assert address.sent.endswith(town.sent), (address.sent, town.sent)
        readings = towns().readings(town.sent)
        assert readings and readings[0].country == "IT" and town.sent != "Turin", town.sent
        assert privacy_engine.restore(result.sanitized, conversation).text == text
