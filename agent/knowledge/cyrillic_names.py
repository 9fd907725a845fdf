"""Person names written in Cyrillic: their case forms, and reading a form back.

Russian and Ukrainian decline names: "Иван" is "Ивана", "Ивану", "Иваном", "Иване" in a
sentence, "Анна" is "Анны", "Анне", "Анну", "Анной"; surnames follow their ending
("Петров" -> "Петровым", "Петрова" -> "Петровой", "Ковальский" -> "Ковальского"). Faker's
ru_RU, uk_UA, bg_BG and mk_MK lists (agent/knowledge/names.py) hold the nominative only, so
a name in any other case was unknown to every list. Here the regular endings are written
out once per declension class: `forms` makes every case form of a nominative, and
`read_first`/`read_surname`/`read_patronymic` find which nominative and case a written
word can be (by making the forms of each candidate and comparing, so the two never
disagree). Bulgarian and Macedonian have no cases: their names are read as written.

Cases: "nom", "gen", "dat", "acc", "ins", "loc" (and Ukrainian "voc"). Genders: "male",
"female". Irregular names (a vowel dropped: "Павел" -> "Павла", "Лев" -> "Льва") keep their
nominative only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from agent.knowledge.names import lexicon

# Cyrillic capitals and small letters (Russian, Ukrainian "ЄІЇҐ", Belarusian "Ў", Serbian and
# Macedonian "ЂЃЅЈЉЊЋЌЏ"); a Ukrainian apostrophe may stand inside a name ("Мар'яна").
UPPER = "\u0400-\u042f\u0490"
LOWER = "\u0430-\u045f\u0491"
CYRILLIC_LETTER = re.compile(f"[{UPPER}{LOWER}]")
CYRILLIC_LOCALES = ("ru_RU", "uk_UA", "bg_BG", "mk_MK")
CASES = ("nom", "gen", "dat", "acc", "ins", "loc")
_HUSHING = "жчшщц"
_VELAR_HUSHING = "гкхжчшщ"
# Letters only Ukrainian writes (a word with one of them is read with Ukrainian endings).
_UKRAINIAN_ONLY = frozenset("іїєґІЇЄҐ")
# Readings are listed Russian first, then Ukrainian, then Bulgarian/Macedonian (as written).
_RANK = {"ru": 0, "uk": 1, "bg": 2}


def has_cyrillic(text: str) -> bool:
    return CYRILLIC_LETTER.search(text) is not None


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a written word: its nominative, the cases it may be in, its gender
    ("male", "female" or "any") and the language of the paradigm ("ru", "uk", "bg")."""

    nominative: str
    cases: frozenset[str]
    gender: str
    language: str


# -- first names ------------------------------------------------------------------------------


def _first_forms(name: str, gender: str, language: str) -> dict[str, str]:
    """The case forms of a first name (nominative `name`)."""
    forms = {"nom": name}
    if language not in ("ru", "uk") or len(name) < 3:
        return forms
    last = name[-1]
    stem = name[:-1]
    if last == "а":
        soft = stem[-1:] in _VELAR_HUSHING
        if language == "ru":
            forms.update(gen=stem + ("и" if soft else "ы"), dat=stem + "е", acc=stem + "у",
                         ins=stem + ("ей" if stem[-1:] in _HUSHING else "ой"), loc=stem + "е")
        else:
            forms.update(gen=stem + ("і" if stem[-1:] in "жчшщ" else "и"), dat=stem + "і", acc=stem + "у",
                         ins=stem + ("ею" if stem[-1:] in "жчшщ" else "ою"), loc=stem + "і", voc=stem + "о")
    elif last == "я":
        if language == "ru":
            ending = "и" if stem.endswith("и") else "е"
            forms.update(gen=stem + "и", dat=stem + ending, acc=stem + "ю", ins=stem + "ей", loc=stem + ending)
        else:
            after = "ї" if stem[-1:] in "іи" or not stem[-1:].isalpha() else "і"
            forms.update(gen=stem + after, dat=stem + after, acc=stem + "ю", ins=stem + "єю" if after == "ї" else stem + "ею",
                         loc=stem + after, voc=stem + ("є" if after == "ї" else "е"))
    elif gender == "female" and last == "ь":  # "Нинель": Нинели, Нинелью
        if language == "ru":
            forms.update(gen=stem + "и", dat=stem + "и", acc=name, ins=name + "ю", loc=stem + "и")
        else:
            forms.update(gen=stem + "і", dat=stem + "і", acc=name, ins=stem + "лю" if stem.endswith("л") else name + "ю",
                         loc=stem + "і")
    elif gender == "female":
        return forms  # "Эстер", "Рут": not declined
    elif last in "йь":
        if language == "ru":
            loc = stem + ("и" if name.endswith("ий") else "е")
            forms.update(gen=stem + "я", acc=stem + "я", dat=stem + "ю", ins=stem + "ем", loc=loc)
        else:
            ins = stem + ("єм" if last == "й" else "ем")
            forms.update(gen=stem + "я", acc=stem + "я", dat=stem + "ю", ins=ins, loc=stem + "ю",
                         voc=stem + "ю")
    elif last.isalpha() and last not in "аеёиоуыэюяіїєьй":
        oblique = _oblique_stem(name) if language == "ru" else name
        forms.update(gen=oblique + "а", acc=oblique + "а", dat=oblique + "у",
                     ins=oblique + ("ем" if last in _HUSHING else "ом"),
                     loc=oblique + ("і" if language == "uk" else "е"))
        if language == "uk":
            forms["voc"] = name + ("у" if last in "кгх" else "е")
    return forms


