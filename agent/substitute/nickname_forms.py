"""The other forms of a first name, from the `nicknames` package's hand-curated English
list: its nicknames ("William" -> "Bill", "Will") and, for a nickname, its full forms; and
the form a stand-in takes in their place ("Bill" for William -> "Mike" for Michael)."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def _nick_namer():
    from nicknames import NickNamer

    return NickNamer()


def _usable(found: set[str]) -> list[str]:
    # The list also holds abbreviations ("c.", "chas."): names only, shortest first.
    return sorted((n for n in found if n.isalpha() and len(n) >= 2), key=lambda n: (len(n), n))


def other_forms(first: str) -> set[str]:
    """A first name's nicknames and full forms, lower case ("reg" -> {"reginald", ...})."""
    namer = _nick_namer()
    key = first.casefold()
    return set(_usable(namer.nicknames_of(key))) | set(_usable(namer.canonicals_of(key)))


def nickname_pairs(real_first: str, fake_first: str) -> list[tuple[str, str]]:
    """(a name the real first name also goes by, what the stand-in goes by then): its
    nicknames and, for a nickname, its full forms; the stand-in's matching form where the
    list has one ("bill" -> "mike" for William -> Michael), else its first name."""
    namer = _nick_namer()
    real, fake = real_first.casefold(), fake_first.casefold()
    pairs = []
    for kind, others in (("nick", namer.nicknames_of(real)), ("full", namer.canonicals_of(real))):
        fake_forms = _usable(namer.nicknames_of(fake) if kind == "nick" else namer.canonicals_of(fake))
        for other in _usable(others):
            pairs.append((other, fake_forms[0] if fake_forms else fake))
    return pairs
