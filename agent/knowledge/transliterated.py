"""Latin spellings of names whose lists are written in another alphabet.

Faker lists Russian, Ukrainian, Bulgarian, Macedonian, Greek, Georgian and Armenian names
in their own scripts, but such names are often typed in Latin letters (an English e-mail
about a colleague from Kyiv or Thessaloniki). These alphabets map letter by letter onto
Latin with little loss, so the lists are transliterated here: the name lexicon learns the
Latin forms (detection) and keeps them as stand-in pools of their own ("ru_RU-Latn").
Scripts that a letter-by-letter romanisation renders poorly (Arabic and Hebrew without
vowels, Thai, Indic scripts, Han) are left out.

The letters come from `anyascii` (per-character tables, ISC licence). Where a language has
its own official romanisation that differs from anyascii's general table, a few letters
are mapped first: Ukrainian by the national system of 2010 (Г -> h, И -> y, Х -> kh, so
"Mykola Hnatiuk"), Bulgarian and Macedonian by theirs ("Petar", "Gjorgji"), Greek by
ELOT 743, the passport standard (ου -> ou, ευ -> ev/ef, γγ -> ng, so "Papadopoulos",
"Evangelos"). Apostrophes that mark soft signs, ejectives or
aspiration are dropped, as people do when they write the names in English.

Detection also learns the other spellings in wide use for Russian-style names, each one a
regular rewrite of the transliteration (Dmitriy/Dmitry/Dmitri, Kseniya/Ksenia,
Aleksey/Alexey, Elena/Yelena), and Greek γι as y (Giannis/Yiannis/Yannis); the stand-in
pools take the plain form only.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Alphabets that transliterate letter by letter (names of unicodedata's script prefix).
FAITHFUL_SCRIPTS = frozenset({"CYRILLIC", "GREEK", "GEORGIAN", "ARMENIAN"})

# Ukrainian national romanisation (Cabinet of Ministers resolution 55 of 2010): the letters
# whose Latin form differs from the general table; word-initial forms in _UK_INITIAL.
_UK_LETTERS = {
    "г": "h", "ґ": "g", "е": "e", "є": "ie", "ж": "zh", "и": "y", "і": "i", "ї": "i", "й": "i",
    "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ю": "iu", "я": "ia", "ь": "", "'": "", "’": "",
}
_UK_INITIAL = {"є": "ye", "ї": "yi", "й": "y", "ю": "yu", "я": "ya"}

# ELOT 743: vowel pairs and nasal clusters; αυ/ευ/ηυ are v before a voiced sound, f before
# a voiceless consonant or at the end of the word.
_GREEK_VOICELESS = "θκξπστφχψ"
_GREEK_PAIRS = re.compile(r"(ου|ού|[αεη][υύ])|(γγ|γξ|γχ)", re.IGNORECASE)


def _greek(word: str) -> str:
    def pair(m: re.Match) -> str:
        text = m.group(0)
        low = text.casefold()
        if m.group(2):
            latin = {"γγ": "ng", "γξ": "nx", "γχ": "nch"}[low]
        elif low in ("ου", "ού"):
            latin = "ou"
        else:
            follows = word[m.end() : m.end() + 1].casefold()
            vowel = {"α": "a", "ε": "e", "η": "i"}[_plain_greek(low[0])]
            latin = vowel + ("f" if not follows or follows in _GREEK_VOICELESS else "v")
        return latin.capitalize() if text[:1].isupper() else latin

    return _GREEK_PAIRS.sub(pair, word)


def _plain_greek(letter: str) -> str:
    return {"ά": "α", "έ": "ε", "ή": "η"}.get(letter, letter)


# Bulgarian by the Streamlined System (Transliteration Act 2009: ъ -> a, щ -> sht, х -> h,
# a final -ия -> -ia, so "Petar", "Hristo"); Macedonian by its official system
# (ѓ -> gj, ќ -> kj, ц -> c, х -> h, so "Gjorgji", "Cvetkovski").
_BG_LETTERS = {"х": "h", "щ": "sht", "ъ": "a", "ь": "y", "ю": "yu", "я": "ya", "й": "y", "ц": "ts"}
_MK_LETTERS = {"х": "h", "ц": "c", "ѓ": "gj", "ќ": "kj", "ѕ": "dz", "џ": "dzh", "ј": "j", "љ": "lj", "њ": "nj"}
_NATIONAL = {"uk": (_UK_LETTERS, _UK_INITIAL), "bg": (_BG_LETTERS, {}), "mk": (_MK_LETTERS, {})}
_BG_FINAL_IA = re.compile(r"(?<=[иИ])([яЯ])\b")


def _national(word: str, language: str) -> str:
    """The letters of a language's national romanisation that differ from anyascii's;
    the others are left for anyascii."""
    letters, initial = _NATIONAL[language]
    if language == "bg":
        word = _BG_FINAL_IA.sub(lambda m: "A" if m.group(1).isupper() else "a", word)
    out = []
    for i, ch in enumerate(word):
        low = ch.casefold()
        table = initial if i == 0 or not word[i - 1].isalpha() else letters
        latin = table.get(low, letters.get(low))
        if latin is None:
            out.append(ch)
        else:
            out.append(latin.capitalize() if ch.isupper() else latin)
    return "".join(out)


# Armenian ու is one vowel, u (anyascii writes "ow": "Armenowhi" for Armenuhi); the
# rolled ռ is written r in English, as ր is (anyascii: "rr").
_ARMENIAN_U = re.compile("[Ոո]ւ")


@lru_cache(maxsize=1)
def _anyascii():
    from anyascii import anyascii

    return anyascii


def romanize(name: str, locale: str) -> str:
    """The Latin spelling of a name from `locale`'s list ("" when it has letters anyascii
    cannot render)."""
    if locale[:2] in _NATIONAL:
        name = _national(name, locale[:2])
    elif locale.startswith("el"):
        name = _greek(name)
    elif locale.startswith("hy"):
        name = _ARMENIAN_U.sub(lambda m: "U" if m.group(0)[0] == "Ո" else "u", name).replace("Ռ", "R").replace("ռ", "r")
    latin = _anyascii()(name).replace("'", "").replace("’", "")
    if not latin or not all(part.isalpha() and part.isascii() for part in re.split(r"[ -]", latin) if part):
        return ""
    # Georgian has no capitals: each word of a name starts with one in Latin.
    return re.sub(r"(?:^|(?<=[ -]))[a-z]", lambda m: m.group(0).upper(), latin)


# Spellings of Cyrillic names in common use beside the plain transliteration, each a
# regular rewrite: -iy/-yy endings as -y or -i (Dmitriy, Dmitry, Dmitri), -ii as -iy
# (Andrii, Andriy), -iya/-iia as -ia (Kseniya, Ksenia), -ey/-ay as -ei/-ai (Sergey, Sergei;
# Nikolay, Nikolai), ks as x (Aleksey, Alexey), a first E as Ye
# (Elena, Yelena).
_VARIANTS = (
    (re.compile(r"[iy]y\b"), "y"),
    (re.compile(r"[iy]y\b"), "i"),
    (re.compile(r"ii\b"), "iy"),
    (re.compile(r"i[iy]a\b"), "ia"),
    (re.compile(r"(?<=[ae])y\b"), "i"),
    (re.compile(r"ks"), "x"),
    (re.compile(r"^E(?=[bcdfghklmnprstvz])"), "Ye"),
)
_ENDING_CHOICES = ("i",)  # alternatives to "y" for the same ending, not further steps
# Greek γι before a vowel is the sound y, and English texts often write it so (ELOT 743
# "Giannis", "Panagiotis"; also "Yiannis", "Yannis", "Panayiotis").
_GREEK_Y = re.compile(r"(?<![bcdfghklmnprstvxz])([Gg])i(?=[aeou])")  # not after a consonant: "Georgios"


def latin_forms(name: str, locale: str) -> tuple[str, ...]:
    """The Latin spellings of a name from `locale`'s list, the plain one first (the one
    stand-in pools take); for Greek lists γι as yi or y; for Cyrillic lists the common
    variants, each rule alone and all together (with either ending), and for Ukrainian,
    Bulgarian and Macedonian names the Russian-style letters some writers use ("Mikola
    Gnatyuk", "Khristo"). () when the name has letters anyascii cannot render."""
    plain = romanize(name, locale)
    if not plain:
        return ()
    out = [plain]
    if locale[:2] in ("ru", "uk", "bg", "mk"):
        bases = [plain]
        if locale[:2] in _NATIONAL:
            bases.append(romanize(name, "ru"))
        for base in filter(None, bases):
            out.append(base)
            combined = base
            for pattern, repl in _VARIANTS:
                out.append(pattern.sub(repl, base))
                if repl not in _ENDING_CHOICES:
                    combined = pattern.sub(repl, combined)
            out.append(combined)
            out.extend(pattern.sub(repl, combined) for pattern, repl in _VARIANTS if repl in _ENDING_CHOICES)
    elif locale[:2] == "el":
        for repl in ("yi", "y"):
            out.append(_GREEK_Y.sub(lambda m, r=repl: r.capitalize() if m.group(1) == "G" else r, plain))
    return tuple(dict.fromkeys(out))
