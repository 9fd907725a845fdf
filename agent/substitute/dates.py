"""Date stand-ins: every date in a conversation moves by the same number of days, so
intervals ("three weeks after the 2nd") survive. The written format is kept: month names
or numbers, abbreviations and their dots, zero padding, the weekday (moved with the
date), and a time of day written with the date ("March 14, 2024 10:42 AM")."""

from __future__ import annotations

import datetime as dt
import re

from agent.knowledge.calendar_words import DAY_ABBRS, DAY_NAMES, MONTH_ABBRS, MONTH_NAMES

_MONTHS = {name.lower(): i for i, name in enumerate(MONTH_NAMES) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(MONTH_ABBRS) if name})
_MONTHS["sept"] = 9
_MONTH_RE = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")(?P<dot>\.)?"
_WEEKDAY_RE = r"(?:(?P<weekday>" + "|".join(d.lower() for d in DAY_NAMES) + "|" + "|".join(
    d.lower() for d in DAY_ABBRS
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
    ("day_month_year", re.compile(rf"(?i)^{_WEEKDAY_RE}(?P<the>the\s+)?(?P<d>\d{{1,2}}){_ORD}(?P<of>\s+of)?\s+{_MONTH_RE}(?P<comma>,)?\s+(?P<y>\d{{4}})$")),
    ("month_day_year", re.compile(rf"(?i)^{_WEEKDAY_RE}{_MONTH_RE}\s+(?P<d>\d{{1,2}})(?P<ord>{_ORD})(?P<comma>,)?\s+(?P<y>\d{{4}})$")),
    ("day_month", re.compile(rf"(?i)^{_WEEKDAY_RE}(?P<the>the\s+)?(?P<d>\d{{1,2}}){_ORD}(?P<of>\s+of)?\s+{_MONTH_RE}$")),
    ("month_day", re.compile(rf"(?i)^{_WEEKDAY_RE}{_MONTH_RE}\s+(?P<d>\d{{1,2}})(?P<ord>{_ORD})$")),
    ("month_year", re.compile(rf"(?i)^{_MONTH_RE},?\s+(?P<y>\d{{4}})$")),
    ("year", re.compile(r"^(?P<y>(?:1[6-9]|20)\d\d)$")),
)
# A time of day written with a date ("March 14, 2024 10:42 AM", "10:42 on 14/03/2024"):
# the date moves, the time stays as written.
_TIME = (
    r"(?:\d{1,2}(?::\d{2}){1,2}(?:[.,]\d{1,9})?(?:\s?[AaPp]\.?[Mm]\.?)?|\d{1,2}\s?[AaPp]\.?[Mm]\.?)"
    r"(?:\s?(?:Z|UTC|GMT|[A-Z]{2,4}T|[+\-]\d{2}:?\d{2}))?"
)
_DATE_THEN_TIME = re.compile(rf"^(?P<date>.+?)(?P<sep>,?\s+(?:at\s+|@\s*)?|T)(?P<time>{_TIME})$")
_TIME_THEN_DATE = re.compile(rf"^(?P<time>{_TIME})(?P<sep>,?\s+(?:on\s+)?)(?P<date>.+)$")
_WEEKDAYS = {name.lower(): i for i, name in enumerate(DAY_NAMES)}
_WEEKDAYS.update({name.lower(): i for i, name in enumerate(DAY_ABBRS)})


def _ordinal(day: int) -> str:
    if 11 <= day % 100 <= 13:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _month_name(template: str, month: int) -> str:
    full = MONTH_NAMES[month]
    abbr = MONTH_ABBRS[month]
    name = full if len(template.rstrip(".")) > 3 else abbr
    if template.rstrip(".").lower() == "sept":
        name = "Sept" if month == 9 else abbr
    if template.isupper():
        name = name.upper()
    elif template.islower():
        name = name.lower()
    return name + ("." if template.endswith(".") else "")


def _weekday(template: str | None, index: int) -> str:
    if not template:
        return ""
    name = DAY_NAMES[index] if len(template) > 3 else DAY_ABBRS[index]
    return name.upper() if template.isupper() and len(template) > 1 else name.lower() if template.islower() else name


def _month_of(m: re.Match[str], month: int) -> str:
    """The month as the match wrote it (name or abbreviation, case, a dot after it)."""
    return _month_name(m.group("month") + (m.group("dot") or ""), month)


def _pad(*parts: str) -> int:
    """2 where the numbers are zero-padded ("03/07"), 1 where one is not ("3/14")."""
    if any(len(p) == 2 and p.startswith("0") for p in parts):
        return 2
    return 1 if any(len(p) == 1 for p in parts) else 2


def shift_date(value: str, days: int) -> str | None:
    """value moved by `days`, written the same way; None if it is not a date we can read.
    A time of day with the date stays as written."""
    text = value.strip()
    shifted = _shift_date_only(text, days)
    if shifted is not None:
        return shifted
    for pattern in (_DATE_THEN_TIME, _TIME_THEN_DATE):
        m = pattern.match(text)
        if m:
            date = _shift_date_only(m.group("date"), days)
            if date is not None:
                return text[: m.start("date")] + date + text[m.end("date") :]
    return None


