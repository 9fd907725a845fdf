"""Writing replacements into a text: the one place that stitches a text back together
from (start, end, new text) pieces, for the file writer and the local model's restore."""

from __future__ import annotations

from collections.abc import Iterable


def splice(text: str, replacements: Iterable[tuple[int, int, str]]) -> str:
    """text with each [start, end) replaced by its new text. The pieces must not overlap;
    they may come in any order."""
    out: list[str] = []
    position = 0
    for start, end, new in sorted(replacements, key=lambda r: r[0]):
        out.append(text[position:start])
        out.append(new)
        position = end
    out.append(text[position:])
    return "".join(out)
