"""(?i) regexes of lower-case words, read faster: in ASCII text, a case-sensitive copy of
such a regex searched in the lower-cased text matches exactly where the (?i) one does
(the case-folding pairs outside ASCII, "ſ"/"s", "K"/"k", "İ"/"i", do not arise), and the
case-sensitive regex skips ahead to its first letters. Other texts are read as written.
Used where a text or a window around each entity is searched for cue words (issue 11:
`--fast` keeps within 1.5 x bare spaCy NER)."""

from __future__ import annotations

import re


class FoldedSearch:
    """`search(text)` of a (?i) regex whose words are all lower case, same answer."""

    def __init__(self, pattern: re.Pattern[str]):
        source = pattern.pattern.removeprefix("(?i)")
        if not pattern.flags & re.IGNORECASE or source != source.lower() or "(?i" in source or "(?-i" in source:
            raise ValueError(f"not a (?i) regex of lower-case words: {pattern.pattern[:60]!r}")
        self.pattern = pattern
        self.folded = re.compile(source, pattern.flags & ~re.IGNORECASE)

    def search(self, text: str, lowered: str | None = None) -> re.Match[str] | None:
        """A match in `text` (of the lower-cased text when ASCII: its offsets are the same,
        its letters lower case). `lowered`: text.lower(), when the caller has it."""
        if text.isascii():
            return self.folded.search(text.lower() if lowered is None else lowered)
        return self.pattern.search(text)


class LoweredText:
    """A text and, when it is ASCII, its lower-cased copy, made once for many searches of
    the text and of windows of it."""

    __slots__ = ("text", "lowered")

    def __init__(self, text: str):
        self.text = text
        self.lowered = text.lower() if text.isascii() else None

    def window(self, start: int, end: int) -> tuple[str, str | None]:
        """text[start:end] and its lower-cased copy (None outside ASCII)."""
        return self.text[start:end], None if self.lowered is None else self.lowered[start:end]