def shift_date_in(value: str, days: int) -> str | None:
    """shift_date, or, for a date inside a longer expression ("the week of 14 March
    2024", "Q1 2024"), that date moved and the words around it kept."""
    shifted = shift_date(value, days)
    if shifted is not None:
        return shifted
    # Words, with a hyphen between letters as a break ("mid-March"), not between digits.
    tokens = [m.span() for m in re.finditer(r"(?:[^\s,;()\[\]\-]|(?<=\d)-(?=\d))+", value)]
    for size in range(len(tokens) - 1, 0, -1):
        for i in range(len(tokens) - size + 1):
            start, end = tokens[i][0], tokens[i + size - 1][1]
            piece = value[start:end].rstrip(",")
            moved = shift_date(piece, days)
            if moved is not None:
                return value[:start] + moved + value[start + len(piece) :]
    return None


def _shift_date_only(text: str, days: int) -> str | None:
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
        return f"{date.day:0{len(g['d'])}d}-{_month_of(m, date.month)}-{y}"
    if form in ("mon_yy", "month_year_numeric"):
        month = _MONTHS[g["month"].lower().rstrip(".")] if form == "mon_yy" else int(g["m"])
        year = int(g["y"]) + (2000 if form == "mon_yy" and int(g["y"]) < 50 else (1900 if form == "mon_yy" else 0))
        date = dt.date(year, month, 15) + dt.timedelta(days=days)
        if (date.year, date.month) == (year, month):
            date = dt.date(year, month, 15) + dt.timedelta(days=31 if days >= 0 else -31)
        if form == "mon_yy":
            return f"{_month_of(m, date.month)}-{date.year % 100:02d}"
        return f"{date.month:0{len(g['m'])}d}/{date.year:04d}"
    if form == "iso":
        date = dt.date(int(g["y"]), int(g["m"]), int(g["d"])) + dt.timedelta(days=days)
        width = _pad(g["m"], g["d"])
        return f"{date.year:04d}{g['s']}{date.month:0{width}d}{g['s']}{date.day:0{width}d}"
    if form == "numeric":
        a, b = int(g["a"]), int(g["b"])
        day_first = a > 12 or (g["s"] == "." and b <= 12)
        month, day = (b, a) if day_first else (a, b)
        year = int(g["y"])
        short_year = len(g["y"]) == 2
        if short_year:
            year += 2000 if year < 50 else 1900
        date = dt.date(year, month, day) + dt.timedelta(days=days)
        if a <= 12 and b <= 12 and not day_first and date.day > 12:
            # "03/03/1989" reads as either order: a stand-in valid in both ("03/24" is no date
            # to a reader of day-first dates) keeps its day at 12 or under. The shift then
            # differs from the conversation's for this date only.
            folded = (date.day - 1) % 12 + 1
            if (date.month, folded) == (month, day):
                folded = folded % 12 + 1
            date = date.replace(day=folded)
        y = f"{date.year % 100:02d}" if short_year else f"{date.year:04d}"
        first, second = (date.day, date.month) if day_first else (date.month, date.day)
        width = _pad(g["a"], g["b"])
        return f"{first:0{width}d}{g['s']}{second:0{width}d}{g['s']}{y}"
    if form in ("day_month_year", "month_day_year", "day_month", "month_day"):
        month = _MONTHS[g["month"].lower().rstrip(".")]
        year = int(g["y"]) if g.get("y") else 2001  # a non-leap year for day+month only
        date = dt.date(year, month, int(g["d"])) + dt.timedelta(days=days)
        month_text = _month_of(m, date.month)
        if g.get("weekday") and not g.get("y"):
            # No year to read the weekday from: it moves by the same days ("Thursday,
            # March 14" three weeks on is a Thursday again).
            weekday = _weekday(g["weekday"], (_WEEKDAYS[g["weekday"].lower()] + days) % 7)
        else:
            weekday = _weekday(g.get("weekday"), date.weekday())
        prefix = (weekday + ", ") if weekday and "," in text[: len(weekday) + 2] else (weekday + " " if weekday else "")
        has_ord = re.search(rf"\b{int(g['d'])}(st|nd|rd|th)", text, re.IGNORECASE) is not None
        day = f"{date.day}{_ordinal(date.day) if has_ord else ''}"
        if form.startswith("day_month"):
            of = " of" if g.get("of") else ""
            core = f"{g.get('the') or ''}{day}{of} {month_text}"
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
        return f"{_month_of(m, date.month)}{sep} {date.year}"
    if form == "year":
        date = dt.date(int(g["y"]), 7, 1) + dt.timedelta(days=days)
        if date.year == int(g["y"]):
            date = date.replace(year=date.year + (1 if days > 0 else -1))
        return f"{date.year}"
    return None
