"""Wall-clock checks in tests. Speed is measured by `veil bench`; a test only fails on a
runaway: a timeout not honoured, a cancel ignored, work that does not end. Each limit is
several times what a loaded 2-core machine takes and far below what the broken behaviour
would take, and the measured figure is printed (pytest -s, or in the failure)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


def no_runaway(label: str, seconds: float, limit_s: float) -> None:
    """Print the figure; fail only when it is past the limit."""
    print(f"\n[time] {label}: {seconds:.3f} s (fails past {limit_s:g} s)")
    assert seconds < limit_s, f"{label}: {seconds:.2f} s, past the {limit_s:g} s that only a runaway reaches"


@contextmanager
def timed(label: str, limit_s: float) -> Iterator[None]:
    """`with timed("what", 30):` around the work: no_runaway on its duration."""
    started = time.monotonic()
    yield
    no_runaway(label, time.monotonic() - started, limit_s)
