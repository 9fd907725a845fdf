"""Spoken forms of identifiers, as speech-to-text writes them in call transcripts.

A caller reads a phone number as "four one five, five five five, zero one three four",
says "double five", spells a surname "B A K E R", dictates an e-mail as "john dot baker at
gmail dot com", and reads a card number in blocks over several turns while the agent says
"go on". Written-text detectors see none of that as an identifier. This module finds such
spoken runs, says what they mean (the canonical written value: digits, an address, a
word) and writes a stand-in back *in the same spoken form* (the same grouping, the same
"double", the same separators), so the transcript still reads like speech.

Pure functions over text: no engine, no Qt. `find_spoken(text)` returns SpokenEntity
values; `render_spoken(entity, stand_in_value)` writes a written stand-in as the entity
was spoken. Typed obfuscation ("john [at] gmail [dot] com" in an e-mail) belongs to the
written-text detectors, not here.

spoken_numbers.py holds the number grammar (and numbers read over turns), spoken_letters.py
spellings and e-mails, spoken_types.py the values; this module puts the finders together.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent.entities import Label
from agent.files.spoken_letters import NATO, find_emails, find_spelled, render_email, render_spelled
from agent.files.spoken_numbers import DEFAULT_HOTWORDS, find_numbers, render_digits
from agent.files.spoken_types import SpokenEntity, Token

__all__ = ["DEFAULT_HOTWORDS", "NATO", "SpokenEntity", "Token", "find_spoken", "render_spoken"]


def find_spoken(
    text: str,
    hotwords: Sequence[tuple[str, Label]] = (),
    *,
    known_words: frozenset[str] = frozenset(),
) -> list[SpokenEntity]:
    """Every spoken identifier in text, non-overlapping, in order. `hotwords` (phrase,
    label) add to the built-in ones (a project's "policy number" -> ID); `known_words`
    are folded words (names) that make a spelled run a name without any cue."""
    all_hotwords = tuple(hotwords) + DEFAULT_HOTWORDS
    found: list[SpokenEntity] = list(find_emails(text))
    taken = [(e.start, e.end) for e in found]

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in taken)

    found.extend(find_numbers(text, all_hotwords, free))
    taken = [(e.start, e.end) for e in found]
    found.extend(find_spelled(text, known_words, free))
    found.sort(key=lambda e: e.start)
    return found


def render_spoken(entity: SpokenEntity, stand_in: str) -> str | None:
    """`stand_in` (a written value of the entity's kind) in the entity's spoken form; None
    when it cannot be written that way (then the caller falls back). Lives here, not on
    SpokenEntity: the value type stays below the grammars that render it."""
    if entity.form == "digits":
        return render_digits(entity, stand_in)
    if entity.form == "spelled":
        return render_spelled(entity, stand_in)
    if entity.form == "email":
        return render_email(entity, stand_in)
    return None
