"""Date stand-ins: every date in a conversation moves by the same number of days, so
intervals ("three weeks after the 2nd") survive. The written format is kept."""

from __future__ import annotations

import calendar
import datetime as dt
import re

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
_MONTH_RE = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_WEEKDAY_RE = r"(?:(?P<weekday>" + "|".join(d.lower() for d in calendar.day_name) + "|" + "|".join(
    d.lower() for d in calendar.day_abbr
) + r"),?\s+)?"
_ORD = r"(?:st|nd|rd|th)?"

_FORMS = (
    ("iso", re.compile(r"^(?P<y>\d{4})(?P<s>[-/.])(?P<m>\d{1,2})(?P=s)(?P<d>\d{1,2})$")),
    # ISO 8601 with a time and zone: the date moves, the time of day and zone stay.
    ("iso_time", re.compile(r"^(?P<y>\d{4})(?P<s>-)(?P<m>\d{1,2})-(?P<d>\d{1,2})(?P<rest>[T ]\d{2}:\d{2}.*)$")),
    ("day_mon_dashed", re.compile(rf"(?i)^(?P<d>\d{{1,2}})-{_MONTH_RE}-(?P<y>\d{{4}}|\d{{2}})$")),
    ("mon_yy", re.compile(rf"(?i)^{_MONTH_RE}-(?P<y>\d{{2}})$")),
    ("month_year_numeric", re.compile(r"^(?P<m>\d{1,2})/(?P<y>\d{4})$")),
    ("numeric", re.compile(r"^(?P<a>\d{1,2})(?P<s>[-/.])(?P<b>\d{1,2})(?P=s)(?P<y>\d{4}|\d{2})$")),
    ("day_month_year", re.compile(rf"(?i)^{_WEEKDAY_RE}(?P<d>\d{{1,2}}){_ORD}(?P<of>\s+of)?\s+{_MONTH_RE}(?P<comma>,)?\s+(?P<y>\d{{4}})$")),
    ("month_day_year", re.compile(rf"(?i)^{_WEEKDAY_RE}{_MONTH_RE}\s+(?P<d>\d{{1,2}})(?P<ord>{_ORD})(?P<comma>,)?\s+(?P<y>\d{{4}})$")),
    ("day_month", re.compile(rf"(?i)^{_WEEKDAY_RE}(?P<d>\d{{1,2}}){_ORD}(?P<of>\s+of)?\s+{_MONTH_RE}$")),
    ("month_day", re.compile(rf"(?i)^{_WEEKDAY_RE}{_MONTH_RE}\s+(?P<d>\d{{1,2}})(?P<ord>{_ORD})$")),
    ("month_year", re.compile(rf"(?i)^{_MONTH_RE},?\s+(?P<y>\d{{4}})$")),
    ("year", re.compile(r"^(?P<y>(?:1[6-9]|20)\d\d)$")),
)


def _ordinal(day: int) -> str:
    if 11 <= day % 100 <= 13:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _month_name(template: str, month: int) -> str:
    full = calendar.month_name[month]
    abbr = calendar.month_abbr[month]
    name = full if len(template.rstrip(".")) > 3 else abbr
    if template.rstrip(".").lower() == "sept":
        name = "Sept" if month == 9 else abbr
    if template.isupper():
        name = name.upper()
    elif template.islower():
        name = name.lower()
    return name + ("." if template.endswith(".") else "")


def _weekday(template: str | None, date: dt.date) -> str:
    if not template:
        return ""
    name = calendar.day_name[date.weekday()] if len(template) > 3 else calendar.day_abbr[date.weekday()]
    return name.lower() if template.islower() else name


def shift_date(value: str, days: int) -> str | None:
    """value moved by `days`, written the same way; None if it is not a date we can read."""
    text = value.strip()
    for form, pattern in _FORMS:
        m = pattern.match(text)
        if not m:
            continue
        try:
            return _shift(form, m, days, text)
        except (ValueError, OverflowError):
            return None
    return None


