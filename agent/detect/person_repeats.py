"""A word of a person's name, found again alone under another type, is that person.

"Profile picture for Doreen Halvorsen Doreen HalvorsenThu ...": once the glued weekday is
cut off, the lone "Halvorsen" is read as a CamelCase firm or by NER as an organisation,
and an organisation nobody lists may be kept. A text that names "Doreen Halvorsen" as a
person means her by a bare "Halvorsen" far more often than a firm or a town of that name:
the repeat takes the PERSON type (and is then linked to the full name, so its stand-in is
her stand-in's surname). In a text written in lower case, a lower-case word of a
lower-case name counts the same way. A well-known place keeps its type ("Georgia Brant flew to
Georgia"), and so does what the user listed or the conversation mapped."""

from __future__ import annotations

from dataclasses import replace

from agent.detect.memory import name_parts
from agent.entities import Label, Span
from agent.knowledge.places import is_known_place
from agent.session.conversation import fold

_OTHER_NAMED = frozenset({Label.ORG, Label.LOCATION, Label.MISC, Label.NORP})
_AUTHORITATIVE = frozenset({"always_protect", "custom", "memory"})


def person_word_repeats(spans: list[Span]) -> list[Span]:
    """Spans whose one word is a word of a multi-word PERSON span of the same text, as PERSON."""
    words: set[str] = set()
    lower_words: set[str] = set()  # of names written in lower case ("priya raghunathan")
    for span in spans:
        if span.label is Label.PERSON and span.score >= 0.5 and len(span.text.split()) > 1:
            parts = {fold(part) for part in name_parts(span.text) if len(part) >= 2}
            words.update(parts)
            if span.text.islower():
                lower_words.update(parts)
    if not words:
        return spans
    return [replace(s, label=Label.PERSON) if _is_person_word(s, words, lower_words) else s for s in spans]


def _is_person_word(span: Span, words: set[str], lower_words: set[str]) -> bool:
    value = span.text
    if span.label not in _OTHER_NAMED or span.detector in _AUTHORITATIVE:
        return False
    if " " in value or fold(value) not in (words if value[:1].isupper() else lower_words if value.islower() else ()):
        return False
    return not is_known_place(value)
