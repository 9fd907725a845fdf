"""Choose the stand-in for each entity to swap, and record it in the conversation map.

Guarantees (tested): same type and shape; the same real value gets the same stand-in
within a conversation; a stand-in never equals a real value or another stand-in of the
conversation and never occurs in the text already; deterministic from the seed.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence

from agent.detect.spec import StandInRequest
from agent.detect.table import label_row, row_of
from agent.detect.validators import digits_of
from agent.engine.local_tasks import SurrogateProposer
from agent.entities import Action, Label, Span
from agent.knowledge.geonames import geo_index
from agent.knowledge.hosts import registrable_domain
from agent.knowledge.names import lexicon
from agent.knowledge.places import (
    STREET_CONNECTORS,
    STREET_PREFIX_LOCALES,
    STREET_SUFFIX_LOCALES,
    STREET_TYPE_PATTERN,
    place_kind,
    places,
    title_case_address,
)
from agent.knowledge.words import is_common_word
from agent.session.conversation import Conversation, MapEntry, fold
from agent.session.map_cache import MapCache
from agent.substitute import formats
from agent.substitute.case_forms import case_safe, new_stand_in_case
from agent.substitute.handles import HandlePeople, handle_like
from agent.substitute.id_standins import stand_in_for
from agent.substitute.orgs_places import fake_place
from agent.substitute.persons import PersonSurrogates, derive_partial
from agent.substitute.rng import digits_into, match_case, rng_for, same_shape
from agent.substitute.towns import towns as towns_index

log = logging.getLogger(__name__)

def label_text(label: Label, number: int) -> str:
    return f"[{label.value}_{number}]"


def plausible_stand_in(label: Label, real: str, candidate: str) -> bool:
    """Is candidate an acceptable stand-in for real (used on local-model proposals)? The
    checks every type shares, then the label row's own (agent/detect/table.py)."""
    if not candidate or fold(candidate) == fold(real) or len(candidate) > max(80, 3 * len(real)):
        return False
    if "\n" in candidate and "\n" not in real:
        return False
    check = label_row(label).plausible
    return check is None or check(real, candidate)


