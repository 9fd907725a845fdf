"""Person stand-ins: same apparent gender and cultural origin, same structure (first
name alone, first + last, title + surname, family name first where the language writes
it so), the same shape of each part ("O'Connell" -> "O'Brien", "McLeod" -> "McKenna",
"van der Berg" -> "van der Molen", "Obi-Lindqvist" -> two surnames, accents kept or not
as written), and consistent with the rest of the conversation (relatives keep a shared
surname; unrelated people never share one; "Mr. Henderson" and a later "John Henderson"
keep one surname)."""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass

from agent.entities import Label
from agent.knowledge.names import lexicon, script_of
from agent.knowledge.person_words import (
    FEMALE_KIN,
    FEMALE_TITLES,
    MALE_KIN,
    MALE_TITLES,
    NAME_PARTICLES,
    RELATIONS,
    TITLE_PATTERN,
    parse_name,
)
from agent.knowledge.words import word_frequency
from agent.session.conversation import Conversation, MapEntry, fold
from agent.session.map_cache import MapCache
from agent.substitute.cjk_names import cjk_person_stand_in, is_cjk_name
from agent.substitute.cyrillic_names import declined, is_cyrillic_name, patronymic_of
from agent.substitute.cyrillic_names import read_name as read_cyrillic_name
from agent.substitute.nickname_forms import nickname_pairs, other_forms
from agent.substitute.rng import match_case

_TITLE_BEFORE = re.compile(rf"\b({TITLE_PATTERN})\.?\s+$")
RELATION_WORDS = frozenset(RELATIONS)
# Occurrences in pyspellchecker's subtitle list from which a name is mostly a word: "kick"
# 116,729, "rose" 27,460, "grace" 24,102; "john" 6,920, "jasper" 293. 105 of the 8,853
# first names and surnames of eight Latin-script locales are above it.
_EVERYDAY_WORD = 20_000
# "my son ", "his mother ", "her husband, ": the relative named right before the name.
_KIN_BEFORE = re.compile(r"(?i)\b([a-zé]+)[ \t]*,?[ \t]+$")
_APOSTROPHES = "'’"


@dataclass(frozen=True, slots=True)
class MappedPart:
    """One name part of a person already in the map, and its stand-in part."""

    real: str
    role: str  # "first", "middle", "last"
    stand_in: str


# (known first names, known surnames, stand-in first names used, stand-in surnames used)
_KnownNames = tuple[dict[str, str], dict[str, str], set[str], set[str]]


