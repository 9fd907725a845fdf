"""Is a person's name one that nobody writes about? Evidence that a person is not a
public figure, from word-frequency data rather than from a list of private people.

A public figure is written about: wordfreq (Wikipedia, news, books, web text, subtitles)
lists the surnames of 98% of the people in resources/public_entities.json at a Zipf
frequency of 1.5 or more (about three in a hundred million words). A name whose
surname-like words are all rarer than that, that no list of public people knows and that
is no near spelling of a public name ("Kierkegard"), is very unlikely to be someone the
answer needs by name: a prompt that calls it "early <surname>" or "the <surname> novel"
speaks of someone a general model would not know either.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agent.knowledge.frequency import zipf
from agent.knowledge.names import lexicon
from agent.knowledge.public_entities import public_entities

# Zipf 1.5: wordfreq's lists stop near 1.0; at 1.5, 2.3% of the public list's people and
# 3.9% of its mononyms fall below (checked 2026-11-25), most of them spelt with diacritics
# or famous after wordfreq's data (2021).
RARE_ZIPF = 1.5
_WORD = re.compile(r"^[A-ZÀ-Þ][a-zà-ÿ'’\-]*[a-zà-ÿ][a-zà-ÿ'’\-]*$")
_INITIAL = re.compile(r"^[A-Z]\.?$")


@lru_cache(maxsize=1)
def _public_name_words() -> frozenset[str]:
    """Every distinctive word (4+ letters, not a given name of several countries:
    "roosevelt", not "marcel") of a public person's, mononym's or character's name."""
    known, names = public_entities(), lexicon()
    words = {
        w
        for kind in ("people", "mononyms", "characters")
        for name in known.get(kind, ())
        for w in name.split()
        if len(w) >= 4 and len(names.info(w).first_in - {"en"}) < 2
    }
    return frozenset(words)


@lru_cache(maxsize=1)
def _long_public_word_deletions() -> frozenset[str]:
    """The long ones (7+ letters) with one letter deleted: a misspelling one edit away
    ("Kierkegard") shares a key. Shorter words have too many real neighbours ("Renner")."""
    keys = set()
    for w in _public_name_words():
        if len(w) >= 7:
            keys.add(w)
            keys.update(w[:i] + w[i + 1 :] for i in range(len(w)))
    return frozenset(keys)


def _near_public_word(word: str) -> bool:
    """A word of a public name, or a long word one edit (or one swapped pair of
    letters) from one."""
    w = word.casefold()
    if w in _public_name_words():
        return True
    if len(w) < 6:
        return False
    keys = _long_public_word_deletions()
    return w in keys or any(w[:i] + w[i + 1 :] in keys for i in range(len(w)))


def _surname_words(tokens: list[str]) -> list[str] | None:
    """The words that would make the name known: all but initials and a leading given
    name ("Ana K. Novak" -> ["Novak"]). None when the name is not written like one."""
    words = [t.rstrip(".,;:") for t in tokens]
    if words and re.search(r"['’]s$", words[-1]):
        words[-1] = words[-1][:-2]
    if not words or any(not (_WORD.match(w) or _INITIAL.match(w)) for w in words):
        return None
    words = [w for w in words if not _INITIAL.match(w)]
    if len(words) > 1 and lexicon().is_first_name(words[0]):
        words = words[1:]
    return words or None


def unknown_name(name: str) -> bool:
    """No word source knows the name: its surname-like words are all rare in written
    English and none is a near spelling of a public name. (Callers first ask the public
    lists: is_public.)"""
    words = _surname_words(name.split())
    if not words:
        return False
    return all(zipf(w) < RARE_ZIPF and not _near_public_word(w) for w in words)
