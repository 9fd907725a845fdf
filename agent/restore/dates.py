"""Dates read in the common written forms and written back in them: restore finds a
shifted date the LLM wrote in another form than the one sent."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from agent.knowledge.calendar_words import MONTH_ABBRS, MONTH_NAMES

_MONTHS = {name.lower(): i for i, name in enumerate(MONTH_NAMES) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(MONTH_ABBRS) if name})
_MONTHS["sept"] = 9
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_FORMS = (
    re.compile(r"^(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})$"),
    re.compile(rf"^(?P<mn>{_MONTH})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})$", re.IGNORECASE),
    re.compile(rf"^(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?[\s\-]+(?P<mn>{_MONTH})\.?,?[\s\-]+(?P<y>\d{{4}})$", re.IGNORECASE),
    re.compile(r"^(?P<a>\d{1,2})(?P<s>[/.])(?P<b>\d{1,2})(?P=s)(?P<y>\d{4})$"),
)


def parse_date(text: str) -> dt.date | None:
    value = text.strip()
    for form in _FORMS:
        m = form.match(value)
        if not m:
            continue
        g = m.groupdict()
        try:
            if g.get("mn"):
                return dt.date(int(g["y"]), _MONTHS[g["mn"].lower().rstrip(".")], int(g["d"]))
            if g.get("a"):
                a, b = int(g["a"]), int(g["b"])
                day_first = g["s"] == "." or a > 12
                return dt.date(int(g["y"]), b if day_first else a, a if day_first else b)
            return dt.date(int(g["y"]), int(g["m"]), int(g["d"]))
        except ValueError:
            return None
    return None


def _month(d: dt.date) -> str:
    return MONTH_NAMES[d.month]


def _abbr(d: dt.date) -> str:
    return MONTH_ABBRS[d.month]


DATE_RENDERINGS: tuple[Callable[[dt.date], str], ...] = (
    lambda d: f"{d.year:04d}-{d.month:02d}-{d.day:02d}",
    lambda d: f"{_month(d)} {d.day}, {d.year}",
    lambda d: f"{_month(d)} {d.day:02d}, {d.year}",
    lambda d: f"{d.day} {_month(d)} {d.year}",
    lambda d: f"{d.day:02d} {_month(d)} {d.year}",
    lambda d: f"{_abbr(d)} {d.day}, {d.year}",
    lambda d: f"{d.day} {_abbr(d)} {d.year}",
    lambda d: f"{d.month:02d}/{d.day:02d}/{d.year}",
    lambda d: f"{d.month}/{d.day}/{d.year}",
    lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",
    lambda d: f"{d.day}-{_abbr(d)}-{d.year}",
)
