"""Last-digits mentions of a swapped number: an answer that says "the card ending 8623" or
"•••• 8623" about a card whose stand-in ends in 8623 is talking about the user's card,
whose real number ends otherwise. The restorer puts whole stand-ins back; this puts back
the last four digits where a cue ("ending", "ends in", "last four digits", a mask of
stars or dots) says that is what the four digits are.

Only numbers whose stand-in tail belongs to exactly one swapped value are restored (two
cards with the same stand-in tail: left as written, never guessed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from agent.entities import Action, Label, RestoredSpan
from agent.session.conversation import MapEntry

TAIL_LABELS = frozenset({Label.CREDIT_CARD, Label.IBAN})
TAIL_DIGITS = 4

_CUE = (
    r"(?:ending(?:\s+(?:in|with))?|ends\s+(?:in|with)"
    r"|last\s+(?:4|four)(?:\s+digits)?(?:\s+(?:of\s+(?:\w+\s+){1,2})?(?:are|is|were))?"
    r"|(?:[*•·xX]{2,}[\s-]*)+)"
)
_TAIL = re.compile(rf"(?i)(?<![\w*•·])(?:{_CUE})\s*[:#]?\s*(?P<tail>\d{{{TAIL_DIGITS}}})(?!\d)")


def _digits(value: str) -> str:
    return "".join(ch for ch in value if ch.isdigit())


def tail_map(entries: Iterable[MapEntry]) -> dict[str, tuple[str, MapEntry]]:
    """Stand-in tail -> (real tail, entry) for the swapped numbers whose tail changed;
    a tail shared by values with different real tails is left out."""
    found: dict[str, tuple[str, MapEntry]] = {}
    ambiguous: set[str] = set()
    for entry in entries:
        if entry.label not in TAIL_LABELS or entry.action is not Action.REPLACE:
            continue
        stand, real = _digits(entry.stand_in), _digits(entry.real)
        if len(stand) < TAIL_DIGITS or len(real) < TAIL_DIGITS:
            continue
        stand_tail, real_tail = stand[-TAIL_DIGITS:], real[-TAIL_DIGITS:]
        if stand_tail == real_tail:
            continue
        known = found.get(stand_tail)
        if known is not None and known[0] != real_tail:
            ambiguous.add(stand_tail)
        found.setdefault(stand_tail, (real_tail, entry))
    return {tail: value for tail, value in found.items() if tail not in ambiguous}


def put_back_tails(
    text: str, tails: dict[str, tuple[str, MapEntry]], *, start: int = 0, offset: int = 0
) -> tuple[str, list[RestoredSpan]]:
    """`text` with the cued tails of `tails` (tail_map) replaced, only those whose digits
    begin at `start` or later (what comes before is context already shown: the cue of
    "the card ending 8623" may have been shown before its digits came); span offsets are
    relative to `start`, plus `offset`."""
    if not tails or not any(ch.isdigit() for ch in text[start:]):
        return text[start:], []
    pieces: list[str] = []
    spans: list[RestoredSpan] = []
    position = start
    for match in _TAIL.finditer(text):
        hit = tails.get(match.group("tail"))
        begin, end = match.span("tail")
        if hit is None or begin < start:
            continue
        real_tail, entry = hit
        pieces += [text[position:begin], real_tail]
        position = end
        spans.append(RestoredSpan(begin - start + offset, end - start + offset, real_tail, match.group("tail"), entry.label))
    pieces.append(text[position:])
    return "".join(pieces), spans
