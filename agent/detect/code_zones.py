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
from agent.knowledge.org_words import LEGAL_FORM_WORDS as _LEGAL_WORDS  # GmbH, KGaA, SpA: not code
from agent.knowledge.org_words import ORG_KIND_WORDS

# Words of a firm's name that no identifier has after it, past a space.
# (Trade and kind words of four letters or more: the lists' short entries are particles.)
_NOT_AFTER_AN_IDENTIFIER = _LEGAL_WORDS | {w for w in ORG_KIND_WORDS if len(w) >= 4}

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
_BEFORE_CODE = re.compile(r"(?:::|->|\.|#|\$|@|%|&|\*|~|\w\()\Z")  # \Z: "$" also matches before a line break
_AFTER_CODE = re.compile(r"^(?:::|->|\(|\[|\.\w|=(?!=)|:\w|:\d|<\w|_)")
# A line that is code: keywords that start statements, or the punctuation of code.
_CODE_LINE = re.compile(
    r"""^\s*(?:def|class|import|from\s+\S+\s+import|return|raise|yield|async|await|elif|except|finally|lambda|
            function|export|public|private|protected|static|void|int|char|struct|enum|interface|
            package|namespace|using|\#include|\#define|SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|WHERE|JOIN|
            at\s+[\w.$]+\(|File\s+".*",\s+line\s+\d+|Traceback)\b|^\s*@[\w.]+(?:\(.*\))?\s*$"""
    # "let"/"const"/"var" only in a declaration's shape ("let x =", "const {a} =", "let mut n;"):
    # as English words they open ordinary sentences ("let us plan the trip").
    r"""|^\s*(?:const|let|var)\s+(?:mut\s+)?(?:[\w$]+\s*(?:[=:;,]|$)|[\[{])"""
    r"""|^\s*[\w.\[\]'"]+\s*(?:=|\+=|-=|:=)\s*\S|\{\s*$|^\s*[}\])]|^\s*[\w.]+\(.*\)\s*[;:]?\s*$""",
    re.VERBOSE,
)
# A statement's end. Prose lists end their items with ";" too (a CV's "led the partnership
# with X;", a contract's clauses), so such a line is code only without a run of six plain
# words outside its string literals.
_SEMICOLON_END = re.compile(r";\s*$")
_STRING_LITERAL = re.compile(r""""[^"\n]*"|'[^'\n]*'""")
_PROSE_RUN = re.compile(r"(?:[^\W\d_]{2,}[ \t]+){5}[^\W\d_]{2,}")


def is_code_line(line: str) -> bool:
    """Whether a line has the shape of a line of code (_CODE_LINE, or a statement ending in
    ";" that is no sentence)."""
    if _CODE_LINE.search(line):
        return True
    return bool(_SEMICOLON_END.search(line)) and not _PROSE_RUN.search(_STRING_LITERAL.sub('""', line))


_COMMENT_START = re.compile(r"^\s*(?:#|//|/\*|\*|--)")


class _CodeLinesOfLastText:
    """is_code_line per line of the last text asked about: the registry asks about every
    entity of a text, detector after detector, and searching a long paragraph again for
    each took ~0.2 ms per entity of a document. Kept by the line's place in that text
    (the same text object), so a line is searched once."""

    def __init__(self) -> None:
        self._last: tuple[str, dict[tuple[int, int], bool]] | None = None

    def __call__(self, text: str, line_start: int, line: str) -> bool:
        last = self._last
        if last is None or last[0] is not text:
            last = self._last = (text, {})
        key = (line_start, len(line))
        found = last[1].get(key)
        if found is None:
            found = last[1][key] = is_code_line(line)
        return found


_is_code_line = _CodeLinesOfLastText()


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
    tokens = value.split()
    if len(tokens) > 1 and tokens[-1].strip(".,;:!?\"'").casefold() in _NOT_AFTER_AN_IDENTIFIER:
        return False  # "BrixPay Ltd", "AquaFix Services": an identifier has no legal form or trade after a space
    for token in tokens:
        core = token.strip(".,;:!?\"'")
        if _CAMEL.search(core) and not _NAME_PARTICLE.match(core) and core.casefold() not in _LEGAL_WORDS:
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
    code_line = _is_code_line(text, line_start, line)
    if code_line or _COMMENT_START.match(line):
        if _in_string_or_comment(line, span.start - line_start):
            return False  # a name in a string literal or a comment is a name
        if code_line:
            return True
    before, after = text[max(0, span.start - 3) : span.start], text[span.end : span.end + 3]
    if before.endswith("*") and _emphasis_opens(text, span, line, line_start):
        return bool(_AFTER_CODE.match(after))
    return bool(_BEFORE_CODE.search(before) or _AFTER_CODE.match(after))


