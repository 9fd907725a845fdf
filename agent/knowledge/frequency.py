"""How often a word is written in English, from `wordfreq` (multi-source word
frequencies: Wikipedia, news, books, web text, subtitles, Reddit, Twitter), on the Zipf
scale (log10 of occurrences per billion words: "the" 7.7, "microsoft" 4.4, "chomsky" 3.0,
a made-up surname 0).

A name that is written often although it is no ordinary word is a household name: a
company, a famous person, a place, a work. Subtitles alone (pyspellchecker's counts) miss
most of them. First names and common surnames are frequent too, so the judge reads this
next to the name lists, never alone.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=65536)
def zipf(word: str) -> float:
    """Zipf frequency of one word (any case); 0.0 when unknown."""
    from wordfreq import zipf_frequency

    word = word.strip(".,;:!?\"'’()[]")
    if not word:
        return 0.0
    return float(zipf_frequency(word, "en"))


def name_zipf(value: str) -> tuple[float, float]:
    """(the rarest word's, the commonest word's) Zipf frequency of a name's words."""
    values = [zipf(w) for w in value.split() if any(c.isalpha() for c in w)] or [0.0]
    return min(values), max(values)

