"""Numbers a cue names that went out as written: a licence after its state ("Driver Licence
NSW 12345678"), an account after "acc", digit groups with spaces or dots ("NHS number
485 777 3456", "cédula es 1.020.456.789"), an order after "Order: #", a flight, an alien
number, a form's own acronym ("PPO No. 1234567890"), a card's last digits, a door code.
Sentences written for these tests."""

from __future__ import annotations

import pytest

from agent.entities import Label
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, number",
    [
        ("Tenant: Ruairi Kehoe, Driver Licence VIC 40917723, moving in on Monday.", "40917723"),
        ("pls send the rent to sort code 30-91-12 acc 55120934 before friday", "55120934"),
        ("Patient NHS number 943 476 5919, referred for an ultrasound.", "943 476 5919"),
        ("Corrige: mi cédula es 52.118.907 y vivo en Medellín.", "52.118.907"),
        ("Order: #K-903114 arrived broken, please draft a complaint.", "K-903114"),
        ("I land on flight QF0012 at 6am, can you plan my day?", "QF0012"),
        ("My A-number is A098-123-456; what should I bring to the interview?", "A098-123-456"),
        ("Please draft my pension query. UAN No. 100987654321, joined in 2009.", "100987654321"),
        ("Dispute this charge on my Visa ending 7731 from last week.", "7731"),
    ],
)
def test_a_number_the_cue_names_is_swapped_and_restored(privacy_engine, text, number):
    conversation = Conversation("numbers")
    result = privacy_engine.sanitize(text, conversation)
    assert number not in result.sanitized, result.entities
    assert privacy_engine.restore(result.sanitized, conversation).text == text


def test_a_door_code_is_a_secret(privacy_engine):
    text = "Text the dog sitter: the door code is 5139, food is under the sink."
    assert any(s.label is Label.SECRET and s.text == "5139" for s in privacy_engine.detect(text))


@pytest.mark.parametrize(
    "text",
    [
        "My account for 2023 shows 12.50 in fees.",
        "Order 3 boxes of 12 for the party.",
        "The ticket costs 45 and the flight takes 3 hours.",
    ],
)
def test_amounts_years_and_counts_are_no_ids(privacy_engine, text):
    assert not any(s.label is Label.ID for s in privacy_engine.detect(text)), privacy_engine.detect(text)


@pytest.mark.parametrize(
    "text, plate",
    [
        ("Mein Auto, Kennzeichen HB-RT 3390, wurde abgeschleppt. Was tun?", "HB-RT 3390"),
        ("Ma voiture immatriculée FK-271-QD a été flashée.", "FK-271-QD"),
        ("Mi coche con matrícula 5521 LHT fue multado.", "5521 LHT"),
        ("De auto met kenteken 52-XKT-7 staat voor de deur.", "52-XKT-7"),
        ("samochód nr rejestracyjny WA 91K24 stoi pod domem", "WA 91K24"),
    ],
)
def test_a_number_plate_after_its_word_in_other_languages_is_swapped(privacy_engine, text, plate):
    conversation = Conversation("plates")
    result = privacy_engine.sanitize(text, conversation)
    assert plate not in result.sanitized, result.entities
    assert privacy_engine.restore(result.sanitized, conversation).text == text


@pytest.mark.parametrize(
    "text, number",
    [
        ("Bitte stornieren Sie die Buchungsnummer 8T2QWX zum Monatsende.", "8T2QWX"),
        ("Versichertennr.: K904512377, Krankenkasse bitte informieren.", "K904512377"),
        ("Je suis allocataire n° 3381920 et j'attends ma prime.", "3381920"),
        ("Ho ricevuto il verbale n. 2025/551209 ieri.", "2025/551209"),
        ("Referência: pedido nº 7712004518 não chegou.", "7712004518"),
        ("Mon médecin a le numéro RPPS 10009876543.", "10009876543"),
    ],
)
def test_a_records_number_in_other_languages_is_swapped(privacy_engine, text, number):
    result = privacy_engine.sanitize(text, Conversation("records"))
    assert number not in result.sanitized, result.entities


@pytest.mark.parametrize("text", ["Seite 12 der Broschüre ist leer.", "Le chapitre n. 3 parle du climat.",
                                  "We meet in room 12 at 3 pm."])
def test_small_numbers_in_prose_are_no_records(privacy_engine, text):
    assert not any(s.label is Label.ID for s in privacy_engine.detect(text)), privacy_engine.detect(text)
