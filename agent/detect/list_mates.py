"""A name in a list of people is a person.

Items joined by commas, "and", "&" or "or" on one line are things of one kind: in "Ottilie,
Bertram, Linnea and Cosima" NER may read one given name as a town (GPE) although the list
around it says who it is, and its guess outscores the list evidence of the person-name
detector (agent/detect/person_names.py, which finds the list's unfound items) in the
overlap step. So after that step: where most items of such a list are people (at least
two, and twice as many as the items of other types), an item typed otherwise becomes a
person when its first word is a given name the name lists know and no place or company
list claims it ("Paris, Chelsea" stay places, "Apple" a firm). A list that is mostly
places or firms changes nothing."""

from __future__ import annotations

import re
from dataclasses import replace

from agent.entities import Label, Span
from agent.knowledge.companies import is_listed_company
from agent.knowledge.names import lexicon
from agent.knowledge.person_words import TITLE_PATTERN
from agent.knowledge.places import is_known_place

# What may stand between two items of one list, on one line: a comma, a semicolon, "and",
# "or", "&", with a serial comma ("A, B, and C"), and a title before the next item
# ("Mr. Halloran, Mrs. Okafor").
_SEPARATOR = re.compile(
    rf"[ \t]*(?:[,;&]|\band\b|\bor\b)(?:[ \t]*,?[ \t]*(?:\band\b|\bor\b))?[ \t]*,?[ \t]*"
    rf"(?:(?:{TITLE_PATTERN})\.?[ \t]+)?",
    re.IGNORECASE,
)
_NAMED = frozenset({Label.PERSON, Label.LOCATION, Label.ORG, Label.NORP, Label.MISC})
_AUTHORITATIVE = frozenset({"always_protect", "custom", "memory"})


def people_in_lists(text: str, spans: list[Span]) -> list[Span]:
    """Spans with the items of a list of people typed PERSON."""
    named = [s for s in spans if s.label in _NAMED]
    people = sum(s.label is Label.PERSON for s in named)
    if people < 2 or people == len(named):  # too few people, or nothing to retype
        return spans
    retyped: dict[int, Span] = {}
    for items in _lists(text, named):
        people = sum(s.label is Label.PERSON for s in items)
        if people < 2 or people < 2 * (len(items) - people):
            continue
        for item in items:
            if item.label is not Label.PERSON and _may_be_a_person(item):
                retyped[id(item)] = replace(item, label=Label.PERSON)
    return [retyped.get(id(s), s) for s in spans] if retyped else spans


def _lists(text: str, named: list[Span]):
    """Runs of three or more spans with nothing but list separators between them."""
    run: list[Span] = []
    for span in sorted(named, key=lambda s: s.start):
        if run and not _separates(text, run[-1].end, span.start):
            if len(run) >= 3:
                yield run
            run = []
        run.append(span)
    if len(run) >= 3:
        yield run


def _separates(text: str, start: int, end: int) -> bool:
    if start >= end:
        return False
    sep = _SEPARATOR.match(text, start, end)
    return sep is not None and sep.end() == end


def _may_be_a_person(span: Span) -> bool:
    """One or two capitalised words, the first a given name the lists know, that no place
    or company list claims; what the user listed or the conversation mapped keeps its type."""
    words = span.text.split()
    if span.detector in _AUTHORITATIVE or not 1 <= len(words) <= 2 or not all(w[:1].isupper() for w in words):
        return False
    return lexicon().is_first_name(words[0]) and not (is_known_place(span.text) or is_listed_company(span.text))
