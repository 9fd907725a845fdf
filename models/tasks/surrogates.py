"""(c) Level-2 stand-ins: a replacement that fits the context (a Japanese colleague gets
a Japanese name, a Bavarian town another Bavarian town), proposed by the local model and
accepted only when `validate_surrogate` says it has the right type and shape.

Only names of people, organisations and places (and usernames) are asked for:
identifiers with checksums or formats (cards, IBANs, phones, emails, dates) are made
better by the rule-based generators, and MISC is too vague to check, so the proposer
returns None for them. The type checks use the engine's own knowledge: Faker's name lists
(a person's stand-in must contain a known first or last name) and the place gazetteer (a
city for a city, a country for a country).
"""

from __future__ import annotations

import logging
import re

from agent.entities import Label, Span
from agent.knowledge.names import lexicon
from agent.knowledge.org_words import GENERIC_ORG_WORDS, LEGAL_FORM_WORDS
from agent.knowledge.person_words import TITLE_PATTERN
from agent.knowledge.places import place_kind
from models.runtime import LocalModel
from models.tasks.common import Budget, few_shot_header, one_line, window

log = logging.getLogger(__name__)

PROPOSED_LABELS = frozenset({Label.PERSON, Label.ORG, Label.LOCATION, Label.USERNAME})

_KIND = {
    Label.PERSON: "person",
    Label.ORG: "organisation",
    Label.LOCATION: "place",
    Label.USERNAME: "username",
}

FEW_SHOT = (
    ("Please write a birthday card for [Anjali Gupta] from her team in Pune.", "person", "Priya Sharma"),
    ("I work at [Brightline Logistics GmbH] and need a reference letter.", "organisation", "Nordweg Transport GmbH"),
    ("We are moving from Leeds to [Harrogate] next spring.", "place", "Ripon"),
    ("Ask [Kenji Watanabe] to send the slides.", "person", "Takeshi Yamamoto"),
    ("My account [mike_t1988] was locked.", "username", "dave_r1990"),
)
INSTRUCTIONS = (
    "Replace the entity in brackets with a different, realistic one of the same kind that "
    "fits the text: same gender and cultural origin for people, same country and size for "
    "places, same industry and legal form for organisations, same style for usernames."
)
SYSTEM = (
    INSTRUCTIONS + " Never repeat the original or any part of it. Answer with the replacement only."
)


def _example(text: str, kind: str) -> str:
    return f"Text: {one_line(text, 800)}\nKind: {kind}\nReplacement:"


def base_prompt_header() -> str:
    return few_shot_header(INSTRUCTIONS, (f"{_example(t, k)} {r}" for t, k, r in FEW_SHOT))


class LocalSurrogateProposer:
    """agent.engine.local_tasks.SurrogateProposer over a LocalModel."""

    def __init__(self, model: LocalModel, *, time_budget_s: float = 8.0, max_chars: int = 600):
        self.model = model
        self.time_budget_s = time_budget_s
        self.max_chars = max_chars
        self._header = base_prompt_header()

    def propose(self, text: str, span: Span) -> str | None:
        if span.label not in PROPOSED_LABELS:
            return None
        if not (0 <= span.start < span.end <= len(text)) or text[span.start : span.end] != span.text:
            return None  # the span does not describe this text
        budget = Budget(self.time_budget_s)
        piece, offset = window(text, span.start, span.end, self.max_chars)
        start, end = span.start - offset, span.end - offset
        marked = f"{piece[:start]}[{piece[start:end]}]{piece[end:]}"
        kind = _KIND[span.label]
        if self.model.has_chat_template:
            # Plain text, first line only: a grammar adds little for one short string and
            # is slow on large vocabularies; the validator checks the shape anyway.
            gen = self.model.chat(
                [
                    {"role": "system", "content": SYSTEM},
                    {"role": "user", "content": f"Text: {marked}\nKind: {kind}"},
                ],
                max_tokens=24,
                stop=["\n"],
                time_budget_s=budget.remaining(),
            )
            proposal = gen.text if gen.ok else None
        else:
            gen = self.model.complete(
                self._header + _example(marked, kind),
                max_tokens=16,
                stop=["\n"],
                time_budget_s=budget.remaining(),
            )
            proposal = gen.text if gen.ok else None
        if not isinstance(proposal, str):
            return None
        return validate_surrogate(span.text, proposal, span.label, text)


# -- validation ----------------------------------------------------------------------------
_TITLE = re.compile(rf"^(?:(?:{TITLE_PATTERN})\.?\s+)+")
_PERSON_TOKEN = re.compile(r"^[^\W\d_][^\W\d_'’.-]*(?:['’-][^\W\d_]+)*\.?$")
_PLACE_TOKEN = re.compile(r"^[^\W\d_][^\W\d_'’.-]*(?:['’-][^\W\d_]+)*[.,]?$")
_ORG_TOKEN = re.compile(r"^[\w&'’.,+-]+$")
_USERNAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


def validate_surrogate(original: str, proposal: str, label: Label, text: str = "") -> str | None:
    """The cleaned proposal when it can stand in for `original` (same type and shape, not
    equal to it, sharing no name part with it, not already in the text), else None."""
    candidate = _clean(proposal)
    if not candidate or "\n" in candidate or len(candidate) > max(40, 3 * len(original)):
        return None
    if candidate.casefold() == original.casefold():
        return None
    if text and candidate.casefold() in text.casefold():
        return None  # would be confused with a real mention when restoring
    check = _CHECKS.get(label)
    if check is None:
        return None
    return check(original, candidate)


