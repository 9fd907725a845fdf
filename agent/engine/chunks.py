"""Large texts sanitized in bounded pieces, so memory and time stay bounded.

spaCy and the detectors keep per-text structures whose size grows with the text (a
1 MB text took 1.5 GB in one piece); in pieces of at most CHUNK_CHARS the working set is
that of one piece, and the results (the sanitized text and its replacements) are all
that accumulates.

Pieces end at a paragraph break where one is near the limit, else at a line break,
else after a sentence, else at a space: an entity is very rarely cut in two. All pieces
are sanitized with the same conversation, in order, so a value gets the same stand-in
in every piece (the conversation's map is shared, and its memory finds a name again in
a later piece even where NER would not).

    pieces = split_text(text)                        # [(offset, piece), ...]
    result = sanitize_in_chunks(engine.sanitize, text, conversation, overrides, warnings)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from agent.entities import Action, RiskScore, SanitizeResult
from agent.session.conversation import Conversation

CHUNK_CHARS = 20_000  # a few pages: large enough that few cuts fall near an entity
# Where a piece may end, best first, searched in the last part of the window only (a
# piece is never shorter than half the limit).
_BREAKS = (re.compile(r"\n[ \t]*\n"), re.compile(r"\n"), re.compile(r"[.!?。！？][\"')\]]*\s"), re.compile(r"\s"))


def split_text(text: str, limit: int = CHUNK_CHARS) -> list[tuple[int, str]]:
    """(offset, piece) pairs that cover `text` in order, each at most `limit` characters."""
    pieces: list[tuple[int, str]] = []
    start = 0
    while len(text) - start > limit:
        end = _cut(text, start, start + limit)
        pieces.append((start, text[start:end]))
        start = end
    if start < len(text) or not pieces:
        pieces.append((start, text[start:]))
    return pieces


def _cut(text: str, start: int, hard_end: int) -> int:
    """The end of the piece that starts at `start`: just after the best break in the
    second half of the window, else the hard limit (text with no space at all)."""
    low = start + (hard_end - start) // 2
    for pattern in _BREAKS:
        last = None
        for match in pattern.finditer(text, low, hard_end):
            last = match
        if last is not None:
            return last.end()
    if "\ud800" <= text[hard_end - 1] <= "\udbff":
        return hard_end - 1  # never between the halves of a surrogate pair
    return hard_end


def sanitize_in_chunks(
    sanitize: Callable[[str, Conversation, Mapping[str, Action] | None], SanitizeResult],
    text: str,
    conversation: Conversation,
    overrides: Mapping[str, Action] | None,
    warnings: list[str],
    limit: int = CHUNK_CHARS,
) -> SanitizeResult:
    """`sanitize` applied piece by piece; one result with offsets in the whole text.
    `warnings` (about the whole text) come first, then each piece's, once each."""
    sanitized: list[str] = []
    entities = []
    risk_items: list = []
    all_warnings = list(warnings)
    shift = 0  # sanitized length so far
    for offset, piece in split_text(text, limit):
        result = sanitize(piece, conversation, overrides)
        sanitized.append(result.sanitized)
        entities += [replace(e, start=e.start + offset, end=e.end + offset, sanitized_start=e.sanitized_start + shift,
                             sanitized_end=e.sanitized_end + shift) for e in result.entities]
        risk_items += result.risk.items
        all_warnings += [w for w in result.warnings if w not in all_warnings]
        shift += len(result.sanitized)
    risk = RiskScore(round(sum(w for _, _, w in risk_items), 2), tuple(risk_items))
    return SanitizeResult(text, "".join(sanitized), entities, risk, all_warnings)
