"""Letter case of stand-ins: each way a value is written gets its own stand-in written
the same way, so restore can give back each form.

Restore finds a stand-in in the answer and looks up the real value sent with that exact
stand-in; when two forms of one value ("computer science", "Computer Science") were sent
with the same stand-in, only one of them can come back. So a stand-in follows the letter
case of the value it replaces, per letter run ("Half-Time" -> "Marcus-Albert",
"half-time" -> "marcus-albert"), and a new stand-in for a value written all in lower or
upper case is written that way too.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agent.entities import Label
from agent.restore.probes import regex_fold
from agent.substitute.rng import match_case

_LETTER_RUN = re.compile(r"[^\W\d_]+")
# Stand-ins made of words: their case can follow the real value's. (Names do already;
# identifiers, secrets, e-mails and addresses keep the case their format has.)
_WORDY = frozenset({Label.ORG, Label.LOCATION, Label.NORP, Label.MISC})


def mention_form(mention: str, real: str, stand_in: str) -> str:
    """The stand-in of `real` written like this mention of it (a later "MITCHELL" gets
    "CLARKE"): run by run where both have as many letter runs, else as a whole."""
    if mention == real:
        return stand_in
    said = _LETTER_RUN.findall(mention)
    fake = list(_LETTER_RUN.finditer(stand_in))
    if not said or len(said) != len(fake):
        return match_case(mention, stand_in)
    out, position = [], 0
    for word, run in zip(said, fake):
        out.append(stand_in[position : run.start()])
        out.append(match_case(word, run.group()))
        position = run.end()
    out.append(stand_in[position:])
    return "".join(out)


def new_stand_in_case(label: Label, real: str, stand_in: str) -> str:
    """A new stand-in for a word-like value written all in lower case (or all in capitals)
    is written so too: "computer science" -> "rock wave", not "Rock Wave", which a later
    "Computer Science" needs for itself."""
    if label not in _WORDY:
        return stand_in
    letters = [c for c in real if c.isalpha()]
    if len(letters) < 2:
        return stand_in
    if all(c.islower() for c in letters):
        return stand_in.lower()
    if all(c.isupper() for c in letters):
        return stand_in.upper()
    return stand_in


# Letters whose capitals are two letters, written the way German writes them in capitals
# and in Switzerland ("Gießen" -> "Giessen").
_TWO_LETTER_CAPITALS = str.maketrans({"ß": "ss", "ẞ": "SS"})


def case_safe(stand_in: str) -> str | None:
    """The stand-in spelled so that an answer writing it in capitals or in lower case can
    still be matched and looked up (restore compares characters as re.IGNORECASE does); None
    when a letter of it has no such spelling. An LLM writes "Gießen" in capitals as
    "GIESSEN" and "İlkay" in lower case as "i̇lkay" (two characters for "İ"): neither is the
    stand-in any more, so neither comes back nor is flagged. "ı" is safe: its capital "I"
    and "ı" are one character to the regex."""
    if stand_in.isascii():
        return stand_in
    spelled = stand_in.translate(_TWO_LETTER_CAPITALS)
    return spelled if all(_keeps_case(c) for c in set(spelled)) else None


@lru_cache(maxsize=4096)
def _keeps_case(char: str) -> bool:
    """Whether the letter's capital and lower-case forms are one character each, and the
    same character to re.IGNORECASE."""
    if char.isascii():
        return True
    upper, lower = char.upper(), char.lower()
    return len(upper) == 1 and len(lower) == 1 and regex_fold(upper) == regex_fold(char) == regex_fold(lower)
