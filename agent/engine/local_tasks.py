"""What the engine may ask of a local model. models/ implements these; agent/ only
knows the interfaces, so the engine runs the same with no model at all.

Every answer is advisory: the engine validates it (type, shape, offsets) and falls back
to its own rules when a task returns None, junk, or runs out of time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from agent.session.conversation import MapEntry
from agent.entities import Span


@runtime_checkable
class RelevanceJudge(Protocol):
    """LOPSIDED's semantic awareness: does the answer depend on this entity?"""

    def judge(self, text: str, spans: Sequence[Span]) -> list[bool | None]:
        """One verdict per span: True keep (the answer needs it), False swap, None unsure."""
        ...


@runtime_checkable
class SurrogateProposer(Protocol):
    """Level-2 substitution: a stand-in that fits the context (culture, domain)."""

    def propose(self, text: str, span: Span) -> str | None: ...


@runtime_checkable
class FallbackRestorer(Protocol):
    """For answers where rule-based restore left stand-ins (e.g. the LLM inflected them)."""

    def restore(self, answer: str, leftovers: Sequence[MapEntry]) -> str | None: ...


@dataclass
class LocalTasks:
    """The optional local-model helpers the engine was given (any may be None).

    The extra detector is a plain agent.detect.base.Detector and is registered with the
    others, so it is not listed here."""

    judge: RelevanceJudge | None = None
    surrogates: SurrogateProposer | None = None
    restorer: FallbackRestorer | None = None
