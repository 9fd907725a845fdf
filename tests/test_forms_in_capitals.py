"""Names and addresses as forms, cards and labels print them, and names told about someone
else: "KIMBERLY ANNE DOUGLAS" (the surname had gone out after the middle name), "775 W
19TH ST, YUMA AZ 85364" (only the ZIP had changed), "his name is tyler brockway"; an
ordinal street's stand-in ("19th" had become "31jr") and the town after it ("221 W 42nd
St, Boston" had become "..., Ford"). Sentences written for these tests."""

from __future__ import annotations

import random
import re

import pytest

from agent.entities import Label
from agent.knowledge.geonames import is_town_of_5000
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, name",
    [
        ("Cardholder: ROSALIND MAE HARGREAVE, please update the statement address.", "HARGREAVE"),
        ("Applicant: CHUKWUEMEKA IFEANYI OKONKWO", "OKONKWO"),
        ("Titular: JOÃO PEDRO CARVALHO, CPF em anexo", "CARVALHO"),
    ],
)
def test_a_middle_name_in_capitals_takes_the_surname_with_it(privacy_engine, text, name):
    result = privacy_engine.sanitize(text, Conversation("caps"))
    assert name not in result.sanitized, result.entities


@pytest.mark.parametrize(
    "text, street",
    [
        ("SHIP TO: 4410 N 27TH AVE, PHOENIX AZ 85017", "27TH AVE"),
        ("Return label: 88 LINDEN HILL RD APT 4, NORWALK CT 06851", "LINDEN HILL"),
    ],
)
def test_an_address_in_capitals_is_found_and_swapped_in_capitals(privacy_engine, text, street):
    conversation = Conversation("caps-address")
    result = privacy_engine.sanitize(text, conversation)
    found = [e for e in result.entities if e.label is Label.ADDRESS and street in e.real]
    assert found and street not in result.sanitized, result.entities
    assert found[0].sent == found[0].sent.upper(), found[0].sent
    assert privacy_engine.restore(result.sanitized, conversation).text == text


def test_an_ordinal_street_gets_an_ordinal_stand_in(privacy_engine):
    result = privacy_engine.sanitize("Meet me at 221 W 42nd St, Boston after work.", Conversation("ordinal"))
    sent = next(e.sent for e in result.entities if e.label is Label.ADDRESS)
    number = re.search(r"W (\d+)(st|nd|rd|th) St", sent)
    assert number, sent
    n, suffix = int(number.group(1)), number.group(2)
    expected = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    assert suffix == expected, sent



def test_the_town_after_a_numbered_street_stays_a_town(privacy_engine):
    spans = privacy_engine.detect("Send it to 221 W 42nd St, Wichita")
    address = next(s for s in spans if s.label is Label.ADDRESS)
    result = privacy_engine.substituter.address(random.Random(3), address.text, lambda _: True, Conversation("numbered"))
    town = result.rsplit(", ", 1)[-1]
    assert town != "Wichita" and is_town_of_5000(town), result


@pytest.mark.parametrize(
    "text, name",
    [
        ("i think my ex is following me. his name is tyler brockway, what can i do", "brockway"),
        ("my landlord's name is oksana petrenko and she kept the deposit", "petrenko"),
    ],
)
def test_a_name_told_about_someone_else_in_lower_case_is_swapped(privacy_engine, text, name):
    result = privacy_engine.sanitize(text, Conversation("told"))
    assert name not in result.sanitized, result.entities


def test_a_name_that_is_not_told_stays_a_phrase(privacy_engine):
    result = privacy_engine.sanitize("Her name is not important here, the dates are.", Conversation("told"))
    assert not any(e.label is Label.PERSON for e in result.entities), result.entities


@pytest.mark.parametrize(
    "text, street, code",
    [
        ("Mi dirección: Avda. de los Almendros 9, 2ºB, 41010 Sevilla", "Almendros", "41010"),
        ("Morada: Av. da República 48, 3.º Dto, 1050-195 Lisboa", "República", "1050-195"),
    ],
)
def test_a_short_street_kind_and_a_floor_keep_the_address_whole(privacy_engine, text, street, code):
    conversation = Conversation("abbreviated")
    result = privacy_engine.sanitize(text, conversation)
    assert street not in result.sanitized and code not in result.sanitized, result.entities
    sent = next(e.sent for e in result.entities if e.label is Label.ADDRESS)
    assert re.search(r"\d\.?º", sent), sent  # the floor stays a floor
    assert privacy_engine.restore(result.sanitized, conversation).text == text
