"""A list of names as a trie regex (agent/detect/trie_regex.py) matches exactly what the
alternation of the names, longest first, matches: same spans, left to right, with the
look-behind and look-ahead the detectors put around it, in and without IGNORECASE, with
words joined by any run of spaces; and so do the detectors' own patterns built with it."""

from __future__ import annotations

import random
import re

import pytest

from agent.detect.trie_regex import trie_alternation

WORDS = ["new", "new york", "new york city", "york", "yorkshire", "newark", "ne", "n", "a-b", "a b", "ab",
         "Über", "über", "straße", "İstanbul", "san josé", "san jose", "sa", "x.y", "x+y", "(z)"]
AROUND = (r"(?<![\w@./-])", r"(?![\w@/-])")


def _plain(words, spaces: str | None = None) -> str:
    ordered = sorted(set(words), key=len, reverse=True)
    if spaces is None:
        return "(?:" + "|".join(re.escape(w) for w in ordered) + ")"
    return "(?:" + "|".join(spaces.join(re.escape(p) for p in w.split()) for w in ordered) + ")"


def _text(rng: random.Random, words: list[str]) -> str:
    parts = []
    for _ in range(rng.randint(1, 30)):
        word = rng.choice(words)
        roll = rng.random()
        if roll < 0.2:
            word = word[: rng.randint(1, len(word))]
        elif roll < 0.35:
            word = word.upper()
        elif roll < 0.45:
            word = word.title()
        elif roll < 0.55:
            word = word + rng.choice(["s", "-", "/", "@", ".", "x", "  ", "\n"])
        parts.append(word)
    return rng.choice(["", " ", "-", ", ", "  "]).join(parts)


def _spans(regex: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in regex.finditer(text)]


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("flags", [0, re.IGNORECASE])
def test_trie_matches_what_the_longest_first_alternation_matches(seed, flags):
    rng = random.Random(seed)
    words = rng.sample(WORDS, rng.randint(1, len(WORDS)))
    ignore_case = bool(flags & re.IGNORECASE)
    plain = re.compile(AROUND[0] + _plain(words) + AROUND[1], flags)
    trie = re.compile(AROUND[0] + trie_alternation(words, ignore_case=ignore_case) + AROUND[1], flags)
    texts = [_text(rng, words) for _ in range(200)]
    assert [_spans(trie, t) for t in texts] == [_spans(plain, t) for t in texts]
    assert any(_spans(plain, t) for t in texts)


@pytest.mark.parametrize("seed", range(10))
def test_trie_with_runs_of_spaces_between_words(seed):
    rng = random.Random(seed)
    words = [w for w in WORDS if " " in w] + rng.sample(WORDS, 5)
    plain = re.compile(_plain(words, r"\s+"), re.IGNORECASE)
    trie = re.compile(trie_alternation(words, ignore_case=True, spaces=r"\s+"), re.IGNORECASE)
    texts = [_text(rng, words) for _ in range(200)]
    assert [_spans(trie, t) for t in texts] == [_spans(plain, t) for t in texts]


def test_no_names_is_the_empty_alternation():
    assert trie_alternation([]) == ""


def test_the_place_patterns_match_as_before():
    """The gazetteer's place lists, old form against new, on text made of their names."""
    from agent.detect.gazetteer import _ordinary_word, _place_patterns
    from agent.knowledge.not_names import NOT_ENTITIES
    from agent.knowledge.places import places

    data = places()
    names = set(data["countries"]) | set(data["us_states"]) | set(data["city_country"]) | set(data["regions"])
    names |= {c for cities in data["cities"].values() for c in cities}
    names = {n for n in names if len(n) >= 4 and n.casefold() not in NOT_ENTITIES and not _ordinary_word(n)}
    countries = [c for c in data["countries"] if len(c) >= 5]
    sensitive, insensitive = _place_patterns()
    old_sensitive = re.compile(rf"(?<![\w@./-]){_plain(names)}(?![\w@/-])")
    old_insensitive = re.compile(rf"(?<![\w@./-]){_plain(countries)}(?![\w@/-])", re.IGNORECASE)
    rng = random.Random(11)
    pool = sorted(names)
    texts = [_text(rng, rng.sample(pool, 40) + countries[:20]) for _ in range(300)]
    assert [_spans(sensitive, t) for t in texts] == [_spans(old_sensitive, t) for t in texts]
    assert [_spans(insensitive, t) for t in texts] == [_spans(old_insensitive, t) for t in texts]