def _shift(form: str, m: re.Match[str], days: int, text: str) -> str | None:
    g = m.groupdict()
    if form == "iso_time":
        date = dt.date(int(g["y"]), int(g["m"]), int(g["d"])) + dt.timedelta(days=days)
        return f"{date.year:04d}-{date.month:0{len(g['m'])}d}-{date.day:0{len(g['d'])}d}{g['rest']}"
    if form == "day_mon_dashed":
        year = int(g["y"]) + (0 if len(g["y"]) == 4 else (2000 if int(g["y"]) < 50 else 1900))
        date = dt.date(year, _MONTHS[g["month"].lower().rstrip(".")], int(g["d"])) + dt.timedelta(days=days)
        y = f"{date.year:04d}" if len(g["y"]) == 4 else f"{date.year % 100:02d}"
        return f"{date.day:0{len(g['d'])}d}-{_month_name(m.group('month'), date.month)}-{y}"
    if form in ("mon_yy", "month_year_numeric"):
        month = _MONTHS[g["month"].lower().rstrip(".")] if form == "mon_yy" else int(g["m"])
        year = int(g["y"]) + (2000 if form == "mon_yy" and int(g["y"]) < 50 else (1900 if form == "mon_yy" else 0))
        date = dt.date(year, month, 15) + dt.timedelta(days=days)
        if (date.year, date.month) == (year, month):
            date = dt.date(year, month, 15) + dt.timedelta(days=31 if days >= 0 else -31)
        if form == "mon_yy":
            return f"{_month_name(m.group('month'), date.month)}-{date.year % 100:02d}"
        return f"{date.month:0{len(g['m'])}d}/{date.year:04d}"
    if form == "iso":
        date = dt.date(int(g["y"]), int(g["m"]), int(g["d"])) + dt.timedelta(days=days)
        width_m, width_d = len(g["m"]), len(g["d"])
        return f"{date.year:04d}{g['s']}{date.month:0{width_m}d}{g['s']}{date.day:0{width_d}d}"
    if form == "numeric":
        a, b = int(g["a"]), int(g["b"])
        day_first = a > 12 or (g["s"] == "." and b <= 12)
        month, day = (b, a) if day_first else (a, b)
        year = int(g["y"])
        short_year = len(g["y"]) == 2
        if short_year:
            year += 2000 if year < 50 else 1900
        date = dt.date(year, month, day) + dt.timedelta(days=days)
        y = f"{date.year % 100:02d}" if short_year else f"{date.year:04d}"
        first, second = (date.day, date.month) if day_first else (date.month, date.day)
        return f"{first:0{len(g['a'])}d}{g['s']}{second:0{len(g['b'])}d}{g['s']}{y}"
    if form in ("day_month_year", "month_day_year", "day_month", "month_day"):
        month = _MONTHS[g["month"].lower().rstrip(".")]
        year = int(g["y"]) if g.get("y") else 2001  # a non-leap year for day+month only
        date = dt.date(year, month, int(g["d"])) + dt.timedelta(days=days)
        month_text = _month_name(m.group("month"), date.month)
        weekday = _weekday(g.get("weekday"), date)
        prefix = (weekday + ", ") if weekday and "," in text[: len(weekday) + 2] else (weekday + " " if weekday else "")
        has_ord = re.search(rf"\b{int(g['d'])}(st|nd|rd|th)", text, re.IGNORECASE) is not None
        day = f"{date.day}{_ordinal(date.day) if has_ord else ''}"
        if form.startswith("day_month"):
            of = " of" if g.get("of") else ""
            core = f"{day}{of} {month_text}"
            if g.get("y"):
                core += ("," if g.get("comma") else "") + f" {date.year}"
        else:
            core = f"{month_text} {day}"
            if g.get("y"):
                core += ("," if g.get("comma") else "") + f" {date.year}"
        return prefix + core
    if form == "month_year":
        month = _MONTHS[g["month"].lower().rstrip(".")]
        date = dt.date(int(g["y"]), month, 15) + dt.timedelta(days=days)
        sep = "," if "," in text else ""
        return f"{_month_name(m.group('month'), date.month)}{sep} {date.year}"
    if form == "year":
        date = dt.date(int(g["y"]), 7, 1) + dt.timedelta(days=days)
        if date.year == int(g["y"]):
            date = date.replace(year=date.year + (1 if days > 0 else -1))
        return f"{date.year}"
    return None
