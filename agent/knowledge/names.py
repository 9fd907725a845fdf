"""Personal-name knowledge from Faker's per-locale name lists.

Two uses: detection (is this capitalised token a known first or last name?) and
substitution (which gender and cultural origin does a real name suggest, and which
same-origin, same-gender name can stand in for it). Faker ships ~90 locales of curated
first/last names; we read its provider tables directly instead of generating people,
because we need lookups, not random records.
"""

from __future__ import annotations

import importlib
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# Locales whose lists are used to pick stand-ins. `en` (a very large international list)
# only helps detection: its names have no single origin.
_DETECTION_ONLY = frozenset({"en", "es"})
# A locale whose lists lack surnames borrows them from a sibling of the same origin.
_SURNAME_FALLBACK = {
    "pl_PL": "cs_CZ",
    "is_IS": "da_DK",
    "en_PK": "en_IN",
    "de_LI": "de_AT",
    "en_TH": "th_TH",
    "lt_LT": "lv_LV",
}
DEFAULT_LOCALE = "en_US"
# Where a language's names come from first: ties between locales that share a name list
# go to these (Giulia Rossi is Italian before she is Swiss or Belgian).
_HOME_LOCALES = frozenset(
    {"en_US", "de_DE", "fr_FR", "es_ES", "it_IT", "pt_PT", "pt_BR", "nl_NL", "pl_PL", "ru_RU", "ja_JP", "zh_CN",
     "ko_KR", "tr_TR", "sv_SE", "da_DK", "no_NO", "fi_FI", "cs_CZ", "hu_HU", "ro_RO", "el_GR", "en_IN", "ar_SA",
     "he_IL", "uk_UA", "vi_VN", "th_TH", "id_ID", "fa_IR", "bg_BG", "hr_HR", "sk_SK", "sl_SI", "et_EE", "lv_LV",
     "en_NG", "en_KE", "es_MX", "hi_IN", "bn_BD"}
)


@dataclass(frozen=True, slots=True)
class NameInfo:
    """What the lists say about one token. The locale sets are kept as bit masks over
    the lexicon's locale list (150,000 tokens x 4 sets of strings would cost ~60 MB)."""

    male_mask: int
    female_mask: int
    first_mask: int
    last_mask: int
    locales: tuple[str, ...]

    def _names(self, mask: int) -> frozenset[str]:
        return frozenset(loc for i, loc in enumerate(self.locales) if mask >> i & 1)

    @property
    def male_in(self) -> frozenset[str]:  # locales listing it as a male first name
        return self._names(self.male_mask)

    @property
    def female_in(self) -> frozenset[str]:
        return self._names(self.female_mask)

    @property
    def first_in(self) -> frozenset[str]:  # as a first name of any gender
        return self._names(self.first_mask)

    @property
    def last_in(self) -> frozenset[str]:  # as a surname
        return self._names(self.last_mask)

    @property
    def is_first(self) -> bool:
        return bool(self.first_mask)

    @property
    def is_last(self) -> bool:
        return bool(self.last_mask)


@dataclass(frozen=True, slots=True)
class NameProfile:
    locale: str
    gender: str  # "male", "female" or "any"


def script_of(text: str) -> str:
    """The dominant Unicode script of a string ("LATIN", "CYRILLIC", "ARABIC", ...)."""
    counts: dict[str, int] = {}
    for ch in text:
        if ch.isalpha():
            try:
                script = unicodedata.name(ch).split(" ")[0]
            except ValueError:
                continue
            if script in ("CJK", "HIRAGANA", "KATAKANA"):
                script = "CJK"
            counts[script] = counts.get(script, 0) + 1
    return max(counts, key=counts.__getitem__) if counts else "LATIN"


def _names(provider: type, attribute: str) -> list[str]:
    value = getattr(provider, attribute, None)
    if value is None or isinstance(value, property):
        return []
    return [str(v) for v in value]


