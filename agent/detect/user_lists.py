"""The user's own lists: always-protect terms (own name, employer, clients) and custom
patterns with a label. (Never-protect terms are applied by the registry, after all
detectors, so that they win over every detector.)"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from agent.detect.base import DetectionContext
from agent.entities import Label, Span
from agent.knowledge.names import lexicon


@dataclass(frozen=True)
class ProtectedTerm:
    text: str
    label: Label


def parse_term(entry: str) -> ProtectedTerm:
    """'Jane Doe' or 'PERSON: Jane Doe' (an explicit type wins over the guess)."""
    head, sep, rest = entry.partition(":")
    if sep and head.strip().upper() in Label.__members__ and rest.strip():
        return ProtectedTerm(rest.strip(), Label(head.strip().upper()))
    text = entry.strip()
    tokens = text.split()
    names = lexicon()
    looks_like_name = 1 <= len(tokens) <= 3 and names.is_first_name(tokens[0]) and text.istitle()
    return ProtectedTerm(text, Label.PERSON if looks_like_name else Label.MISC)


class AlwaysProtectDetector:
    name = "always_protect"
    labels = frozenset(Label)

    def __init__(self, terms: Iterable[str]):
        self.terms = [parse_term(t) for t in terms if t.strip()]
        self._by_fold = {t.text.casefold(): t for t in self.terms}
        alternatives = "|".join(
            r"\s+".join(map(re.escape, t.text.split())) for t in sorted(self.terms, key=lambda t: -len(t.text))
        )
        self._regex = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE) if self.terms else None

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        if self._regex is None:
            return []
        spans = []
        for match in self._regex.finditer(text):
            term = self._by_fold.get(" ".join(match.group().split()).casefold())
            label = term.label if term else Label.MISC
            spans.append(Span(match.start(), match.end(), label, match.group(), 1.0, self.name))
        return spans


class CustomPatternDetector:
    name = "custom"

    def __init__(self, label: Label, pattern: str, description: str = ""):
        self.label = label
        self.labels = frozenset({label})
        self.regex = re.compile(pattern)
        self.description = description or pattern

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        return [
            Span(m.start(), m.end(), self.label, m.group(), 0.95, f"{self.name}:{self.description}")
            for m in self.regex.finditer(text)
            if m.end() > m.start()
        ]
