"""Which European language a prompt is written in, and whether a word is an ordinary one
there: the English NER model reads capitalised words of other languages as names
("Ihre Rechnung Nr", "Gruß", "Traduce al"). wordfreq's small lists of German, French,
Spanish, Italian, Portuguese and Dutch (~150 KB each) are read only when a text has many
words English does not use, so English prompts never load them.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agent.knowledge.frequency import zipf
from agent.knowledge.words import is_common_word

LANGUAGES = ("de", "fr", "es", "it", "pt", "nl")
_COMMON = 3.5  # Zipf: a word every speaker writes ("Rechnung" 4.6, "Gruß" 4.0)
_WORD = re.compile(r"[^\W\d_]{2,}")
_SAMPLE = 80  # words read to tell the language
_MIN_FOREIGN_SHARE = 0.3  # of the sampled words, English must not know this many for a look


@lru_cache(maxsize=4096)
def _zipf_in(word: str, language: str) -> float:
    from wordfreq import zipf_frequency

    try:
        return float(zipf_frequency(word, language, wordlist="small"))
    except LookupError:  # a list this installation lacks: no word of that language is known
        return 0.0


@lru_cache(maxsize=64)
def text_language(text: str) -> str | None:
    """The language of LANGUAGES most of the text's non-English words belong to, or None
    for an English text (or one too short to tell)."""
    words = [w.casefold() for w in _WORD.findall(text[:2000])][:_SAMPLE]
    if len(words) < 4:
        return None
    # English if a dictionary lookup says so, else if wordfreq writes it often (the lookup
    # first: most words of an English prompt never reach wordfreq).
    foreign = [w for w in words if not is_common_word(w) and zipf(w) < 3.0]
    if len(foreign) < max(3, _MIN_FOREIGN_SHARE * len(words)):
        return None
    counts = {lang: sum(_zipf_in(w, lang) >= 3.0 for w in foreign) for lang in LANGUAGES}
    best = max(counts, key=counts.get)
    return best if counts[best] >= max(3, len(foreign) // 3) else None


def zipf_in_languages(word: str) -> float:
    """The highest Zipf frequency of one word over LANGUAGES (any case), from their small
    lists (~2.5 MB each in memory; the large ones take ~40 MB): words under Zipf 3 are not
    in them, so under 3 this says 0."""
    word = word.strip(".,;:!?\"'’()[]").casefold()
    return max(_zipf_in(word, lang) for lang in LANGUAGES) if word else 0.0


def common_in(word: str, language: str) -> bool:
    """An ordinary word of that language ("numéro" for French)."""
    word = word.strip(".,;:!?\"'’()[]").casefold()
    return bool(word) and _zipf_in(word, language) >= _COMMON


def ordinary_foreign_words(text: str, value: str) -> bool:
    """Every word of a guessed name is an ordinary word of the (non-English) language the
    text is written in, and no capitalised one is a name the lists know: "Ihre Rechnung
    Nr", "Gruß", "mon numéro", "Groetjes" are the prompt's language; "Lena Vogt" stays."""
    from agent.knowledge.names import lexicon
    from agent.knowledge.places import is_known_place

    words = value.split()
    language = text_language(text) if words else None
    if language is None or is_known_place(value):
        return False
    names = lexicon()
    return all(common_in(w, language) and not (w[:1].isupper() and (names.is_first_name(w) or names.is_last_name(w)))
               for w in words)
