"""Explicit dates: numeric, ISO 8601 with time and zone, and with a month name; a date of
birth (a birth word before it) scores higher."""

from __future__ import annotations

import re

from agent.detect.base import DetectionContext
from agent.detect.pattern_cues import BIRTH, announced
from agent.entities import Label, Span
from agent.substitute.dates import shift_date

_MONTHS = (
    r"Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?"
)

_DIGIT = re.compile(r"\d")


class DateDetector:
    """Full dates written out (numeric or with a month name). Dates of birth, found by
    their context, score higher. Vague dates ("in June", "2023") are left to NER."""

    name = "date"
    labels = frozenset({Label.DATE})
    _patterns = (
        # ISO 8601, with a time and a zone when written: one entity, never half of one.
        re.compile(
            r"(?<![\d/.\-])\d{4}-\d{1,2}-\d{1,2}"
            r"(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+\-]\d{2}(?::?\d{2})?)?)?(?![\d/\-]|\.\d)"
        ),
        re.compile(r"(?<![\d/.\-])\d{1,2}([/.\-])\d{1,2}\1(?:\d{4}|\d{2})(?![\d/\-]|\.\d)"),
        re.compile(rf"(?i)\b\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+(?:{_MONTHS})\.?,?\s+\d{{4}}\b"),
        re.compile(rf"(?i)\b(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b"),
        re.compile(rf"(?i)\b\d{{1,2}}-(?:{_MONTHS})-(?:\d{{4}}|\d{{2}})\b"),  # 5-May-2021
        re.compile(rf"(?i)\b(?:{_MONTHS})-\d{{2}}\b(?!-)"),  # May-21
        re.compile(r"(?<![\d/.\-])(?:0?[1-9]|1[0-2])/(?:19|20)\d{2}(?![\d/\-])"),  # 05/2021
    )
    # A timestamp that opens a log line ("2026-03-02T10:11:12Z INFO ...") dates an event of
    # a program, not of a person.
    _log_line = re.compile(r"^[ \t]*\[?\d{4}-\d{2}-\d{2}[T ][\d:.,]+(?:Z|[+\-][\d:]+)?\]?[ \t]+\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|CRITICAL|FATAL)\b", re.MULTILINE)

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        if _DIGIT.search(text) is None:
            return []  # every pattern needs a digit
        spans = []
        log_starts = {m.start() + len(m.group()) - len(m.group().lstrip(" \t[")) for m in self._log_line.finditer(text)}
        for pattern in self._patterns:
            for match in pattern.finditer(text):
                if match.start() in log_starts:
                    continue
                if shift_date(match.group(), 0) is None:
                    continue  # "0.4.21", "13.13.2020": a version or a number, not a calendar date
                score = 0.9 if announced(text, match.start(), BIRTH) else 0.75
                spans.append(Span(match.start(), match.end(), Label.DATE, match.group(), score, self.name))
        return spans
