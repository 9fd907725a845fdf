"""Person names where code and configuration put them: the value of a key that names a
person's role (`reviewer = "Maria Lindqvist"`, `"author": "..."`, `owner: ...`) and the
owner of a to-do comment (`# TODO(Maria Lindqvist): ...`), headers such as `Author:` and
`Signed-off-by:`. The key or the convention is the evidence, so names no list knows are
found too; the value must still be shaped like a name (capitalised words, no digits,
not code), which leaves `name = "Build Configuration"` and `author = "pypa"` alone."""

from __future__ import annotations

import itertools
import re

from agent.detect.base import DetectionContext
from agent.detect.code_zones import CODE_NAMES, looks_like_code_token
from agent.detect.config_secrets import key_words
from agent.entities import Label, Span

# Key words that say the value is a person ("reviewer", "first_name", "contactName").
PERSON_KEY_WORDS = frozenset({
    "author", "authors", "reviewer", "reviewers", "owner", "owners", "maintainer", "maintainers", "assignee",
    "assignees", "contact", "manager", "editor", "creator", "developer", "engineer", "customer", "employee",
    "patient", "person", "recipient", "sender", "signer", "approver", "requester", "reporter", "fullname",
    "firstname", "lastname", "surname", "givenname", "familyname", "contributor", "lead", "doctor", "physician",
    "tenant", "landlord", "student", "teacher", "client", "member", "applicant", "beneficiary", "guardian",
})
# Pairs that mean a person's name together ("first name", "full name", "display name").
_NAME_PAIRS = {("first", "name"), ("last", "name"), ("full", "name"), ("given", "name"), ("family", "name"),
               ("middle", "name"), ("maiden", "name"), ("legal", "name"), ("contact", "name"), ("display", "name")}

_KEY_VALUE = re.compile(
    r"""(?P<kq>["']?)(?P<k>[A-Za-z_][A-Za-z0-9_.\-]{1,60})(?P=kq)[ \t]*(?::=|=>|=|:)[ \t]*
        (?:(?P<q>["'`])(?P<qv>[^"'`\n]{2,80})(?P=q)|(?P<v>[A-ZÀ-Þ][^\n,;#"'`]{1,80}?)[ \t]*(?:$|[,;#]))""",
    re.VERBOSE | re.MULTILINE,
)
# "TODO(Maria Lindqvist)", "FIXME(mlindqvist)": the owner of the note.
_TODO = re.compile(r"\b(?:TODO|FIXME|XXX|HACK|BUG|NOTE)\((?P<v>[^()\n]{2,60})\)")
# "Author: ...", "@author ...", "Signed-off-by: Maria Lindqvist <...>".
_HEADER = re.compile(
    r"(?im)(?:@author|\b(?:author|maintainer|reviewed-by|signed-off-by|co-authored-by|acked-by|reported-by|"
    r"tested-by|contact|owner)\s*:)[ \t]*(?P<v>[^\n<>(),;:]{2,60}?)[ \t]*(?=$|<|\(|,|;)"
)
_NAME_WORD = re.compile(r"[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ]+(?:['’\-][A-ZÀ-ÖØ-Þa-zà-öø-ÿ][a-zà-öø-ÿ]+)*|[A-Z]\.")
_PARTICLES = frozenset({"van", "von", "der", "den", "de", "da", "del", "della", "di", "du", "la", "le", "bin", "ibn", "al", "ter"})


# A note's owner written as a handle: "TODO(dmitri.volkov)", "FIXME(mlindqvist)", "XXX(j_okafor)".
_HANDLE = re.compile(r"@?[a-z][a-z0-9]*(?:[._-][a-z0-9]+){0,3}")


def _owner_handle(value: str) -> bool:
    """A lower-case handle made of a name ("dmitri.volkov", "mlindqvist": an initial and a
    surname), or of several pieces not all everyday words; not a topic ("TODO(later)",
    "NOTE(perf)") nor a ticket ("TODO(PROJ-123)" is in capitals)."""
    from agent.knowledge.frequency import zipf
    from agent.knowledge.names import lexicon
    from agent.knowledge.words import is_common_word

    if not _HANDLE.fullmatch(value) or len(value) < 3:
        return False
    words = [w for w in re.split(r"[._@-]", value) if w and not w.isdigit()]
    names = lexicon()

    def a_name(word: str) -> bool:
        return (names.is_first_name(word) or names.is_last_name(word)
                or (len(word) > 4 and names.is_last_name(word[1:])))  # "mlindqvist"

    if any(a_name(w) and not is_common_word(w) for w in words):
        return True
    if len(words) == 1 and len(words[0]) >= 6 and zipf(words[0]) == 0 and words[0] not in CODE_NAMES:
        # "tkowalewska": an initial and a surname no list knows; no English text uses it
        # ("TODO(cleanup)", "NOTE(perf)" are words, and short).
        return True
    return len(words) >= 2 and not all(is_common_word(w) or w in CODE_NAMES for w in words)


def is_person_key(key: str) -> bool:
    words = key_words(key)
    if any(w in PERSON_KEY_WORDS for w in words):
        return not any(w in ("id", "ids", "email", "url", "count", "type", "role", "list") for w in words[-1:])
    return any(pair in _NAME_PAIRS for pair in itertools.pairwise(words))


def name_shaped(value: str) -> bool:
    """Two to four capitalised words (particles allowed), none code, the last no ordinary
    word unless the first is a known first name ("The Python Packaging Authority" is not)."""
    from agent.knowledge.names import lexicon
    from agent.knowledge.words import is_common_word

    tokens = value.split()
    core = [t for t in tokens if t.casefold() not in _PARTICLES]
    if not 2 <= len(tokens) <= 4 or len(core) < 2 or looks_like_code_token(value):
        return False
    if not all(_NAME_WORD.fullmatch(t) for t in core) or any(t in CODE_NAMES for t in core):
        return False
    if core[0] in ("The", "A", "An", "Our", "My", "Your"):
        return False
    return not is_common_word(core[-1]) or lexicon().is_first_name(core[0])


class CodeNameDetector:
    name = "code_names"
    labels = frozenset({Label.PERSON})

    def detect(self, text: str, context: DetectionContext | None = None) -> list[Span]:
        spans: list[Span] = []
        if any(ch in text for ch in "=:"):
            for match in _KEY_VALUE.finditer(text):
                if not is_person_key(match.group("k")):
                    continue
                group = "qv" if match.group("qv") is not None else "v"
                self._add(spans, text, match.start(group), match.group(group).strip())
        if "(" in text:
            for match in _TODO.finditer(text):
                value = match.group("v").strip()
                if _owner_handle(value):
                    start = text.index(value, match.start("v"))
                    spans.append(Span(start, start + len(value), Label.USERNAME, value, 0.8, self.name))
                else:
                    self._add(spans, text, match.start("v"), value)
        for match in _HEADER.finditer(text):
            value = match.group("v").strip()
            if _owner_handle(value):  # "// owner: mbeckett", "Author: dmitri.volkov"
                start = text.index(value, match.start("v"))
                spans.append(Span(start, start + len(value), Label.USERNAME, value, 0.8, self.name))
            else:
                self._add(spans, text, match.start("v"), value)
        return spans

    def _add(self, spans: list[Span], text: str, start: int, value: str) -> None:
        if not name_shaped(value):
            return
        start = text.index(value, start)
        if any(s.start == start for s in spans):
            return
        spans.append(Span(start, start + len(value), Label.PERSON, value, 0.85, self.name))
