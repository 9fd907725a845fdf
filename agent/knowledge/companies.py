"""Well-known companies from a well-kept public source instead of a hand-made list: the
constituents of twenty major stock indices (S&P 500/100/600, NASDAQ 100, Dow Jones, DAX,
MDAX, SDAX, TecDAX, FTSE 100, CAC 40, CAC Mid 60, EURO STOXX 50, AEX, BEL 20, IBEX 35,
NIKKEI 225, OMX Helsinki 25, OMX Stockholm 30, Switzerland 20) as the `pytickersymbols`
package ships them offline (about 1,800 companies with their names, countries and
Wikipedia metadata).

A company listed there is public: a prompt that names it asks about a company the
remote model knows, not about the user's employer (unless a cue says so: "I work at").
Names are matched as people write them: "Siemens AG" is "Siemens", "Honda Motor Company"
is "Honda", "The Coca-Cola Company" is "Coca-Cola". Nothing is added to the
source by hand (tests/test_knowledge_companies.py checks the index against it).
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

from agent.knowledge.org_words import LEGAL_FORM_WORDS
from agent.knowledge.words import is_common_word

# Words after a listed company's distinctive name that only say what kind of company it
# is ("Honda Motor Company", "Volkswagen Group"): people drop them.
_KIND_WORDS = frozenset(w.casefold() for w in (
    "Group", "Holdings", "Holding", "Corporation", "Corp", "Company", "Co", "Incorporated", "Inc",
    "International", "Industries", "Technologies", "Technology", "Systems", "Motor", "Motors",
    "Platforms", "Brands", "Enterprises", "Entertainment", "Communications", "Pharmaceuticals",
    "Therapeutics", "Laboratories", "Labs", "Software", "Networks", "Solutions", "Services",
    "Financial", "Worldwide", "Global", "Limited", "Ltd", "plc", "AG", "SE", "SA", "NV", "N.V.",
    "S.A.", "ASA", "Oyj", "AB", "A/S", "Aktiengesellschaft", "KGaA", "Cos", "Companies",
))
_STRIP = LEGAL_FORM_WORDS | _KIND_WORDS
_LEGAL = frozenset(w.strip(".") for w in LEGAL_FORM_WORDS)
_STRIP_BARE = frozenset(w.strip(".") for w in _STRIP)
_EDGE = " ,.&-"


def _fold(value: str) -> str:
    return " ".join(value.casefold().replace("’", "'").split())


def _aliases(name: str) -> set[str]:
    """How people write a listed name: as listed, without "The", without the legal form
    and kind words at its end ("Honda Motor Company" -> "Honda Motor" -> "Honda")."""
    out = {_fold(name)}
    words = re.sub(r"^the\s+", "", name.strip(), flags=re.IGNORECASE).replace(",", " ").split()
    if words:
        out.add(_fold(" ".join(words)))
    stripped: list[str] = []
    while len(words) > 1 and words[-1].casefold().strip(".") in _STRIP_BARE:
        stripped.append(words[-1].casefold().strip("."))
        words = words[:-1]
        alias = _fold(" ".join(words).strip(_EDGE))
        if len(words) == 1 and not words[0].isupper() and is_common_word(alias) and (len(stripped) > 1 or stripped[0] not in _LEGAL):
            # "American International Group" is not every "American ...", "Regions Financial
            # Corporation" not "regions": an everyday word alone names the company only when
            # the listed name is that word and a legal form ("Apple Inc.", "Target Corporation")
            # or is written in capitals ("ING Group").
            break
        out.add(alias)
    return {a for a in out if len(a) >= 2}


class CompanyIndex:
    """Casefolded names and aliases of the listed companies."""

    def __init__(self) -> None:
        from pytickersymbols import PyTickerSymbols

        names: dict[str, str] = {}
        for stock in PyTickerSymbols().get_all_stocks():
            name = (stock.get("name") or "").strip()
            if not name:
                continue
            for alias in _aliases(name):
                names.setdefault(alias, name)
        self._names = names

    def listed_name(self, value: str) -> str | None:
        """The source's name of the company this value names, or None."""
        value = value.strip()
        # As written ("McDonald's"), then without a possessive ("Toyota's new model").
        for candidate in dict.fromkeys((value, re.sub(r"['’]s$", "", value))):
            for alias in sorted(_aliases(candidate), key=len, reverse=True):  # the fullest match first
                if alias in self._names:
                    return self._names[alias]
        return None

    def __len__(self) -> int:
        return len(self._names)


_lock = threading.Lock()


@lru_cache(maxsize=1)
def _build() -> CompanyIndex:
    return CompanyIndex()


def company_index() -> CompanyIndex:
    with _lock:
        return _build()


def is_listed_company(value: str) -> bool:
    return company_index().listed_name(value) is not None
