"""Logins made of a person's name, written bare in prose, logs and tickets: an initial or two
and a surname ("mgarcia", "rpatel", "mkowalski": "commits by mgarcia", "assigned to
rpatel"), or a first and a last name joined by a dot or an underscore ("raj.patel",
"lena_kowalski"). They carry the name, and nothing else in the sentence says so: no "@", no
"username:" cue. The shape is the evidence, so it is held to what names are made of: the
surname (and the first name) a list knows, the login itself no English word (pyspellchecker's
list, ~160,000 words, none of which passes) and no name on its own ("mcdonald")."""

from __future__ import annotations

import re

from agent.detect.base import DetectionContext
from agent.entities import Label, Span
from agent.knowledge.frequency import zipf
from agent.knowledge.names import lexicon
from agent.knowledge.words import is_common_word, word_frequency

_DETECTOR = "logins"
# A lower-case token standing alone: not part of a path, an address, a URL or a dotted call
# (those have their own detectors, or are code).
_INITIALS_SURNAME = re.compile(r"(?<![\w@./\\:-])[a-z]{5,24}(?![\w@/\\-]|\.\w|\()")
_FIRST_DOT_LAST = re.compile(r"(?<![\w@./\\:-])(?P<first>[a-z]{2,15})[._](?P<last>[a-z]{2,20})(?![\w@/\\-]|\.\w|\()")
# wordfreq's Zipf under which a token is written by almost no English text.
_UNWRITTEN_ZIPF = 1.5


def initials_and_surname(token: str) -> int:
    """How many initials open a login of an initial or two and a surname ("mgarcia": 1),
    0 when it is no such login."""
    names = lexicon()
    if not token.isalpha() or word_frequency(token) or zipf(token) >= _UNWRITTEN_ZIPF:
        return 0
    info = names.info(token)
    if info.is_first or info.is_last:
        return 0  # a name written in lower case, not a login
    return next((k for k in (1, 2) if _surname_part(token[k:])), 0)


def _surname_part(part: str) -> bool:
    """A listed surname of five letters or more: with four, words of code and of other
    languages pass ("qreal", "mmread", Turkish "buram")."""
    return len(part) >= 5 and lexicon().is_last_name(part)


def _first_and_last(first: str, last: str) -> bool:
    names = lexicon()
    # "raj.patel": lists have "Raj" only as an Indian surname, so either list will do first.
    if not ((names.is_first_name(first) or names.is_last_name(first)) and names.is_last_name(last)):
        return False
    return not (is_common_word(first) and is_common_word(last))  # "rose.gold", "grace.period"


class LoginNameDetector:
    name = _DETECTOR
    labels = frozenset({Label.USERNAME})

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans = [
            Span(m.start(), m.end(), Label.USERNAME, m.group(), 0.6, _DETECTOR)
            for m in _INITIALS_SURNAME.finditer(text)
            if initials_and_surname(m.group())
        ]
        if "." in text or "_" in text:
            spans += [
                Span(m.start(), m.end(), Label.USERNAME, m.group(), 0.6, _DETECTOR)
                for m in _FIRST_DOT_LAST.finditer(text)
                if _first_and_last(m.group("first"), m.group("last"))
            ]
        return spans
