"""Stand-ins for person names written in Cyrillic, in the case the sentence put them in.

"с Иваном Петровым" needs a man's name of the same language in the instrumental case
("с Сергеем Волковым"): the name lists hold nominatives only, so a declined name was read
as unknown (any gender, any Cyrillic list) and replaced by a nominative name of whatever
list came first. Here a written name is read back to its nominative parts, roles (first
name, patronymic, surname; initials kept), gender, case and the language of its endings
(agent/knowledge/cyrillic_names.py); the stand-in parts are picked for the nominative and
put in the same case. `case_pairs` gives the restorer every case form of a stand-in with
the same form of the real name, so an answer that declines the stand-in differently
("Сергею Волкову") still comes back.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from agent.knowledge.cyrillic_names import (
    CASES,
    CYRILLIC_LETTER,
    Reading,
    forms,
    read_first,
    read_patronymic,
    read_surname,
    surname_gender,
)

_INITIAL = re.compile(r"^(?:[\u0400-\u042f\u0490]\.){1,2}$")
# Which case to name a form by when it can be several (the forms agree in all of them).
_CASE_ORDER = CASES + ("voc",)
# Role orders a written name of 1-3 parts may have ("Петров Иван Сергеевич" in forms).
_ORDERS = {
    1: (("first",), ("last",)),
    2: (("first", "last"), ("first", "middle"), ("last", "first"), ("initial", "last"), ("last", "initial")),
    3: (("first", "middle", "last"), ("last", "first", "middle"), ("initial", "initial", "last"),
        ("last", "initial", "initial")),
}


@dataclass(frozen=True, slots=True)
class NamePart:
    written: str
    role: str  # "first", "middle" (patronymic), "last", "initial"
    nominative: str


@dataclass(frozen=True, slots=True)
class CyrillicName:
    parts: tuple[NamePart, ...]
    case: str
    gender: str  # "male", "female" or "any"
    language: str  # the endings: "ru", "uk" or "bg" (no cases)


def is_cyrillic_name(value: str) -> bool:
    return CYRILLIC_LETTER.search(value) is not None and not any("a" <= c.casefold() <= "z" for c in value)


def _readings(word: str, role: str) -> tuple[Reading, ...]:
    if role == "first":
        return read_first(word)
    if role == "middle":
        return read_patronymic(word)
    if role == "last":
        return read_surname(word)
    return ()


def read_name(value: str) -> CyrillicName | None:
    """The parts, roles, case, gender and language of a Cyrillic name; None when no order
    of roles reads every word (an unknown first name, a surname of no known shape)."""
    words = value.split()
    orders = _ORDERS.get(len(words))
    if not orders or not is_cyrillic_name(value):
        return None
    for order in orders:
        if any((role == "initial") != bool(_INITIAL.match(w)) for w, role in zip(words, order)):
            continue
        options = [
            [None] if role == "initial" else list(_readings(w, role)) for w, role in zip(words, order)
        ]
        if not all(options):
            continue
        best = None
        for combo in itertools.product(*options):
            named = [r for r in combo if r is not None]
            genders = {r.gender for r in named} - {"any"}
            if len(genders) > 1:
                continue
            cases = set(_CASE_ORDER)
            for r, role in zip(combo, order):
                if r is not None and not _one_form(r, role):
                    cases &= r.cases
            if not cases:
                continue
            # One language for the whole name where the readings allow it ("Георги Иванов"
            # is Bulgarian, though Иванов is Russian too).
            rank = (len({r.language for r in named}), [_CASE_ORDER.index(c) for c in _CASE_ORDER if c in cases][0])
            if best is None or rank < best[0]:
                case = next(c for c in _CASE_ORDER if c in cases)
                language = next((r.language for r in named if not _one_form(r, "x")), named[0].language)
                gender = genders.pop() if genders else "any"
                parts = tuple(NamePart(w, role, r.nominative if r else w) for w, role, r in zip(words, order, combo))
                best = (rank, CyrillicName(parts, case, gender, language))
        if best is not None:
            return best[1]
    return None


def _one_form(reading: Reading, role: str) -> bool:
    """A part that is written the same in every case (Шевченко, a Bulgarian name)."""
    if reading.language == "bg":
        return True
    gender = reading.gender if reading.gender != "any" else "female"
    part_role = role if role in ("first", "middle", "last") else "last"
    return reading.cases == {"nom"} and len(forms(reading.nominative, part_role, gender, reading.language)) == 1


def language_of_locale(locale: str) -> str:
    return {"ru": "ru", "uk": "uk"}.get(locale[:2], "bg")


def declined(nominative: str, role: str, gender: str, language: str, case: str) -> str:
    """A stand-in part (nominative) in `case`; as written where it has no such form."""
    if role == "initial":
        return nominative
    if gender == "any":
        gender = surname_gender(nominative) if role == "last" else "male"
        gender = "male" if gender == "any" else gender
    return forms(nominative, "first" if role == "middle" else role, gender, language).get(case, nominative)


def patronymic_of(first_name: str, gender: str) -> str | None:
    """The patronymic made from a man's first name ("Сергей" -> "Сергеевич"/"Сергеевна",
    "Иван" -> "Иванович"/"Ивановна"); None for names that do not make one regularly."""
    if len(first_name) < 3:
        return None
    last = first_name[-1]
    if last in "йь":
        stem = first_name[:-1] + "ев"
    elif last.isalpha() and last not in "аеёиоуыэюяіїє":
        stem = first_name + ("ев" if last in "жчшщц" else "ов")
    else:
        return None
    return stem + ("на" if gender == "female" else "ич")


def case_pairs(real: str, stand_in: str) -> list[tuple[str, str]]:
    """(a form of the stand-in, the same form of the real name) for every case and for
    each part alone: the forms an answer may decline the stand-in into. [] when the two
    cannot be read part by part."""
    r, f = read_name(real), read_name(stand_in)
    if r is None or f is None or len(r.parts) != len(f.parts):
        return []
    if [p.role for p in r.parts] != [p.role for p in f.parts]:
        return []
    language = r.language
    if language == "bg":
        return []
    out: list[tuple[str, str]] = []
    for case in _CASE_ORDER:
        fake_words, real_words = [], []
        for rp, fp in zip(r.parts, f.parts):
            fake_words.append(declined(fp.nominative, fp.role, f.gender if f.gender != "any" else r.gender, language, case))
            real_words.append(declined(rp.nominative, rp.role, r.gender, language, case))
            if rp.role != "initial" and len(r.parts) > 1:
                out.append((fake_words[-1], real_words[-1]))
        out.append((" ".join(fake_words), " ".join(real_words)))
    seen: dict[str, str] = {}
    for fake, real_form in out:
        seen.setdefault(fake, real_form)
    return [(fake, real_form) for fake, real_form in seen.items() if fake != stand_in]
