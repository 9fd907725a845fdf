"""Place knowledge: countries and US states (Faker's address lists), world cities by
country and regions (resources/places.json), and the street words of an address. Used to
tell a known public place from an unknown name, and to pick a stand-in of the same
granularity."""

from __future__ import annotations

import json
import re
from functools import lru_cache

from agent import paths
from agent.session.conversation import fold


@lru_cache(maxsize=1)
def places() -> dict:
    with open(paths.resource("places.json"), encoding="utf-8") as f:
        data = json.load(f)
    from faker.providers.address.en_US import Provider

    data["countries"] = [c for c in Provider.countries if "," not in c and len(c) < 25]
    data["us_states"] = list(Provider.states)
    data["all_cities"] = sorted({c for cities in data["cities"].values() for c in cities})
    data["_country_fold"] = {fold(c): c for c in data["countries"]} | {
        "usa": "United States", "us": "United States", "u.s.": "United States", "u.s.a.": "United States",
        "america": "United States", "united states of america": "United States", "uk": "United Kingdom",
        "u.k.": "United Kingdom", "britain": "United Kingdom", "great britain": "United Kingdom",
        "england": "United Kingdom", "united kingdom": "United Kingdom", "united states": "United States",
    }
    data["_state_fold"] = {fold(s): s for s in data["us_states"]}
    data["_state_abbr"] = frozenset(data.get("us_state_abbreviations", ()))
    data["_city_fold"] = {fold(c): country for c, country in data["city_country"].items()}
    for country, cities in data["cities"].items():
        for city in cities:
            data["_city_fold"].setdefault(fold(city), country)
    data["_continent_fold"] = {fold(c) for c in data["continents"]}
    data["_region_fold"] = {fold(r) for r in data["regions"]}
    return data


def place_kind(value: str) -> tuple[str, str | None]:
    """("country"|"state"|"city"|"continent"|"region"|"unknown", country of a city)."""
    data = places()
    key = fold(re.sub(r"^the\s+", "", value, flags=re.IGNORECASE))
    if value in data["_state_abbr"]:
        return "state", "United States"
    # "Greater Boston", "the Boston area", "downtown Chicago" are still Boston and Chicago.
    core = fold(re.sub(r"(?i)^(?:greater|downtown|central|north(?:ern)?|south(?:ern)?|east(?:ern)?|west(?:ern)?|metro(?:politan)?|suburban|inner)\s+|\s+(?:area|region|metro|city|county)$", "", value))
    if core != key and core in data["_city_fold"]:
        return "city", data["_city_fold"][core]
    if key in data["_country_fold"]:
        return "country", data["_country_fold"][key]
    if key in data["_state_fold"]:
        return "state", "United States"
    if key in data["_city_fold"]:
        return "city", data["_city_fold"][key]
    if key in data["_continent_fold"]:
        return "continent", None
    if fold(value) in data["_region_fold"] or key in data["_region_fold"]:
        return "region", None
    return "unknown", None


def is_known_place(value: str) -> bool:
    return place_kind(value)[0] != "unknown"


# -- street addresses ------------------------------------------------------------------
# The words that make a name a street ("Elm Street", "Storgata"), English first (with
# their postal abbreviations), then the Nordic, Dutch, German and Central European ones
# written as a separate word. Detection finds addresses by them; a stand-in keeps them.
STREET_TYPES = (
    "Street", "St", "Avenue", "Ave", "Av", "Road", "Rd", "Boulevard", "Blvd", "Lane", "Ln", "Drive",
    "Dr", "Court", "Ct", "Way", "Place", "Pl", "Terrace", "Ter", "Circle", "Cir", "Parkway", "Pkwy",
    "Highway", "Hwy", "Square", "Sq", "Trail", "Trl", "Plaza", "Plz", "Alley", "Crescent", "Cres",
    "Close", "Row", "Mews", "Gardens", "Gdns", "Grove", "Loop", "Pike", "Path", "Ridge", "Crossing",
    "Xing", "Cove", "Bend", "Landing", "Walk", "Heights", "Hts", "Expressway", "Expy", "Freeway",
    "Fwy", "Turnpike", "Causeway", "Junction", "Jct", "Quay", "Wharf", "Esplanade", "Rise", "Hill",
    "Park", "View", "Green", "Gate", "Fields", "Meadow", "Meadows",
    "gate", "vei", "veien", "vej", "gata", "gatan", "gade", "straat", "strasse", "straße", "str.",
    "utca", "ulica", "tér", "tere", "út", "körút",
)
# As one regex alternation, in the order above.
STREET_TYPE_PATTERN = "|".join(re.escape(w) for w in STREET_TYPES)
