"""The one interface every detector implements (after Presidio's recognizers)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from agent.conversation import Conversation
from agent.entities import Label, Span


@dataclass(frozen=True)
class DetectionContext:
    """What a detector may know besides the text."""

    conversation: Conversation | None = None
    # Lower-cased never-protect terms: detectors need not check them (the registry drops
    # matching spans), but may use them to avoid work.
    allow: frozenset[str] = field(default_factory=frozenset)


@runtime_checkable
class Detector(Protocol):
    name: str
    labels: frozenset[Label]

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        """All spans found in text. Must not raise on odd input (binary, emoji, RTL)."""
        ...
