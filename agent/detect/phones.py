"""Phone numbers: libphonenumber proposes, the shape of the match and the cue words
before it (agent/detect/pattern_cues.py) dispose."""

from __future__ import annotations

import re
from collections.abc import Iterable

import phonenumbers

from agent.detect.base import DetectionContext
from agent.detect.pattern_cues import NOT_PHONE, PATTERN_CUES, PHONE, announced
from agent.entities import Label, Span

# A date (day first or year first) followed by a time: "14.03.2024 10:30" must not read
# as the phone "14.03.2024 10"; and a compact timestamp "20240314 104200" of a log line.
_DATE_THEN_MORE = re.compile(r"(?:\d{1,2}[./-]\d{1,2}[./-]\d{4}|\d{4}[./-]\d{1,2}[./-]\d{1,2})\s")
_YEAR_RANGE = re.compile(r"\(?((?:19|20)\d\d)[ \t]*[-–/][ \t]*((?:19|20)\d\d)\)?")
_COMPACT_STAMP = re.compile(r"(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[ T]?(?:[01]\d|2[0-3])[0-5]\d(?:[0-5]\d)?")


class PhoneDetector:
    """Phone numbers via Google's libphonenumber (the `phonenumbers` port): international
    numbers anywhere, national formats of the configured regions."""

    name = "phone"
    labels = frozenset({Label.PHONE})
    _candidate = re.compile(r"[+(]?\d[\d\s().\-]{5,}\d")

    def __init__(self, regions: Iterable[str] = ("US", "GB", "IN", "DE", "FR", "AU")):
        self.regions = tuple(regions)

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        if not self._candidate.search(text):
            return []  # the matcher is the slow part; most texts have no digits run at all
        found: dict[tuple[int, int], Span] = {}
        for i, region in enumerate(self.regions):
            if i and not self._has_unclaimed_candidate(text, found):
                break
            leniency = phonenumbers.Leniency.POSSIBLE
            for match in phonenumbers.PhoneNumberMatcher(text, region, leniency=leniency):
                key = (match.start, match.end)
                if any(s.start <= match.start < s.end for s in found.values()):
                    continue
                raw = match.raw_string
                digits = sum(ch.isdigit() for ch in raw)
                valid = phonenumbers.is_valid_number(match.number)
                if not self._plausible(raw, digits, valid, text, match.start):
                    continue
                score = 0.95 if valid else 0.75
                found[key] = Span(match.start, match.end, Label.PHONE, raw, score, self.name)
        return list(found.values())

    def _has_unclaimed_candidate(self, text: str, found: dict[tuple[int, int], Span]) -> bool:
        for m in self._candidate.finditer(text):
            if not any(s.start <= m.start() < s.end for s in found.values()):
                return True
        return False

    def _plausible(self, raw: str, digits: int, valid: bool, text: str, start: int) -> bool:
        if digits < 7 or digits > 15:
            return False
        end = start + len(raw)
        after = text[end : end + 1]
        if after.isalpha() or after in ("_", "%"):
            return False  # "7705ms", "200px", "42%": a quantity, not a phone number
        before = text[max(0, start - 2) : start]
        if before[-1:].isalnum() or before[-1:] == "_" or (before[-1:] in "-." and before[:1].isalnum() and before[-1:] != ""):
            return False  # inside a longer token: a UUID, "sora-2-2025-10-06", "v1.2345678"
        if re.match(r"[-.](?=[0-9A-Za-z]*\d)[0-9A-Fa-f]+\b", text[end : end + 20]):
            return False  # "49df3a34-2368-5688-b4a9-...": a piece of a hex id, not a number
        if re.fullmatch(r"\d{1,3}\.\d{5,}", raw):
            return False  # "0.9789029536": a decimal fraction
        if re.fullmatch(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}", raw):
            return False  # a date
        if _DATE_THEN_MORE.match(raw) or _COMPACT_STAMP.fullmatch(raw):
            return False  # a date and a time
        if re.fullmatch(r"\d{3}-\d{2}-\d{4}", raw):
            return False  # the shape of a US SSN
        years = _YEAR_RANGE.fullmatch(raw)
        if years and int(years.group(1)) <= int(years.group(2)):
            return False  # "(2020-2022)" in a CV: a span of years
        if re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}", raw):
            return False  # an IPv4 address
        if re.fullmatch(r"\d+", raw):
            # A bare run of digits is an order or account number far more often than a
            # phone number: only with a phone word nearby.
            cues = PATTERN_CUES.announced(text, start)
            return valid and PHONE in cues and NOT_PHONE not in cues
        if raw.startswith("+") or valid:
            return True
        # Possible but not valid (fictional area codes, as in much test data): needs the
        # shape of a phone number or a hotword nearby.
        shaped = re.fullmatch(r"\(?\d{3}\)?[\s.\-]?\d{3}[\s.\-]\d{4}", raw) is not None
        return shaped or announced(text, start, PHONE)
