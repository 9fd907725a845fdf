"""Currency codes (ISO 4217, from pycountry) written next to an amount: "NOK 12,400",
"300 CHF", "EUR 1.050,00". NER and the acronym rule read such codes as organisations or
places; they name no one."""

from __future__ import annotations

import re
from functools import lru_cache

_AMOUNT_AFTER = re.compile(r"[ \t]?\d[\d.,]*")
_AMOUNT_BEFORE = re.compile(r"\d[ \t]?$")


@lru_cache(maxsize=512)
def is_currency_code(value: str) -> bool:
    if len(value) != 3 or not value.isupper() or not value.isalpha():
        return False
    import pycountry

    return pycountry.currencies.get(alpha_3=value) is not None


def currency_of_an_amount(text: str, start: int, end: int) -> bool:
    """The span text[start:end] is a currency's code with an amount right before or after it."""
    return (is_currency_code(text[start:end])
            and bool(_AMOUNT_AFTER.match(text, end) or _AMOUNT_BEFORE.search(text, max(0, start - 2), start)))
