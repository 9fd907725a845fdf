"""Code stays code: a name, place or organisation "found" in an identifier, a path, a hex
or base64 string, a `Class::method`, a `host:port` or a line of code outside its string
literals and comments is not one. Personal data inside code (an e-mail in a config, a key,
a name in a string literal or a comment) is left to the detectors as usual.

`is_code(text, span)` answers for one span of a name-like type."""

from __future__ import annotations

import builtins
import keyword
import re
import typing

from agent.entities import Span

# Names every Python program uses (keywords, builtins, typing): None, True, Exception,
# Optional... In code they are never a person, a place or an organisation.
CODE_NAMES = frozenset(keyword.kwlist) | frozenset(dir(builtins)) | frozenset(n for n in dir(typing) if n[:1].isupper())
# ...and the literals of JSON, SQL, JavaScript and YAML.
CODE_NAMES |= frozenset({"TRUE", "FALSE", "NULL", "NaN", "null", "true", "false", "undefined", "nil", "Infinity"})

# Characters that never occur in a name, place or organisation as written in prose.
_CODE_CHARS = re.compile(r"::|->|=>|[_/\\=(){}<>$;|`]|[a-z0-9]\.[a-z]|:\d")
# An internal capital after a lower-case letter (toString, MyClass), except name particles
# (McDonald, MacArthur, DeShawn, LeBron, DiCaprio, O'Neil).
_CAMEL = re.compile(r"[a-z][A-Z][a-z]|^[a-z]+[A-Z]")  # not legal forms: GmbH, KGaA
_NAME_PARTICLE = re.compile(r"^(?:Mc|Mac|De|Di|Da|Du|La|Le|Van|Von|Fitz|St|O'|D')[A-Z][a-z]")
# Case flips inside one token, as in base64 ("dXNlcjpwYXNz") or generated ids.
_CASE_FLIPS = re.compile(r"(?:[a-z][A-Z]|[A-Z][a-z]){3,}")
# What stands right before or after an identifier in code.
_BEFORE_CODE = re.compile(r"(?:::|->|\.|#|\$|@|%|&|\*|~|\w\()$")
_AFTER_CODE = re.compile(r"^(?:::|->|\(|\[|\.\w|=(?!=)|:\w|:\d|<\w|_)")
# A line that is code: keywords that start statements, or the punctuation of code.
_CODE_LINE = re.compile(
    r"""^\s*(?:def|class|import|from\s+\S+\s+import|return|raise|yield|async|await|elif|except|finally|lambda|
            const|let|var|function|export|public|private|protected|static|void|int|char|struct|enum|interface|
            package|namespace|using|\#include|\#define|SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|WHERE|JOIN|
            at\s+[\w.$]+\(|File\s+".*",\s+line\s+\d+|Traceback)\b|^\s*@[\w.]+(?:\(.*\))?\s*$"""
    r"""|^\s*[\w.\[\]'"]+\s*(?:=|\+=|-=|:=)\s*\S|[;{]\s*$|^\s*[}\])]|^\s*[\w.]+\(.*\)\s*[;:]?\s*$""",
    re.VERBOSE,
)


_COMMENT_START = re.compile(r"^\s*(?:#|//|/\*|\*|--)")


def _line_of(text: str, start: int, end: int) -> tuple[str, int]:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    return text[line_start : line_end if line_end != -1 else len(text)], line_start


def _in_string_or_comment(line: str, offset: int) -> bool:
    """Is position offset of a code line inside a string literal or a comment?"""
    quote = None
    i = 0
    while i < offset:
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "\"'`":
            quote = ch
        elif ch == "#" or line.startswith("//", i) or line.startswith("/*", i) or (line.startswith("--", i) and i == len(line) - len(line.lstrip())):
            return True
        i += 1
    return quote is not None


def looks_like_code_token(value: str) -> bool:
    """One token that is an identifier or an encoded string, whatever its context."""
    if _CODE_CHARS.search(value) or value in CODE_NAMES:
        return True
    for token in value.split():
        core = token.strip(".,;:!?\"'")
        if _CAMEL.search(core) and not _NAME_PARTICLE.match(core):
            return True
        if _CASE_FLIPS.search(core) and len(core) >= 8:
            return True
        if len(core) >= 12 and core.isupper() and core.isalpha():
            return True  # ABCDEFGHIJKLMNO: a constant or test data, not a name
    return False


def is_code(text: str, span: Span, *, token_rules: bool = True) -> bool:
    """token_rules=False for values that may hold underscores and digits (usernames)."""
    value = text[span.start : span.end]
    if token_rules and looks_like_code_token(value):
        return True
    line, line_start = _line_of(text, span.start, span.end)
    if _CODE_LINE.search(line) or _COMMENT_START.match(line):
        if _in_string_or_comment(line, span.start - line_start):
            return False  # a name in a string literal or a comment is a name
        if _CODE_LINE.search(line):
            return True
    before, after = text[max(0, span.start - 3) : span.start], text[span.end : span.end + 3]
    return bool(_BEFORE_CODE.search(before) or _AFTER_CODE.match(after))


# The head of a log line: a timestamp, a level, maybe a logger name in brackets.
_LOG_HEADER = re.compile(
    r"^[ \t]*\[?\d{4}-\d{2}-\d{2}[T ][\d:.,]+(?:Z|[+\-][\d:]+)?\]?[ \t]+\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|"
    r"ERROR|CRITICAL|FATAL)\]?(?:[ \t]+\[[\w.\-]+\])?",
    re.MULTILINE,
)


def in_log_header(text: str, span: Span) -> bool:
    line_start = text.rfind("\n", 0, span.start) + 1
    header = _LOG_HEADER.match(text, line_start)
    return header is not None and span.end <= header.end()


def is_code_text(text: str) -> bool:
    """Is the text mostly code, configuration or log (a third of its lines or more)?"""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 3:
        return False
    code = sum(1 for line in lines if _CODE_LINE.search(line) or _COMMENT_START.match(line) or _LOG_HEADER.match(line))
    return code * 3 >= len(lines)


def is_word_in_code(text: str, span: Span) -> bool:
    """In a text that is code, a single capitalised or shouted word ("SOFTWARE", "String",
    "Schema") outside string literals is a word of the code or its comments, not a name."""
    from agent.knowledge.words import is_common_word

    value = span.text.strip(".,;:!?\"'")
    if " " in value or not value.isalpha():
        return False
    if not (value.isupper() or is_common_word(value.lower())):
        return False
    line, line_start = _line_of(text, span.start, span.end)
    quote = _in_string_or_comment(line, span.start - line_start) and not _COMMENT_START.match(line)
    return not quote
