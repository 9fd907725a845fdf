"""The restorer's alternation in groups finds exactly what one regex of every alternative
finds (agent/restore/alternation.py): same spans, same alternative chosen at a position
where several match, left to right, without overlaps."""

from __future__ import annotations

import random
import re

import pytest

from agent.restore import alternation
from agent.restore.alternation import Alternation

WORDS = ["ann", "anna", "annabel", "bo", "bob", "bobby", "cat", "cathy", "dan", "danny", "ed", "eddie", "a b", "an"]


def _one_regex(screen: str, alternatives: list[str]) -> list[tuple[int, int, str]]:
    regex = re.compile(screen + "(?:" + "|".join(alternatives) + ")", re.IGNORECASE)
    return [(m.start(), m.end(), m.group()) for m in regex.finditer(TEXT, 3, len(TEXT) - 2)]


_RNG = random.Random(7)
TEXT = " ".join(_RNG.choice([*WORDS, "xx", "Anna", "BOB", "catherine"]) for _ in range(400))


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("group", [1, 2, 3, 7])
def test_groups_find_what_one_regex_finds(monkeypatch, seed, group):
    monkeypatch.setattr(alternation, "GROUP", group)
    rng = random.Random(seed)
    alternatives = [re.escape(w) for w in rng.sample(WORDS, rng.randint(2, len(WORDS)))]
    screen = r"(?:(?<![\w@])(?=[a-e]))"
    grouped = Alternation(screen, alternatives)
    assert len(grouped._regexes) == -(-len(alternatives) // group)
    found = [(m.start(), m.end(), m.group()) for m in grouped.finditer(TEXT, 3, len(TEXT) - 2)]
    assert found == _one_regex(screen, alternatives)
    assert found  # the text has matches for any sample of two or more words