class Substituter:
    def __init__(self, level: int = 1, proposer: SurrogateProposer | None = None):
        self.level = level
        self.proposer = proposer
        self.persons = PersonSurrogates()
        # Kept per conversation, taking in the map's new entries only (a big text makes
        # thousands of stand-ins with one map).
        self._handle_people = HandlePeople(self.persons)
        self._domains: MapCache[dict[str, str]] = MapCache(dict, _take_in_domains)
        self._labels_given: MapCache[Counter[Label]] = MapCache(Counter, _count_labels)
        self._last_words: _WordIndex | None = None

    def stand_in(self, span: Span, action: Action, text: str, conversation: Conversation) -> MapEntry:
        """The map entry for span (existing or new; a new one is added to the conversation)."""
        if span.canonical and fold(span.canonical) != fold(span.text):
            partial = self._partial(span, action, conversation)
            if partial is not None:
                return partial
            reformatted = self._reformatted_number(span, action, conversation)
            if reformatted is not None:
                return reformatted
        existing = conversation.lookup_real(span.text, action)
        if existing is not None:
            return existing
        stand_in = None
        if action is Action.REPLACE:
            stand_in = self._realistic(span, text, conversation)
            if stand_in is not None:
                stand_in = new_stand_in_case(span.label, span.text, stand_in)
        if stand_in is None:  # label mode, or no realistic stand-in could be made
            action = Action.LABEL
            existing = conversation.lookup_real(span.text, Action.LABEL)
            if existing is not None:
                return existing
            number = 1 + self._labels_given.get(conversation)[span.label]
            stand_in = label_text(span.label, number)
            while conversation.is_taken(stand_in) or stand_in in text:
                number += 1
                stand_in = label_text(span.label, number)
        return conversation.add_entry(MapEntry(real=span.text, stand_in=stand_in, label=span.label, action=action))

    def _partial(self, span: Span, action: Action, conversation: Conversation) -> MapEntry | None:
        existing = conversation.lookup_real(span.text, action)
        if existing is not None:
            return existing
        full = conversation.lookup_real(span.canonical or "", action)
        if full is None or full.action is not Action.REPLACE or span.label is not Label.PERSON:
            return None
        derived = derive_partial(span.text, full.real, full.stand_in)
        if derived is None or conversation.is_taken(derived):
            return None
        return conversation.add_entry(
            MapEntry(real=span.text, stand_in=derived, label=span.label, action=action, parent=full.real)
        )

    def _reformatted_number(self, span: Span, action: Action, conversation: Conversation) -> MapEntry | None:
        """"(415) 555-2671" after "+1 415-555-2671": the same number, the same stand-in
        digits, written the way this mention is written."""
        if span.label not in (Label.PHONE, Label.CREDIT_CARD, Label.SSN):
            return None
        full = conversation.lookup_real(span.canonical or "", action)
        if full is None or full.action is not Action.REPLACE:
            return None
        real_digits, fake_digits, said = digits_of(full.real), digits_of(full.stand_in), digits_of(span.text)
        if len(real_digits) != len(fake_digits) or not real_digits.endswith(said):
            return None
        form = digits_into(span.text, fake_digits[len(fake_digits) - len(said):])
        return conversation.add_variant(full, span.text, form)

    def _realistic(self, span: Span, text: str, conversation: Conversation) -> str | None:
        real = span.text
        text_words = self._words_of(text)

        def is_free(candidate: str) -> bool:
            return (
                case_safe(candidate) is not None
                and fold(candidate) != fold(real)
                and not conversation.is_taken(candidate)
                and not text_words.contains(candidate)
                and not text_words.shares_distinctive_word(candidate, real)
            )

        if self.level >= 2 and self.proposer is not None:
            try:
                proposal = self.proposer.propose(text, span)
            except Exception:  # advisory only
                log.exception("surrogate proposer failed")
                proposal = None
            proposal = case_safe(proposal) if proposal else None
            if proposal and plausible_stand_in(span.label, real, proposal) and is_free(proposal):
                return proposal
        for attempt in range(12):
            rng = rng_for(conversation.seed, span.label.value, fold(real), attempt)
            try:
                candidate = self._generate(span, text, conversation, rng, is_free)
            except (ValueError, IndexError, KeyError):
                log.debug("no %s stand-in for this value's shape", span.label.value, exc_info=True)
                return None
            # Every stand-in, whatever made it, keeps its letters in capitals and lower case.
            candidate = case_safe(candidate) if candidate else None
            if candidate and is_free(candidate):
                return candidate
        return None

    def _words_of(self, text: str) -> _WordIndex:
        """The text's word index, kept for the last text: a 30,000-character piece of a
        document has a thousand entities, and folding it again for each was ~3% of a
        document's time."""
        last = self._last_words
        if last is None or last.text is not text:
            last = self._last_words = _WordIndex(text)
        return last

    def _generate(self, span: Span, text: str, conversation: Conversation, rng, is_free) -> str | None:
        """The stand-in maker of the span's row of the type table: an identifier row's
        (a valid value of the same type, no real digit run kept), else its label's."""
        request = StandInRequest(real=span.text, rng=rng, text=text, start=span.start, conversation=conversation,
                                 is_free=is_free, helpers=self)
        row = row_of(span)
        if row.generate is None:
            return stand_in_for(row, request)
        return row.generate(request)

    # -- helpers the label rows' generators use (agent/substitute/label_standins.py) ----------
    def address(self, rng, real: str, is_free, conversation: Conversation | None = None) -> str:
        return self._address(rng, real, is_free, conversation)

    def username(self, rng, real: str, conversation: Conversation) -> str:
        return self._username(rng, real, conversation)

    def people(self, conversation: Conversation) -> list[tuple[str, str, str, str]]:
        return self._people(conversation)

    def domain_map(self, conversation: Conversation) -> dict[str, str]:
        return self._domain_map(conversation)

    def _address(self, rng, real: str, is_free, conversation: Conversation | None = None) -> str:
        if real.isupper() and re.search(r"[^\W\d_]{3,}", real):
            # "775 W 19TH ST, YUMA AZ": made as if written in title case, then put in capitals
            titled = title_case_address(real)
            if titled != real:
                return self._address(rng, titled, is_free, conversation).upper()
        return self._address_as_written(rng, real, is_free, conversation)

    def _address_as_written(self, rng, real: str, is_free, conversation: Conversation | None = None) -> str:
        """Numbers change, street names change, the town becomes another real town; the
        street type, units, state codes and the layout (commas, line breaks) stay. The town
        is the conversation's one stand-in for it: the town named on its own ("I grew up in
        Torino") and in the address get the same, whichever comes first."""
        locale = _street_locale(real)
        words = [w for w in self.persons.names.last_names(locale) if w.isalpha() and len(w) > 3]
        towns = self._towns_like(real)
        street_types = re.compile(rf"(?i)^(?:{STREET_TYPE_PATTERN}|apt|apartment|suite|ste|unit|flat|po|p\.o\.|box|floor|fl|"
                                  r"[nsew]|north|south|east|west)\.?,?$")
        unit_words = re.compile(r"(?i)^(?:apt|apartment|suite|ste|unit|flat|po|p\.o\.|box|floor|fl|[nsew]|north|south|east|west)\.?,?$")
        # The street is the first line / the part before the first comma; the rest is town,
        # region, country and postcode.
        cut = min((i for i in (real.find(","), real.find("\n")) if i > 0), default=len(real))
        if not re.search(r"[^\W\d_]{3,}", real[:cut]) and not any(
            street_types.match(w) and not unit_words.match(w) for w in real[:cut].split()
        ):  # "4B, 17 Wexford Gardens, ...": the unit first (not "221 W 42nd St, Boston")
            later = [i for i in (real.find(",", cut + 1), real.find("\n", cut + 1)) if i > 0]
            cut = min(later, default=len(real))

        # The street's kind is its last kind word; one before it is part of the name
        # ("Crescent Road", "Elm View Road": "Crescent" and "View" change, "Road" stays).
        kinds = [m.start() for m in re.finditer(r"[^\s,]+", real[:cut]) if street_types.match(m.group())
                 and not unit_words.match(m.group())]
        named_kind_words = set(kinds[:-1])

        def swap_street(match: re.Match[str]) -> str:
            token = match.group()
            ordinal = re.fullmatch(r"(\d+)(st|nd|rd|th)(\W*)", token, re.IGNORECASE)
            if ordinal:  # "19th" -> "31st", not "31jr"
                number = str(rng.choice([n for n in range(2, 100) if str(n) != ordinal.group(1)]))
                suffix = "th" if number[-2:] in ("11", "12", "13") else {"1": "st", "2": "nd", "3": "rd"}.get(number[-1], "th")
                return number + (suffix.upper() if ordinal.group(2).isupper() else suffix) + ordinal.group(3)
            if any(ch.isdigit() for ch in token):
                number = same_shape(rng, token)
                if token[0] in "123456789" and number[0] == "0":  # a house number has no leading zero
                    number = rng.choice("123456789") + number[1:]
                return number
            if match.start() in named_kind_words and token[:1].isupper() and len(token) > 3:
                return match_case(token, rng.choice(words))
            if street_types.match(token) or len(token) <= 2 or token.isupper():
                return token
            if re.fullmatch(r"[^\W\d_]{1,4}[.:]", token) or token.lower() in _UNIT_WORDS_ABROAD:
                return token  # "pr.", "Cad.", "No:", "Daire": the street's kind or a label, no name
            folded = token.lower()  # not casefold: "ß" must keep its length
            if folded in STREET_PREFIX_LOCALES or folded in STREET_CONNECTORS:
                return token  # "Rua", "dos": the street's kind and its connecting words
            suffix = next((s for s in STREET_SUFFIX_LOCALES if folded.endswith(s) and len(folded) > len(s) + 2), None)
            if suffix:  # "Hauptstraße" -> "<surname>straße"
                return match_case(token[: -len(suffix)], rng.choice(words)) + token[-len(suffix):]
            return match_case(token, rng.choice(words))

        def swap_town(words_run: str) -> str:
            if re.fullmatch(r"\d{1,3}\.?[ºª°][\w.]*", words_run) or words_run.lower().rstrip(".") in _DOOR_WORDS:
                return words_run  # "2ºB", "3.º Dto", "izquierda": the floor and door, no town
            if any(ch.isdigit() for ch in words_run):
                prefixed = re.fullmatch(r"([A-Z]{1,2}-)(.+)", words_run)  # "LT-01103": the country stays
                return prefixed.group(1) + same_shape(rng, prefixed.group(2)) if prefixed else same_shape(rng, words_run)
            code = re.fullmatch(r"(.+?)([ \t]+)([A-Z]{2})", words_run)
            if code and place_kind(code.group(3))[0] in ("state", "country", "region"):
                # "Hoboken NJ": the town changes, its state's code stays (as "Hoboken, NJ" does)
                return swap_town(code.group(1)) + code.group(2) + code.group(3)
            if street_types.match(words_run) or (words_run.isupper() and len(words_run) <= 3) or place_kind(
                words_run
            )[0] in ("country", "state"):
                return words_run  # "CA", "Uruguay": a region or country says little on its own
            known = conversation.lookup_real(words_run, Action.REPLACE) if conversation is not None else None
            if known is not None and known.label is Label.LOCATION:
                return match_case(words_run, known.stand_in)
            # Same country, region and size; where the region has no such town, same country.
            town = fake_place(rng, words_run, is_free, real, same_region=True) or fake_place(rng, words_run, is_free, real)
            if not town:
                same_length = [t for t in towns if len(t.split()) == len(words_run.split())] or towns
                town = match_case(words_run, rng.choice(same_length))
            if towns_index().readings(words_run):  # a town GeoNames knows, not "Building C"
                _remember_town(conversation, words_run, town)
            return town

        street = re.sub(r"[^\s,]+", swap_street, real[:cut])
        town = re.sub(
            r"\S*\d\S*|[A-ZÀ-ÞĀ-ſ][^\s\d,/]*(?:[ \t]+(?![A-Za-z]*\d)[A-ZÀ-Þa-zà-ÿĀ-ſ][^\s\d,/]*)*",
            lambda m: swap_town(m.group()), real[cut:]
        )
        return street + town

    @staticmethod
    def _towns_like(address: str) -> list[str]:
        """Towns of the address's country (from a country, a US state, or a known town
        in it), so an Illinois address gets an American town."""
        data = places()
        for token in re.findall(r"[A-Za-zÀ-ÿ][\w'’.\-]*(?:[ \t]+[A-Z][\w'’.\-]*)*", address):
            for candidate in (token, *token.split()):
                kind, country = place_kind(candidate)
                if kind in ("country", "state", "city") and country in data["cities"]:
                    return data["cities"][country]
                if kind == "country" and country is None:
                    continue
        return data["all_cities"]

    def _username(self, rng, real: str, conversation: Conversation) -> str:
        at = "@" if real.startswith("@") else ""
        body = real[len(at):]
        for real_first, real_last, fake_first, fake_last in self._people(conversation):
            digits = re.search(r"\d+$", body)
            pattern = formats.email_local_pattern(body, real_first, real_last)
            if pattern:
                return at + formats.build_local(pattern, fake_first, fake_last) + (same_shape(rng, digits.group()) if digits else "")
        return at + handle_like(conversation.seed, body)  # words, not random letters

    def _people(self, conversation: Conversation) -> list[tuple[str, str, str, str]]:
        return self._handle_people.get(conversation)

    def _domain_map(self, conversation: Conversation) -> dict[str, str]:
        return self._domains.get(conversation)  # read-only


