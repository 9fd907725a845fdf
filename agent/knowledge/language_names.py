"""Names of languages ("German", "Tagalog"), from ISO 639 through pycountry: the ones with a
two-letter code, the languages people ask a translation into. NER reads some as people
("Translate to German" -> a man called Germán) or groups; a translation's target language is
what the answer needs, never someone's name."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=1)
def _language_names() -> frozenset[str]:
    import pycountry

    names: set[str] = set()
    for language in pycountry.languages:
        if hasattr(language, "alpha_2"):
            # "Malay (macrolanguage)", "Modern Greek (1453-)": the name without the note, and
            # its last word when a qualifier opens it ("Greek", "Gaelic", "Frisian")
            name = re.sub(r"\s*\(.*?\)", "", language.name).strip().casefold()
            names.add(name)
            if " " in name:
                names.add(name.split()[-1])
    return frozenset(n for n in names if n)


def is_language_name(word: str) -> bool:
    return word.casefold() in _language_names()