# Markdown emphasis around prose: role-play actions ("*Ilka shrugs.*") and bold speaker
# labels ("**Ilka:**"). The opening asterisks follow a space, a bracket, a quote or the
# line start; a closing one touches the word before it, later on the line. (A pointer or a
# product in code, "x = *Ptr;", "a * B", has no such pair.)
_EMPHASIS_OPEN = re.compile(r"(?:^|[\s(\[\"“'‘])\*{1,2}$")
_EMPHASIS_CLOSE = re.compile(r"(?<=[^\s*])\*{1,2}(?![\w*])")


def _emphasis_opens(text: str, span: Span, line: str, line_start: int) -> bool:
    offset = span.start - line_start
    return bool(_EMPHASIS_OPEN.search(line, 0, offset)) and bool(_EMPHASIS_CLOSE.search(line, offset + 1))


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
    code = sum(1 for line in lines if is_code_line(line) or _COMMENT_START.match(line) or _LOG_HEADER.match(line))
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


# -- technical zones --------------------------------------------------------------------
# Tokens that only technical writing has: inline code, snake_case, camelCase and
# CamelCase-with-acronym identifiers, calls, dotted module paths, operators, brackets,
# code literals, version numbers, command-line flags and source file names. E-mail
# addresses and URLs are taken out before counting (people write those in any prose).
# (Each pattern opens with a look-ahead for what one of its alternatives must start with:
# a word start, a word character before "[", or a symbol. The matches are the same; the
# engine no longer tries every alternative inside every word.)
_TECH_TOKEN = re.compile(
    r"""(?=\b\w|\w\[|[`:=!+<{}\-])(?:`[^`\n]+`
      | \b[a-z][a-z0-9]*_[A-Za-z0-9_]+\b | \b[A-Z][a-z]+_\w+
      | \b[a-z]+[A-Z][A-Za-z0-9]*\b
      | \b[A-Z]{2,}[a-z][A-Za-z0-9]*\b | \b[A-Z][a-z]+[A-Z]{2,}\w*\b
      | \b[A-Za-z_][\w.]*\((?:\)|[\w\s'"=.\[\]]*[,='"][\w\s,'"=.\[\]]*\))
      | \b[a-z_][a-z0-9_]+(?:\.[a-z_][a-z0-9_]*)+\b(?!\s*[A-Z]) | \b[A-Za-z_]\w+\.[A-Z]\w+
      | ::|->|=>|==|!=|\+=|:=|</?[a-z]+>
      | \w\[ | [{}]
      | \b(?:None|True|False|null|nil|self|def|str|int|bool|dict|bytes|float|void|const|async|await|kwargs|args)\b
      | \b\d+\.\d+\.\d+\b
      | (?<!\w)--?[a-z][\w-]+
      | \b\w+\.(?:py|js|ts|json|toml|yaml|yml|cfg|ini|rst|md|sh|cpp|hpp|go|rs|java|qrc|so|dll)\b)""",
    re.VERBOSE,
)
# The surest of them: inline code, a lower-case snake_case identifier, a call with
# arguments, `::`/`->`, the literals and keywords of code.
_STRONG_TECH = re.compile(
    r"(?=\b\w|[`:\-])(?:`[^`\n]+`|\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b[A-Za-z_][\w.]*\((?:\)|[^()\n]*[,='\"][^()\n]*\))|::|->"
    r"|\b(?:None|True|False|self|def|kwargs)\b)"
)
_NOT_COUNTED = re.compile(r"\S+@\S+|\b(?:https?|wss?|ftps?|sftp)://\S+|\bwww\.\S+")
_WORD = re.compile(r"[^\W\d_]{2,}")
_FENCE = re.compile(r"^\s*(?:```|~~~)")


# The slots of role-play character cards ("{{char}} is a knight", "{{user}} enters"): a
# person of the story, read as a word, not as the braces of code.
_ROLE_PLAY_SLOT = re.compile(r"\{\{(?:char|user)\}\}", re.IGNORECASE)


def _counted(text: str) -> str:
    """The text without e-mail addresses and URLs (each needs one of these to match), and
    with role-play slots as plain words."""
    if "{{" in text:
        text = _ROLE_PLAY_SLOT.sub("slot", text)
    if "@" not in text and "://" not in text and "www." not in text:
        return text
    return _NOT_COUNTED.sub(" ", text)


def technical_density(line: str) -> tuple[int, int]:
    """(technical tokens, words) of a line."""
    line = _counted(line)
    return len(_TECH_TOKEN.findall(line)), len(_WORD.findall(line))


def _technical_line(signals: int, words: int) -> bool:
    return signals >= 3 and signals * 8 >= words or signals >= 2 and signals * 5 >= words