def _remember_town(conversation: Conversation | None, real: str, stand_in: str) -> None:
    """The town of a swapped address becomes the conversation's stand-in for that town."""
    if conversation is None or fold(real) == fold(stand_in):
        return
    try:
        conversation.add_entry(MapEntry(real=real, stand_in=stand_in, label=Label.LOCATION, action=Action.REPLACE))
    except ValueError:  # the stand-in is already another value's: the address keeps it, no entry
        pass


# Words of a flat in other languages' addresses, kept as written (Turkish "Daire"; Polish
# "lok.", "m." are abbreviations and stay anyway). No word that is also a name ("Stan").
_UNIT_WORDS_ABROAD = frozenset({"daire", "no", "mieszkanie", "wohnung", "etage", "piso", "puerta"})


# The door of a floor, as Spanish and Portuguese addresses write it ("3.º Dto", "2º izq.").
_DOOR_WORDS = frozenset({"dto", "esq", "izq", "izquierda", "dcha", "derecha", "dta", "drt", "dreito", "direito",
                         "esquerdo", "centro", "puerta", "pta"})


def _street_locale(address: str) -> str:
    """The locale whose surnames make stand-in street names for this address: that of its
    street word ("Rua", "-straße", "ul."), else that of the country of a town GeoNames knows
    in it ("Šancová 45, 811 05 Bratislava": Slovak), else American."""
    for token in re.findall(r"[^\W\d_]+\.?", address):
        folded = token.lower()
        locale = STREET_PREFIX_LOCALES.get(folded) or STREET_PREFIX_LOCALES.get(folded.rstrip("."))
        if locale:
            return locale
        folded = folded.rstrip(".")
        for suffix, locale in STREET_SUFFIX_LOCALES.items():
            if folded.endswith(suffix) and len(folded) > len(suffix) + 2:
                return locale
    # the town's part only: "12 Paris Avenue, Boston" is an American street named after a city
    cut = min((i for i in (address.find(","), address.find("\n")) if i > 0), default=len(address))
    for word in re.findall(r"[A-ZÀ-ÞĀ-ſ][^\W\d_]{2,}", address[cut:]):
        place = geo_index().lookup(word)
        if place is not None and place.kind == "city":
            locale = _latin_locale_of(place.country)
            if locale:
                return locale
    return "en_US"


