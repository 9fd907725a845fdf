"""Garbles and leaks found by trying everyday prompts by hand: a review's first word read as
a person, a street read as a firm or a town, a fine's reference, an abbreviation before a
number read as a country, a firm named by the writer's team. Sentences of our own."""

from __future__ import annotations

import pytest

from agent.entities import Action, Label
from agent.session.conversation import Conversation


def persons(engine, text: str) -> list[str]:
    return [s.text for s in engine.detect(text) if s.label is Label.PERSON]


@pytest.mark.parametrize(
    "text, word",
    [
        ("Help me answer this review of our shop: 'Mug arrived broken. - Paula H.'", "Mug"),
        ("Reply to the customer. Parcel arrived late and the lid was cracked.", "Parcel"),
    ],
)
def test_an_everyday_word_opening_a_sentence_is_no_person(privacy_engine, text, word):
    assert word not in persons(privacy_engine, text)
    assert word in privacy_engine.sanitize(text, Conversation("sentence-open")).sanitized


def test_a_word_used_as_a_nickname_inside_a_sentence_stays_a_person(privacy_engine):
    text = "We nicknamed him Moth because he loves lamps, and Moth said he would come."
    assert "Moth" in persons(privacy_engine, text)


@pytest.mark.parametrize(
    "text, street",
    [
        ("We live on Maple Avenue near the school.", "Maple Avenue"),
        ("The fine was issued on Crescent Road, Hove on 3 May.", "Crescent Road, Hove"),  # NER: a firm
    ],
)
def test_a_street_read_as_a_place_or_a_firm_gets_a_street_as_stand_in(privacy_engine, text, street):
    """A town's or a company's stand-in made these "We live on Sun City" and "Oak Oak, York"."""
    for seed in range(4):
        result = privacy_engine.sanitize(text, Conversation(seed=seed), {street: Action.REPLACE})
        sent = next(e.sent for e in result.entities if e.real == street)
        kind = street.split(",")[0].split()[-1]
        assert sent.split(",")[0].split()[-1] == kind and sent != street, sent
        # the name's own words change, a street word among them too ("Crescent" of "Crescent Road")
        assert sent.split()[0] != street.split()[0], sent


def test_a_fines_reference_is_protected_and_its_abbreviation_is_no_country(privacy_engine):
    text = "Please proofread: I am writing to appeal the parking fine PCN AB12345678 issued on 3 May."
    ids = [s.text for s in privacy_engine.detect(text) if s.label is Label.ID]
    assert "AB12345678" in ids, ids
    sanitized = privacy_engine.sanitize(text, Conversation("pcn")).sanitized
    assert "AB12345678" not in sanitized and "fine PCN " in sanitized, sanitized


def test_an_amount_after_fine_is_no_reference(privacy_engine):
    text = "They gave me a fine of 3000 rupees; can I appeal?"
    assert not [s for s in privacy_engine.detect(text) if s.label is Label.ID]


@pytest.mark.parametrize(
    "text, firm",
    [
        ("Write a performance review for Chidi Okeke, a backend engineer on my team at Vantage Robotics.", "Vantage Robotics"),
        ("My manager at Kestrel Freight keeps moving my shifts; how do I raise it?", "Kestrel Freight"),
    ],
)
def test_the_firm_of_the_writers_team_is_swapped(privacy_engine, text, firm):
    assert firm not in privacy_engine.sanitize(text, Conversation("team-at")).sanitized


@pytest.mark.parametrize(
    "text, place",
    [
        ("My wife Ingrid and I want to buy a house in Bend, Oregon. Which neighborhoods are good?", "Bend"),
        ("We are looking for a flat near Didsbury; is it safe at night?", "Didsbury"),
    ],
)
def test_where_a_home_is_being_looked_for_is_kept(privacy_engine, text, place):
    """The answer is about that town (its neighbourhoods, prices); "house in" had made it
    where the writer lives, and the stand-in town got the answer."""
    assert place in privacy_engine.sanitize(text, Conversation("home-to-find")).sanitized


