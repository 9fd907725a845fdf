"""Names in and beside Chinese, Japanese and Korean text.

Korean glues particles to the word before them, Japanese glues honorifics, and Chinese
writes no spaces: a Latin name there touches letters of another script ("<name>은",
"<name>さん", "给<name>，"). spaCy's tokenizer reads such a run as one token, so what a
detector finds runs on into the particle, or into the whole clause. The change of script
is where the name ends: trim_at_script_change cuts a span there, and the restorer treats
the same place as a word boundary, so the stand-in glued to the particle comes back.
"""

from __future__ import annotations

import re
from dataclasses import replace

from agent.entities import Label, Span
from agent.knowledge.scripts import CJK

# Labels whose values are names of things (not numbers or dates written in a CJK way).
_NAME_LABELS = frozenset({Label.PERSON, Label.ORG, Label.LOCATION, Label.NORP, Label.MISC})
_HAS_CJK = re.compile(f"[{CJK}]")
# A Latin letter or digit followed by a CJK letter: the Latin run ends there.
_LATIN_THEN_CJK = re.compile(f"(?<=[A-Za-zÀ-ÖØ-öø-ɏ0-9])(?=[{CJK}])")
# CJK words before a capitalised Latin word ("给Ingrid", "후에 Ingrid").
_CJK_BEFORE_LATIN_NAME = re.compile(f"^(?:[{CJK}]+[ \t]*)+(?=[A-ZÀ-ÖØ-Þ])")


def trim_at_script_change(span: Span) -> Span:
    """The span cut to its Latin name where it runs into CJK letters: "Velmora은" ->
    "Velmora", "Ines Varga先生は来週" -> "Ines Varga", "给Ingrid" -> "Ingrid", "후에
    Ingrid에게" -> "Ingrid". A span in one script, or of another label, is returned as it is."""
    if span.label not in _NAME_LABELS or not _HAS_CJK.search(span.text):
        return span
    text, start = span.text, span.start
    lead = _CJK_BEFORE_LATIN_NAME.match(text)
    if lead:
        text, start = text[lead.end():], start + lead.end()
    if not _HAS_CJK.match(text):
        cut = _LATIN_THEN_CJK.search(text)
        if cut:
            text = text[: cut.start()].rstrip()
    if text == span.text or not any(c.isalpha() for c in text):
        return span
    return replace(span, start=start, end=start + len(text), text=text)
