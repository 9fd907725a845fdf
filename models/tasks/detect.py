"""(b) Extra detection with the local model: what rules and NER miss (usernames,
project code names, private organisation or product names).

Two strategies, by what the model can do:
- instruct models (chat template): the model lists private items as JSON constrained by a
  schema; every item is then located in the text by exact search, so a span always covers
  text that really is there (an invented item finds nothing and is dropped);
- base models: rules propose candidates (handles, identifier-like tokens, names after
  "project"/"codename"...) and the model only answers yes/no per candidate through its
  next-token logits; it never writes text.
Either way a span's offsets are checked against the text before it is returned.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

from agent.detect.base import DetectionContext
from agent.entities import Label, Span
from models.runtime import LocalModel
from models.tasks.common import Budget, few_shot_header, one_line

log = logging.getLogger(__name__)

DETECTOR_NAME = "local_llm"
_SCORE = 0.4  # low: on overlaps the rule and NER spans win; above the default min_score 0.35

# -- candidates for base models -------------------------------------------------------
_HANDLE = re.compile(r"(?<![\w@.])@[A-Za-z0-9_][A-Za-z0-9_.-]{1,38}[A-Za-z0-9_]")
_HOTWORD_VALUE = re.compile(
    r"(?i)\b(?:user(?:name)?|user id|login|handle|account|nick(?:name)?|gamertag|screen name)"
    r"\b\s*(?:is|:|=|-)?\s*[\"'`]?\b([A-Za-z0-9_][A-Za-z0-9_.-]{2,38})"
)
_CODE_NAME = re.compile(
    r"(?i)\b(?:project|codename|code name|code-named|operation|initiative|programme|program)"
    r"\s+[\"'“]?((?-i:[A-Z][A-Za-z0-9]+(?:[ -][A-Z][A-Za-z0-9]+){0,2}))"
)
_MIXED_TOKEN = re.compile(r"(?<![\w@.])(?=[A-Za-z0-9_]*[A-Za-z])(?=[A-Za-z0-9_]*(?:\d|_))[A-Za-z][A-Za-z0-9_]{3,30}(?![\w@])")
# Identifier-looking tokens that are not personal (units, versions, tech words).
_NOT_PERSONAL = re.compile(
    r"(?i)^(?:v?\d+(?:\w{0,3})|mp[34]|h264|x86_64|utf_?8|covid_?19|[a-z]{1,3}\d{1,2}|"
    r"\w+_(?:id|name|key|url|path|file|dir|type|list|count|size|data)s?|"
    r"(?:get|set|is|has|to|from)_\w+|__\w+__)$"
)

FEW_SHOT = (
    ("Can you ask @jenny_k92 to review the draft before Monday?", "@jenny_k92", "yes"),
    ("Convert 25 km to miles.", "km", "no"),
    ("Status update for Project Bluebird: the vendor contract is still pending.", "Bluebird", "yes"),
    ("Use the read_csv function to load the file.", "read_csv", "no"),
    ("My username is rsmith_admin and I cannot log in.", "rsmith_admin", "yes"),
    ("Explain what covid19 vaccines do.", "covid19", "no"),
)
INSTRUCTIONS = (
    "Decide whether the quoted item is private: a username, account name, internal "
    "project or code name, or another name that identifies a person or a confidential "
    "thing. Public words, units, code identifiers and famous names are not private."
)


def _example(text: str, item: str) -> str:
    return f"Text: {one_line(text, 800)}\nItem: \"{item}\"\nPrivate:"


def base_prompt_header() -> str:
    return few_shot_header(INSTRUCTIONS, (f"{_example(t, i)} {a}" for t, i, a in FEW_SHOT))


# -- extraction for instruct models ------------------------------------------------------
EXTRACT_TYPES = ("username", "code_name", "person", "organisation", "identifier", "other")
_TYPE_LABEL = {
    "username": Label.USERNAME,
    "code_name": Label.MISC,
    "person": Label.PERSON,
    "organisation": Label.ORG,
    "identifier": Label.ID,
    "other": Label.MISC,
}
EXTRACT_SCHEMA = {
    "type": "object",
    "properties": {
        "items": {
            "type": "array",
            "maxItems": 8,
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "maxLength": 60},
                    "type": {"type": "string", "enum": list(EXTRACT_TYPES)},
                },
                "required": ["text", "type"],
            },
        }
    },
    "required": ["items"],
}
EXTRACT_SYSTEM = (
    "You find private items in a text that a privacy filter may have missed: usernames, "
    "account names, internal project or code names, private people, small private "
    "organisations, internal identifiers. Copy each item exactly as it is written in the "
    "text. Do not list famous people, places or companies, common words, or items that are "
    "not in the text. Answer with JSON only."
)


class LocalLLMDetector:
    """An agent.detect.base.Detector backed by the local model."""

    name = DETECTOR_NAME
    labels = frozenset({Label.USERNAME, Label.MISC, Label.PERSON, Label.ORG, Label.ID})

    def __init__(
        self,
        model: LocalModel,
        *,
        time_budget_s: float = 8.0,
        threshold: float = 0.5,
        max_chars: int = 1500,
        max_candidates: int = 12,
        max_output_tokens: int = 200,
    ):
        self.model = model
        self.time_budget_s = time_budget_s
        self.threshold = threshold
        self.max_chars = max_chars
        self.max_candidates = max_candidates
        self.max_output_tokens = max_output_tokens
        self.extract = model.has_chat_template
        self._header = base_prompt_header()

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        if not text or not text.strip():
            return []
        budget = Budget(self.time_budget_s)
        try:
            if self.extract:
                spans = self._extract(text, budget)
            else:
                spans = self._classify_candidates(text, budget)
        except ValueError as exc:  # a tokenizer that cannot do yes/no, bad schema...
            log.warning("local_llm detector unusable with this model: %s", exc)
            return []
        allow = context.allow
        return [s for s in spans if " ".join(s.text.casefold().split()) not in allow]

    # -- base models: rules propose, the model disposes ------------------------------------
    def candidates(self, text: str) -> list[tuple[int, int, Label]]:
        """Spans worth asking about, without the model (deduplicated, in text order)."""
        found: dict[tuple[int, int], Label] = {}
        for m in _HANDLE.finditer(text):
            found.setdefault((m.start(), m.end()), Label.USERNAME)
        for m in _HOTWORD_VALUE.finditer(text):
            if not _NOT_PERSONAL.match(m.group(1)):
                found.setdefault((m.start(1), m.end(1)), Label.USERNAME)
        for m in _CODE_NAME.finditer(text):
            found.setdefault((m.start(1), m.end(1)), Label.MISC)
        for m in _MIXED_TOKEN.finditer(text):
            if _NOT_PERSONAL.match(m.group(0)) or text[m.end() : m.end() + 1] == "(":
                continue  # units, versions, function calls
            found.setdefault((m.start(), m.end()), Label.USERNAME)
        spans = sorted(found.items())
        out: list[tuple[int, int, Label]] = []
        for (start, end), label in spans:
            if out and start < out[-1][1]:
                continue  # overlapping candidates: the earlier (longer-context) one wins
            out.append((start, end, label))
        return out[: self.max_candidates]

    def _classify_candidates(self, text: str, budget: Budget) -> list[Span]:
        spans = []
        for start, end, label in self.candidates(text):
            if budget.expired:
                break
            item = text[start:end]
            lo = max(0, start - self.max_chars // 2)
            piece = text[lo : lo + self.max_chars]
            choice = self.model.choose(
                self._header + _example(piece, item), [" yes", " no"], time_budget_s=budget.remaining()
            )
            if choice.best is None:
                break  # out of time or the model failed: what we have is still valid
            if choice.margin(" yes", " no") > self.threshold:
                spans.append(_span(text, start, end, label))
        return [s for s in spans if s is not None]

    # -- instruct models: JSON extraction, then exact search ---------------------------------
    def _extract(self, text: str, budget: Budget) -> list[Span]:
        spans: list[Span] = []
        for offset in range(0, len(text), self.max_chars):
            if budget.expired:
                break
            piece = text[offset : offset + self.max_chars]
            result = self.model.complete_json(
                [{"role": "system", "content": EXTRACT_SYSTEM}, {"role": "user", "content": piece}],
                EXTRACT_SCHEMA,
                max_tokens=self.max_output_tokens,
                time_budget_s=budget.remaining(),
            )
            spans.extend(_locate(text, _items(result.value)))
        return _dedupe(spans)


def _items(value: object) -> list[tuple[str, Label]]:
    """The (text, label) pairs of a JSON answer, ignoring anything malformed."""
    if not isinstance(value, dict) or not isinstance(value.get("items"), list):
        return []
    out = []
    for item in value["items"]:
        if not isinstance(item, dict):
            continue
        text, kind = item.get("text"), item.get("type")
        if isinstance(text, str) and kind in _TYPE_LABEL and plausible_item(text):
            out.append((text.strip(), _TYPE_LABEL[kind]))
    return out


def plausible_item(text: str) -> bool:
    """Worth protecting at all: 2-60 characters, one line, not just punctuation or digits,
    and not a lowercase word unless it looks like an identifier (digit, _, @, .)."""
    text = text.strip()
    if not 2 <= len(text) <= 60 or "\n" in text:
        return False
    if not any(ch.isalpha() for ch in text):
        return False
    if text.islower() and " " not in text and not re.search(r"[\d_@.]", text):
        return False  # plain words ("meeting", "server") are not private names
    return not (text.islower() and " " in text)  # a lowercase phrase is not a name


def _locate(text: str, items: Iterable[tuple[str, Label]]) -> list[Span]:
    """Every occurrence of each item in the text, on word boundaries."""
    spans = []
    for item, label in items:
        pattern = re.compile(r"(?<!\w)" + re.escape(item) + r"(?!\w)")
        for m in pattern.finditer(text):
            span = _span(text, m.start(), m.end(), label)
            if span is not None:
                spans.append(span)
    return spans


def _span(text: str, start: int, end: int, label: Label) -> Span | None:
    if not 0 <= start < end <= len(text):
        return None
    piece = text[start:end]
    if piece != piece.strip() or not plausible_item(piece):
        return None
    if (start > 0 and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum()):
        return None  # part of a longer word ("FormSubmit" in "handleFormSubmit")
    return Span(start, end, label, piece, _SCORE, DETECTOR_NAME)


def _dedupe(spans: list[Span]) -> list[Span]:
    seen: set[tuple[int, int]] = set()
    out = []
    for s in sorted(spans, key=lambda s: (s.start, -(s.end - s.start))):
        if (s.start, s.end) in seen or any(s.overlaps(o) for o in out):
            continue
        seen.add((s.start, s.end))
        out.append(s)
    return out
