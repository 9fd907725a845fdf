"""Cases found by reading sanitized prompts the way a user would; each once went wrong."""

from __future__ import annotations

import re

import pytest

from agent.entities import Action, Label
from agent.session.conversation import Conversation


def sanitize(engine, text: str, seed: int = 11):
    return engine.sanitize(text, Conversation(seed=seed))


def kept(result) -> set[str]:
    return {e.real for e in result.entities if e.action is Action.KEEP}


def test_title_after_a_relation_stays_a_title(privacy_engine):
    result = sanitize(privacy_engine, "Write to my manager Dr. Kevin O'Brien and his teacher Mrs. Alvarez.")
    assert "Dr. " in result.sanitized and "Mrs. " in result.sanitized
    assert "Kevin" not in result.sanitized and "Alvarez" not in result.sanitized


@pytest.mark.parametrize("month", ["May", "June", "April", "August"])
def test_a_month_is_not_a_name_even_next_to_a_person_called_so(privacy_engine, month):
    result = sanitize(privacy_engine, f"What is Chicago like in {month}? Ask {month} Chen about it.")
    assert f"in {month}?" in result.sanitized
    assert "Chen" not in result.sanitized


def test_password_without_a_colon(privacy_engine):
    result = sanitize(privacy_engine, "Log in as admin with password Winter2024! and restart nginx. The password policy says 90 days.")
    assert "Winter2024!" not in result.sanitized
    assert "password policy" in result.sanitized  # an ordinary word after "password" is not a secret


def test_a_hospital_keeps_its_kind(privacy_engine):
    result = sanitize(privacy_engine, "I'm a nurse at St. Luke's Hospital and I need help with a rota.")
    hospital = next(e for e in result.entities if e.real.endswith("Hospital"))
    assert hospital.label is Label.ORG
    assert re.fullmatch(r"St\. \w+'s Hospital", hospital.sent), hospital.sent


def test_an_address_gets_a_town_of_its_country(privacy_engine):
    for seed in range(6):
        result = sanitize(privacy_engine, "Ship it to 42 Elm Street, Springfield, IL 62704 please.", seed)
        address = next(e for e in result.entities if e.label is Label.ADDRESS)
        town = address.sent.split(",")[1].strip()
        from agent.substitute.towns import towns

        assert any(t.country == "US" for t in towns().readings(town)), address.sent
        assert address.sent.endswith(", IL " + address.sent[-5:])


def test_label_style_fields(privacy_engine):
    result = sanitize(privacy_engine, "Customer: Priya Raman\nIssue: refund for order 4411-2231\ncustomer: That is all")
    assert "Priya" not in result.sanitized and "Issue:" in result.sanitized
    assert "That is all" in result.sanitized


def test_the_users_office_city_is_swapped_but_a_weather_question_alone_keeps_it(privacy_engine):
    office = sanitize(privacy_engine, "Confirm our meeting at the Chicago office on Friday.")
    assert "Chicago" not in office.sanitized
    weather = sanitize(privacy_engine, "What is the weather in Chicago like in spring?")
    assert "Chicago" in kept(weather)


def test_a_postcode_town_is_not_a_person(privacy_engine):
    result = sanitize(privacy_engine, "My flat is at 12 Rose Lane, Leeds LS6 2QT.")
    assert all(e.label is not Label.PERSON for e in result.entities)
    assert "Leeds" not in result.sanitized and result.sanitized.endswith(".")


def test_a_first_name_that_is_also_a_country_is_a_person_when_he_acts(privacy_engine):
    story = sanitize(privacy_engine, "We're writing a story about Chad. Chad is a deviant beyond redemption. He lies to everyone.")
    assert "Chad" not in story.sanitized and "He lies" in story.sanitized
    news = sanitize(privacy_engine, "Chad signed a peace treaty with Sudan in 2010. It was a relief for the region.")
    assert "Chad" in kept(news) and "Sudan" in kept(news)  # a country acting is still a country ("it")


def test_a_name_tagged_as_a_people_is_a_person_but_a_nationality_stays(privacy_engine):
    result = sanitize(privacy_engine, "The villagers beg the elders to repair the damage Lorelei did to their village.")
    assert "Lorelei" not in result.sanitized
    speakers = sanitize(privacy_engine, "Act as a pronunciation assistant for Turkish speaking people and the French.")
    assert {"Turkish", "French"} <= kept(speakers)


def test_a_character_named_with_an_apposition_is_kept_whatever_ner_called_it(privacy_engine):
    result = sanitize(privacy_engine, "What do you think about Katurian, a character in the play 'The Pillowman'?")
    assert "Katurian" in kept(result)


def test_a_common_word_acting_with_his_or_her_is_a_name(privacy_engine):
    result = sanitize(privacy_engine, "As the fire grows, Min steps back, shielding his face. Ruby tells Min to run.")
    assert "Min" not in result.sanitized and "Ruby" not in result.sanitized
    plain = sanitize(privacy_engine, "Summer comes and the garden blooms. Will says the roof is fine.")
    assert plain.sanitized == "Summer comes and the garden blooms. Will says the roof is fine."


def test_a_name_the_text_calls_a_company_is_an_organisation(privacy_engine):
    result = sanitize(privacy_engine, "Write a story about the team at paystone, a payments company. Our client Brightline, a logistics startup from Austin, needs a pitch.")
    labels = {e.real: e.label for e in result.entities}
    assert labels.get("paystone") is Label.ORG and labels.get("Brightline") is Label.ORG
    assert "paystone" not in result.sanitized and "Brightline" not in result.sanitized
    teller = sanitize(privacy_engine, "Ask Sarah, a bank teller, about it.")
    assert {e.real: e.label for e in teller.entities}.get("Sarah") is Label.PERSON


def test_a_name_defined_with_its_initials_is_swapped_with_them(privacy_engine):
    result = sanitize(privacy_engine, "The head of Fit Your Business company (FYB) wants FYB to colonise Mars.")
    assert "Fit Your Business" not in result.sanitized and "FYB" not in result.sanitized
    terms = sanitize(privacy_engine, "Explain Return On Investment (ROI) like I am five.")
    assert "Return On Investment (ROI)" in terms.sanitized  # a term of art, not a name


def test_a_story_character_introduced_by_a_comma_is_a_name(privacy_engine):
    result = sanitize(privacy_engine, "One of the characters, Oof, is a huge bear. Oof is the bad guy at the start.")
    assert "Oof" not in result.sanitized
