"""Organisation and place stand-ins.

Organisations keep their legal suffix, trade and generic words ("Longport Police
Department" -> "Ashford Police Department", "Bright Smile Dental" -> "Clear View Dental");
only the distinctive words change, each for one of its kind, and the same word changes
the same way everywhere in the conversation. Places keep their granularity:
a country for a country, a US state for a state, a town for a town of the same country
and size (agent/substitute/towns.py).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import lru_cache

from agent.entities import Label
from agent.knowledge.geonames import fold_place, geo_index
from agent.knowledge.names import lexicon
from agent.knowledge.org_words import (
    BRAND_WORDS,
    COMPANY_SUFFIX_WORDS,
    GENERIC_ORG_WORDS,
    INDUSTRY_WORDS,
)
from agent.knowledge.places import KNOWN_CITY_POPULATION, place_kind, places
from agent.knowledge.words import is_common_word
from agent.session.conversation import Conversation, MapEntry, fold
from agent.session.map_cache import MapCache
from agent.substitute.rng import match_case
from agent.substitute.towns import Town, places_named, size_class, towns, us_state_code


def fake_place(
    rng: random.Random, value: str, is_free, text: str = "", *, same_region: bool = False, us_state: str | None = None
) -> str | None:
    """A place of the same kind; a town gets a town of the same country and size (and
    region, with `same_region`: an address keeps its state code, so its town stays in it;
    an American town with `us_state`, in that state)."""
    kind, _ = place_kind(value)
    if kind in _POOLS:
        # A stand-in that reads as the same kind of place ("Nice" would read as a word);
        # a country of about the same size (Portugal -> Greece, not a small territory).
        folded = fold(value)
        options = [p for p, key in _folded_pool(kind) if key != folded]
        if kind == "region":  # Ontario -> another Canadian province where the lists know one
            home = _country_code(value)
            same = [p for p in _regions_of(home) if fold(p) != folded] if home else []
            options = same or options
        size = _population(value) if kind == "country" else 0
        for factor in (3, 10):
            if size:
                options = [p for p in options if size / factor <= _population(p) <= size * factor] or options
        for _ in range(30):
            candidate = rng.choice(options)
            if is_free(candidate) and place_kind(candidate)[0] == kind:
                if value.lower().startswith("the ") and not candidate.lower().startswith("the "):
                    candidate = value[:4] + candidate if kind in ("country", "region") else candidate
                return match_case(value, candidate)
        return None
    town = towns().resolve(value, text)
    if town is None:
        # Not a town GeoNames lists (under 15,000 people, or a district). Keep words like
        # "County" or "Island"; else a small town of the country the text is about.
        tail = re.search(r"\s+(County|City|Island|Islands|Province|District|Valley|Bay|Beach|Springs|Heights)$", value)
        if tail:
            base = rng.choice([n for n in lexicon().last_names("en_US") if n.isalpha()])
            candidate = base + tail.group()
            return candidate if is_free(candidate) else None
        countries, regions = places_named(text, leave_out=value)
        # No country in sight: an American town, as for most texts Veil sees (English).
        country = min(countries) if countries else "US"
        region = next((r for c, r in sorted(regions) if c == country), "")
        town = Town(value, country, region, 15_000)
    if us_state is not None and town.country == "US":
        town, same_region = Town(town.name, town.country, us_state, town.population), True
    return _town_like(rng, value, town, is_free, same_region=same_region)


# The US state written right after a town: ", Idaho" after "Boise".
_STATE_AFTER = re.compile(r",[ \t]+([A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?)\b")


def state_after_town(after: str, conversation: Conversation | None) -> str | None:
    """The US state (its code) a town's stand-in must lie in when the text writes the
    town with its state ("Boise, Idaho"): the state's stand-in when the state is swapped
    (the engine makes regions' stand-ins before towns'), else the state itself. Drawn
    apart, they read "Tucson, Nebraska" or "Baltimore, Washington"."""
    m = _STATE_AFTER.match(after)
    if m is None:
        return None
    code = us_state_code(m.group(1))
    if code is None or conversation is None:
        return code
    entry = conversation.lookup_real(m.group(1))
    if entry is not None and entry.stand_in != entry.real:
        return us_state_code(entry.stand_in) or code
    return code


def _country_code(region: str) -> str | None:
    """The country of a first-level region (ISO 3166-2), "CA" for Ontario."""
    return _region_countries().get(fold_place(region))


@lru_cache(maxsize=1)
def _region_countries() -> dict[str, str]:
    import pycountry

    out: dict[str, str] = {}
    for sub in pycountry.subdivisions:
        if sub.parent_code is None:
            out.setdefault(fold_place(sub.name), sub.country_code)
    return out


_POOLS = {"country": "countries", "state": "us_states", "continent": "continents", "region": "regions"}


# The place lists never change: what every place stand-in filtered them for is kept.
@lru_cache(maxsize=8)  # one per kind
def _folded_pool(kind: str) -> list[tuple[str, str]]:
    """The places of a kind's list with their folded names, in the list's order."""
    return [(p, fold(p)) for p in places()[_POOLS[kind]]]


@lru_cache(maxsize=256)
def _regions_of(country: str) -> list[str]:
    """The first-level regions of a country that read as regions, in the list's order."""
    return [p for p, _ in _folded_pool("region") if _country_code(p) == country and place_kind(p)[0] == "region"]


