"""English weekday and month names, fixed: for dates in prompts and answers, and for a name
glued to a timestamp. Not the standard library's calendar.day_name / month_name: those
follow the process's LC_TIME, which Qt sets from the user's environment on Linux (a German
desktop would read "März" and write "Sa" into an English date stand-in).

Weekday and month names as they start a timestamp, for a name glued to one.

Comment threads and e-mail headers copied from a web page often lose the space between the
author's name and the date ("posted by <surname>Tue Jun 4 2024"). The name ends where a
capitalised weekday or month name begins right after a lower-case letter, and that word
ends the run of letters (so "Marsh", "Mayer" or "Sunil" do not count)."""

from __future__ import annotations

import re

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
_SHORT = ("Tues", "Thur", "Thurs", "Sept")

# Indexed as the calendar module's lists are: days from Monday = 0, months from January = 1.
DAY_NAMES: tuple[str, ...] = _WEEKDAYS
DAY_ABBRS: tuple[str, ...] = tuple(d[:3] for d in _WEEKDAYS)
MONTH_NAMES: tuple[str, ...] = ("", *_MONTHS)
MONTH_ABBRS: tuple[str, ...] = ("", *(m[:3] for m in _MONTHS))

# Every spelling: the full name, its three-letter abbreviation, and the usual longer ones.
CALENDAR_WORDS: frozenset[str] = frozenset(
    (*_WEEKDAYS, *_MONTHS, *(w[:3] for w in (*_WEEKDAYS, *_MONTHS)), *_SHORT)
)
# The beginnings of those words: what the end of a streamed chunk may hold of one.
CALENDAR_PREFIXES: frozenset[str] = frozenset(w[:i] for w in CALENDAR_WORDS for i in range(1, len(w) + 1))
LONGEST = max(len(w) for w in CALENDAR_WORDS)

# Every spelling as one alternation, longest first.
CALENDAR_ALTERNATION = "|".join(sorted(CALENDAR_WORDS, key=lambda w: (-len(w), w)))
# Case-sensitive (usable inside a re.IGNORECASE pattern): a calendar word that no letter
# continues.
CALENDAR_WORD = "(?-i:(?:" + CALENDAR_ALTERNATION + ")(?![^\\W\\d_]))"
# What a glued calendar word follows: three letters, the last two lower case ("LaMar" and
# "DeMay" are names).
GLUE_BEFORE = "(?<=[^\\W\\d_][a-zß-öø-ÿ]{2})"

_GLUED = re.compile(f"{GLUE_BEFORE}(?={CALENDAR_WORD})")


def glued_calendar_word(text: str, start: int = 0, end: int | None = None) -> int | None:
    """Where a word of text[start:end] runs on into a capitalised weekday or month name
    (the offset of that name), else None."""
    match = _GLUED.search(text, start, len(text) if end is None else end)
    return match.start() if match else None


# A capital that may start a weekday or month name, after a letter and before a lower-case
# one: a cheap first test (~10 ns a character: the capital is tried first) before the word
# list is.
_MAYBE_GLUED = re.compile(r"[ADFJMNOSTW](?<=[^\W\d_].)[a-z]")
_CALENDAR_WORD_AT = re.compile(CALENDAR_WORD)


def has_glued_calendar_word(text: str) -> bool:
    """Whether some letter of text runs on into a capitalised weekday or month name."""
    return any(_CALENDAR_WORD_AT.match(text, m.start()) for m in _MAYBE_GLUED.finditer(text))