class NameLexicon:
    """Index over Faker's name lists: token -> NameInfo, and per-locale pools."""

    def __init__(self) -> None:
        from faker.config import AVAILABLE_LOCALES

        male: dict[str, int] = {}
        female: dict[str, int] = {}
        first: dict[str, int] = {}
        last: dict[str, int] = {}
        locales: list[str] = []
        self.pools: dict[str, dict[str, tuple[str, ...]]] = {}
        self.scripts: dict[str, str] = {}
        for locale in AVAILABLE_LOCALES:
            try:
                module = importlib.import_module(f"faker.providers.person.{locale}")
            except ImportError:
                continue
            provider = module.Provider
            bit = 1 << len(locales)
            locales.append(locale)
            pool = {
                "male": tuple(dict.fromkeys(_names(provider, "first_names_male"))),
                "female": tuple(dict.fromkeys(_names(provider, "first_names_female"))),
                "any": tuple(dict.fromkeys(_names(provider, "first_names"))),
                "last": tuple(n for n in dict.fromkeys(_names(provider, "last_names")) if n != "Doe"),
            }
            for table, names in ((male, pool["male"]), (female, pool["female"]),
                                 (first, pool["any"] + pool["male"] + pool["female"]), (last, pool["last"])):
                for name in names:
                    for token in name.split():
                        if len(token) > 1 or table is not last:
                            key = token.casefold()
                            table[key] = table.get(key, 0) | bit
            if locale not in _DETECTION_ONLY and (pool["any"] or pool["male"]):
                self.pools[locale] = pool
                sample = (pool["last"] or pool["any"] or pool["male"])[:20]
                self.scripts[locale] = script_of("".join(sample))
        self.locales = tuple(locales)
        self._info: dict[str, NameInfo] = {}
        for token in set(male) | set(female) | set(first) | set(last):
            self._info[token] = NameInfo(
                male.get(token, 0), female.get(token, 0), first.get(token, 0), last.get(token, 0), self.locales
            )
        self._empty = NameInfo(0, 0, 0, 0, self.locales)

    def info(self, token: str) -> NameInfo:
        return self._info.get(token.casefold().strip(".'’"), self._empty)

    def is_first_name(self, token: str) -> bool:
        return self.info(token).is_first

    def is_last_name(self, token: str) -> bool:
        return self.info(token).is_last

    def profile(self, tokens: list[str], *, first_index: int | None = 0) -> NameProfile:
        """Most likely origin (locale) and gender of a name given its tokens.

        Origin: the locale that explains the tokens best, where a token listed by few
        locales says more than one listed everywhere. Gender from the first name.
        """
        script = script_of(" ".join(tokens))
        scores: dict[str, float] = {}
        for token in tokens:
            info = self.info(token)
            locales = (info.first_in | info.last_in) - _DETECTION_ONLY
            locales = {loc for loc in locales if self.scripts.get(loc) == script}
            for loc in locales:
                scores[loc] = scores.get(loc, 0.0) + 1.0 / len(locales)
        if scores:
            # Ties go to the default locale, then alphabetically, so results are stable.
            locale = max(
                sorted(scores), key=lambda loc: (round(scores[loc], 6), loc == DEFAULT_LOCALE, loc in _HOME_LOCALES)
            )
        else:
            locale = next(
                (loc for loc in sorted(self.pools) if self.scripts.get(loc) == script),
                DEFAULT_LOCALE,
            )
            if script == "LATIN":
                locale = DEFAULT_LOCALE
        gender = "any"
        if first_index is not None and tokens:
            info = self.info(tokens[first_index])
            male_here, female_here = locale in info.male_in, locale in info.female_in
            if male_here != female_here:
                gender = "male" if male_here else "female"
            elif len(info.male_in) != len(info.female_in):
                gender = "male" if len(info.male_in) > len(info.female_in) else "female"
        return NameProfile(locale, gender)

    def first_names(self, locale: str, gender: str) -> tuple[str, ...]:
        pool = self.pools.get(locale) or self.pools[DEFAULT_LOCALE]
        if gender in ("male", "female") and pool[gender]:
            return pool[gender]
        return pool["any"] or pool["male"] + pool["female"]

    def last_names(self, locale: str) -> tuple[str, ...]:
        pool = self.pools.get(locale)
        if pool and pool["last"]:
            return pool["last"]
        sibling = _SURNAME_FALLBACK.get(locale, DEFAULT_LOCALE)
        return self.pools.get(sibling, self.pools[DEFAULT_LOCALE])["last"]


_lock = threading.Lock()


@lru_cache(maxsize=1)
def _build() -> NameLexicon:
    return NameLexicon()


def lexicon() -> NameLexicon:
    """The shared lexicon (built once, ~0.1 s)."""
    with _lock:
        return _build()
