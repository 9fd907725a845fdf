"""National, government, tax, bank and wallet identifiers of the type table.

The valid examples are the ones python-stdnum's documentation gives for each type (or the
official format's published specimen); the invalid ones change a check character."""

from __future__ import annotations

import random

import pytest

from agent.detect.id_table import ID_TYPES
from agent.detect.identifiers import IdentifierDetector
from agent.detect.spec import StandInRequest
from agent.substitute.id_standins import alnum, constant_positions, shares_digit_run, stand_in_for

DETECTOR = IdentifierDetector(ID_TYPES)
TYPES = {t.key: t for t in ID_TYPES}
WITH_EXAMPLES = [t for t in ID_TYPES if t.examples]


def found(text: str) -> dict[str, str]:
    return {s.text: s.detector.split(":", 1)[1] for s in DETECTOR.detect(text)}


def test_at_least_twenty_countries():
    countries = {t.country for t in ID_TYPES if t.country}
    assert len(countries) >= 20, sorted(countries)


@pytest.mark.parametrize("kind", WITH_EXAMPLES, ids=lambda t: t.key)
def test_documented_example_is_valid_and_found_with_its_cue(kind):
    example = kind.examples[0]
    if kind.validate is not None:
        assert kind.validate(example)
    cue = next(c for c in kind.context if len(alnum(c)) >= 2)
    assert found(f"My {cue} is {example}, thanks.").get(example) == kind.key


# Types with no check digit are broken by their structure rules (from stdnum's docs).
INVALID = {"US_SSN": "666-90-4399", "US_ITIN": "912-93-4567", "US_EIN": "07-1144442", "DK_CPR": "511062-5629",
           # The Medicare check digit is the ninth; the tenth is the person's number on the card.
           "AU_MEDICARE": "2123 45671 1"}
# stdnum checks a PAN's format only (no check character): its shape is all there is.
CHECKED = [t for t in WITH_EXAMPLES if t.validate is not None and t.validate.__name__ != "format_only"
           and t.family != "crypto" and t.key != "IN_PAN"]


def _invalid(kind) -> str:
    if kind.key in INVALID:
        return INVALID[kind.key]
    broken = _break_check(kind.examples[0])
    if kind.validate(broken):
        broken = _break_check(broken)
    return broken


def _break_check(value: str) -> str:
    """The value with its last digit (or letter) changed."""
    chars = list(value)
    for i in range(len(chars) - 1, -1, -1):
        if chars[i].isdigit():
            chars[i] = str((int(chars[i]) + 1) % 10)
            return "".join(chars)
        if chars[i].isalpha():
            chars[i] = "B" if chars[i].upper() == "A" else "A"
            return "".join(chars)
    return value


@pytest.mark.parametrize("kind", CHECKED, ids=lambda t: t.key)
def test_invalid_checksum_with_own_cue_is_still_replaced(kind):
    broken = _invalid(kind)
    assert not kind.validate(broken)
    cue = next(c for c in kind.context if len(alnum(c)) >= 2)
    spans = DETECTOR.detect(f"{cue}: {broken}")
    assert any(s.text == broken for s in spans), (cue, broken)


@pytest.mark.parametrize("kind", CHECKED, ids=lambda t: t.key)
def test_invalid_checksum_without_cue_is_not_an_id(kind):
    broken = _invalid(kind)
    assert kind.key not in found(f"Please look at {broken} before Friday.").values()


NO_CUE_FOUND = ["US_SSN", "US_ITIN", "UK_NINO", "UK_DRIVING_LICENCE", "DE_VAT", "ES_DNI", "ES_NIE",
                "IT_CODICE_FISCALE", "FI_HETU", "SE_PERSONNUMMER", "KR_RRN", "IN_PAN", "SG_NRIC", "BR_CPF",
                "MX_CURP", "ZA_ID", "CN_RIC", "CH_AHV", "FR_NIR", "BE_NATIONAL_NUMBER", "BTC_ADDRESS", "ETH_ADDRESS",
                "AU_MEDICARE", "DE_ID_CARD"]


