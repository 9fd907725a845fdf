"""Is a word an ordinary English word? ("Server is down" is not about a person named
Server.) Frequencies from pyspellchecker's English list (built from subtitles); a
capitalised word that is also frequent in lower case is taken as a word, not a name."""

from __future__ import annotations

import threading
from functools import lru_cache

_COMMON = 1000  # occurrences in the list; "server" 7045, "picard" 362, "troi" 0
_lock = threading.Lock()


@lru_cache(maxsize=1)
def _frequencies():
    from spellchecker import SpellChecker

    return SpellChecker(distance=1).word_frequency


def word_frequency(word: str) -> int:
    """Occurrences of the word (any case) in the English frequency list; 0 when unknown."""
    with _lock:
        frequencies = _frequencies()
    return frequencies[word.casefold().strip(".,'’")]


def is_common_word(word: str) -> bool:
    with _lock:
        frequencies = _frequencies()
    return frequencies[word.casefold()] >= _COMMON
