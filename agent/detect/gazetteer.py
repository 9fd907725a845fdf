"""Organisation names NER misses: well-known ones from the public-entity gazetteer
("our Facebook ads", "bidding on Upwork"), and brand-shaped words (CamelCase such as
"PulseAI", short all-caps acronyms such as "OBS") that are rarely ordinary words.

Finding a well-known organisation does not mean swapping it: relevance decides (kept
when the prompt is about it, swapped when it is the user's employer or client).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from agent import paths
from agent.detect.base import DetectionContext
from agent.detect.ner import NOT_ENTITIES
from agent.entities import Label, Span
from agent.places import is_known_place, places


@lru_cache(maxsize=1)
def _known_orgs() -> re.Pattern[str] | None:
    try:
        with open(paths.resource("public_entities.json"), encoding="utf-8") as f:
            names = json.load(f).get("organisations", [])
    except FileNotFoundError:
        return None
    # Case-sensitive: "Apple" the company, not "apple" the fruit. Short all-caps names
    # (UN, EU) are left to NER and the acronym rule.
    names = [n for n in names if len(n) >= 4 and not n.isupper() and n.casefold() not in NOT_ENTITIES]
    if not names:
        return None
    body = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w@./])(?:{body})(?![\w@/])")


# PascalCase with an inner capital ("PulseAI", "ClickPhobia"); camelCase is code.
# "Globex LLC", "Brightwave Ltd", "Acme Holdings GmbH": capitalised words + a legal form.
_LEGAL_NAME = re.compile(
    r"\b(?:[A-Z][\w&'’\-]*\s+){1,4}(?:Inc|LLC|L\.L\.C\.|Ltd|Limited|GmbH|AG|PLC|plc|LLP|Corp|Corporation|"
    r"Co\.|S\.A\.|SA|SAS|SARL|S\.r\.l\.|Srl|S\.p\.A\.|SpA|B\.V\.|BV|N\.V\.|NV|Oy|AB|ApS|A/S|Pty|KG|SE)\b\.?"
)
_CAMEL = re.compile(r"(?<![\w@./\\-])[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+[A-Z]*(?![\w@./\\-])")
_CODE = re.compile(r"[{};=]|\(\)|=>|->|::")
# All-caps words of the trade that are never an organisation ("the MAC is ...").
_TECH_ACRONYMS = frozenset({"MAC", "SSH", "NAS", "RAID", "BIOS", "UEFI", "LDAP", "SAML", "SMB", "NFS", "ACL", "CSV", "ETL", "KYC", "AML"})
_ACRONYM = re.compile(r"(?<![\w@./\\-])[A-Z]{3,5}(?![\w@./\\-])")


class PlaceDetector:
    """Countries, US states and well-known cities and regions from the place gazetteer,
    also in lower case for countries ("my country is belarus")."""

    name = "places"
    labels = frozenset({Label.LOCATION})

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        sensitive, insensitive = _place_patterns()
        spans = [Span(m.start(), m.end(), Label.LOCATION, m.group(), 0.6, self.name) for m in sensitive.finditer(text)]
        spans += [
            Span(m.start(), m.end(), Label.LOCATION, m.group(), 0.55, self.name)
            for m in insensitive.finditer(text)
            if not m.group()[0].isupper()
        ]
        return spans


@lru_cache(maxsize=1)
def _place_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    data = places()
    names = set(data["countries"]) | set(data["us_states"]) | set(data["city_country"]) | set(data["regions"])
    names |= {c for cities in data["cities"].values() for c in cities}
    names = {n for n in names if len(n) >= 4 and n.casefold() not in NOT_ENTITIES}
    body = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    countries = "|".join(re.escape(c) for c in sorted(data["countries"], key=len, reverse=True) if len(c) >= 5)
    return (
        re.compile(rf"(?<![\w@./-])(?:{body})(?![\w@/-])"),
        re.compile(rf"(?<![\w@./-])(?:{countries})(?![\w@/-])", re.IGNORECASE),
    )


class OrganisationDetector:
    name = "org_names"
    labels = frozenset({Label.ORG})

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans = []
        known = _known_orgs()
        if known is not None:
            spans += [Span(m.start(), m.end(), Label.ORG, m.group(), 0.7, self.name) for m in known.finditer(text)]
        for m in _LEGAL_NAME.finditer(text):
            value = m.group()
            words = value.split()
            while words and words[0] in ("The", "A", "An", "At", "For", "From", "With", "Our", "My", "Dear"):
                words.pop(0)
            if len(words) >= 2:
                start = m.end() - len(" ".join(words)) if value.endswith(" ".join(words)) else m.start()
                spans.append(Span(start, m.end(), Label.ORG, text[start : m.end()], 0.8, self.name))
        if len(_CODE.findall(text)) < 3:  # in code, PascalCase words are class names
            for m in _CAMEL.finditer(text):
                spans.append(Span(m.start(), m.end(), Label.ORG, m.group(), 0.5, self.name))
        # An all-caps text is shouting, not naming.
        if sum(1 for c in text if c.isupper()) < 0.3 * max(1, sum(1 for c in text if c.isalpha())):
            for m in _ACRONYM.finditer(text):
                word = m.group()
                if word.casefold() not in NOT_ENTITIES and word not in _TECH_ACRONYMS and not is_known_place(word):
                    spans.append(Span(m.start(), m.end(), Label.ORG, word, 0.45, self.name))
        return spans