def _oblique_stem(name: str) -> str:
    """The stem a man's name is declined on where its last vowel drops ("Павел" -> "Павл-",
    "Лев" -> "Льв-", "Пётр" -> "Петр-"): a two-syllable name in -ел, a one-syllable name in
    -ев, a name in -ётр; the name itself otherwise."""
    if len(name) == 5 and name.endswith("ел") and name[1] in "аеиоуя":
        return name[:-2] + "л"
    if len(name) == 3 and name.endswith("ев"):
        return name[0] + "ьв"
    if name.endswith("ётр"):
        return name[:-3] + "етр"
    return name


# Endings a declined first name may have, and what its nominative ends with instead.
_FIRST_ENDINGS = ("а", "я", "у", "ю", "ом", "ем", "єм", "е", "є", "і", "ї", "о", "ы", "и", "ой", "ою", "ей", "ею", "єю")
_FIRST_NOMINATIVE = ("", "а", "я", "й", "ь")


def _first_locales(name: str) -> frozenset[str]:
    return lexicon().info(name).first_in & frozenset(CYRILLIC_LOCALES)


@lru_cache(maxsize=16384)
def read_first(word: str) -> tuple[Reading, ...]:
    """The readings of `word` as a first name of a Cyrillic list, in any case ("Иваном" ->
    Иван, ins, male); () when no list knows a nominative it can be a form of."""
    if len(word) < 2 or not word[:1].isupper():
        return ()
    names = lexicon()
    candidates = {word}
    for ending in _FIRST_ENDINGS:
        if word.endswith(ending) and len(word) > len(ending) + 1:
            stem = word[: -len(ending)]
            candidates.update(stem + n for n in _FIRST_NOMINATIVE)
            # A dropped vowel comes back in the nominative: "Павл-" Павел, "Льв-" Лев, "Петр-" Пётр.
            if len(stem) >= 3:
                candidates.update({stem[:-1] + "е" + stem[-1:], stem.replace("ь", "е"), stem.replace("е", "ё")})
    out = []
    for candidate in candidates:
        locales = _first_locales(candidate)
        if not locales:
            continue
        gender = names.gender_of(candidate, _home(locales))
        for language in _languages(locales, word):
            cases = frozenset(c for c, f in _first_forms(candidate, gender, language).items() if f == word)
            if cases:
                out.append(Reading(candidate, cases, gender, language))
    return tuple(sorted(set(out), key=lambda r: (r.nominative != word, r.nominative, _RANK[r.language])))


def _home(locales: frozenset[str]) -> str:
    return next(loc for loc in CYRILLIC_LOCALES if loc in locales)


def _languages(locales: frozenset[str], word: str) -> tuple[str, ...]:
    """The paradigms a name of these lists is declined by: Russian and Ukrainian names
    are met in either language's sentences; Bulgarian and Macedonian ones as written."""
    out = []
    if "ru_RU" in locales or "uk_UA" in locales:
        out.append("uk" if _UKRAINIAN_ONLY.intersection(word) else "ru")
        out.append("uk" if out[0] == "ru" else "ru")
    if locales & {"bg_BG", "mk_MK"}:
        out.append("bg")
    return tuple(out)


