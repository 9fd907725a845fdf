"""Cheap tests of whether a stand-in's pattern can match an answer at all, so the restorer
compiles only the patterns of the stand-ins an answer holds (compiling every stand-in's
pattern with its look-arounds was most of a short answer's restore time).

Each test is a necessary condition of a match: a plain substring test on a key that
Python's case-insensitive matching cannot tell apart. A test that says "absent" when the
pattern would match would lose a restore, so the keys follow the regex engine exactly:
re.IGNORECASE compares characters by their simple lower case (one character, not
str.lower's "i̇" for "İ") plus a few extra equivalences (i/ı, s/ſ, µ/μ, ...), both read
from the engine itself."""

from __future__ import annotations

import _sre
import re
from re._casefix import _EXTRA_CASES  # the equivalences re.IGNORECASE adds (Python >= 3.11)


class _RegexFold(dict[int, int]):
    """A str.translate table: each character to one representative of the characters
    re.IGNORECASE treats as equal to it (filled on first use of a character)."""

    def __missing__(self, code: int) -> int:
        lower = _sre.unicode_tolower(code)
        value = min((lower, *_EXTRA_CASES.get(lower, ())))
        self[code] = value
        return value


_FOLD = _RegexFold()


def regex_fold(text: str) -> str:
    """`text` with every character replaced by its re.IGNORECASE class representative:
    a pattern of literal characters matches (ignoring case) only where its regex_fold
    occurs in the text's regex_fold. Same length as `text`."""
    if text.isascii():
        # ASCII letters' classes are represented by the ASCII lower case ("ı" -> "i").
        return text.lower()
    return text.translate(_FOLD)


_NOT_DIGIT = re.compile(r"[^0-9]+")
_SPACE_OR_HYPHEN = re.compile(r"[\s-]+")
# The regex's \s is str.isspace (tests/test_restore_prefilter.py checks every character), so a
# run of it in the answer is one " " as str.split() + " ".join() writes a stand-in's words.
_SPACES = re.compile(r"\s+")


class AnswerKeys:
    """The keys of one answer, each computed once on first use."""

    def __init__(self, text: str):
        self._text = text
        self._folded: str | None = None
        self._digits: str | None = None
        self._compact: str | None = None

    @property
    def folded(self) -> str:
        """The answer folded, each run of white space one " "."""
        if self._folded is None:
            self._folded = regex_fold(_SPACES.sub(" ", self._text))
        return self._folded

    @property
    def digits(self) -> str:
        """The answer's digits (0-9) alone: a number the LLM wrote with any separators
        (spaces, dots, dashes, brackets) between its digits is a substring of them."""
        if self._digits is None:
            self._digits = _NOT_DIGIT.sub("", self._text)
        return self._digits

    @property
    def compact(self) -> str:
        """The answer folded without white space and hyphens (an IBAN in any grouping)."""
        if self._compact is None:
            self._compact = regex_fold(_SPACE_OR_HYPHEN.sub("", self._text))
        return self._compact


class Probe:
    """Whether one pattern of the restorer may match an answer: `needle` occurs in one of
    the answer's keys (AnswerKeys' property named `key`)."""

    __slots__ = ("key", "needle")

    def __init__(self, key: str, needle: str):
        self.key = key
        self.needle = needle

    @classmethod
    def words(cls, surface: str) -> Probe:
        """A stand-in's words joined by any white space (the pattern r"\\s+".join(words))."""
        return cls("folded", regex_fold(" ".join(surface.split())))

    @classmethod
    def digits(cls, digits: str) -> Probe:
        """A number's digits (0-9) with any separators between them; digits of other
        kinds (str.isdigit is wider) are not looked for: such a pattern may always match."""
        return cls("digits", digits) if digits.isascii() else cls("folded", "")

    @classmethod
    def compact(cls, compact: str) -> Probe:
        """Letters and digits with at most a space or hyphen between them (an IBAN)."""
        return cls("compact", regex_fold(compact))

    def may_match(self, keys: AnswerKeys) -> bool:
        return self.needle in getattr(keys, self.key)


class Prefilter:
    """The probes of a list of patterns, grouped by the key they read."""

    def __init__(self, probes: list[Probe]):
        self._by_key: dict[str, list[tuple[int, str]]] = {}
        for index, probe in enumerate(probes):
            self._by_key.setdefault(probe.key, []).append((index, probe.needle))
        self._probes = probes

    def present(self, text: str) -> tuple[int, ...]:
        """The indices, in order, of the patterns that may match `text`."""
        keys = AnswerKeys(text)
        found = [i for key, needles in self._by_key.items() for haystack in [getattr(keys, key)]
                 for i, needle in needles if needle in haystack]
        found.sort()
        return tuple(found)