@pytest.mark.parametrize("key", NO_CUE_FOUND)
def test_distinctive_forms_are_found_without_a_cue(key):
    example = TYPES[key].examples[0]
    assert found(f"Please look at {example} before Friday.").get(example) == key


@pytest.mark.parametrize("key", ["US_PASSPORT", "UK_PASSPORT", "US_DRIVER_LICENSE", "AU_MEDICARE", "DE_ID_CARD"])
def test_types_without_a_checksum_need_their_cue(key):
    """No check character (passports, licences, the nine-character identity card number)
    or only digits (a Medicare number not grouped as on the card): the cue decides."""
    kind = TYPES[key]
    value = {"US_PASSPORT": "C03005988", "UK_PASSPORT": "925665416", "US_DRIVER_LICENSE": "D1234567",
             "AU_MEDICARE": "2123456701", "DE_ID_CARD": "T22000129"}[key]
    assert kind.key not in found(f"Please look at {value} before Friday.").values()
    cue = kind.context[0]
    # A passport number of nine digits could be American or British: either way it goes.
    assert found(f"My {cue} is {value}.").get(value, "").split("_")[-1] == key.split("_")[-1]


@pytest.mark.parametrize("kind", [t for t in ID_TYPES if t.examples], ids=lambda t: t.key)
def test_stand_ins_are_valid_and_keep_no_digit_run(kind):
    rng = random.Random(7)
    real = kind.examples[0]
    for _ in range(20):
        fake = stand_in_for(kind, StandInRequest(real=real, rng=rng))
        assert fake is not None
        assert alnum(fake).upper() != alnum(real).upper()
        assert len(fake) == len(real) and [c.isalnum() for c in fake] == [c.isalnum() for c in real]
        if kind.validate is not None:
            assert kind.validate(fake), fake
        assert not shares_digit_run(real, fake, fixed=constant_positions(kind, real)), (real, fake)


def test_overlapping_types_go_to_the_nearest_cue():
    text = "My SIN is 123 456 782 and my TFN is 123 456 782 too."
    spans = DETECTOR.detect(text)
    assert [s.detector for s in spans] == ["ids:CA_SIN", "ids:AU_TFN"]


def test_identifiers_in_cjk_and_hangul_sentences():
    assert found("我的身份证号是360426199101010071。").get("360426199101010071") == "CN_RIC"
    assert found("제 주민등록번호는 971013-9019902입니다.").get("971013-9019902") == "KR_RRN"


def test_not_inside_emails_paths_or_longer_numbers():
    assert found("mail 536-90-4399x@example.com or /srv/536-90-4399/log") == {}
    assert found("order 1536-90-4399") == {}


def test_ascii_capital_cues_are_case_sensitive():
    # "pan" and "sin" are words; only the capitals announce a PAN or a SIN.
    booster = DETECTOR.booster
    for text in ("a pan of 12345", "no sin in 12345"):
        hits = booster.scan(text)
        assert not {"IN_PAN", "CA_SIN"} & set(booster.near(hits, 10, 15))
    hits = booster.scan("PAN: 12345 and SIN 12345")
    assert "IN_PAN" in booster.near(hits, 5, 10) and "CA_SIN" in booster.near(hits, 19, 24)
    # A mistyped SIN after its cue is still a SIN; after the word "sin" it is nothing.
    assert found("SIN 123 456 789") == {"123 456 789": "CA_SIN"}
    assert found("sin 123 456 789") == {}


def test_wallets_checked_by_their_checksums():
    eth = TYPES["ETH_ADDRESS"].examples[0]
    wrong_case = eth[:-1] + ("D" if eth[-1] == "d" else "d")
    assert TYPES["ETH_ADDRESS"].validate(eth) and not TYPES["ETH_ADDRESS"].validate(wrong_case)
    assert found(f"send it to {wrong_case}") == {}
    segwit = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
    taproot = "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297"
    assert found(f"pay {segwit} or {taproot}") == {segwit: "BTC_ADDRESS", taproot: "BTC_ADDRESS"}
    assert found("pay bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr") == {}