# -- surnames ---------------------------------------------------------------------------------

# Surname endings that decline like possessive adjectives (Петров, Петрова), like full
# adjectives (Ковальский, Ковальская), or not at all (Шевченко, Черных, Гогуадзе).
_POSSESSIVE = re.compile(f"[{LOWER}]{{2,}}(?:ов|ев|ёв|ин|ын|ова|ева|ёва|ина|ына)$")
_ADJECTIVE = re.compile(f"[{LOWER}]{{2,}}(?:ск|цк|зк)(?:ий|ой|ая|ій|а)$")
_BG_ADJECTIVE = re.compile(f"[{LOWER}]{{2,}}(?:ски|ска|цки|цка)$")
_INDECLINABLE = re.compile(f"[{LOWER}]{{2,}}(?:енко|ко|ых|их|дзе|швили|ани|ян|янц|уни)$")
_NOUN_LIKE = re.compile(f"[{LOWER}]{{2,}}(?:ук|юк|чук|ак|як|ич|вич|ник|ець|ар|ер)$")


def _surname_forms(name: str, gender: str, language: str) -> dict[str, str]:
    """The case forms of a surname (nominative `name`) of a man or a woman."""
    forms = {"nom": name}
    if language not in ("ru", "uk"):
        return forms
    low = name.casefold()
    if _POSSESSIVE.search(low):
        if low.endswith("а"):  # a woman's: Петрова
            stem = name[:-1]
            if language == "ru":
                forms.update(gen=stem + "ой", dat=stem + "ой", acc=stem + "у", ins=stem + "ой", loc=stem + "ой")
            else:
                forms.update(gen=stem + "ої", dat=stem + "ій", acc=stem + "у", ins=stem + "ою", loc=stem + "ій")
        else:
            if language == "ru":
                forms.update(gen=name + "а", acc=name + "а", dat=name + "у", ins=name + "ым", loc=name + "е")
            else:
                forms.update(gen=name + "а", acc=name + "а", dat=name + "у", ins=name + "им", loc=name + "і")
        return forms
    if _ADJECTIVE.search(low):
        if low.endswith(("ая", "а")):
            stem = name[:-2] if low.endswith("ая") else name[:-1]
            if language == "ru":
                forms.update(gen=stem + "ой", dat=stem + "ой", acc=stem + "ую", ins=stem + "ой", loc=stem + "ой")
            else:
                forms.update(gen=stem + "ої", dat=stem + "ій", acc=stem + "у", ins=stem + "ою", loc=stem + "ій")
        else:
            stem = name[:-2]
            if language == "ru":
                forms.update(gen=stem + "ого", acc=stem + "ого", dat=stem + "ому", ins=stem + "им", loc=stem + "ом")
            else:
                forms.update(gen=stem + "ого", acc=stem + "ого", dat=stem + "ому", ins=stem + "им", loc=stem + "ому")
        return forms
    if gender == "female" or _INDECLINABLE.search(low) and not (language == "uk" and low.endswith("ко")):
        return forms
    if low.endswith("ко"):  # Ukrainian men's -енко, -ко decline: Шевченка, Шевченком
        stem = name[:-1]
        forms.update(gen=stem + "а", acc=stem + "а", dat=stem + "ові", ins=stem + "ом", loc=stem + "ові")
        return forms
    last = low[-1:]
    if last.isalpha() and last not in "аеёиоуыэюяіїєьй":
        forms.update(gen=name + "а", acc=name + "а", dat=name + ("ові" if language == "uk" else "у"),
                     ins=name + ("ем" if last in _HUSHING else "ом"), loc=name + ("ові" if language == "uk" else "е"))
    return forms


_SURNAME_ENDINGS = ("а", "у", "ы", "ым", "им", "е", "і", "ой", "ої", "ій", "ою", "ого", "ому", "ом", "ем", "ую", "ові")
_SURNAME_NOMINATIVE = ("", "а", "ий", "ій", "ой", "ая", "о")