@lru_cache(maxsize=4096)
def _population(place: str) -> int:
    found = geo_index().lookup(place)
    return found.population if found is not None else 0


def _town_like(rng: random.Random, value: str, town: Town, is_free, *, same_region: bool = False) -> str | None:
    """Another town of the same country and a similar size, whose name reads as that
    town (the best-known of its name; not a word, a first name or a region; a big one a
    city the place lists know), written as plainly as the real one."""
    index = towns()
    wanted = size_class(town.population)
    names = lexicon()
    # Inside one state (its name or code is written beside the town) a big city gets any
    # town of the state (Idaho has no second Boise), and a town whose name a bigger town
    # elsewhere shares will do: "Wilmington, Delaware" is not read as North Carolina's.
    in_state = same_region and bool(town.region)
    big = town.population >= KNOWN_CITY_POPULATION and not in_state

    def reads_as_town(candidate: Town, words: int | None) -> bool:
        name = candidate.name
        if candidate == town:
            return False  # "Torino" is Turin: its own English name is no stand-in
        if not re.fullmatch(r"[^\W\d_]+(?:[ '’\-][^\W\d_]+)*", name):
            return False
        short, long = sorted((f" {fold_place(name)} ", f" {fold_place(value)} "), key=len)
        if short in long:
            return False  # "Hamburg-Nord" would carry the real "Hamburg" inside it
        if words is not None and len(name.split()) != words:
            return False
        if value.isascii() and not name.isascii():
            return False
        if index.readings(name)[0] != candidate and not in_state:
            return False  # "Manhattan" (Kansas, 55,000) reads as Manhattan, New York
        if is_common_word(name) or names.is_first_name(name.split()[0]):
            return False
        own_kind = place_kind(name)[0]
        return own_kind == "city" if big else own_kind in ("city", "unknown")

    region = town.region if same_region else ""
    found: list[str] = []
    # As many words as the real name first ("Springfield" -> "Skokie"), then any.
    for words in (len(value.split()), None):
        for widen in (0, 1, 2, 4):
            # A few choices at the nearest size, not always the one city of that size.
            pool = _towns_of_size(town.country, region, wanted, widen)
            for candidate in rng.sample(pool, min(len(pool), 60)):
                if candidate.name not in found and reads_as_town(candidate, words) and is_free(candidate.name):
                    found.append(candidate.name)
                    if len(found) == 4:
                        break
            if len(found) >= 3 or (found and widen == 4):
                return match_case(value, rng.choice(found))
    return match_case(value, rng.choice(found)) if found else None


@lru_cache(maxsize=1024)
def _towns_of_size(country: str, region: str, wanted: int, widen: int) -> list[Town]:
    """The towns of a country (of its region, when given and it has some) within `widen`
    size classes of `wanted`, most populous first (read-only). The index never changes,
    and a document with many places asked for the same few pools again and again."""
    index = towns()
    same_country = index.of_country(country) or index.of_country("US")  # a country without towns listed
    if region:
        same_country = [t for t in same_country if t.region == region] or same_country
    return [t for t in same_country if abs(size_class(t.population) - wanted) <= widen]


