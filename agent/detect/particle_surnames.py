"""Surnames that open with particles ("van der Berg", "de la Cruz", "Van den Heuvel").

spaCy often cuts such a name at the particles: "Ask Van den Houten" gives the person "Houten",
"Jan van den Heuvel" gives "Jan van" and "Heuvel". Sent in pieces, each piece gets its own
stand-in ("Fatih der Billy": a first name where the surname was, the particle left between).
These helpers widen a person's span over the particles to the word they introduce, so the
name is one entity and its stand-in keeps the particles as written.
"""

from __future__ import annotations

import re

from agent.knowledge.names import lexicon
from agent.knowledge.person_words import NAME_PARTICLES
from agent.knowledge.places import is_known_place

# Particles that are also everyday words of some language ("y", "do", "zu"), articles that
# open place names ("La Paz", "Le Mans", "El Paso") or a given name ("Ben") never widen a
# span on their own; they may still sit inside a run ("de la Cruz").
_NOT_ALONE = frozenset({"y", "do", "zu", "st", "st.", "'t", "la", "le", "el", "ben"})
# Romance prepositions: "la lettre de Pierre", "la casa de María". Before a name and
# lower case, alone, they say "of", not a family.
_PREPOSITIONS = frozenset({"de", "da", "di", "du", "del", "della", "degli", "das", "dos", "der", "den", "al"})

_PARTICLE = "|".join(sorted((re.escape(p) for p in NAME_PARTICLES if not p.startswith(("'", "st"))), key=len, reverse=True))
# The particles right before a span ("Van den " before "Houten"), to the start of a word.
_RUN_BEFORE = re.compile(rf"(?i)(?:(?<=\s)|^)((?:(?:{_PARTICLE})[ \t]+)+)$")
# Particles after a span and the capitalised word they introduce (" van den Heuvel").
_RUN_AFTER = re.compile(rf"(?i:((?:[ \t]+(?:{_PARTICLE}))+))[ \t]+([A-Z][\w'’-]*[a-z][\w'’-]*)")
_I_BEFORE = re.compile(r"(?i)\b(?:ich|ik)[ \t]+$")  # "ich bin Wiebke": "bin" is "am", no family's "bin"
_REACH = 40  # characters looked at before a span: a run of particles and a given name

# The capitalised word before a lower-case run ("Jan " before "van den").
_GIVEN_BEFORE = re.compile(r"(?:(?<=\s)|^)([A-Z][a-z][\w'’-]*)[ \t]+$")


def _opens_surname(run: list[str]) -> bool:
    """A run of particles that opens a family name: two or more ("van der", "de la"), or
    one that is no everyday word, capitalised ("Van", "De") or a family's own ("von",
    "van", "ter", "bin")."""
    if len(run) >= 2:
        return True
    word = run[0]
    if word.casefold() in _NOT_ALONE:
        return False
    return word[:1].isupper() or word.casefold() not in _PREPOSITIONS


def widen_over_particles(text: str, start: int, end: int, *, backward: bool = True) -> tuple[int, int]:
    """The bounds of a person's span widened over the particles of its surname; `backward`
    False where the words before were just cut off ("ich bin Wiebke": "bin" is the verb)."""
    value = text[start:end]
    last = value.split()[-1] if value.split() else ""
    after = _RUN_AFTER.match(text, end)
    if after and not is_known_place(after.group(2)):
        run = after.group(1).split()
        # "Jan van" + " den Heuvel": the span already holds a particle; any run goes on.
        if last.casefold() in NAME_PARTICLES or (run[0].islower() and _opens_surname(run)):
            end = after.end()
    elif last.casefold() in NAME_PARTICLES and last.islower() and " " in value:
        # "Jan van" with no surname after it: the name is "Jan".
        end = start + len(value[: len(value) - len(last)].rstrip())
    before = _RUN_BEFORE.search(text, max(0, start - _REACH), start) if backward else None
    if before:
        run = before.group(1).split()
        i_am = run[0].casefold() in ("bin", "ben") and _I_BEFORE.search(text, max(0, before.start(1) - 6), before.start(1))
        if _opens_surname(run) and not i_am:
            start = before.start(1)
            given = _GIVEN_BEFORE.search(text, max(0, start - _REACH), start) if run[0].islower() else None
            if given and lexicon().is_first_name(given.group(1)):
                start = given.start(1)  # "Jan van den" before "Heuvel": the given name too
    return start, end
