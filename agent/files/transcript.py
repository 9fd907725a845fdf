"""Transcript structure: the speaker prefix of each turn ("Agent:", "Customer:",
"[00:01:12] Speaker 2:") is structure, not content. Role labels and timestamps are kept
as they are (a role is never swapped as if it were a name); a speaker named by their
name ("John Baker:") is content and is swapped like that name anywhere else."""

from __future__ import annotations

import re

from agent.knowledge.names import lexicon
from agent.knowledge.words import is_common_word

_PREFIX = re.compile(
    r"^(?P<prefix>[ \t]*(?P<time>[\[(]?\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?[\])]?[ \t]*(?:-[ \t]*)?)?"
    r"(?P<speaker>[^\W\d_][\w.'’-]*(?:[ \t][\w.'’-]+){0,2}?)[ \t]*:)(?=[ \t]|$)",
    re.MULTILINE,
)
_ROLE_WITH_ID = re.compile(r"^[^\W\d_]+[ \t]+(?:\d{1,3}|[A-Z])$")  # Speaker 2, Caller B


def is_role(speaker: str) -> bool:
    """"Agent", "Customer", "Speaker 2", "Interviewer" are roles; "John", "Mark Lee" are
    people (a first name wins over a common word: "Mark:" is a person)."""
    speaker = speaker.strip()
    if _ROLE_WITH_ID.match(speaker):
        return True
    words = speaker.split()
    if len(words) > 2:
        return False
    names = lexicon()
    if any(names.is_first_name(w) for w in words if w[:1].isupper()) and not all(
        w.casefold() in _COMMON_ROLES for w in words
    ):
        return False
    return all(w.casefold() in _COMMON_ROLES or is_common_word(w.casefold()) for w in words)


# Roles that are also someone's first name in some locale of the name lists.
_COMMON_ROLES = frozenset(
    ["agent", "customer", "caller", "client", "speaker", "interviewer", "interviewee", "operator", "representative", "rep", "support", "host", "guest", "moderator", "doctor", "patient", "nurse", "officer", "witness", "judge", "counsel", "attorney", "lawyer", "teacher", "student", "user", "assistant", "system", "bot", "advisor", "adviser", "manager", "member", "participant", "respondent"]
)


def structure_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every speaker prefix whose speaker is a role (with its timestamp)."""
    spans = []
    for match in _PREFIX.finditer(text):
        if is_role(match.group("speaker")):
            spans.append((match.start("prefix"), match.end("prefix")))
        elif match.group("time"):
            spans.append((match.start("time"), match.end("time")))
    return spans
