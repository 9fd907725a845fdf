"""The cue words of the pattern detectors (phones, addresses, postcodes, dates of birth),
one row per cue with the window where it counts, on the shared context booster
(agent/detect/context.py) the identifier table uses too.

These rows have a booster of their own: the registry asks the identifier table's booster
whether a guessed name is a cue word ("my ITIN", "Not a MAC:"), and everyday words such as
"call", "contact", "age" or "billing" must not become such cues."""

from __future__ import annotations

import re

from agent.detect.context import ContextBooster, Window

PHONE = "phone"  # a phone word before a number: "call me on", "tel", "whatsapp"
NOT_PHONE = "reference"  # an order or account word before it: "order 5551234567"
STREET = "street"  # an address is announced: "lives at", "ship to"
POSTCODE = "postcode"  # a postcode may follow: "postcode", "deliver to"
POSTCODE_LABEL = "postcode_label"  # the code is named right before it: "zip code: 12345"
BIRTH = "birth"  # a date of birth: "born", "DOB"

_PHONE_WORDS = ("phone", "tel", "telephone", "mobile", "cell", "call", "fax", "whatsapp", "sms", "text me", "contact",
                "number", "ph")
_REFERENCE_WORDS = ("order", "account", "invoice", "ticket", "case", "customer", "member", "reference", "ref",
                    "tracking", "confirmation", "booking", "id")
_STREET_WORDS = ("address", "live at", "lives at", "lived in", "lived at", "live in", "located at", "deliver to",
                 "delivered to", "ship to", "shipped to", "send to", "send it to", "drop you off at", "drop me off at",
                 "drops you off at", "drops me off at", "billing", "shipping", "residence", "resides at")
_POSTCODE_LABELS = ("postcode", "post code", "postal code", "zip", "zip code")
_POSTCODE_WORDS = _POSTCODE_LABELS + ("address", "live at", "lives at", "located at", "deliver to", "delivered to",
                                      "ship to", "shipped to")
_BIRTH_WORDS = ("born", "birth", "dob", "d.o.b", "birthday", "date of birth", "age")

PATTERN_CUES = ContextBooster(
    {
        PHONE: _PHONE_WORDS,
        NOT_PHONE: _REFERENCE_WORDS,
        STREET: _STREET_WORDS,
        POSTCODE: _POSTCODE_WORDS,
        POSTCODE_LABEL: _POSTCODE_LABELS,
        BIRTH: _BIRTH_WORDS,
    },
    windows={
        PHONE: Window(before=40),
        NOT_PHONE: Window(before=30),
        STREET: Window(before=50),
        POSTCODE: Window(before=80),
        POSTCODE_LABEL: Window(before=24, between=re.compile(r"(?:\s+is)?\W*")),
        BIRTH: Window(before=40),
    },
)


def announced(text: str, start: int, key: str) -> bool:
    """Is a cue of row `key` in its window before position start of text?"""
    return key in PATTERN_CUES.announced(text, start)
