"""Date stand-ins and date restore stay English under a non-English desktop locale.

Qt sets the process locale from the user's environment on Linux (LC_ALL=""), and the
standard library's calendar.month_name / day_abbr follow LC_TIME. A German desktop then
read no English month at all (the date went out unshifted) or wrote "Sa" into an English
stand-in. The locale is compiled for the test with localedef (glibc's locale sources), so
the check runs on a machine that ships only C.UTF-8."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

_CHILD = r"""
import json, locale, sys
locale.setlocale(locale.LC_ALL, "de_DE.UTF-8")   # as QCoreApplication does, before Veil's imports
from agent.substitute.dates import shift_date
from agent.restore.dates import parse_date
print(json.dumps({
    "month": locale.nl_langinfo(locale.MON_3),
    "shifted": shift_date("Mon, March 14, 2024", 30),
    "abbreviated": shift_date("14 Sept 2024", 1),
    "parsed": str(parse_date("April 13, 2024")),
}))
"""


@pytest.fixture(scope="module")
def german_locale(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("locales")
    subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8", str(root / "de_DE.UTF-8")], check=True,
                   capture_output=True)
    return root


def test_date_stand_ins_and_restore_read_and_write_english_months_under_a_german_locale(german_locale: Path) -> None:
    env = {**os.environ, "LOCPATH": str(german_locale), "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    out = subprocess.run([sys.executable, "-c", _CHILD], env=env, check=True, capture_output=True, text=True)
    result = json.loads(out.stdout)
    assert result["month"] == "März"  # the locale is really German in the child
    assert result["shifted"] == "Sat, April 13, 2024"
    assert result["abbreviated"] == "15 Sept 2024"
    assert result["parsed"] == "2024-04-13"
