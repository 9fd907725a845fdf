"""Checksums and structural checks that turn a regex hit into a real identifier."""

from __future__ import annotations

import re

# IBAN length per country (ISO 13616 registry, the countries people meet most).
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22,
    "BH": 22, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22,
    "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28,
    "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
    "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24,
    "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24,
    "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SC": 31,
    "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24,
    "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}


def digits_of(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def luhn_valid(number: str) -> bool:
    digits = [int(d) for d in number if d.isdigit()]
    if len(digits) < 12:
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def luhn_check_digit(partial: str) -> str:
    """The digit that makes partial + digit Luhn-valid."""
    total = 0
    for i, ch in enumerate(reversed(partial)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


# Card brands by prefix and length. Brand matters: a Visa must be replaced by a Visa.
_CARD_BRANDS = (
    ("amex", re.compile(r"3[47]"), (15,)),
    ("diners", re.compile(r"3(?:0[0-5]|[68])"), (14, 16, 19)),
    ("jcb", re.compile(r"35(?:2[89]|[3-8])"), (16, 17, 18, 19)),
    ("visa", re.compile(r"4"), (13, 16, 19)),
    ("mastercard", re.compile(r"5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)"), (16,)),
    ("discover", re.compile(r"6(?:011|5|4[4-9]|22)"), (16, 19)),
    ("maestro", re.compile(r"5[06-8]|6\d"), (12, 13, 14, 15, 16, 17, 18, 19)),
    ("unionpay", re.compile(r"62"), (16, 17, 18, 19)),
)


def card_brand(number: str) -> str | None:
    digits = digits_of(number)
    for brand, prefix, lengths in _CARD_BRANDS:
        if prefix.match(digits) and len(digits) in lengths:
            return brand
    return None


def iban_check_digits(country: str, bban: str) -> str:
    rearranged = bban + country + "00"
    value = int("".join(str(int(ch, 36)) for ch in rearranged))
    return f"{98 - value % 97:02d}"


def iban_valid(text: str) -> bool:
    iban = re.sub(r"[\s-]", "", text).upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{8,30}", iban):
        return False
    expected = IBAN_LENGTHS.get(iban[:2])
    if expected is not None and len(iban) != expected:
        return False
    rearranged = iban[4:] + iban[:4]
    return int("".join(str(int(ch, 36)) for ch in rearranged)) % 97 == 1


def ssn_valid(text: str) -> bool:
    """US SSN structure: area not 000, 666 or 900-999; group not 00; serial not 0000.
    Well-known advertising numbers (078-05-1120, 219-09-9999) are excluded too."""
    digits = digits_of(text)
    if len(digits) != 9:
        return False
    area, group, serial = int(digits[:3]), int(digits[3:5]), int(digits[5:])
    if area == 0 or area == 666 or area >= 900 or group == 0 or serial == 0:
        return False
    if digits in ("078051120", "219099999", "123456789"):
        return False
    return len(set(digits)) > 1
