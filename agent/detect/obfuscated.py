"""E-mail addresses written to dodge scrapers: john[at]gmail[dot]com, john (at) gmail
(dot) com, john dot baker at gmail dot com, j o h n @ g m a i l . c o m.

A candidate is read back into a plain address (the at and dot words made symbols, spaces
dropped) and kept when that is a well-formed address whose domain ends in a known
top-level domain. Spelled-out " at " and " dot " need both words and a local part that is
not an ordinary word ("look at this dot com" is prose)."""

from __future__ import annotations

import re

from agent.detect.base import DetectionContext
from agent.entities import Label, Span
from agent.knowledge.words import is_common_word

_AT = r"(?:\s*(?:\[\s*at\s*\]|\(\s*at\s*\)|\{\s*at\s*\}|<\s*at\s*>|\[@\]|\(@\))\s*|\s+at\s+|\s+AT\s+|\s*@\s*)"
_DOT = r"(?:\s*(?:\[\s*dot\s*\]|\(\s*dot\s*\)|\{\s*dot\s*\}|<\s*dot\s*>|\[\.\]|\(\.\))\s*|\s+dot\s+|\s+DOT\s+|\.)"
_PART = r"[A-Za-z0-9][A-Za-z0-9_%+\-]*"
_TLDS = (
    "com|net|org|edu|gov|io|co|ai|app|dev|info|biz|me|uk|de|fr|es|it|nl|be|ch|at|se|no|dk|fi|pl|cz|ru|in|cn|jp|kr|"
    "au|nz|ca|br|mx|ar|za|ie|pt|gr|tr|il|sg|hk|tw|us|eu"
)
_OBFUSCATED = re.compile(
    rf"(?<![\w@.])(?P<local>{_PART}(?:{_DOT}{_PART}){{0,3}}){_AT}(?P<domain>{_PART}(?:{_DOT}{_PART}){{0,3}}{_DOT}(?:{_TLDS}))(?![\w@])",
    re.IGNORECASE,
)
# One character at a time: "j o h n @ g m a i l . c o m".
_SPACED = re.compile(r"(?<![\w@])(?:[A-Za-z0-9._+\-] ){2,40}@(?: [A-Za-z0-9\-]){2,40}(?: \.(?: [A-Za-z]){2,6}){1,2}(?![\w@])")
_MAIL_PROVIDERS = frozenset({"gmail", "googlemail", "yahoo", "hotmail", "outlook", "live", "msn", "icloud", "me", "aol",
                             "protonmail", "proton", "gmx", "web", "mail", "yandex", "qq", "zoho", "fastmail"})
_PLAIN = re.compile(rf"[A-Za-z0-9][A-Za-z0-9._%+\-]*@(?:[A-Za-z0-9\-]+\.)+(?:{_TLDS})", re.IGNORECASE)


def read_back(candidate: str) -> str:
    """The plain address an obfuscated one stands for."""
    text = re.sub(r"\s*[\[({<]\s*at\s*[\])}>]\s*|\s*[\[(]@[\])]\s*|\s+at\s+", "@", candidate, flags=re.IGNORECASE)
    text = re.sub(r"\s*[\[({<]\s*dot\s*[\])}>]\s*|\s*[\[(]\.[\])]\s*|\s+dot\s+", ".", text, flags=re.IGNORECASE)
    return re.sub(r"\s+", "", text)


class ObfuscatedEmailDetector:
    name = "email"  # an e-mail address like any other, only written differently
    labels = frozenset({Label.EMAIL})

    def detect(self, text: str, context: DetectionContext | None = None) -> list[Span]:
        lowered = text.lower()
        if not any(w in lowered for w in ("at", "@")):
            return []
        spans = []
        for match in _OBFUSCATED.finditer(text):
            value = match.group()
            if "@" in value and " " not in value and "[" not in value and "(" not in value:
                continue  # a plain address: the e-mail detector's
            plain = read_back(value)
            if not _PLAIN.fullmatch(plain):
                continue
            spelled_at = re.search(r"\s(?:at|AT)\s", value) is not None
            if spelled_at:
                local = match.group("local")
                # "look at this dot com": prose, unless the address has the look of one (a
                # mail provider's domain, a local part in several pieces or with digits).
                words = re.split(r"\s+dot\s+|\.", local, flags=re.IGNORECASE)
                provider = plain.split("@")[1].split(".")[0].lower() in _MAIL_PROVIDERS
                if len(words) == 1 and is_common_word(words[0]) and not any(c.isdigit() for c in local) and not provider:
                    continue
                if not re.search(r"\sdot\s|\[|\(", match.group("domain"), re.IGNORECASE):
                    continue  # "meet me at gmail.com"? spelled at needs a spelled dot too
            spans.append(Span(match.start(), match.end(), Label.EMAIL, value, 0.95, self.name))
        for match in _SPACED.finditer(text):
            if _PLAIN.fullmatch(read_back(match.group())):
                spans.append(Span(match.start(), match.end(), Label.EMAIL, match.group(), 0.95, self.name))
        return spans
