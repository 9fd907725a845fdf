"""The typed values that flow through the privacy pipeline.

text -> detect (Span) -> decide (Decision) -> substitute (Replacement) -> restore (RestoredSpan)

Every stage takes and returns these dataclasses, so each stage can be tested and
swapped alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Label(str, Enum):
    """Entity types. The names match the labels of the evaluation data."""

    PERSON = "PERSON"
    ORG = "ORG"
    LOCATION = "LOCATION"
    ADDRESS = "ADDRESS"
    EMAIL = "EMAIL"
    PHONE = "PHONE"
    DATE = "DATE"
    ID = "ID"
    URL = "URL"
    IP = "IP"
    MAC = "MAC"
    CREDIT_CARD = "CREDIT_CARD"
    IBAN = "IBAN"
    SSN = "SSN"
    USERNAME = "USERNAME"
    SECRET = "SECRET"
    NORP = "NORP"  # nationalities, religious and political groups
    MISC = "MISC"

    @classmethod
    def parse(cls, value: str) -> Label:
        try:
            return cls(value.upper())
        except ValueError as exc:
            names = ", ".join(m.value for m in cls)
            raise ValueError(f"unknown entity type {value!r}; expected one of {names}") from exc


# Values that identify a person on their own, or that must never leave the machine.
DIRECT_IDENTIFIERS = frozenset(
    {
        Label.EMAIL,
        Label.PHONE,
        Label.CREDIT_CARD,
        Label.IBAN,
        Label.SSN,
        Label.IP,
        Label.MAC,
        Label.SECRET,
        Label.USERNAME,
        Label.ID,
        Label.ADDRESS,
    }
)


class Action(str, Enum):
    """What happens to a detected entity before the text is sent."""

    KEEP = "keep"  # sent as is (the answer depends on it, or the user said so)
    REPLACE = "replace"  # swapped for a realistic stand-in of the same type
    LABEL = "label"  # swapped for a label such as [PERSON_1]


@dataclass(frozen=True, slots=True)
class Span:
    """A piece of the input text that a detector believes is an entity."""

    start: int
    end: int
    label: Label
    text: str
    score: float
    detector: str
    # Set by the conversation-memory detector: the mapped real value this mention refers to
    # (e.g. "Mitchell" -> "Sarah Mitchell"), so the stand-in can be derived from that entry.
    canonical: str | None = None

    def __len__(self) -> int:
        return self.end - self.start

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end


@dataclass(frozen=True, slots=True)
class Decision:
    span: Span
    action: Action
    reason: str  # short, shown in the UI ("direct identifier", "asked about", "your choice")
    # Kept because the prompt is about a public entity (Chicago, Shakespeare): it says
    # little about the user, so it weighs less in the residual risk.
    public: bool = False


@dataclass(frozen=True, slots=True)
class Replacement:
    """One entity in a sanitized text: where it was, what replaced it, and why."""

    start: int  # offsets in the original text
    end: int
    sanitized_start: int  # offsets in the sanitized text
    sanitized_end: int
    label: Label
    real: str
    sent: str  # what is sent in its place (equal to real when kept)
    action: Action
    reason: str
    detector: str
    score: float

    def to_json(self) -> dict:
        return {
            "start": self.start,
            "end": self.end,
            "sanitized_start": self.sanitized_start,
            "sanitized_end": self.sanitized_end,
            "label": self.label.value,
            "real": self.real,
            "sent": self.sent,
            "action": self.action.value,
            "reason": self.reason,
            "detector": self.detector,
            "score": round(self.score, 3),
        }


@dataclass(frozen=True, slots=True)
class RiskScore:
    """Residual risk of what is sent: weighted count of the entities that are kept."""

    total: float
    items: tuple[tuple[str, Label, float], ...] = ()  # (text kept, type, weight)

    @property
    def level(self) -> str:
        if self.total == 0:
            return "none"
        if self.total < 4:
            return "low"
        if self.total < 10:
            return "medium"
        return "high"


@dataclass(slots=True)
class SanitizeResult:
    original: str
    sanitized: str
    entities: list[Replacement]
    risk: RiskScore
    warnings: list[str] = field(default_factory=list)

    def counts_by_label(self, *, replaced_only: bool = True) -> dict[str, int]:
        counts: dict[str, int] = {}
        for e in self.entities:
            if replaced_only and e.action is Action.KEEP:
                continue
            counts[e.label.value] = counts.get(e.label.value, 0) + 1
        return counts

    def to_json(self) -> dict:
        return {
            "sanitized": self.sanitized,
            "entities": [e.to_json() for e in self.entities],
            "risk": {"score": self.risk.total, "level": self.risk.level},
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True, slots=True)
class RestoredSpan:
    """A real value put back into an answer (offsets in the restored text)."""

    start: int
    end: int
    real: str
    stand_in: str  # the exact text the LLM wrote
    label: Label

    def to_json(self) -> dict:
        return {
            "start": self.start,
            "end": self.end,
            "real": self.real,
            "stand_in": self.stand_in,
            "label": self.label.value,
        }


@dataclass(slots=True)
class RestoreResult:
    text: str
    spans: list[RestoredSpan]
    # Stand-ins (or parts of them) still present in the answer after restoring: flagged in the UI.
    unrestored: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "restored": self.text,
            "spans": [s.to_json() for s in self.spans],
            "unrestored": list(self.unrestored),
        }
