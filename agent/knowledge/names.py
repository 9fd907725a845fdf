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

from agent.knowledge.transliterated import FAITHFUL_SCRIPTS, latin_forms
from agent.knowledge.words import word_frequency

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
# Occurrences in the English word list (agent/knowledge/words.py) from which a Latin
# spelling of a Cyrillic, Greek, Georgian or Armenian name is taken as a word instead.
_TRANSLITERATED_WORD = 150
# Faker lists some names also in Latin letters (Japanese romaji, Chinese pinyin): pools of
# their own ("ja_JP-Latn"), so that "Yuki Tanaka" written in English gets a Japanese
# stand-in. Substitution only: detection reads the native lists as before.
_ROMANIZED = ("ja_JP", "zh_CN", "zh_TW")
# Where the family name comes first (Tanaka Hiroshi, Nagy István, Nguyễn Văn An).
FAMILY_FIRST_LANGUAGES = frozenset({"ja", "zh", "ko", "hu", "vi"})
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
        # Only the set bits are visited (a name is in a few of ~45 locales; detectors ask
        # this for every capitalised word of a document).
        out = []
        while mask:
            low = mask & -mask
            out.append(self.locales[low.bit_length() - 1])
            mask ^= low
        return frozenset(out)

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


def _surnames_kept_elsewhere(provider: type, listed: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Surname lists a locale keeps under other names than `last_names`: Polish holds ~3,700
    in `unisex_last_names` and the -ski/-cki ones in `male_last_names` (its `last_names` is
    only a placeholder), Icelandic builds patronymics from `last_names_without_suffix` + "son" /
    "dóttir", Azerbaijani adds `last_names_unisex`. Without them a Polish or Icelandic name
    was unknown: not found as a surname, and given a stand-in of another origin."""
    unisex = _names(provider, "unisex_last_names") + _names(provider, "last_names_unisex")
    men_only = _names(provider, "male_last_names")
    stems = _names(provider, "last_names_without_suffix")
    out: dict[str, tuple[str, ...]] = {}
    if men_only:
        # Polish adjectival surnames agree with the bearer: Kowalski, Kowalska.
        women_only = [n[:-1] + "a" if n.endswith("i") else n for n in men_only]
        out["last"] = tuple(dict.fromkeys([*listed, *unisex, *men_only, *women_only]))
        out["last_male"] = tuple(dict.fromkeys([*unisex, *men_only]))
        out["last_female"] = tuple(dict.fromkeys([*unisex, *women_only]))
    elif stems:
        sons, daughters = [f"{n}son" for n in stems], [f"{n}dóttir" for n in stems]
        out["last"] = tuple(dict.fromkeys([*listed, *sons, *daughters]))
        out["last_male"], out["last_female"] = tuple(sons), tuple(daughters)
    elif unisex:
        out["last"] = tuple(dict.fromkeys([*listed, *unisex]))
    return out


class NameLexicon:
    """Index over Faker's name lists: token -> NameInfo, and per-locale pools."""

    def __init__(self) -> None:
        from faker.config import AVAILABLE_LOCALES

        male: dict[str, int] = {}
        female: dict[str, int] = {}
        first: dict[str, int] = {}
        last: dict[str, int] = {}
        locales: list[str] = []
        transliterated: dict[str, list[int]] = {}
        spellings: dict[str, dict[str, tuple[str, ...]]] = {}
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
            # Where surnames take the bearer's gender (Ivanov/Ivanova, Nováková, Papadaki),
            # the gendered lists too, so that a woman's stand-in surname is a woman's.
            for gender in ("male", "female"):
                gendered = tuple(dict.fromkeys(_names(provider, f"last_names_{gender}")))
                if gendered and set(gendered) != set(_names(provider, f"last_names_{_OTHER[gender]}")):
                    pool[f"last_{gender}"] = gendered
            pool.update(_surnames_kept_elsewhere(provider, pool["last"]))
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
                if self.scripts[locale] in FAITHFUL_SCRIPTS:
                    self._add_transliterated(locale, pool, bit, transliterated, spellings)
            if locale in _ROMANIZED:
                latin = {
                    "male": tuple(dict.fromkeys(_names(provider, "first_romanized_names_male"))),
                    "female": tuple(dict.fromkeys(_names(provider, "first_romanized_names_female"))),
                    "any": tuple(dict.fromkeys(_names(provider, "first_romanized_names"))),
                    "last": tuple(dict.fromkeys(_names(provider, "last_romanized_names"))),
                }
                if latin["last"] and (latin["any"] or latin["male"]):
                    self.pools[f"{locale}-Latn"] = latin
                    self.scripts[f"{locale}-Latn"] = "LATIN"
        # A Latin spelling that is an English word ("Glib", "Median", "Tome") and that no
        # Latin-script list has as a name stays out of detection: the native lists never
        # made it a name in English text. The bar is a tenth of is_common_word's, as these
        # spellings are new to Latin text, where the Latin lists' names have long been seen.
        for token, masks in transliterated.items():
            if token in first or token in last or word_frequency(token) < _TRANSLITERATED_WORD:
                for table, mask in zip((male, female, first, last), masks):
                    if mask:
                        table[token] = table.get(token, 0) | mask
        self.locales = tuple(locales)
        # 55,000 tokens share ~3,800 distinct NameInfo values (frozen): one object each.
        shared: dict[tuple[int, int, int, int], NameInfo] = {}
        self._info: dict[str, NameInfo] = {}
        for token in set(male) | set(female) | set(first) | set(last):
            masks = (male.get(token, 0), female.get(token, 0), first.get(token, 0), last.get(token, 0))
            info = shared.get(masks)
            if info is None:
                info = shared[masks] = NameInfo(*masks, self.locales)
            self._info[token] = info
        self._empty = NameInfo(0, 0, 0, 0, self.locales)
        self._pool_index = _pool_index({**self.pools, **spellings}, self._info)

    def _add_transliterated(self, locale: str, pool: dict[str, tuple[str, ...]], bit: int,
                            pending: dict[str, list[int]],
                            spellings: dict[str, dict[str, tuple[str, ...]]]) -> None:
        """The Latin spellings of a Cyrillic, Greek, Georgian or Armenian locale's names:
        every common spelling towards its detection masks (`pending`: token -> male,
        female, first, last bits; "Yaroslav", "Dmitry" are ru_RU names), the plain one
        into a stand-in pool of its own ("ru_RU-Latn"), every spelling into `spellings`
        for that pool's origin and gender index ("Dmitry" tells ru_RU-Latn as "Dmitriy" does)."""
        latin: dict[str, tuple[str, ...]] = {}
        every: dict[str, tuple[str, ...]] = {}
        roles = {"male": (0, 2), "female": (1, 2), "any": (2,), "last": (3,), "last_male": (), "last_female": ()}
        for key, names in pool.items():
            plain, spelt = [], []
            for name in names:
                forms = latin_forms(name, locale)
                if not forms:
                    continue
                plain.append(forms[0])
                spelt.extend(forms)
                for form in forms if roles[key] else ():
                    for token in form.split():
                        if len(token) >= 3:
                            masks = pending.setdefault(token.casefold(), [0, 0, 0, 0])
                            for role in roles[key]:
                                masks[role] |= bit
            latin[key] = tuple(dict.fromkeys(plain))
            every[key] = tuple(dict.fromkeys(spelt))
        if latin["last"] and (latin["any"] or latin["male"]):
            self.pools[f"{locale}-Latn"] = latin
            self.scripts[f"{locale}-Latn"] = "LATIN"
            spellings[f"{locale}-Latn"] = every

    def info(self, token: str) -> NameInfo:
        return self._info.get(token.casefold().strip(".'’"), self._empty)

    def is_first_name(self, token: str) -> bool:
        return self.info(token).is_first

    def is_last_name(self, token: str) -> bool:
        return self.info(token).is_last

    def is_romanized_first_name(self, token: str) -> bool:
        """A first name known only through the Latin spellings of Cyrillic, Greek, Georgian
        or Armenian lists ("Giorgos", "Vakhtang"). One such list is evidence enough, where a
        Latin list alone is not: the spellings that are English words were left out."""
        locales = self.info(token).first_in
        return bool(locales) and token.isascii() and all(self.scripts.get(loc) in FAITHFUL_SCRIPTS for loc in locales)

    def profile(self, tokens: list[str], *, first_index: int | None = 0) -> NameProfile:
        """Most likely origin (locale) and gender of a name given its tokens.

        Origin: the locale of the stand-in pools that explains the tokens best, where a
        token listed by few locales says more than one listed everywhere. Tokens
        are matched without their accents ("Nguyen" is "Nguyễn"). Gender from the first
        name (either half of "Mary-Kate").
        """
        script = script_of(" ".join(tokens))
        scores: dict[str, float] = {}
        last_locales: set[str] = set()
        for i, token in enumerate(tokens):
            locales = {loc for loc in self.pool_locales(token) if self.scripts.get(loc) == script}
            if not locales and "-" in token:
                # "Eze-Okafor": a double-barrelled name no list has whole; its halves tell
                locales = {loc for half in token.split("-") for loc in self.pool_locales(half)
                           if self.scripts.get(loc) == script}
            weight = 1.0
            if not locales and script == "LATIN" and i != first_index:
                # A surname no list has ("Tanabe", "Wrzesińska"): the language whose listed
                # surnames end the same way, at half the weight of a listed one.
                locales, weight = self._surname_endings().locales(token), 0.5
            for loc in locales:
                scores[loc] = scores.get(loc, 0.0) + weight / len(locales)
            if i == len(tokens) - 1 and i > 0:
                last_locales = locales
        if scores:
            by_language: dict[str, float] = {}
            for loc, score in scores.items():
                by_language[loc[:2]] = by_language.get(loc[:2], 0.0) + score
            # Ties go to the last word's locale (mostly the surname: given names travel
            # more, and one list may hold a given name of another language), then to the
            # default locale, a home locale, the language most of the tied locales agree
            # on, then alphabetically, so results are stable.
            locale = max(
                sorted(scores),
                key=lambda loc: (round(scores[loc], 6), loc in last_locales, loc == DEFAULT_LOCALE,
                                 loc.split("-")[0] in _HOME_LOCALES,
                                 round(by_language[loc[:2]], 6)),
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
            gender = self.gender_of(tokens[first_index], locale)
        return NameProfile(locale, gender)

    def _surname_endings(self) -> _SurnameEndings:
        if "_surname_endings_" not in self.__dict__:  # made when first asked, once per process
            self.__dict__["_surname_endings_"] = _SurnameEndings(
                {loc: pool for loc, pool in self.pools.items() if self.scripts.get(loc) == "LATIN"}
            )
        return self.__dict__["_surname_endings_"]

    def gender_of(self, first_name: str, locale: str) -> str:
        """"male", "female" or "any" for a first name: as the locale's pools list it, else
        as most locales do."""
        for part in [first_name, *first_name.split("-")]:
            in_pool = self._pool_index[1].get(_fold_name(part), {}).get(locale, 0)
            male_here, female_here = bool(in_pool & _MALE), bool(in_pool & _FEMALE)
            if male_here != female_here:
                return "male" if male_here else "female"
            info = self.info(part)
            if len(info.male_in) != len(info.female_in):
                return "male" if len(info.male_in) > len(info.female_in) else "female"
        if not self.info(first_name).first_in and first_name.isalpha():
            # A first name no list has ("Priyanka" beside the Indian surname "Nair"): as the
            # locale's listed names with the same ending are, when nearly all are one sex.
            endings = self.__dict__.setdefault("_endings", {})  # per locale, made when first asked
            if locale not in endings:
                endings[locale] = _Endings(self.pools.get(locale, {}))
            return endings[locale].gender(first_name)
        return "any"

    def pool_locales(self, token: str, role: str | None = None) -> frozenset[str]:
        """The stand-in pools that list this token (accents aside), as a first name
        (role "first"), a surname ("last") or either (None)."""
        bits = _FIRST if role == "first" else _LAST if role == "last" else _FIRST | _LAST
        for index, key in ((self._pool_index[0], _casefold_name(token)), (self._pool_index[1], _fold_name(token))):
            found = frozenset(loc for loc, mask in index.get(key, {}).items() if mask & bits)
            if found:  # as written first ("Lopez" is not every list's "López")
                return found
        return frozenset()

    def family_first(self, tokens: list[str], locale: str) -> bool:
        """Is this name written family name first ("Tanaka Hiroshi", "Nagy István")? Only
        in languages that do so, when the first token is a surname there and the last one
        a given name, and not the other way round."""
        if locale[:2] not in FAMILY_FIRST_LANGUAGES or len(tokens) < 2:
            return False
        def listed(token: str, bit: int) -> bool:  # accents aside: "Nguyen" is "Nguyễn"
            return bool(self._pool_index[1].get(_fold_name(token), {}).get(locale, 0) & bit)

        first, last = tokens[0], tokens[-1]
        return listed(first, _LAST) and not listed(first, _FIRST) and listed(last, _FIRST)

    def first_names(self, locale: str, gender: str) -> tuple[str, ...]:
        pool = self.pools.get(locale) or self.pools[DEFAULT_LOCALE]
        if gender in ("male", "female") and pool[gender]:
            return pool[gender]
        gendered = pool["male"] + pool["female"]
        # Some locales' gender-neutral list is a stub (Vietnamese: two English names).
        return gendered if len(gendered) > 2 * len(pool["any"]) else pool["any"] or gendered

    def last_names(self, locale: str, gender: str = "any") -> tuple[str, ...]:
        """The locale's surnames; for a man or a woman, the forms of that gender where the
        language has them (Morozov, Morozova)."""
        pool = self.pools.get(locale)
        if not (pool and pool["last"]):
            pool = self.pools.get(_SURNAME_FALLBACK.get(locale, DEFAULT_LOCALE), self.pools[DEFAULT_LOCALE])
        return pool.get(f"last_{gender}") or pool["last"]


_FIRST, _LAST, _MALE, _FEMALE = 1, 2, 4, 8


class _Endings:
    """How the first names of one locale's pools end, by sex: the last three, two or one
    letters of a name say its sex when at least _ENDING_EXAMPLES listed names end so and
    _ENDING_SHARE of them are of one sex ("-ka" in the Indian lists: 25 women, no man)."""

    def __init__(self, pools: dict[str, tuple[str, ...]]) -> None:
        self._counts: dict[str, list[int]] = {}
        for column, sex in ((0, "male"), (1, "female")):
            for name in pools.get(sex, ()):
                folded = _fold_name(name)
                for size in (3, 2, 1):
                    self._counts.setdefault(folded[-size:], [0, 0])[column] += 1

    def gender(self, first_name: str) -> str:
        folded = _fold_name(first_name)
        for size in (3, 2, 1):
            male, female = self._counts.get(folded[-size:], (0, 0))
            if male + female >= _ENDING_EXAMPLES:
                if max(male, female) >= _ENDING_SHARE * (male + female):
                    return "male" if male > female else "female"
                return "any"  # the longest ending with enough names decides, or nothing does
        return "any"


class _SurnameEndings:
    """The language a surname's ending says, from the listed Latin-script surnames: the last
    five, four or three letters, when at least _ENDING_EXAMPLES listed surnames end so and
    _ORIGIN_SHARE of them are of one language ("-czyk" Polish, "-escu" Romanian, "-opoulos"
    Greek). Left out one at a time (6,000 listed surnames drawn, 2026-11-28), 37% get a
    language and 94% of those the right one (at a 90% share: 30% and 97%). Any guess beats
    the default it replaces: an English stand-in for every unknown surname."""

    def __init__(self, pools: dict[str, dict[str, tuple[str, ...]]]) -> None:
        languages: dict[str, set[str]] = {}
        self._locales: dict[str, list[str]] = {}
        for locale, pool in pools.items():
            self._locales.setdefault(locale[:2], []).append(locale)
            for key in ("last", "last_male", "last_female"):
                for name in pool.get(key, ()):
                    if name.isalpha() and len(name) >= 4:
                        languages.setdefault(_fold_name(name), set()).add(locale[:2])
        self._counts: dict[str, dict[str, int]] = {}
        for name, langs in languages.items():
            for size in (5, 4, 3):
                by_language = self._counts.setdefault(name[-size:], {})
                for language in langs:
                    by_language[language] = by_language.get(language, 0) + 1

    def locales(self, surname: str) -> frozenset[str]:
        folded = _fold_name(surname)
        if not folded.isalpha() or len(folded) < 4:
            return frozenset()
        for size in (5, 4, 3):
            by_language = self._counts.get(folded[-size:], {})
            total = sum(by_language.values())
            if total >= _ENDING_EXAMPLES:
                language, count = max(by_language.items(), key=lambda item: (item[1], item[0]))
                return frozenset(self._locales[language]) if count >= _ORIGIN_SHARE * total else frozenset()
        return frozenset()


_ORIGIN_SHARE = 0.8
_ENDING_EXAMPLES = 8
_ENDING_SHARE = 0.85
_OTHER = {"male": "female", "female": "male"}


def _casefold_name(token: str) -> str:
    return token.casefold().strip(".'’")


def _fold_name(token: str) -> str:
    """Case- and accent-insensitive key of a name token ("Nguyễn" -> "nguyen")."""
    decomposed = unicodedata.normalize("NFKD", _casefold_name(token))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("đ", "d")


def _pool_index(pools: dict[str, dict[str, tuple[str, ...]]],
                keys: dict[str, object] | None = None) -> tuple[dict[str, dict[str, int]], ...]:
    """Token as written (casefolded) and without accents -> {pool locale: role bits},
    for the origin and gender of stand-ins. Read only: the 100,000 tokens share ~7,000
    distinct maps (one dict each, not one per token), and a key equal to one of `keys`
    (the lexicon's tokens) is that same string."""
    exact: dict[str, dict[str, int]] = {}
    folded: dict[str, dict[str, int]] = {}
    for locale, pool in pools.items():
        for key, bits in (("any", _FIRST), ("male", _FIRST | _MALE), ("female", _FIRST | _FEMALE), ("last", _LAST)):
            for name in pool[key]:
                for token in name.split():
                    if len(token) > 1:
                        for index, fold in ((exact, _casefold_name), (folded, _fold_name)):
                            entry = index.setdefault(fold(token), {})
                            entry[locale] = entry.get(locale, 0) | bits
    strings = {key: key for key in keys or ()}
    maps: dict[frozenset[tuple[str, int]], dict[str, int]] = {}
    out = []
    for index in (exact, folded):
        compact: dict[str, dict[str, int]] = {}
        for token, entry in index.items():
            token = strings.setdefault(token, token)
            compact[token] = maps.setdefault(frozenset(entry.items()), entry)
        out.append(compact)
    return tuple(out)


_lock = threading.Lock()


def _encode(lexicon: NameLexicon) -> tuple:
    """Plain data for agent/knowledge/disk_cache.py: the ~3,800 distinct NameInfo values
    once, each token as a position among them; the pool index's shared maps stay shared
    (marshal writes an object met twice once)."""
    masks: dict[tuple[int, int, int, int], int] = {}
    tokens = {}
    for token, info in lexicon._info.items():
        values = (info.male_mask, info.female_mask, info.first_mask, info.last_mask)
        tokens[token] = masks.setdefault(values, len(masks))
    return (lexicon.locales, lexicon.pools, lexicon.scripts, list(masks), tokens, lexicon._pool_index)


def _decode(data) -> NameLexicon:
    locales, pools, scripts, masks, tokens, pool_index = data
    lexicon = NameLexicon.__new__(NameLexicon)
    lexicon.locales, lexicon.pools, lexicon.scripts = tuple(locales), pools, scripts
    infos = [NameInfo(*values, lexicon.locales) for values in masks]
    lexicon._info = {token: infos[n] for token, n in tokens.items()}
    lexicon._empty = NameInfo(0, 0, 0, 0, lexicon.locales)
    lexicon._pool_index = tuple(pool_index)
    return lexicon


@lru_cache(maxsize=1)
def _build() -> NameLexicon:
    from agent.knowledge.disk_cache import cache_key, load_or_build

    modules = [__name__, "agent.knowledge.transliterated", "agent.knowledge.words"]
    key = cache_key(modules, ["Faker", "anyascii", "pyspellchecker"])
    return load_or_build("names", key, NameLexicon, _encode, _decode)


def lexicon() -> NameLexicon:
    """The shared lexicon (built once, ~0.1 s)."""
    with _lock:
        return _build()
