"""The values the spoken-form finders produce (agent/files/spoken.py): a token of a
spoken number or spelling, and a spoken identifier with the canonical written value it
stands for."""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.entities import Label


@dataclass(frozen=True, slots=True)
class Token:
    """One spoken piece of a number or a spelling."""

    start: int
    end: int
    text: str
    kind: str  # "unit", "teen", "tens", "repeat", "hundred", "numeral", "letter", "letter_as"
    value: str  # the digits or letters it stands for


@dataclass(slots=True)
class SpokenEntity:
    start: int
    end: int
    text: str  # exactly as in the source text
    label: Label
    canonical: str  # the written value: digits, an e-mail address, a word
    form: str  # "digits", "email", "spelled"
    tokens: list[Token] = field(default_factory=list)
    # For e-mails: the words of the local part and domain as spoken, and the joiner words.
    pieces: list[tuple[int, int, str]] = field(default_factory=list)
    context_name: str | None = None  # a full name said nearby that a spelled word belongs to