class TechnicalZones:
    """Which lines of a text are technical: code, configuration, logs, comments, and prose
    about code (docstrings, API descriptions) dense with identifiers. In those zones a
    capitalised word is far more often a class, a constant or a product than a person,
    so guessed names need stronger evidence there (the registry asks `technical`).

    A line is technical when it is a code, configuration or log line, dense with the
    punctuation of code, inside a fenced block, or when it or its neighbourhood (the line
    before and after) is dense with technical tokens; when a third of a text's lines are
    technical, the whole text is (its comments, docstrings and blank-ish lines too)."""

    def __init__(self, text: str):
        lines = text.split("\n")
        card = _character_card_lines(text, lines)
        stats = [(0, technical_density(line)[1]) if c else technical_density(line) for line, c in zip(lines, card)]
        # (searched once per line)
        code_lines = [not c and is_code_line(line) for line, c in zip(lines, card)]
        flags = []
        fenced = False
        for i, line in enumerate(lines):
            fence = _FENCE.match(line) is not None
            if fence:
                fenced = not fenced
            signals, words = stats[i]
            near = stats[max(0, i - 1) : i + 2]
            flags.append(
                not card[i] and (fenced or fence or _code_shaped(line, code_lines[i]))
                or _technical_line(signals, words)
                or (signals >= 1 and _technical_line(sum(n[0] for n in near), sum(n[1] for n in near)))
            )
        if any(code_lines):
            # Comment lines of a text with code in it are part of the code.
            flags = [f or _COMMENT_START.match(line) is not None for f, line in zip(flags, lines)]
        nonblank = [f for f, line in zip(flags, lines) if line.strip()]
        if sum(nonblank) >= 3 and sum(nonblank) * 3 >= len(nonblank):
            # A text that is mostly code: every paragraph with code in it, and indented ones
            # (docstrings, wrapped comments), is code; a paragraph of plain prose around it
            # (the question that comes with a pasted snippet) stays prose.
            flags = _whole_paragraphs(lines, flags)
        # A text about code (two technical tokens or more, a technical line): an ordinary
        # word or a short acronym alone is a term of the trade there, not a name.
        signals, words = sum(n[0] for n in stats), sum(n[1] for n in stats)
        strong = len(_STRONG_TECH.findall(_counted(text)))
        self.about_code = any(flags) or (strong >= 1 and signals >= 2) or (signals >= 3 and signals * 15 >= words)
        self._starts: list[int] = []
        position = 0
        for line in lines:
            self._starts.append(position)
            position += len(line) + 1
        self._flags = flags

    def technical(self, start: int) -> bool:
        import bisect

        return self._flags[bisect.bisect_right(self._starts, start) - 1]

    def any(self) -> bool:
        return any(self._flags)


# A role-play character card in the W++ style: '[Character("Ilka")', '{', 'Species("Elf")',
# 'Likes("Rain" + "Maps")', '}]'. It looks like calls in code, but it describes a person of a
# story, and the card's names are that person's.
_CARD_OPENING = re.compile(r'^[ \t]*\[[ \t]*(?:Character|Char|Name)[ \t]*\([ \t]*"', re.MULTILINE)
_CARD_LINE = re.compile(
    r'[ \t]*\[?[ \t]*[A-Z][A-Za-z \-]{0,30}\([ \t]*"[^"\n]*"(?:[ \t]*\+[ \t]*"[^"\n]*")*[ \t]*\)[ \t]*\]?[ \t]*'
    r'|[ \t]*[{}][ \t]*\]?[ \t]*'
)


def _character_card_lines(text: str, lines: list[str]) -> list[bool]:
    if "[" not in text or _CARD_OPENING.search(text) is None:
        return [False] * len(lines)
    return [_CARD_LINE.fullmatch(line) is not None for line in lines]


def _whole_paragraphs(lines: list[str], flags: list[bool]) -> list[bool]:
    out = list(flags)
    start = 0
    for end in [i for i, line in enumerate(lines) if not line.strip()] + [len(lines)]:
        block = range(start, end)
        if any(flags[i] for i in block) or all(lines[i][:1] in (" ", "\t") for i in block):
            for i in block:
                out[i] = True
        start = end + 1
    return out


# A configuration line: "key": ..., snake_key: ..., dotted.key = ..., key: [list / {map / true.
# ("Phone: 555 0134", 'Name: "Ann"' and "Address:" are form fields, not configuration.)
_CONFIG_LINE = re.compile(
    r"""^\s*(?:-\s+)?(?:["'][\w.\-]+["']\s*:|[a-z][a-z0-9]*[_.][\w.\-]*\s*[:=]|[a-z][\w\-]*\s*:\s*(?:[\[{]|true\b|false\b|null\b))"""
)
_CODE_PUNCTUATION = re.compile(r"""[\[\]{}<>=;\\|&*+'"`$%^~]""")
_LETTER = re.compile(r"[^\W\d_]")