def _latin_locale_of(country: str) -> str | None:
    """A name locale of the country whose names are written in Latin letters ("TR" -> tr_TR)."""
    names = lexicon()
    return next((loc for loc in sorted(names.pools) if loc.endswith("_" + country) and names.scripts.get(loc) == "LATIN"), None)


def _take_in_domains(mapping: dict[str, str], entries: Sequence[MapEntry]) -> None:
    """Real domain -> its stand-in's domain, from e-mails and swapped links (the first of
    a domain decides), so every address and link of one organisation names one stand-in."""
    for entry in entries:
        if entry.action is not Action.REPLACE:
            continue
        if entry.label is Label.EMAIL and "@" in entry.real and "@" in entry.stand_in:
            mapping.setdefault(entry.real.rpartition("@")[2].lower(), entry.stand_in.rpartition("@")[2].lower())
        elif entry.label is Label.URL:
            real, fake = registrable_domain(entry.real), registrable_domain(entry.stand_in)
            if real and fake and real != fake:
                mapping.setdefault(real, fake)


def _count_labels(given: Counter[Label], entries: Sequence[MapEntry]) -> None:
    """How many label stand-ins ([PERSON_1], ...) each kind has."""
    given.update(e.label for e in entries if e.action is Action.LABEL)


_WORD = re.compile(r"[^\W\d_]+")


class _WordIndex:
    """Whole-word, case-insensitive 'does this already occur in the text' checks."""

    def __init__(self, text: str):
        self.text = text
        self.folded = text.casefold()

    def contains(self, candidate: str) -> bool:
        needle = candidate.casefold()
        start = self.folded.find(needle)
        while start != -1:
            end = start + len(needle)
            before = self.folded[start - 1] if start else " "
            after = self.folded[end] if end < len(self.folded) else " "
            if not before.isalnum() and not after.isalnum():
                return True
            start = self.folded.find(needle, start + 1)
        return False

    def shares_distinctive_word(self, candidate: str, real: str) -> bool:
        """Whether a stand-in of several words holds a distinctive word of the text that its
        real value does not ("Dubai Internet City" for a building, in a text that names
        Dubai): that word may be another real value, which the stand-in would then send.
        Everyday words ("City", "Street") and the real value's own words do not count."""
        words = _WORD.findall(candidate)
        if len(words) < 2:
            return False
        own = {w.casefold() for w in _WORD.findall(real)}
        return any(
            len(w) >= 3 and w.casefold() not in own and not is_common_word(w.casefold()) and self.contains(w)
            for w in words
        )
