"""A long list of names as a regex that matches exactly what the plain alternation of the
names, longest first, matches, but costs a few steps per text position instead of one per
name.

Python's regex engine tries the alternatives of `(?:Name1|Name2|...)` one by one at every
position of the text: with the gazetteer's ~3,000 place names that was ~1 ms per prompt,
more than any other detector. Here the names share their prefixes as a trie
(`New(?: York(?: City)?| Zealand)`), and each node tries its longer continuations before
it stops (a greedy `?`), so at a position the longest name that lets the rest of the
pattern match wins, as in the longest-first alternation; a failed look-ahead after it
backtracks to the next shorter name, also as there. Whatever the text, at one position
the names that match form a chain of prefixes of each other (two names that differ at
some character cannot both match it), so the order of longest first is the only order
that matters. tests/test_detect_trie_regex.py checks the two give the same matches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence


def _case_key(char: str) -> str:
    """Under IGNORECASE a literal matches what its lower-case form matches (Python's
    engine compares simple lower-case mappings), so 'A' and 'a' are one trie edge."""
    lower = char.lower()
    return lower if len(lower) == 1 else char


def units_of(name: str, *, ignore_case: bool = False, spaces: str | None = None) -> tuple[str, ...]:
    """The regex atoms of one name: each character escaped, or, with `spaces`, each run of
    whitespace between its words as that pattern (the `\\s+` of a cue "tax id")."""
    if spaces is None:
        chars = [_case_key(c) if ignore_case else c for c in name]
        return tuple(re.escape(c) for c in chars)
    atoms: list[str] = []
    for i, word in enumerate(name.split()):
        if i:
            atoms.append(spaces)
        atoms.extend(re.escape(_case_key(c) if ignore_case else c) for c in word)
    return tuple(atoms)


def trie_alternation(names: Iterable[str], *, ignore_case: bool = False, spaces: str | None = None) -> str:
    """The regex source of `|`.join(escaped names, longest first), as a trie. The result
    is a group of its own (or the empty string for no names) and takes no flags: compile
    it with IGNORECASE when `ignore_case` is set, as the plain alternation would be."""
    return alternation_of_units(units_of(n, ignore_case=ignore_case, spaces=spaces) for n in names)


def alternation_of_units(sequences: Iterable[Sequence[str]]) -> str:
    root: dict = {}
    end = ""  # the key marking "a name ends here" (no atom is empty)
    for atoms in sequences:
        if not atoms:
            continue
        node = root
        for atom in atoms:
            node = node.setdefault(atom, {})
        node[end] = True
    if not root:
        return ""
    return "(?:" + _body(root, end) + ")"


def _body(node: dict, end: str) -> str:
    """Alternatives of the continuations under `node` (not including stopping at it)."""
    branches = []
    for atom, child in node.items():
        if atom == end:
            continue
        rest = _continuations(child, end)
        branches.append(atom + rest)
    return "|".join(branches)


def _continuations(node: dict, end: str) -> str:
    below = [a for a in node if a != end]
    if not below:
        return ""
    body = _body(node, end)
    if end in node:
        return "(?:" + body + ")?"  # greedy: the longer names first, then stop here
    return body if len(below) == 1 else "(?:" + body + ")"