def surname_gender(name: str) -> str:
    """"male", "female" or "any" as the ending of a nominative surname says."""
    low = name.casefold()
    if re.search("(?:ова|ева|ёва|ина|ына|ая|ска|цка)$", low):
        return "female"
    if re.search("(?:ов|ев|ёв|ин|ын|ий|ій|ой|ски|цки)$", low):
        return "male"
    return "any"


def _shaped(name: str) -> bool:
    low = name.casefold()
    return bool(_POSSESSIVE.search(low) or _ADJECTIVE.search(low) or _BG_ADJECTIVE.search(low)
                or _INDECLINABLE.search(low) or _NOUN_LIKE.search(low))


@lru_cache(maxsize=16384)
def read_surname(word: str) -> tuple[Reading, ...]:
    """The readings of `word` as a surname in any case: a nominative the Cyrillic lists know,
    or one with a surname's ending (-ов, -ин, -ский, -енко, -чук...)."""
    if len(word) < 3 or not word[:1].isupper():
        return ()
    names = lexicon()
    candidates = {word}
    for ending in _SURNAME_ENDINGS:
        if word.endswith(ending) and len(word) > len(ending) + 2:
            stem = word[: -len(ending)]
            candidates.update(stem + n for n in _SURNAME_NOMINATIVE)
    out = []
    for candidate in candidates:
        locales = names.info(candidate).last_in & frozenset(CYRILLIC_LOCALES)
        if not locales and not _shaped(candidate):
            continue
        gender = surname_gender(candidate)
        languages = _languages(locales, word) if locales else ("ru", "uk")
        for language in languages:
            for g in ((gender,) if gender != "any" else ("male", "female")):
                cases = frozenset(c for c, f in _surname_forms(candidate, g, language).items() if f == word)
                if cases:
                    out.append(Reading(candidate, cases, g if gender != "any" else "any", language))
    return tuple(sorted(set(out), key=lambda r: (r.nominative != word, not is_listed_surname(r.nominative), r.nominative, _RANK[r.language], r.gender)))


def is_listed_surname(nominative: str) -> bool:
    return bool(lexicon().info(nominative).last_in & frozenset(CYRILLIC_LOCALES))


# -- patronymics ------------------------------------------------------------------------------

_PATRONYMIC = re.compile(f"[{UPPER}][{LOWER}]+(?:ович|евич|ич|йович|овна|евна|ична|инична|івна|ївна)$")


@lru_cache(maxsize=4096)
def read_patronymic(word: str) -> tuple[Reading, ...]:
    """A patronymic in any case ("Петрович", "Петровичем", "Сергеевны")."""
    if len(word) < 5 or not word[:1].isupper():
        return ()
    out = []
    for ending, nominative_end in (("", ""), ("а", ""), ("у", ""), ("ем", ""), ("е", ""), ("ы", "а"), ("и", "а"),
                                   ("е", "а"), ("у", "а"), ("ой", "а"), ("ою", "а"), ("і", "а")):
        if ending and not word.endswith(ending):
            continue
        candidate = (word[: -len(ending)] if ending else word) + nominative_end
        if not _PATRONYMIC.match(candidate):
            continue
        gender = "female" if candidate.endswith("а") else "male"
        for language in ("ru", "uk"):
            cases = frozenset(c for c, f in _patronymic_forms(candidate, gender, language).items() if f == word)
            if cases:
                out.append(Reading(candidate, cases, gender, language))
    return tuple(sorted(set(out), key=lambda r: (r.nominative != word, _RANK[r.language])))


def _patronymic_forms(name: str, gender: str, language: str) -> dict[str, str]:
    if gender == "female":
        return _first_forms(name, "female", language)
    return _first_forms(name, "male", language)


# -- making forms -----------------------------------------------------------------------------


def forms(nominative: str, role: str, gender: str, language: str) -> dict[str, str]:
    """Every case form of a name part (`role`: "first", "last" or "middle" for a
    patronymic), keyed by case; the nominative alone where the language has no cases."""
    if role == "last":
        return _surname_forms(nominative, gender, language)
    return _first_forms(nominative, gender, language)


def inflect(nominative: str, role: str, gender: str, language: str, case: str) -> str:
    """`nominative` in `case` (as written when the paradigm has no such form)."""
    return forms(nominative, role, gender, language).get(case, nominative)
