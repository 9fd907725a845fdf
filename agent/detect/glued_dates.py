"""A name that runs on into the timestamp after it ("<name>Wed Mar 8 2023", as comment
threads copied from a web page write it) ends where the weekday or month name begins.

Two places see the glue: spaCy's tokenizer, which otherwise reads "<surname>Wed" as one
word (and the NER then types the pair an organisation or a product), and every named span,
cut at the glue whichever detector found it."""

from __future__ import annotations

from dataclasses import replace

from agent.entities import Label, Span
from agent.knowledge.calendar_words import CALENDAR_ALTERNATION, GLUE_BEFORE, glued_calendar_word

_CUT_LABELS = frozenset({Label.PERSON, Label.ORG, Label.LOCATION, Label.NORP, Label.MISC})

# For spaCy's tokenizer: an empty infix where a word of three letters or more (the last two
# lower case) runs on into a capitalised weekday or month name that ends the token.
GLUED_CALENDAR_INFIX = GLUE_BEFORE + "(?=(?:" + CALENDAR_ALTERNATION + ")$)"


def trim_at_glued_date(span: Span) -> Span:
    """The span cut where its last word runs on into a weekday or month name; other spans
    as they are."""
    if span.label not in _CUT_LABELS:
        return span
    cut = glued_calendar_word(span.text)
    if cut is None:
        return span
    text = span.text[:cut]
    return replace(span, end=span.start + len(text), text=text)