class PersonSurrogates:
    def __init__(self) -> None:
        self.names = lexicon()
        self._known_names: MapCache[_KnownNames] = MapCache(lambda: ({}, {}, set(), set()), self._take_in)
        self._pools: dict[tuple, list[str]] = {}  # see _pool_for

    def make(self, value: str, text_before: str, conversation: Conversation, rng: random.Random,
             is_free, surname: bool = False, text_after: str = "") -> str | None:
        """A stand-in for the person `value`; `is_free(candidate)` says whether a
        candidate may be used (not a real value, not another stand-in, not in the text).
        `surname`: a one-word value is known to be a surname (a cited author).
        `text_after`: what follows the value (a pronoun there says the stand-in's sex)."""
        if is_cjk_name(value):  # Hangul, Han or Katakana: a name of that language and script
            stand_in = cjk_person_stand_in(value, rng, is_free)
            if stand_in is not None:
                return stand_in
        if is_cyrillic_name(value):  # declined: read back to its nominative, the stand-in declined alike
            stand_in = self._cyrillic(value, conversation, rng, is_free)
            if stand_in is not None:
                return stand_in
        window = text_before[-20:]
        # "MR. HENDERSON" is shouted, "my sister Anna" is no title.
        title_match = _TITLE_BEFORE.search(window.title() if window.isupper() else window)
        title_before = title_match.group(1).casefold() if title_match else None
        parsed = parse_name(value, title_before, self.names)
        if not parsed.parts:
            return None
        if surname and len(parsed.parts) == 1:
            parsed.roles = ["last"]
        gender_hint = None
        for title in [t.casefold().rstrip(".") for t in parsed.titles] + ([title_before] if title_before else []):
            if title in MALE_TITLES:
                gender_hint = "male"
            elif title in FEMALE_TITLES:
                gender_hint = "female"
        kin = _KIN_BEFORE.search(window)
        relation = kin.group(1).casefold() if kin else ""
        if gender_hint is None and relation:
            gender_hint = "male" if relation in MALE_KIN else "female" if relation in FEMALE_KIN else None
        if gender_hint is None:
            gender_hint = pronoun_after(text_after)
        if (relation in RELATION_WORDS and len(parsed.parts) == 1 and not parsed.titles
                and (not title_before or title_before in RELATION_WORDS) and not surname):
            # "my husband Raj", "our tutor Kwame", "Uncle Ferdie": one's own people go by their given name,
            # even one the lists know only as a surname somewhere.
            parsed.roles = ["first"]
        roles, locale, gender = self.read_name(parsed.parts, parsed.roles)
        gender = gender_hint or gender
        known_first, known_last, used_first, used_last = self._conversation_names(conversation)
        # A name of one word gets a stand-in the lists know only in that role, so that a
        # later message can tell a surname ("Mr. Booth") from a first name ("Noor").
        single = sum(r in ("first", "middle", "last") for r in roles) == 1
        new_parts: list[str] = []
        for part, role in zip(parsed.parts, roles):
            key = fold(part)
            if role in ("initial", "particle"):
                # An initial says little on its own, and a changed one could equal another
                # person's real initial in the text: it stays as written, as do particles.
                new_parts.append(part)
                continue
            if role == "last":
                if key in known_last:  # a relative: same stand-in surname
                    new_parts.append(match_case(part, known_last[key]))
                    continue
                taken = used_last
            else:
                if key in known_first:
                    new_parts.append(match_case(part, known_first[key]))
                    continue
                taken = used_first
                full = _known_full_form(part, known_first)
                if full is not None:  # "Reg" after "Reginald" (-> Nathaniel): "Nat"
                    form = _stand_in_form(part, full, known_first[fold(full)], is_free)
                    if form is not None:
                        new_parts.append(match_case(part, form))
                        continue
                    gender = self.names.gender_of(full, locale)  # no such form: at least the same sex
            candidate = self._part(part, role, locale, gender, taken, rng, is_free, single)
            if candidate is None:
                return None
            new_parts.append(candidate)
        return " ".join(parsed.titles + new_parts + parsed.suffixes)

    def _cyrillic(self, value: str, conversation: Conversation, rng: random.Random, is_free) -> str | None:
        """A Cyrillic name's stand-in: same roles, gender and list, in the same case."""
        name = read_cyrillic_name(value)
        if name is None:
            return None
        named = [p for p in name.parts if p.role in ("first", "last")]
        locale = self.names.profile([p.nominative for p in named], first_index=None).locale if named else ""
        # The list of the language whose endings the name has, where that list knows it
        # ("Мария" is Russian and Bulgarian: "Марии" is Russian).
        by_endings = {"ru": "ru_RU", "uk": "uk_UA"}.get(name.language, "bg_BG")
        if self.names.scripts.get(locale) != "CYRILLIC" or any(by_endings in self.names.pool_locales(p.nominative) for p in named):
            locale = by_endings
        gender = name.gender
        firsts = [p.nominative for p in name.parts if p.role == "first"]
        if gender == "any" and firsts:
            gender = self.names.gender_of(firsts[0], locale)
        known_first, known_last, used_first, used_last = self._conversation_names(conversation)
        single = len(named) == 1
        out = []
        for part in name.parts:
            if part.role == "initial":
                out.append(part.written)
                continue
            key = fold(part.nominative)
            known = known_last if part.role == "last" else known_first
            if key in known:
                nominative = known[key]
            elif part.role == "middle":
                nominative = None
                for _ in range(10):
                    father = self._part("Иван", "first", locale, "male", used_first, rng, is_free, False)
                    nominative = patronymic_of(father, gender) if father else None
                    if nominative and fold(nominative) != key and is_free(nominative):
                        break
                    nominative = None
            else:
                taken = used_last if part.role == "last" else used_first
                nominative = self._part(part.nominative, part.role, locale, gender, taken, rng, is_free, single)
            if nominative is None:
                return None
            out.append(match_case(part.written, declined(nominative, part.role, gender, name.language, name.case)))
        return " ".join(out)

    def read_name(self, parts: list[str], roles: list[str]) -> tuple[list[str], str, str]:
        """Roles of the parts (particles marked, the order of family-first languages
        read), the origin (pool locale) and the gender of a name."""
        roles = list(roles)
        for i, part in enumerate(parts):
            # "van der Berg", "de la Fontaine": particles sit before the surname.
            if part.casefold() in NAME_PARTICLES and i < len(parts) - 1 and (
                part.islower() or 0 < i or self._leading_particle(part, parts[i + 1])
            ):
                roles[i] = "particle"
        core = [(i, p) for i, p in enumerate(parts) if roles[i] not in ("particle", "initial")]
        tokens = [p for _, p in core]
        # Particles tell the origin too ("van der" is Dutch, "dos" Portuguese).
        locale = self.names.profile([p for i, p in enumerate(parts) if roles[i] != "initial"], first_index=None).locale
        if len(core) >= 2 and roles[core[0][0]] == "first" and self.names.family_first(tokens, locale):
            # "Tanaka Hiroshi": the family name first, the given name last.
            roles[core[0][0]], roles[core[-1][0]] = "last", "first"
        elif (len(core) == 2 and roles[core[0][0]] == "first" and len(tokens[0]) > 1
              and tokens[0].isupper() and not tokens[1].isupper()):
            # "DUPONT Marie": rosters and forms write the surname in capitals before the given
            # name; the stand-in keeps that order ("RAMOS Lucie", not "LUCIE Ramos").
            roles[core[0][0]], roles[core[-1][0]] = "last", "first"
        firsts = [p for i, p in core if roles[i] == "first"]
        gender = self.names.gender_of(firsts[0], locale) if firsts else "any"
        return roles, locale, gender

    def _leading_particle(self, part: str, following: str) -> bool:
        """"De Silva", "Da Costa": a capitalised particle that opens a surname, when no list
        has it as a first name ("Van Morrison" has one) and a list has the word after it as
        a surname. Read as a first name, its stand-in was "Thomas Lefebvre". A particle
        before another ("Van der Berg", "De la Cruz") opens a surname whatever the lists say."""
        if following.casefold() in NAME_PARTICLES:
            return True
        return not (self.names.info(part).first_in - {"en"}) and self.names.is_last_name(following)

    def _part(self, part: str, role: str, locale: str, gender: str, taken: set[str], rng: random.Random,
              is_free, single: bool) -> str | None:
        """A stand-in for one part; a double-barrelled part gets one for each half."""
        pieces = part.split("-")
        if len(pieces) > 1 and all(pieces):
            out = []
            article = pieces[0].casefold() in NAME_PARTICLES
            if article and not any(c.casefold().startswith(pieces[0].casefold() + "-") for c in self._pool(role, locale, gender)):
                # "Al-Sayed" where the pool has no "Al-" names: one surname of the pool.
                return self._part(part.replace("-", ""), role, locale, gender, taken, rng, is_free, single)
            for piece in pieces:
                if piece.casefold() in NAME_PARTICLES:  # "Al-Sayed": the article stays
                    out.append(piece)
                    continue
                picked = self._part(piece, role, locale, gender, taken | {fold(o) for o in out}, rng, is_free, False)
                if picked is None:
                    return None
                out.append(picked)
            return "-".join(out)
        candidate = self._pick(self._pool_for(part, role, locale, gender, single), part, taken, rng, is_free)
        return None if candidate is None else _restyle(part, candidate)

    def _pool(self, role: str, locale: str, gender: str) -> tuple[str, ...]:
        names = self.names.last_names(locale, gender) if role == "last" else self.names.first_names(locale, gender)
        # A stand-in must keep its length in upper and lower case: "Gieß" written in
        # capitals by the LLM is "GIESS", which no longer matches it, and is not restored.
        # Nor may it be an everyday English word ("Kick", "Killer", "Harm", "Good"): "my bf
        # kick" reads as the verb, and an answer's "kick" would be restored as the name.
        return tuple(
            n for n in names if len(n.upper()) == len(n) == len(n.lower()) and word_frequency(n) < _EVERYDAY_WORD
        ) or names

    def _pool_for(self, part: str, role: str, locale: str, gender: str, single: bool) -> list[str]:
        """The candidates for a part (never changed by callers). They depend on the part
        only through its prefix, script and accents, and the lists are fixed, so they are
        built once per kind of part: filtering a pool of thousands of names per name made
        up ~5% of a long document's time."""
        key = (_prefix(part), script_of(part), part.isascii(), role, locale, gender, single)
        pool = self._pools.get(key)
        if pool is None:
            pool = self._shaped_pool(part, role, locale, gender)
            if single:
                other = self.names.is_first_name if role == "last" else self.names.is_last_name
                pool = [c for c in pool if not other(c)] or pool
            if len(self._pools) >= 512:  # a bound on memory, never reached in practice
                self._pools.clear()
            self._pools[key] = pool
        return pool

    def _shaped_pool(self, part: str, role: str, locale: str, gender: str) -> list[str]:
        """Names of the pool that have the part's shape: the same prefix (O', Mc, Mac), one
        word, accents as written. Where the locale has no name of that prefix, the other
        locales of its language lend one, then any locale of its script."""
        prefix = _prefix(part)
        pools = [self._pool(role, locale, gender)]
        if prefix:
            script = script_of(part)
            same_language = [loc for loc in sorted(self.names.pools) if loc[:2] == locale[:2] and loc != locale]
            others = [loc for loc in sorted(self.names.pools)
                      if loc not in same_language and loc != locale and self.names.scripts.get(loc) == script]
            pools += [self._pool(role, loc, gender) for loc in same_language + others]
        chosen: list[str] = []
        for pool in pools:
            chosen = [c for c in pool if " " not in c and "-" not in c and _prefix(c) == prefix]
            if chosen:
                break
        if not chosen:  # no name of that shape anywhere: the pool as it is
            chosen = [c for c in pools[0] if " " not in c] or list(pools[0])
        if script_of(part) == "LATIN":
            if part.isascii():
                plain = [c for c in chosen if c.isascii()]
                chosen = plain if len(plain) >= 5 else [f for f in (_ascii(c) for c in chosen) if f.isascii()]
            else:
                marked = [c for c in chosen if not c.isascii()]
                chosen = marked if len(marked) >= 5 else chosen
        return chosen

    def _pick(self, pool, real_part: str, taken: set[str], rng: random.Random, is_free) -> str | None:
        if not pool:
            return None
        real_key = fold(real_part).replace("’", "'")
        for _ in range(40):
            candidate = rng.choice(pool)
            key = fold(candidate).replace("’", "'")  # "O'Connell" is "O’Connell"
            if key == real_key or key in taken or " " in candidate or not is_free(candidate):
                continue
            if len(real_key) >= 3 and (real_key in key or key in real_key):
                continue  # "Sengupta" for "Gupta" would carry the real name inside it
            return candidate
        return None

    def mapped_parts(self, entry: MapEntry, *, with_particles: bool = False) -> list[MappedPart]:
        """The name parts of a person entry of the map with their stand-in parts (titles,
        particles and initials left out; `with_particles`: a surname with the particles
        before it, "van der Berg"); [] when they cannot be paired."""
        if entry.label is not Label.PERSON or entry.real == entry.stand_in:
            return []
        real = parse_name(entry.real, None, self.names)
        fake = entry.stand_in.split()
        fake = fake[len(real.titles) : len(fake) - len(real.suffixes) or None]
        if len(fake) != len(real.parts) or not real.parts:
            return []
        roles, _, _ = self.read_name(real.parts, real.roles)
        if len(real.parts) == 1 and roles[0] in ("first", "last"):
            # One word: a title may have said which part it was; the stand-in was picked
            # to tell it (a surname no list has as a first name, or the other way round).
            roles = [self._role_of_stand_in(fake[0]) or roles[0]]
        out = []
        for i, (part, role, stand_in) in enumerate(zip(real.parts, roles, fake)):
            if role not in ("first", "middle", "last"):
                continue
            start = i
            while with_particles and role == "last" and start > 0 and roles[start - 1] == "particle":
                start -= 1
            out.append(MappedPart(" ".join(real.parts[start : i + 1]), role, " ".join(fake[start : i + 1])))
        return out

    def _role_of_stand_in(self, token: str) -> str | None:
        first, last = self.names.is_first_name(token), self.names.is_last_name(token)
        if last and not first:
            return "last"
        if first and not last:
            return "first"
        return None

    def _conversation_names(self, conversation: Conversation) -> _KnownNames:
        """Token-level maps from the conversation's person entries: real first/last name
        -> stand-in part, and the stand-in parts already in use (kept up to date with the
        map's new entries; read-only for callers)."""
        return self._known_names.get(conversation)

    def _take_in(self, known: _KnownNames, entries) -> None:
        known_first, known_last, used_first, used_last = known
        for entry in entries:
            if entry.label is Label.PERSON and is_cyrillic_name(entry.real) and entry.real != entry.stand_in:
                # Declined names are known by their nominatives ("Иваном" and "Ивану" are Иван).
                real, fake = read_cyrillic_name(entry.real), read_cyrillic_name(entry.stand_in)
                if real and fake and [p.role for p in real.parts] == [p.role for p in fake.parts]:
                    for r, f in zip(real.parts, fake.parts):
                        if r.role in ("first", "middle", "last"):
                            (known_last if r.role == "last" else known_first).setdefault(fold(r.nominative), f.nominative)
                            (used_last if r.role == "last" else used_first).add(fold(f.nominative))
            for mapped in self.mapped_parts(entry):
                if mapped.role == "last":
                    known_last.setdefault(fold(mapped.real), mapped.stand_in)
                    used_last.add(fold(mapped.stand_in))
                else:
                    known_first.setdefault(fold(mapped.real), mapped.stand_in)
                    used_first.add(fold(mapped.stand_in))


