"""The one interface every detector implements (after Presidio's recognizers)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from agent.entities import Label, Span
from agent.session.conversation import Conversation


class TextAnalysis(Protocol):
    """Linguistic analysis of the text, computed once and shared by the detectors that
    need it (spaCy NER and the name detector use the same parse)."""

    @property
    def doc(self) -> Any: ...


@dataclass(frozen=True)
class DetectionContext:
    """What a detector may know besides the text."""

    conversation: Conversation | None = None
    # Folded never-protect terms: detectors need not check them (the registry drops
    # matching spans), but may use them to avoid work.
    allow: frozenset[str] = field(default_factory=frozenset)
    analysis: TextAnalysis | None = None


@runtime_checkable
class Detector(Protocol):
    name: str
    labels: frozenset[Label]

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        """All spans found in text. Must not raise on odd input (binary, emoji, RTL)."""
        ...
