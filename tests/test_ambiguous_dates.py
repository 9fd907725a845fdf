"""A numeric date whose day and month are both 12 or under ("03/03/1989") reads either way;
its stand-in must be a date in both readings ("03/24/1989" is none to a reader of day-first
dates). Dates written for these tests."""

from __future__ import annotations

import datetime as dt

import pytest

from agent.substitute.dates import shift_date


def _valid_both_ways(value: str) -> bool:
    a, b, year = (int(part) for part in value.replace("-", "/").split("/"))
    try:
        dt.date(year, a, b)
        dt.date(year, b, a)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("real", ["03/03/1989", "12/03/1985", "05/12/1961", "01-10-1996"])
@pytest.mark.parametrize("days", [21, -40, 200, 7, -3])
def test_an_ambiguous_date_gets_a_stand_in_valid_both_ways(real, days):
    fake = shift_date(real, days)
    assert fake is not None and fake != real and _valid_both_ways(fake), fake


@pytest.mark.parametrize("real", ["25/12/1990", "12/25/1990"])
def test_an_unambiguous_date_keeps_the_conversations_shift(real):
    fake = shift_date(real, 21)
    first, second, year = (int(p) for p in fake.split("/"))
    day, month = (first, second) if real.startswith("25") else (second, first)
    assert dt.date(year, month, day) - dt.date(1990, 12, 25) == dt.timedelta(days=21), fake