def _org_word_map(conversation: Conversation) -> dict[str, str]:
    """Distinctive word -> stand-in word, from the organisations already mapped (kept per
    conversation, taking in the map's new entries only; read-only)."""
    return _ORG_WORDS.get(conversation)


def _take_in_org_words(mapping: dict[str, str], entries: Sequence[MapEntry]) -> None:
    for entry in entries:
        if entry.label is not Label.ORG:
            continue
        real, fake = entry.real.split(), entry.stand_in.split()
        if len(real) == len(fake):
            for r, f in zip(real, fake):
                if fold(r) != fold(f):
                    mapping.setdefault(fold(r), f)


_ORG_WORDS: MapCache[dict[str, str]] = MapCache(dict, _take_in_org_words)


def fake_org(rng: random.Random, value: str, conversation: Conversation, is_free) -> str | None:
    """Each distinctive word changes for one of its kind: an ordinary word for another
    word businesses use ("Bright Smile Dental" -> "Clear View Dental"), a person's name
    for a surname ("Dana Brooks Consulting" -> "Hale Porter Consulting"), a coined word
    for a coined word, an acronym for letters; the trade, generic words and the legal
    form stay."""
    tokens = value.split()
    known = _org_word_map(conversation)
    names = lexicon()
    surnames, saints, common_brand_words = _org_word_pools()
    # Everyday words only: the restorer leaves them alone when an answer uses them alone.
    folded_tokens = {fold(t) for t in tokens}
    brand_words = [w for w in common_brand_words if fold(w) not in folded_tokens]
    for _ in range(20):
        out = []
        changed = False
        after_saint = False  # past "St. Columba's": the words that follow say what kind of place it is
        for token in tokens:
            key = fold(token)
            core = token.strip(",.()\"'")
            if core.endswith(("'s", "’s")):
                core = core[:-2]  # "Luke's Hospital" -> "Riggs's Hospital": the possessive stays
            if key in COMPANY_SUFFIX_WORDS or key in GENERIC_ORG_WORDS or key in INDUSTRY_WORDS or not core or after_saint:
                out.append(token)
                continue
            if key in known:
                out.append(known[key])
                changed = True
                continue
            if core.isupper() and len(core) <= 6 and core.isalpha():
                new = "".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVWXYZ") for _ in core)
            elif any(ch.isdigit() for ch in core):
                new = re.sub(r"\d", lambda _m: rng.choice("0123456789"), core)
            elif out and fold(out[-1]) in ("st", "st.", "saint", "ste", "ste."):
                new = match_case(core, rng.choice(saints))  # "St. Luke's" -> "St. Anne's"
                after_saint = token.endswith(("'s", "’s"))
            elif is_common_word(core):
                new = match_case(core, rng.choice(brand_words))
            elif names.is_first_name(core) or names.is_last_name(core) or names.pool_locales(core):
                new = match_case(core, rng.choice(surnames))
            else:  # a coined name ("Northwind"): two words run together
                new = match_case(core, rng.choice(brand_words) + rng.choice(brand_words).lower())
            out.append(token.replace(core, new))
            changed = True
        if not changed:  # nothing distinctive ("The Bank"): prefix a name
            out.insert(0, rng.choice(surnames))
        candidate = " ".join(out)
        if fold(candidate) != fold(value) and is_free(candidate):
            return candidate
    return None


@lru_cache(maxsize=1)
def _org_word_pools() -> tuple[list[str], list[str], list[str]]:
    """What organisation stand-ins pick words from (the lists are fixed; filtering them
    per organisation was most of its cost): surnames, saints' names, and the brand words
    that are everyday words. Read-only."""
    names = lexicon()
    surnames = [n for n in names.last_names("en_US") if n.isalpha() and len(n) > 3 and not n.startswith("Mc")]
    saints = [n for n in names.first_names("en_GB", "any") if n.isalpha()]
    return surnames, saints, [w for w in BRAND_WORDS if is_common_word(w)]