def test_where_the_writer_already_lives_is_still_swapped(privacy_engine):
    text = "We live in a house in Bend with our two kids and the school run is long."
    assert "Bend" not in privacy_engine.sanitize(text, Conversation("home-found")).sanitized


@pytest.mark.parametrize(
    "text, platform",
    [
        ("Help me respond to this review on our Etsy shop: the mug arrived broken.", "Etsy"),
        ("How do I get more subscribers on my YouTube channel about bread?", "YouTube"),
    ],
)
def test_a_well_known_platform_the_writer_sells_or_posts_on_is_kept(privacy_engine, text, platform):
    assert platform in privacy_engine.sanitize(text, Conversation("platform")).sanitized


def test_the_writers_own_little_known_firm_is_still_swapped(privacy_engine):
    text = "Our Velmora account is overdue; draft a reminder."
    assert "Velmora" not in privacy_engine.sanitize(text, Conversation("own-firm")).sanitized


def test_a_span_of_years_in_a_cv_is_no_phone_number(privacy_engine):
    text = "Experience: Barista at a coffee chain (2020-2022), then shift lead (2022 - 2024)."
    assert not [s for s in privacy_engine.detect(text) if s.label is Label.PHONE]
    assert "(2020-2022)" in privacy_engine.sanitize(text, Conversation("years")).sanitized


def test_a_short_lower_case_word_is_no_firm(privacy_engine):
    text = "My landlord Mr Haddad says I owe £340. My tenancy ref is TNC-88412."
    sanitized = privacy_engine.sanitize(text, Conversation("ref")).sanitized
    assert "tenancy ref is" in sanitized and "TNC-88412" not in sanitized, sanitized


@pytest.mark.parametrize(
    "text, client",
    [
        ("Make this polite: 'Kevin, the Hartwell invoice is 3 weeks late. Fix it or I escalate.'", "Hartwell"),
        ("Summarise the Brannock contract renewal terms for my boss.", "Brannock"),
    ],
)
def test_the_client_a_piece_of_business_is_with_is_swapped(privacy_engine, text, client):
    assert client not in privacy_engine.sanitize(text, Conversation("client-doc")).sanitized


@pytest.mark.parametrize(
    "text, kept",
    [
        ("How do I recover the Google account of my late father?", "Google"),  # a household name
        ("Close the March invoice and the Q3 audit today.", "Q3 audit"),  # a month, a quarter
    ],
)
def test_a_household_name_or_a_date_before_a_business_word_is_kept(privacy_engine, text, kept):
    assert kept in privacy_engine.sanitize(text, Conversation("client-doc-kept")).sanitized


@pytest.mark.parametrize(
    "text, plate",
    [
        ("Draft a letter to the council about the pothole that damaged my car (reg KX19 ABC).", "KX19 ABC"),
        ("My van KX19ABC was towed from outside my flat, what can I do?", "KX19ABC"),
    ],
)
def test_a_british_number_plate_after_a_car_word_is_protected(privacy_engine, text, plate):
    sanitized = privacy_engine.sanitize(text, Conversation("plate")).sanitized
    assert plate not in sanitized, sanitized


def test_letters_and_digits_of_that_shape_without_a_car_are_left_alone(privacy_engine):
    text = "Set the flag AB12 CDE in the config and restart."
    assert "AB12 CDE" in privacy_engine.sanitize(text, Conversation("no-plate")).sanitized


@pytest.mark.parametrize(
    "text, name",
    [
        ("Write a toast for my brother Callum's wedding to Aisling on Saturday.", "Aisling"),
        ("My cousin got engaged to Eilidh last week; gift ideas?", "Eilidh"),
    ],
)
def test_whom_someone_marries_is_a_person(privacy_engine, text, name):
    assert name not in privacy_engine.sanitize(text, Conversation("wedding")).sanitized


