"""What a call to the local model returns: `Generation` (a completion and why it ended)
and `Choice` (the pick among a few options). Plain data, no llama.cpp."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Generation:
    """What one completion produced, and why it ended."""

    text: str
    # stop: natural end or a stop string; length: token budget used up; time: time budget
    # used up; busy: another inference held the model for the whole budget; too_long: the
    # prompt does not fit the context; error: llama.cpp failed (see `error`).
    finish: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    elapsed_s: float = 0.0
    error: str = ""

    @property
    def ok(self) -> bool:
        """True when the text is complete (not cut by the clock or an error)."""
        return self.finish in ("stop", "length")


@dataclass(frozen=True)
class Choice:
    """The model's pick among a few options, from the logits of the next token."""

    best: str | None  # None when the call did not run (time budget, busy, error)
    logits: Mapping[str, float] = field(default_factory=dict)
    finish: str = "stop"
    elapsed_s: float = 0.0

    def margin(self, option: str, other: str) -> float:
        """logit(option) - logit(other); positive when the model prefers `option`."""
        return self.logits.get(option, float("-inf")) - self.logits.get(other, float("-inf"))