def _known_full_form(part: str, known_first: dict[str, str]) -> str | None:
    """The first name the conversation already maps of which `part` is a nickname or a
    full form ("Reg" after "Reginald"), if any."""
    return next((other for other in sorted(other_forms(part)) if fold(other) in known_first), None)


def _stand_in_form(part: str, full: str, stand_in: str, is_free) -> str | None:
    """The same form of the full name's stand-in: "Reginald 'Reg' Thornton" -> "Nathaniel
    'Nat' ...", not a second, unrelated name. None when the stand-in has no such form
    free to use (the stand-in itself would map two real names)."""
    wanted = part.casefold()
    for real_form, stand_in_form in nickname_pairs(full, stand_in):
        candidate = stand_in_form.capitalize()
        if real_form == wanted and candidate.casefold() != stand_in.casefold() and is_free(candidate):
            return candidate
    return None


def _prefix(name: str) -> str:
    """The prefix that gives a surname its look: "o'" (O'Connell, O’Brien), "mc"
    (McLeod, Mcdonald), "mac" (MacLeod, not Mack or Macias), else ""."""
    if len(name) > 2 and name[0] in "Oo" and name[1] in _APOSTROPHES:
        return "o'"
    if len(name) > 2 and name[:2].casefold() == "mc":
        return "mc"
    if len(name) > 3 and name[:3].casefold() == "mac" and name[3].isupper():
        return "mac"
    return ""