@pytest.mark.parametrize(
    "text, language",
    [
        ("Translate to German: Hi Lukas, the meeting moved to Thursday. Best, Miriam", "German"),
        ("Reply in Tagalog please, my grandmother reads it.", "Tagalog"),
        ("Can you translate this into Greek for my landlord?", "Greek"),
    ],
)
def test_the_language_to_write_in_is_never_a_name(privacy_engine, text, language):
    """spaCy read "German" as a man's name: "Translate to Juri"."""
    assert language not in persons(privacy_engine, text)
    assert language in privacy_engine.sanitize(text, Conversation("language")).sanitized


def test_a_person_named_like_a_language_is_still_a_person(privacy_engine):
    text = "My colleague German Ramirez is away until Monday."
    assert "German Ramirez" not in privacy_engine.sanitize(text, Conversation("german")).sanitized


def test_a_firm_and_its_town_read_as_one_firm_are_two(privacy_engine):
    text = "Translate to German: Hi Lukas, the meeting with Bosch in Stuttgart moved to Thursday. Best, Miriam"
    sanitized = privacy_engine.sanitize(text, Conversation("firm-in-town")).sanitized
    assert "Stuttgart" in sanitized and " in Stuttgart" in sanitized, sanitized


def test_a_well_known_firm_after_from_is_a_firm(privacy_engine):
    text = "Lunch with Tom Harris from Bosch tomorrow, what should I ask?"
    orgs = [s.text for s in privacy_engine.detect(text) if s.label is Label.ORG]
    assert "Bosch" in orgs and "Bosch" not in persons(privacy_engine, text)


@pytest.mark.parametrize(
    "text, parts",
    [
        ("Write a eulogy for my grandfather, Reginald 'Reg' Thornton, who loved his allotment.", ("Reginald", "Reg", "Thornton")),
        ('Our coach Robert "Bobby" Tanaka retires this year; write a card.', ("Robert", "Bobby", "Tanaka")),
    ],
)
def test_a_name_with_its_nickname_in_quotes_keeps_its_shape(privacy_engine, text, parts):
    """spaCy read "Reginald 'Reg" as one name: the stand-in was "Bradley Horton' Brent"."""
    import re

    sanitized = privacy_engine.sanitize(text, Conversation("nickname")).sanitized
    assert not any(re.search(rf"\b{p}\b", sanitized) for p in parts), sanitized
    assert re.search(r"[A-Z][a-z]+ ['\"][A-Z][a-z]+['\"] [A-Z][a-z]+", sanitized), sanitized


@pytest.mark.parametrize(
    "text, firm",
    [
        ("Write a LinkedIn post congratulating my colleague Sofia Marchetti on her promotion to Head of Data at Lumora Health.",
         "Lumora Health"),
        ("Congratulate Tomasz, our new Senior Data Scientist at Quillmere Analytics, on his first month.", "Quillmere Analytics"),
    ],
)
def test_where_a_job_title_is_held_is_swapped(privacy_engine, text, firm):
    assert firm not in privacy_engine.sanitize(text, Conversation("title-at")).sanitized


def test_a_lower_case_role_before_at_is_no_title(privacy_engine):
    text = "I met the head at the school gate and she said Milo was fine."
    assert not [s for s in privacy_engine.detect(text) if s.label is Label.ORG and s.detector == "org_cues"]


def test_a_job_held_at_a_firm_is_no_person(privacy_engine):
    text = "Here's my CV: Experience: Barista at Costa Coffee (2020-2022). Cashier at Tesco (2019)."
    assert not {"Barista", "Cashier"} & set(persons(privacy_engine, text))
    sanitized = privacy_engine.sanitize(text, Conversation("job-at")).sanitized
    assert "Barista at " in sanitized and "Cashier at " in sanitized, sanitized


def test_a_rare_name_before_at_is_still_a_person(privacy_engine):
    text = "Please thank Oyelaran at Brindle Foods for the samples."
    assert "Oyelaran" not in privacy_engine.sanitize(text, Conversation("name-at")).sanitized
