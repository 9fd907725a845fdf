"""Shared pieces of the local-model tasks: the per-call time budget and text windows."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass
class Budget:
    """A call's time budget, shared by the model calls it makes (one judge call may ask
    the model once per entity)."""

    seconds: float
    started: float = field(default_factory=time.monotonic)

    def remaining(self) -> float:
        return max(0.0, self.seconds - (time.monotonic() - self.started))

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0.0


_BREAK = re.compile(r"(?<=[.!?\n])\s+")


def window(text: str, start: int, end: int, max_chars: int) -> tuple[str, int]:
    """A piece of `text` of at most max_chars around [start, end), cut at sentence
    boundaries where possible; returns (piece, offset of the piece in text). Small models
    judge better (and faster) on the sentences around an entity than on a whole page."""
    if len(text) <= max_chars:
        return text, 0
    half = max(0, (max_chars - (end - start)) // 2)
    lo, hi = max(0, start - half), min(len(text), end + half)
    # Prefer to start right after a sentence break, and to end at one.
    left = [m.end() for m in _BREAK.finditer(text, lo, start)]
    if left:
        lo = left[0]
    right = [m.start() for m in _BREAK.finditer(text, end, hi)]
    if right:
        hi = right[-1] + 1
    return text[lo:hi], lo


def few_shot_header(instructions: str, shots: Iterable[str]) -> str:
    """The start of a base model's prompt: the instructions, then each worked example,
    a blank line between them (the task's own example line follows)."""
    return f"{instructions}\n\n" + "\n\n".join(shots) + "\n\n"


def one_line(text: str, limit: int = 2000) -> str:
    """Text as it goes into a few-shot prompt line: whitespace collapsed (a newline would
    end the example), cut to `limit` characters."""
    return " ".join(text.split())[:limit]