def _restyle(real: str, candidate: str) -> str:
    """The candidate written like the real part: its case, its apostrophe, a capital
    after Mc/Mac where the real one has one ("McDonald" -> "McKenna", "Mcdonald" -> "Mckenna")."""
    prefix = _prefix(real)
    if prefix == "o'":
        candidate = candidate[0] + real[1] + candidate[2:]
    elif prefix in ("mc", "mac") and not real.isupper():
        cut = len(prefix)
        rest = candidate[cut:]
        rest = rest[:1].upper() + rest[1:] if real[cut].isupper() else rest[:1].lower() + rest[1:]
        candidate = real[0] + candidate[1:cut] + rest
    return match_case(real, candidate)


def _ascii(name: str) -> str:
    """The name without its accents ("Phạm" -> "Pham"), as a name is written on an
    English keyboard; letters that do not decompose (ø, ł) stay, and the caller drops them."""
    decomposed = unicodedata.normalize("NFKD", name.replace("đ", "d").replace("Đ", "D"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def derive_partial(mention: str, full_real: str, full_stand_in: str) -> str | None:
    """The stand-in for a partial mention of a mapped name: "Mitchell" of "Sarah Mitchell"
    -> the surname of its stand-in. None when the mention is not made of its parts."""
    real_tokens = full_real.split()
    fake_tokens = full_stand_in.split()
    if len(real_tokens) != len(fake_tokens):
        return None
    by_token = {fold(r): f for r, f in zip(real_tokens, fake_tokens)}
    out = []
    for token in mention.split():
        stand_in = by_token.get(fold(token))
        if stand_in is None:
            return None
        out.append(match_case(token, stand_in))
    return " ".join(out)


# The first third-person pronoun after a name in its sentence, before any other name
# ("remind Hollis that her rent is due": Hollis is a woman, whatever the name lists say;
# "ask Hollis if Tom liked his gift": "his" is Tom's, so no hint).
_PRONOUN_OR_STOP = re.compile(r"(?i)\b(?:(he|him|his|himself)|(she|her|hers|herself))\b|(?-i:\s[A-Z][a-z])|[.!?\n;]")


PRONOUN_REACH = 80  # characters after the name that are read


def pronoun_after(text_after: str) -> str | None:
    """"male" or "female" when a pronoun after the name says so, else None."""
    match = _PRONOUN_OR_STOP.search(text_after[:PRONOUN_REACH])
    if match is None or not (match.group(1) or match.group(2)):
        return None
    return "male" if match.group(1) else "female"

