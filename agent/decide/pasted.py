"""Where a prompt carries a pasted document that no introductory line announces.

Many prompts are mostly a text the user pasted (an e-mail, a letter, a passage in quotes)
with a short request before or after it, or none at all: "<e-mail> Correct it",
"<English paragraph> <a question about it in Chinese>", 'The letter said "<passage>"'.
The answer is built from that text (reworded, checked, translated, explained), so the
names inside it are the document's details, not what the request asks about; the stand-ins
put back into the answer serve as well as the real names.

`pasted_regions(text)` gives the character ranges of such documents, from the structure of
the text alone (quotation marks, a letter's greeting and sign-off, a change of script, a
closing request): no word lists of places or people.
"""

from __future__ import annotations

import re
from functools import lru_cache

# A passage in double quotes (quotes paired in order) long enough to be a document (a few
# sentences), not a title or a phrase; with the user's own words before it (a prompt put
# in quotes as a whole is the request itself).
# "Write a song with the following:", 'a story where a fox lives in "<setting>"': what a new
# story or song must have (its characters included), not a text to work on.
FICTION_SPEC_BEFORE = re.compile(
    r"(?i)\b(?:story|stories|poem|song|lyrics|script|screenplay|fan\s*fic\w*|tale|rap|scene|dialogue|plot|novel|"
    r"chapter|episode)\b[^.!?\n]{0,80}$"
)
# 'this speech from Hamlet: "..."', 'a line by Rumi: "..."': a passage quoted from a named
# work or author, whose names (its characters) are what the request is about.
_FROM_A_SOURCE_BEFORE = re.compile(r"\b(?:from|in|by)\s+(?:the\s+)?[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)*[^.!?\n\"“«]{0,40}$")
_QUOTED = re.compile(r"[\"“«]([^\"“”«»]*)[\"”»]")
_MIN_QUOTED = 200
_INTRODUCED = re.compile(r"[^\W\d_]{2}")

# Whom a chat prompt greets when it greets the assistant ("Hi ChatGPT, ..."): then the
# greeting opens a request, not a letter.
_ASSISTANT = r"(?:chat\s*gpt|gpt\w*|ai|assistant|bot|chatbot|bard|claude|gemini|copilot|there)\b"
# A letter's greeting to someone by name at the start of a line, of the text or of a quote:
# "Dear Ms. Ito,", "Hello Odile,", "Good morning Team,", "To whom it may concern".
_NAMED_GREETING = re.compile(
    rf"(?m)(?:^|(?<=[:\"“]))[ \t]*(?:(?i:dear)\s+(?!(?i:{_ASSISTANT}))\S|(?i:to\s+whom\s+it\s+may\s+concern)|"
    rf"(?i:hello|hi|hey|greetings|good\s+(?:morning|afternoon|evening))[ \t]+(?!(?i:{_ASSISTANT}))"
    rf"[A-Z][\w'’\-.]*(?:[ \t]+[A-Z][\w'’\-.]*){{0,2}}[ \t]*(?:,|\n))"
)
# A letter's closing formula.
_SIGN_OFF = re.compile(
    r"(?i)\b(?:(?:best|kind|warm|warmest|with\s+best)\s+regards|regards\s*,|yours\s+(?:truly|faithfully|sincerely)|"
    r"sincerely\s*(?:,|\n|yours)|best\s+wishes\s*,|thanks\s+(?:and|&)\s+regards)"
)
# A short request closing a pasted text: "... Correct it", "... rewrite this please",
# "... what does this mean?".
_CLOSING_REQUEST = re.compile(
    r"(?i)(?:\b(?:correct|rewrite|re-write|rephrase|paraphrase|reword|proof[\s\-]?read|shorten|polish|simplify|edit|fix|"
    r"improve|summari[sz]e|translate|check)(?:\s+(?:it|this|that|them|please|the\s+(?:text|above|grammar|spelling|mistakes|errors)|"
    r"grammar|spelling|(?:in|into|to)\s+[A-Za-z]+)){0,3}|\bwhat\s+does\s+(?:this|it|that)\s+mean|"
    r"\bis\s+(?:this|it|that)\s+(?:correct|right|ok|okay|good|grammatical))[\s.!?]*$"
)
_MIN_DOCUMENT = 150  # characters before a closing request
_SENTENCE_BEFORE = re.compile(r"[.!?:;)\]\"”’'\n][ \t]*$")


def _starts_a_sentence(text: str, start: int) -> bool:
    """A closing request is a sentence of its own (after a full stop or a line break, or
    written with a capital: "... Regards, Ana Correct it"); "write about Lisbon and
    translate it into French" is one request, not a text and a request."""
    return text[start].isupper() or _SENTENCE_BEFORE.search(text, max(0, start - 4), start) is not None

_LATIN = "A-Za-z\u00c0-\u024f"
_LATIN_RUN = re.compile(f"[{_LATIN}]+")
_OTHER_RUN = re.compile(f"[^\\W\\d_{_LATIN}]+")  # letters of any other script
# A request written in another script than the text it is about: at least this many letters;
# and a body of a few sentences (one or two sentences with a foreign tag after them are more
# often the request itself).
_MIN_REQUEST_LETTERS = 5
_MIN_BODY_LETTERS = 150


def _script_change_body(text: str) -> tuple[int, int] | None:
    """The range of a text written in one script (Latin or not) that a request in another
    script precedes or follows ("<Russian request>: <English text>", "<English e-mail>
    <Chinese question>"), or None. The other script must not occur inside the body (a
    foreign name in the middle of a question is not a request)."""
    if _OTHER_RUN.search(text) is None or _LATIN_RUN.search(text) is None:
        return None
    latin = [m.span() for m in _LATIN_RUN.finditer(text)]
    others = [m.span() for m in _OTHER_RUN.finditer(text)]
    latin_letters = sum(b - a for a, b in latin)
    other_letters = sum(b - a for a, b in others)
    body, request = (latin, others) if latin_letters >= other_letters else (others, latin)
    if min(latin_letters, other_letters) < _MIN_REQUEST_LETTERS or max(latin_letters, other_letters) < _MIN_BODY_LETTERS:
        return None
    first, last = body[0][0], body[-1][1]
    if any(first < a < last for a, _ in request):
        return None
    return first, last


@lru_cache(maxsize=16)
def pasted_regions(text: str) -> tuple[tuple[int, int], ...]:
    """Character ranges (start, end) of documents pasted into the prompt."""
    regions: list[tuple[int, int]] = []
    if '"' in text or "“" in text or "«" in text:
        regions.extend(
            (m.start(1), m.end(1))
            for m in _QUOTED.finditer(text)
            if m.end(1) - m.start(1) >= _MIN_QUOTED
            and _INTRODUCED.search(text, 0, m.start())
            and not FICTION_SPEC_BEFORE.search(text, max(0, m.start() - 120), m.start())
            and not _FROM_A_SOURCE_BEFORE.search(text, max(0, m.start() - 120), m.start())
        )
    greeting = _NAMED_GREETING.search(text)
    if greeting:
        regions.append((greeting.start(), len(text)))
    if _SIGN_OFF.search(text):
        regions.append((greeting.start() if greeting else 0, len(text)))
    closing = _CLOSING_REQUEST.search(text, max(0, len(text) - 80))
    if closing and closing.start() >= _MIN_DOCUMENT and _starts_a_sentence(text, closing.start()):
        regions.append((0, closing.start()))
    body = _script_change_body(text)
    if body:
        regions.append(body)
    return tuple(regions)


def in_pasted_document(text: str, start: int, end: int) -> bool:
    return any(a <= start and end <= b for a, b in pasted_regions(text))
