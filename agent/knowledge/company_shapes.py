"""Is an organisation's name one that few people know? Read from the name's shape and from
data packages, never from a list of companies written by hand:

- surnames joined the way firms are named: "<Surname> Inc.", "<Surname>-<Surname>",
  "<Surname>, <Surname> and <Surname>", "<Surname> & Söhne" (the formats and suffixes of
  Faker's company providers, the surnames of the name lexicon);
- a coined word the web hardly writes: absent from wordfreq's English list (a word written
  less than about once in a hundred million words), no one's first name or surname, and
  made of English words ("Brindlecore", "TrellisPay"): a brand too small to be written
  about. A rare word that is no such compound may be a foreign or invented name the
  prompt's world knows (a restaurant, a game's faction): it says nothing here;
- ordinary words before a generic trade word ("Silver Arrow Solutions", "Kestrel
  Analytics"): how small firms describe themselves.

A name that a stock index, the list of public entities or a first word of such a name
covers is not asked about here: the caller checks those first (agent/decide/relevance.py).
A shape says only that the remote model is unlikely to know the organisation, so a stand-in
costs the answer nothing; whether the prompt asks about it is the caller's to read.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache

from agent.knowledge.frequency import zipf
from agent.knowledge.names import lexicon
from agent.knowledge.org_words import LEGAL_FORMS, TRADE_WORDS
from agent.knowledge.words import is_common_word


class UnknownShape(str, Enum):
    SURNAMES = "surnames in a firm's name"
    COINED_WORD = "a coined word the web hardly writes"
    TRADE_NAME = "ordinary words before a trade word"


# "and" between the partners of a firm, in the languages Faker names firms in with Latin letters.
CONNECTORS = frozenset({"and", "&", "y", "e", "et", "und", "og", "och", "en", "és", "i", "-", "+"})
# Below this Zipf value a word is absent from wordfreq's English list (its floor is 1.0).
_UNWRITTEN = 1.0
# A part of a coined word this frequent is an everyday English word ("core" 4.6, "pay" 5.0).
_COMMON_PART = 3.0
# A capitalised word this frequent that is neither a dictionary word nor a name is a
# household name of its own ("Lenovo", "Tableau"): the whole is not an unknown firm.
_HOUSEHOLD = 2.5
_TOKEN = re.compile(r"&|\+|-|[^\W_][\w'’.]*", re.UNICODE)


def _fold(word: str) -> str:
    return word.casefold().rstrip(".")


@lru_cache(maxsize=1)
def firm_suffixes() -> tuple[tuple[str, ...], ...]:
    """Suffix phrases of firm names ("Inc", "and Sons", "GmbH & Co. KG") as folded word
    tuples, longest first: the legal forms of org_words and Faker's company suffixes of
    Latin-script locales. Read from Veil's disk cache (agent/knowledge/disk_cache.py):
    importing Faker's company providers costs 0.2-0.8 s, once per installed version."""
    from agent.knowledge.disk_cache import cache_key, load_or_build

    key = cache_key([__name__, "agent.knowledge.org_words"], ["Faker", "wordfreq"])
    return load_or_build(
        "firm_suffixes", key, _build_firm_suffixes,
        lambda phrases: [list(p) for p in phrases],
        lambda data: tuple(tuple(p) for p in data),  # type: ignore[union-attr]
    )


def _build_firm_suffixes() -> tuple[tuple[str, ...], ...]:
    """A suffix that is also an ordinary English word and no legal form ("con", "url") is
    left out: after a surname it would make a person's phrase a firm."""
    import importlib
    import pkgutil

    import faker.providers.company as providers

    phrases: set[tuple[str, ...]] = set()
    for form in LEGAL_FORMS:
        phrases.add(tuple(_fold(w) for w in form.split()))
    for module in pkgutil.iter_modules(providers.__path__):
        provider = importlib.import_module(f"{providers.__name__}.{module.name}").Provider
        for suffix in getattr(provider, "company_suffixes", ()) or ():
            if not suffix or not all(c.isascii() or (c.isalpha() and ord(c) < 0x250) for c in suffix):
                continue
            words = tuple(_fold(w) for w in _TOKEN.findall(suffix))
            if not words or (len(words) == 1 and zipf(words[0]) >= 3.0 and words[0] not in {"group", "limited", "corporation"}):
                continue
            phrases.add(words)
    return tuple(sorted(phrases, key=len, reverse=True))


