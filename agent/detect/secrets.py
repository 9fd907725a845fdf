"""Secrets people paste into LLMs: API keys, tokens, private keys, passwords.

These are never sent, whatever the relevance. Provider-specific formats are matched
exactly; generic "password: ..." / "api_key = ..." assignments need the keyword.
"""

from __future__ import annotations

import math
import re

from agent.detect.base import DetectionContext
from agent.detect.config_secrets import is_code_value
from agent.entities import Label, Span

# (name, pattern). Group `v`, when present, is the secret itself.
_KEY_FORMATS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("anthropic", re.compile(r"\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_\-]{20,}")),
    ("openai", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}")),
    ("aws_access_key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[0-9A-Z]{16}\b")),
    ("github", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b")),
    ("gitlab", re.compile(r"\bglpat-[A-Za-z0-9_\-]{20,}")),
    ("slack", re.compile(r"\bxox[abposr]-[A-Za-z0-9\-]{10,}")),
    ("slack_webhook", re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_\-]+")),
    ("google_api_key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
    ("google_oauth", re.compile(r"\bya29\.[0-9A-Za-z_\-]{20,}")),
    ("stripe", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}")),
    ("huggingface", re.compile(r"\bhf_[A-Za-z0-9]{30,}\b")),
    ("twilio", re.compile(r"\bSK[0-9a-f]{32}\b")),
    ("sendgrid", re.compile(r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}")),
    ("npm", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}")),
    (
        "private_key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
        ),
    ),
    ("bearer", re.compile(r"(?i)\bbearer\s+(?P<v>[A-Za-z0-9_\-.=:/+]{16,})")),
    ("url_credentials", re.compile(r"\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:(?P<v>[^\s@/]{3,})@")),
)

# What the text must contain for a format to match at all (each is a literal part of every
# match of its pattern): a text without any is not scanned for that format. Most prompts
# have none, and each scan cost as much as a whole-text regex search.
_NEEDS: dict[str, tuple[str, ...]] = {
    "anthropic": ("sk-ant-",), "openai": ("sk-",),
    "aws_access_key": ("AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "APKA"),
    "github": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"), "gitlab": ("glpat-",), "slack": ("xox",),
    "google_api_key": ("AIza",), "google_oauth": ("ya29.",), "stripe": ("_live_", "_test_"), "huggingface": ("hf_",),
    "twilio": ("SK",), "sendgrid": ("SG.",), "npm": ("npm_",), "jwt": ("eyJ",), "url_credentials": ("://",),
}

# "password: hunter2", "api_key = '...'", "secret=...": the keyword makes it a secret.
_ASSIGNMENT = re.compile(
    r"(?i)\b(?P<k>password|passwd|pwd|pass(?:code|phrase)|pin code|secret(?:[_ ]key)?|api[_ -]?key|"
    r"access[_ -]?key|auth[_ -]?token|access[_ -]?token|refresh[_ -]?token|client[_ -]?secret|token)"
    r"\s*(?:is|was|=|:|:=|=>)\s*(?P<q>['\"`]?)(?P<v>[^\s'\"`,;]{3,200})(?P=q)"
)
# A card's security code after its name ("cvv 123", "CVC: 4821", "security code 123"): with
# the card number it pays for anything, so it is a secret, never sent.
_CARD_CODE = re.compile(
    r"(?i)\b(?:cvv2?|cvc2?|csc|security[ \t]+code|card[ \t]+verification[ \t]+(?:value|code))"
    r"[ \t]*(?:is|:|=|#|-)?[ \t]*(?P<v>\d{3,4})(?!\d)"
)
# "with password Winter2024!": no colon, but a value that looks like a password.
_PASSWORD_WORD = re.compile(r"(?i)\bpass(?:word|wd|code|phrase)\s+(?P<v>\S{6,64})")
_AWS_SECRET = re.compile(
    r"(?i)aws.{0,20}(?:secret|private).{0,20}?[=:]\s*['\"]?(?P<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
)
_PLACEHOLDERS = frozenset(
    {"xxx", "xxxx", "****", "none", "null", "true", "false", "your_api_key", "yourpassword", "password", "changeme", "example", "redacted"}
)


def _entropy(value: str) -> float:
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    return -sum(c / len(value) * math.log2(c / len(value)) for c in counts.values())


class SecretDetector:
    name = "secrets"
    labels = frozenset({Label.SECRET})

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans: list[Span] = []
        for kind, pattern in _KEY_FORMATS:
            needs = _NEEDS.get(kind)
            if needs is not None and not any(literal in text for literal in needs):
                continue
            for match in pattern.finditer(text):
                group = "v" if "v" in pattern.groupindex else 0
                start, end = match.span(group)
                spans.append(Span(start, end, Label.SECRET, text[start:end], 1.0, f"{self.name}:{kind}"))
        for pattern in (_AWS_SECRET, _ASSIGNMENT):
            for match in pattern.finditer(text):
                value = match.group("v").rstrip(".)!?:")
                if len(value) < 3 or value.casefold() in _PLACEHOLDERS or value.startswith(("{", "<", "$", "%")):
                    continue
                keyword = match.groupdict().get("k") or ""
                end = match.start("v") + len(value)
                if not match.groupdict().get("q") and (
                    is_code_value(value, text, end, False, keyword) or value.startswith(("self.", "this.", "os.", "cls."))
                ):
                    continue  # `secret: str | None`, `token = self._token`, `secret=secret`: code
                # A bare "token: abc" needs to look like a token; a password can be anything.
                if keyword.casefold() == "token" and (len(value) < 12 or _entropy(value) < 3.0):
                    continue
                start = match.start("v")
                spans.append(Span(start, start + len(value), Label.SECRET, value, 0.97, f"{self.name}:assignment"))
        for match in _CARD_CODE.finditer(text):
            spans.append(Span(match.start("v"), match.end("v"), Label.SECRET, match.group("v"), 0.95, f"{self.name}:card_code"))
        for match in _PASSWORD_WORD.finditer(text):
            value = match.group("v").rstrip(".,;:)")
            has_digit = any(c.isdigit() for c in value)
            has_symbol = any(not c.isalnum() for c in value)
            has_letter = any(c.isalpha() for c in value)
            if len(value) >= 6 and has_letter and (has_digit or has_symbol) and value.casefold() not in _PLACEHOLDERS:
                start = match.start("v")
                spans.append(Span(start, start + len(value), Label.SECRET, value, 0.9, f"{self.name}:assignment"))
        return spans
