"""The technical-token patterns of agent/detect/code_zones.py open with a look-ahead for
what one of their alternatives must start with (for speed); without it they find the
same tokens. Checked on generated lines of code, log and prose characters."""

from __future__ import annotations

import random
import re

import pytest

from agent.detect import code_zones

PIECES = ["foo_bar", "getValue", "HTTPServer", "MyURLs", "URLs", "fn(a, b=1)", "call()", "sys.stdout.write", "np.Array",
          "::", "->", "=>", "==", "!=", "+=", ":=", "<div>", "</b>", "x[0]", "{", "}", "None", "True", "self", "args",
          "4.10.2", "--verbose", "-v", "setup.py", "`code`", "Ottoline", "Smith", "the", "and", "café", "naïve_x", "_private",
          "a@b.com", "https://example.org/x", "www.example.org", "2026-03-02", "über.Class", "ñ[", "—", "'", '"', "(", ")"]


def _unguarded(pattern: re.Pattern[str], guard: str) -> re.Pattern[str]:
    source = pattern.pattern
    assert source.startswith(guard + "(?:") and source.endswith(")")
    return re.compile(source[len(guard) + 3 : -1], pattern.flags)


@pytest.mark.parametrize("seed", range(10))
def test_the_guards_change_no_match(seed):
    rng = random.Random(seed)
    lines = ["".join(rng.choice(PIECES) + rng.choice(["", " ", ", ", ".", "\t", "  "]) for _ in range(rng.randint(1, 25)))
             for _ in range(300)]
    tech = _unguarded(code_zones._TECH_TOKEN, r"(?=\b\w|\w\[|[`:=!+<{}\-])")
    strong = _unguarded(code_zones._STRONG_TECH, r"(?=\b\w|[`:\-])")
    for line in lines:
        assert code_zones._TECH_TOKEN.findall(line) == tech.findall(line)
        assert code_zones._STRONG_TECH.findall(line) == strong.findall(line)
        assert code_zones._counted(line) == code_zones._NOT_COUNTED.sub(" ", line)


def test_secret_formats_are_skipped_only_where_they_cannot_match():
    """agent/detect/secrets.py skips a key format when the text lacks every literal its
    matches must contain; over text made of those literals and key characters, no match
    lacks them."""
    from agent.detect.secrets import _KEY_FORMATS, _NEEDS

    rng = random.Random(3)
    alphabet = "abcdefABCDEF0123456789_-./:"
    found = 0
    for kind, pattern in _KEY_FORMATS:
        needs = _NEEDS.get(kind)
        if needs is None:
            continue
        for _ in range(300):
            text = "".join(rng.choice([*needs, " ", rng.choice(alphabet) * rng.randint(1, 40), "sk-", "ant-", "api01-"])
                           for _ in range(rng.randint(1, 12)))
            for match in pattern.finditer(text):
                assert any(literal in match.group() for literal in needs), (kind, match.group())
                found += 1
    assert found >= 100  # the generated text does hold keys of the formats