@lru_cache(maxsize=1)
def _suffixes_by_last_word() -> dict[str, tuple[tuple[str, ...], ...]]:
    """The suffix phrases by their last word, longest first (one dict lookup per name)."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for phrase in firm_suffixes():
        out.setdefault(phrase[-1], []).append(phrase)
    return {last: tuple(phrases) for last, phrases in out.items()}


def _strip_suffix(words: list[str]) -> tuple[list[str], bool]:
    folded = [_fold(w) for w in words]
    found = False
    while len(folded) > 1:
        for phrase in _suffixes_by_last_word().get(folded[-1], ()):
            if len(phrase) < len(folded) and tuple(folded[-len(phrase):]) == phrase:
                words, folded, found = words[: -len(phrase)], folded[: -len(phrase)], True
                break
        else:
            break
    return words, found


def _latin(word: str) -> bool:
    """Latin letters only (wordfreq's English list says nothing of other scripts' words)."""
    return all(ord(c) < 0x250 for c in word)


def _household_word(word: str) -> bool:
    """A capitalised word that names one thing people know; a trade word ("Analytics",
    "Logistics": frequent, and no dictionary word in the everyday list) names a kind of firm."""
    if word.casefold() in TRADE_WORDS:
        return False
    names = lexicon().info(word)
    return (
        word[:1].isupper() and not names.is_first and not names.is_last
        and not is_common_word(word) and zipf(word) >= _HOUSEHOLD
    )


def _common_english(word: str) -> bool:
    return zipf(word) >= _COMMON_PART


def _english_compound(word: str) -> bool:
    """Made of English words: its capitalised parts ("TrellisPay", "PulseHQ"), or a common
    word of four letters or more at its start or end with three letters or more beside it
    ("Brindlecore": "core"; "Harborix" would not do)."""
    parts = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+", word)
    if len(parts) >= 2 and all(p.isupper() or _common_english(p) for p in parts):
        return True
    low = word.casefold()
    for cut in range(3, len(low) - 2):
        head, tail = low[:cut], low[cut:]
        if (len(head) >= 4 and _common_english(head)) or (len(tail) >= 4 and _common_english(tail)):
            return True
    return False


def _coined(word: str) -> bool:
    """A word of six letters or more that wordfreq's English list does not hold, that no
    name list has, and that is made of English words."""
    letters = word.strip("'’.")
    if len(letters) < 6 or not letters.isalpha() or not _latin(letters) or zipf(letters) >= _UNWRITTEN:
        return False
    names = lexicon().info(letters)
    return not names.is_first and not names.is_last and _english_compound(letters)


def unknown_shape(name: str) -> UnknownShape | None:
    """The shape that marks this organisation's name as one few people know, or None."""
    words = [w.strip(",") for w in _TOKEN.findall(name.replace(",", " , "))]
    words = [w for w in words if w]
    if words and words[0].casefold() == "the":
        words = words[1:]
    core, suffixed = _strip_suffix(words)
    parts = [w for w in core if w.casefold() not in CONNECTORS]
    joined = len(parts) < len(core)
    if not parts or len(parts) > 4 or any(_household_word(w) for w in parts):
        return None
    if any(_coined(w) for w in parts):
        return UnknownShape.COINED_WORD
    names = lexicon()
    if (suffixed or joined) and len(parts) <= 3 and all(w[:1].isupper() and w.isalpha() and names.is_last_name(w) for w in parts):
        return UnknownShape.SURNAMES
    if len(parts) >= 2 and parts[-1].casefold() in TRADE_WORDS and all(w[:1].isupper() for w in parts):
        return UnknownShape.TRADE_NAME
    return None