def _clean(proposal: str) -> str:
    text = proposal.strip().splitlines()[0].strip() if proposal.strip() else ""
    text = text.strip(" \t\"'`“”‘’[]()<>*")
    return " ".join(text.split()).rstrip(".,;:!?") if text else ""


def _tokens(value: str) -> list[str]:
    return [t for t in re.split(r"[\s]+", value) if t]


def _shares_a_part(original: str, candidate: str) -> bool:
    """Any name part of 2+ letters in common ("Anna Smith" -> "Jane Smith" reveals Smith)."""
    a = {t.casefold().strip(".,'’") for t in _tokens(original)}
    b = {t.casefold().strip(".,'’") for t in _tokens(candidate)}
    return any(len(t) >= 2 for t in a & b)


def _person(original: str, candidate: str) -> str | None:
    title = _TITLE.match(original)
    bare_original = original[title.end() :] if title else original
    candidate_title = _TITLE.match(candidate)
    bare = candidate[candidate_title.end() :] if candidate_title else candidate
    parts, want = _tokens(bare), _tokens(bare_original)
    if not parts or len(parts) != len(want) or len(parts) > 4:
        return None  # same shape: restoring "Ms. Sharma" or "Priya" relies on it
    if not all(_PERSON_TOKEN.match(p) for p in parts):
        return None
    if any(w[:1].isupper() for w in want) and not all(p[:1].isupper() for p in parts):
        return None
    if _shares_a_part(bare_original, bare):
        return None
    names = lexicon()
    if not any(names.is_first_name(p.strip(".")) or names.is_last_name(p.strip(".")) for p in parts):
        return None  # not recognisably a person's name ("Army camp", "Qatar Airways")
    if place_kind(bare)[0] != "unknown" or any(p.casefold() in GENERIC_ORG_WORDS for p in parts):
        return None
    return f"{title.group(0)}{bare}" if title else bare  # keep the original's title


_ORG_CONNECTORS = frozenset({"of", "and", "&", "the", "de", "du", "la", "der", "und", "for", "y", "e"})
_PLACE_CONNECTORS = frozenset({"de", "del", "la", "le", "les", "du", "upon", "on", "am", "an", "der", "of", "y", "sur", "en", "al", "el"})


def _place(original: str, candidate: str) -> str | None:
    parts = _tokens(candidate)
    if not parts or len(parts) > max(5, len(_tokens(original)) + 2):
        return None
    if not all(_PLACE_TOKEN.match(p) for p in parts):
        return None
    if not all(p[:1].isupper() or p.casefold() in _PLACE_CONNECTORS for p in parts) or not candidate[:1].isupper():
        return None  # "Army camp" is a description, not a place name
    if _shares_a_part(original, candidate) and len(_tokens(original)) == 1:
        return None
    if any(p.casefold() in GENERIC_ORG_WORDS - _PLACE_CONNECTORS for p in parts):
        return None  # "Qatar Airways"
    names = lexicon()
    if place_kind(candidate)[0] == "unknown" and (
        names.is_first_name(parts[0]) or (len(parts) >= 2 and names.is_last_name(parts[-1]))
    ):
        return None  # "Kiran Kumar", "David": a person, not a place (unless a known place)
    kind, _ = place_kind(original)
    if kind != "unknown" and place_kind(candidate)[0] not in (kind, "unknown"):
        return None  # same granularity where known: not a country for a city
    return candidate


def _org(original: str, candidate: str) -> str | None:
    parts = _tokens(candidate)
    if not parts or len(parts) > max(6, len(_tokens(original)) + 2):
        return None
    if not all(_ORG_TOKEN.match(p) for p in parts) or not candidate[:1].isalnum():
        return None
    if original[:1].isupper() and not (candidate[:1].isupper() or candidate[:1].isdigit()):
        return None  # "name Ltd" is junk, not a company
    suffix = _tokens(original)[-1].casefold() if _tokens(original) else ""
    if suffix in LEGAL_FORM_WORDS and parts[-1].casefold() not in LEGAL_FORM_WORDS:
        candidate = f"{candidate} {_tokens(original)[-1]}"  # same legal form
    distinctive = [t for t in _tokens(original) if t.casefold() not in LEGAL_FORM_WORDS]
    if _shares_a_part(" ".join(distinctive), candidate):
        return None
    core = [p for p in _tokens(candidate) if p.casefold() not in LEGAL_FORM_WORDS]
    if not core or place_kind(" ".join(core))[0] != "unknown":
        return None  # a place is not a company
    if not any(p[:1].isupper() for p in core):
        return None  # "2018": no name in it
    if any(p[:1].islower() and p.casefold() not in _ORG_CONNECTORS for p in core):
        return None  # "10 years GmbH": a phrase, not a name
    return candidate


def _username(original: str, candidate: str) -> str | None:
    at = original.startswith("@")
    bare = candidate.lstrip("@")
    if not _USERNAME.match(bare):
        return None
    want = len(original.lstrip("@"))
    if not (max(2, want // 2) <= len(bare) <= want * 2 + 2):
        return None
    return f"@{bare}" if at else bare


_CHECKS = {
    Label.PERSON: _person,
    Label.LOCATION: _place,
    Label.ORG: _org,
    Label.USERNAME: _username,
}
