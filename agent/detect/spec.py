"""What the type table says about one kind of entity (after Presidio's pattern
recognizers: patterns with base scores, context words, a validator), plus the facts the
later stages need: stand-in generator, risk weight, display name and colour."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agent.entities import Label


@dataclass(frozen=True)
class Pattern:
    """A written form of the type (matched whole against a candidate) and the score of a
    candidate of this form that passes the validator with no context word near it."""

    regex: str
    score: float


@dataclass
class StandInRequest:
    """What a stand-in generator may use."""

    real: str
    rng: random.Random
    text: str = ""  # the whole text the value is in
    start: int = 0  # where the value starts in it
    conversation: Any = None
    is_free: Callable[[str], bool] = lambda candidate: True
    helpers: Any = None  # the substituter (person pools, domain map)


Generator = Callable[[StandInRequest], "str | None"]


@dataclass(frozen=True)
class EntityType:
    """One row of the type table."""

    key: str  # "ES_DNI", or a label's own name for the label rows ("PERSON")
    label: Label  # the family the decide stage and the user's policy know
    name: str  # display name ("Spanish DNI")
    noun: tuple[str, str]  # one, many ("ID number", "ID numbers"): notifications
    hue: int  # highlight colour (degrees)
    risk: float  # residual-risk weight when sent as is
    family: str  # bench and README grouping ("national_id", "contact", ...)
    patterns: tuple[Pattern, ...] = ()
    context: tuple[str, ...] = ()  # cue words, any language; ALL-CAPS ones match case-sensitively
    validate: Callable[[str], bool] | None = None  # checksum / format check (python-stdnum)
    generate: Generator | None = None
    # Stand-in masks (agent.substitute.id_standins) when generate is not given.
    masks: tuple[str, ...] = ()
    # How many letters and digits a value has, when no mask says it (the identifier
    # detector tries a type only on candidates of these sizes).
    lengths: tuple[int, ...] = ()
    # A cue word is needed (no checksum, or a shape too common to trust alone).
    cue_required: bool = False
    # Score of a candidate whose shape fits and whose checksum fails, with this type's own
    # cue word near: a mistyped ID is still an ID. None: never.
    invalid_with_cue: float | None = 0.75
    propagate: bool = True  # found again wherever it recurs in the same text
    plausible: Callable[[str, str], bool] | None = None  # (real, proposed stand-in) -> ok
    country: str = ""  # ISO 3166 code of the issuing country, "" for none
    languages: tuple[str, ...] = ()  # the languages its cue words are in, besides English
    examples: tuple[str, ...] = field(default=(), compare=False)  # valid examples from the spec

    @property
    def detectable(self) -> bool:
        return bool(self.patterns)
