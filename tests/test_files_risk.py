"""agent/files/risk.py helpers: the binary-search overlap test answers exactly what the
linear scan over every replaced range answered."""

from __future__ import annotations

import random

from agent.files.risk import _job_mentions, _Ranges


def test_ranges_overlap_like_the_linear_scan():
    rng = random.Random(14)
    for _ in range(300):
        ranges = []
        for _ in range(rng.randint(0, 30)):
            s = rng.randint(0, 200)
            ranges.append((s, s + rng.randint(1, 40)))  # nested and overlapping ones too
        covered = _Ranges(ranges)
        for _ in range(40):
            start = rng.randint(0, 240)
            end = start + rng.randint(1, 20)
            assert covered.overlaps(start, end) == any(s < end and start < e for s, e in ranges), (ranges, start, end)


def test_job_mentions_longest_title_at_each_word():
    text = "The Chief Executive Officer met two nurses and a teacher."
    found = [value for _, _, value in _job_mentions(text)]
    assert "nurses" in found and "teacher" in found
    assert any("Chief Executive" in value for value in found)
