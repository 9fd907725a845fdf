"""A project's policy: what `veil files` must never replace (the company's own product
names), what it must always replace (a client list), hotwords that name the next
number ("policy number" -> ID), per-type choices, per-column choices for tables, and
corpus swapping. Saved with the project in the vault, shown in every report."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from agent.entities import Label
from agent.files.document import CellMode

TYPE_CHOICES = ("replace", "label", "keep")


class PolicyError(ValueError):
    """A policy value that cannot be used; the message says which and why."""


@dataclass(frozen=True, slots=True)
class Hotword:
    phrase: str
    label: Label = Label.ID


@dataclass
class ProjectPolicy:
    exclusions: list[str] = field(default_factory=list)  # never replaced
    dictionary: list[str] = field(default_factory=list)  # always replaced ("PERSON: Jane Doe" or a term)
    hotwords: list[Hotword] = field(default_factory=list)
    # Per entity type: replace (default for documents), label ([PERSON_1]) or keep.
    types: dict[str, str] = field(default_factory=dict)
    # Per table column (header, any case): "auto", "never", "always" or "always:PERSON".
    columns: dict[str, str] = field(default_factory=dict)
    corpus_swap: bool = False  # organisations and places drawn from other documents of the project

    def column_mode(self, header: str) -> tuple[CellMode, Label | None]:
        choice = {k.casefold().strip(): v for k, v in self.columns.items()}.get(header.casefold().strip(), "auto")
        mode, _, label = choice.partition(":")
        return CellMode(mode), Label.parse(label) if label else (Label.MISC if mode == "always" else None)

    def validate(self) -> None:
        for label, choice in self.types.items():
            try:
                Label.parse(label)
            except ValueError as exc:
                raise PolicyError(str(exc)) from None
            if choice not in TYPE_CHOICES:
                raise PolicyError(f"type choice {label}={choice!r}; expected one of {', '.join(TYPE_CHOICES)}")
        for column, choice in self.columns.items():
            mode, _, label = choice.partition(":")
            if mode not in ("auto", "never", "always") or (label and mode != "always"):
                raise PolicyError(f"column choice {column}={choice!r}; expected auto, never, always or always:TYPE")
            if label:
                try:
                    Label.parse(label)
                except ValueError as exc:
                    raise PolicyError(str(exc)) from None

    def to_json(self) -> dict:
        data = asdict(self)
        data["hotwords"] = [{"phrase": h.phrase, "label": h.label.value} for h in self.hotwords]
        return data

    @classmethod
    def from_json(cls, data: dict | None) -> ProjectPolicy:
        data = dict(data or {})
        hotwords = [Hotword(h["phrase"], Label.parse(h.get("label", "ID"))) for h in data.pop("hotwords", [])]
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        policy = cls(hotwords=hotwords, **known)
        policy.validate()
        return policy

    def merged(self, other: ProjectPolicy) -> ProjectPolicy:
        """This policy with `other`'s additions (lists joined, choices overridden)."""

        def union(a: list, b: list) -> list:
            return a + [x for x in b if x not in a]

        return ProjectPolicy(
            exclusions=union(self.exclusions, other.exclusions),
            dictionary=union(self.dictionary, other.dictionary),
            hotwords=union(self.hotwords, other.hotwords),
            types={**self.types, **other.types},
            columns={**self.columns, **other.columns},
            corpus_swap=self.corpus_swap or other.corpus_swap,
        )


def parse_hotword(value: str) -> Hotword:
    """'policy number' or 'policy number=ID'."""
    phrase, _, label = value.partition("=")
    if not phrase.strip():
        raise PolicyError(f"empty hotword in {value!r}")
    try:
        return Hotword(phrase.strip(), Label.parse(label.strip()) if label.strip() else Label.ID)
    except ValueError as exc:
        raise PolicyError(str(exc)) from None


def parse_choice(value: str, what: str) -> tuple[str, str]:
    """'NAME=choice' -> (NAME, choice)."""
    name, sep, choice = value.partition("=")
    if not sep or not name.strip() or not choice.strip():
        raise PolicyError(f"{what} {value!r}: expected NAME=CHOICE")
    return name.strip(), choice.strip()