def _code_shaped(line: str, code_line: bool) -> bool:
    """A line of code, configuration or log by its form (`code_line`: is_code_line says so)."""
    if not line.strip():
        return False
    if code_line or _LOG_HEADER.match(line) or _CONFIG_LINE.match(line):
        return True
    symbols = _CODE_PUNCTUATION.findall(line)
    if len(symbols) < 3:
        return False
    if set(symbols) <= _PROSE_MARKS and len(_PROSE_WORD.findall(line)) >= 2:
        return False  # '**Ilka:** *smiles* "Hi there."': emphasis and quoted speech, no code
    return len(symbols) * 3 >= len(_LETTER.findall(line))


# Marks that prose has as much as code: emphasis, quotation marks and apostrophes. A line
# whose only code punctuation they are, with two words or more, is a line of a role-play
# or a dialogue, however short its words.
_PROSE_MARKS = frozenset("*\"'")
_PROSE_WORD = re.compile(r"[^\W\d_]{2,}")


# -- evidence a guessed name needs in a technical zone ----------------------------------
_NAME_TOKEN = re.compile(r"(?:[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ]+(?:['’\-][A-ZÀ-ÖØ-Þa-zà-öø-ÿ][a-zà-öø-ÿ]+)*|[A-Z]\.)")
_NAME_PARTICLES = frozenset({"van", "von", "der", "den", "de", "da", "del", "della", "di", "du", "la", "le", "bin", "ibn", "al", "ter", "dos", "das"})
# Words before a name that say it is one, in comments and strings of code too.
_PERSON_CUE_BEFORE = re.compile(
    r"(?i)(?:\bby|\bauthor|\bauthors|\bcontact|\bowner|\breviewer|\bmaintainer|\bassignee|\bcc|\bask|\bdear|\bthanks|"
    r"\bsigned|\bmr|\bmrs|\bms|\bdr|\bprof|\bhi|\bhello|\bcustomer|\bpatient|\bemployee|\bname)\.?[\s:=(\"'`]*$"
)
_PLACE_CUE = re.compile(
    r"(?i)\b(?:city|town|country|region|state|province|address|location|lives? in|born in|office in|based in|moved to)\b"
)


def looks_like_person_name(value: str) -> bool:
    """Two to four name-shaped words ("Maria Lindqvist", "Jan van der Berg", "J. Okafor")
    that are neither code nor ordinary words: a known first name then a word that is no
    common one, or a known surname after a word that is no common one."""
    from agent.knowledge.names import lexicon
    from agent.knowledge.words import is_common_word

    tokens = value.split()
    if not 2 <= len(tokens) <= 4 or looks_like_code_token(value):
        return False
    core = [t for t in tokens if t.casefold() not in _NAME_PARTICLES]
    if len(core) < 2 or not all(_NAME_TOKEN.fullmatch(t) for t in core) or any(t in CODE_NAMES for t in core):
        return False
    first, last = core[0], core[-1]
    names = lexicon()
    if names.is_first_name(first) and not is_common_word(last):
        return True
    return names.is_last_name(last) and not is_common_word(first.rstrip("."))


def has_person_cue(text: str, start: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    return _PERSON_CUE_BEFORE.search(text[max(line_start, start - 40) : start]) is not None


def has_place_cue(text: str, start: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    return _PLACE_CUE.search(text[max(line_start, start - 40) : start]) is not None


def in_foreign_word_list(text: str, span: Span) -> bool:
    """A lower-case "name" in a line of lower-case words that are mostly not English (a
    stop-word list, a line of another language): the English model's guess, not a name."""
    from agent.knowledge.words import is_common_word

    if any(ch.isupper() or not ("a" <= ch <= "z" or "\u00c0" <= ch <= "\u024f" or ch in " '’-") for ch in span.text):
        return False  # capitals, digits, or another script than the Latin one
    line, _ = _line_of(text, span.start, span.start)
    if any(ch.isupper() or ch.isdigit() for ch in line):
        return False
    words = _WORD.findall(line)
    return len(words) >= 4 and sum(is_common_word(w) for w in words) * 3 <= len(words)


def is_term_of_the_trade(value: str) -> bool:
    """One ordinary word ("Response", "Comment", "Keyword", "Schema") or a short acronym
    ("MCP", "AST"): in a text about code, a term. A rarer word that the name lists know
    ("Brennan") is left a name; an everyday one ("Rich", "Mark") is a word there."""
    from agent.knowledge.names import lexicon
    from agent.knowledge.words import word_frequency

    value = value.strip(".,;:!?\"'()")
    if " " in value or not value.isalpha():
        return False
    if value.isupper() and len(value) <= 5:
        return True
    count = word_frequency(value)
    if count >= 1000:
        return True
    names = lexicon()
    return count >= 20 and not (names.is_first_name(value.title()) or names.is_last_name(value.title()))
