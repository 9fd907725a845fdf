"""What the judge sees of one detected entity: its type and detector, what the rules say
(as inputs, not verdicts), what the prompt asks for (a question, a story, an e-mail to
draft, a translation...), the words around it, and what name and place lists know of it.

Tried and left out because the validation half did not favour them: spaCy's contextual
tok2vec vectors (the entity, the words before it, the prompt: 288 numbers) raised the
validation AUC by 0.01 but made the head fit the fit half far better than unseen text
(in-sample utility error 0.02 against 0.23 on validation); the Gemma 270M hidden states
through llama.cpp embeddings (entity mean, last token, prompt mean) gave a validation AUC of
0.81 against 0.90 for these features, at 2-3 s per prompt on two busy cores. How well known
a name is, asked of the same model few-shot ("<name>: famous" or "private" after sixteen
made-up and well-known examples; the logit margin, 35 ms per name with the examples kept in
the KV cache), as one more feature (session 7, fit half, CV averaged over eight fold
assignments): keep/swap AUC 0.806 -> 0.812 (0.820 with a margin per type), the CV cost
0.963 -> 0.962 (0.918), the least utility + privacy error 0.568 -> 0.551 (0.546). For persons
alone it separates keep from swap no better than chance (AUC 0.45: the model knows Jesus
and Shakespeare, and it also calls role-play names "famous"); for places and organisations
0.78 and 0.73, which the place and company lists mostly already say. Too little to put the
model on the default path.

Every feature is a number; `FEATURE_NAMES` names them in order, so the trained head and
the extractor can be checked against each other.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agent.decide.relevance import ACADEMIC, PLACE_TOPIC, names_a_work
from agent.detect.ascii_fold import FoldedSearch
from agent.entities import Label, Span
from agent.knowledge.companies import is_listed_company
from agent.knowledge.frequency import zipf
from agent.knowledge.geonames import geo_index
from agent.knowledge.names import lexicon
from agent.knowledge.words import is_common_word, word_frequency

# The types the judge decides (LOPSIDED's); dates keep their own rule (a specific date is
# shifted, a vague one kept), identifiers are always swapped.
LABELS = (Label.PERSON, Label.ORG, Label.LOCATION, Label.NORP, Label.MISC)
DETECTORS = ("spacy", "person_names", "org_names", "places", "repeat", "memory")
PLACE_KINDS = ("continent", "country", "subdivision", "city")
RULE_REASONS = (
    "a named concept", "a person", "a place that is not well known", "a private company",
    "a private person", "a specific date", "a vague date", "an organisation",
    "character in a known work", "date of birth", "named with a public figure",
    "organisation asked about", "part of a known work", "public entity", "public figure",
    "public figure asked about", "public office holder", "public place",
    "well-known organisation", "where you or someone you know lives or works",
    "your organisation or client",
)
# What the prompt asks for: one flag each (written from how people phrase requests).
PROMPT_CUES: dict[str, re.Pattern[str]] = {name: re.compile(pattern, re.IGNORECASE) for name, pattern in {
    "question_mark": r"\?",
    "wh_word": r"\b(?:who|what|when|where|why|how|which)\b",
    "creative": r"\b(?:story|stories|poem|song|lyrics|script|screenplay|skit|scene|novel|fiction|fanfic\w*|"
                r"character|rap|joke|limerick|haiku|tale|plot|roleplay|role-play)\b",
    "correspondence": r"\b(?:e-?mail|letter|message|reply|respond|memo|invitation|cover letter|text to|note to|"
                      r"dear|regards|sincerely)\b",
    "translation": r"\b(?:translat\w*|in (?:french|spanish|german|italian|chinese|japanese|korean|russian|"
                   r"portuguese|arabic|hindi|english))\b",
    "knowledge": r"\b(?:tell me about|explain|describe|summar\w+|history of|facts? about|biography|who (?:is|was)|"
                 r"what (?:is|are|was)|information about|according to)\b",
    "travel": r"\b(?:itinerary|trip|travel\w*|visit\w*|tour\w*|vacation|holiday|hotel|flight|sightseeing)\b",
    "roleplay": r"\b(?:act as|you are (?:a|an|now|my)|pretend|imagine (?:you|that)|play the role)\b",
    "math": r"\b(?:how many|how much|calculate|total|percent|average|each)\b",
    "review": r"\b(?:review|feedback|performance|evaluation|reference|recommendation)\b",
    "business": r"\b(?:company|startup|business|customer|client|marketing|brand|product|sales|campaign)\b",
    "analysis": r"\b(?:analy[sz]e|sentiment|classify|extract|rewrite|proofread|paraphrase|correct|edit)\b",
}.items()}
_FIRST_PERSON = re.compile(r"(?i)\b(?:i|i'm|my|me|we|our|us|mine)\b")
_CODE = re.compile(r"[{};=<>]|\bdef\b|\bclass\b|\breturn\b|\bimport\b")
_POSSESSIVE_BEFORE = re.compile(r"(?i)\b(?:my|our|your|his|her|their)\b(?:\s+\S+){0,2}\s*$")
_PREPOSITION_BEFORE = re.compile(r"(?i)\b(?:in|at|from|to|about|of|by|with|for|like|near|on|as)\s+(?:the\s+)?$")
_NAMED_BEFORE = re.compile(r"(?i)\b(?:named|called|name is|i am|i'm)\s+$")
_RELATION_BEFORE = re.compile(
    r"(?i)\b(?:friend|colleague|boss|manager|wife|husband|son|daughter|brother|sister|mother|father|mom|dad|"
    r"partner|client|customer|neighbou?r|landlord|tenant|student|teacher|coworker|girlfriend|boyfriend|"
    r"cousin|team|employee|company|employer|office|school)\b,?\s+(?:\S+\s+)?$"
)
_ROLE_BEFORE = re.compile(
    r"(?i)\b(?:president|minister|king|queen|senator|governor|mayor|ceo|founder|author|writer|singer|actor|"
    r"actress|director|philosopher|scientist|professor|dr\.?|saint|pope|emperor)\s+$"
)
# The (?i) cue regexes searched around every entity, read from the lower-cased window when
# it is ASCII (agent/detect/ascii_fold.py: same answers, less time).
_ACADEMIC, _PLACE_TOPIC = FoldedSearch(ACADEMIC), FoldedSearch(PLACE_TOPIC)
_WH_WORD = FoldedSearch(re.compile(r"(?i)\b(?:who|what|when|where|why|how|which)\b"))
_PREPOSITION_FOLDED, _NAMED_FOLDED, _ROLE_FOLDED = (
    FoldedSearch(_PREPOSITION_BEFORE), FoldedSearch(_NAMED_BEFORE), FoldedSearch(_ROLE_BEFORE)
)
_WORK_AFTER = re.compile(r"^(?:'s|’s)?\s*(?:\(|theory|law|effect|principle|novel|book|film|movie|song|album|series|game)")


def _names() -> list[str]:
    names = [f"label={lab.value}" for lab in LABELS] + [f"detector={d}" for d in DETECTORS]
    names += ["score", "tokens", "title_case", "upper_case", "lower_case", "has_digit", "mentions", "first_position"]
    names += ["first_name_locales", "last_name_locales", "common_word", "first_token_first_name", "last_token_surname"]
    names += ["word_frequency_max", "word_frequency_min", "frequent_not_a_name"]
    names += ["zipf_min", "zipf_max", "zipf_not_a_name", "listed_company", "work_named_near", "academic_near", "place_topic_near"]
    names += [f"place={k}" for k in PLACE_KINDS] + ["place_population"]
    names += ["rule_keep", "rule_no_opinion"] + [f"rule={r}" for r in RULE_REASONS]
    names += [f"prompt={c}" for c in PROMPT_CUES] + ["prompt_first_person", "prompt_code", "prompt_length", "prompt_entities"]
    names += ["sentence_question", "possessive_before", "preposition_before", "named_before", "relation_before",
              "role_before", "work_after", "quoted", "sentence_start"]
    return names


FEATURE_NAMES: tuple[str, ...] = tuple(_names())


@dataclass(frozen=True)
class RuleOpinion:
    keep: bool | None
    confidence: float
    reason: str


# The same cues without (?i), read from the lower-cased text: in ASCII text that matches
# exactly what (?i) does, and a case-sensitive regex skips ahead to its first letters
# (~0.2 ms less per 1,000-character prompt). Other texts are read as before ("ſ", "K" and
# "İ" fold differently).
_LOWER_CUES = tuple(re.compile(pattern.pattern) for pattern in PROMPT_CUES.values())
_LOWER_FIRST_PERSON = re.compile(_FIRST_PERSON.pattern.removeprefix("(?i)"))


def prompt_features(text: str, n_entities: int) -> list[float]:
    words = max(1, len(re.findall(r"\w+", text)))
    if text.isascii():
        lowered = text.lower()
        out = [1.0 if pattern.search(lowered) else 0.0 for pattern in _LOWER_CUES]
        out.append(min(1.0, 10 * len(_LOWER_FIRST_PERSON.findall(lowered)) / words))
    else:
        out = [1.0 if pattern.search(text) else 0.0 for pattern in PROMPT_CUES.values()]
        out.append(min(1.0, 10 * len(_FIRST_PERSON.findall(text)) / words))
    out.append(min(1.0, len(_CODE.findall(text)) / 10))
    out.append(math.log1p(len(text)) / 10)
    out.append(math.log1p(n_entities) / 3)
    return out


# Sentence ends of Latin and CJK scripts ("。" has no space after it, so a Chinese or
# Japanese text would otherwise be one sentence). A run-on line is cut at _SENTENCE_REACH
# characters each side: the cues read from a sentence are near the entity, and reading the
# whole of a long unpunctuated text once per entity made the judge quadratic in its length.
_SENTENCE_ENDS = ".!?\n。！？"
_SENTENCE_REACH = 400


def _sentence(text: str, start: int, end: int) -> tuple[str, str]:
    floor = max(0, start - _SENTENCE_REACH)
    ceiling = min(len(text), end + _SENTENCE_REACH)
    left = max(text.rfind(c, floor, start) for c in _SENTENCE_ENDS)
    left = left if left >= 0 else floor - 1
    right_candidates = [i for i in (text.find(c, end, ceiling) for c in _SENTENCE_ENDS) if i >= 0]
    right = min(right_candidates) if right_candidates else ceiling - 1
    return text[left + 1 : start], text[end : right + 1]


def span_features(text: str, span: Span, rule: RuleOpinion | None, mentions: int, prompt: list[float]) -> np.ndarray:
    names, geo = lexicon(), geo_index()
    tokens = span.text.split() or [span.text]
    out: list[float] = [1.0 if span.label is lab else 0.0 for lab in LABELS]
    detector = span.detector if span.detector in DETECTORS else ""
    out += [1.0 if detector == d else 0.0 for d in DETECTORS]
    letters = [c for c in span.text if c.isalpha()]
    out += [
        span.score, min(len(tokens), 5) / 5, 1.0 if span.text.istitle() else 0.0,
        1.0 if letters and span.text.isupper() else 0.0, 1.0 if letters and span.text.islower() else 0.0,
        1.0 if any(c.isdigit() for c in span.text) else 0.0, math.log1p(mentions) / 2, span.start / max(1, len(text)),
    ]
    first, last = names.info(tokens[0]), names.info(tokens[-1])
    out += [
        min(len(first.first_in - {"en"}), 20) / 20, min(len(last.last_in), 20) / 20,
        1.0 if is_common_word(span.text) else 0.0, 1.0 if first.is_first else 0.0,
        1.0 if len(tokens) > 1 and last.is_last else 0.0,
    ]
    # How often the name's words occur in everyday English (subtitles): a word that is
    # frequent but no one's first name ("Tolstoy", "Heineken") is a public name.
    frequencies = [word_frequency(t) for t in tokens]
    not_names = [f for t, f in zip(tokens, frequencies) if not names.info(t).is_first]
    out += [
        math.log10(1 + max(frequencies)) / 4, math.log10(1 + min(frequencies)) / 4,
        math.log10(1 + max(not_names)) / 4 if not_names else 0.0,
    ]
    # wordfreq (Wikipedia, news, books, web, subtitles): household names are written often.
    zipfs = [zipf(t) for t in tokens]
    not_name_zipfs = [z for t, z in zip(tokens, zipfs) if not names.info(t).is_first]
    near = text[max(0, span.start - 300) : span.end + 150]
    near_lowered = near.lower() if near.isascii() else None
    out += [
        min(zipfs) / 7, max(zipfs) / 7, max(not_name_zipfs) / 7 if not_name_zipfs else 0.0,
        1.0 if is_listed_company(span.text) else 0.0,
        1.0 if names_a_work(near) else 0.0,
        1.0 if _ACADEMIC.search(near, near_lowered) else 0.0,
        1.0 if _PLACE_TOPIC.search(near, near_lowered) else 0.0,
    ]
    place = geo.lookup(span.text)
    out += [1.0 if place is not None and place.kind == k else 0.0 for k in PLACE_KINDS]
    out.append(math.log10(place.population + 1) / 9 if place is not None else 0.0)
    if rule is None or rule.keep is None:
        out += [0.0, 1.0]
    else:
        out += [rule.confidence if rule.keep else -rule.confidence, 0.0]
    out += [1.0 if rule is not None and rule.reason == r else 0.0 for r in RULE_REASONS]
    out += prompt
    before, after = _sentence(text, span.start, span.end)
    before_lowered = before.lower() if before.isascii() else None
    out += [
        1.0 if "?" in after or _WH_WORD.search(before, before_lowered) else 0.0,
        1.0 if _POSSESSIVE_BEFORE.search(before) else 0.0,
        1.0 if _PREPOSITION_FOLDED.search(before, before_lowered) else 0.0,
        1.0 if _NAMED_FOLDED.search(before, before_lowered) else 0.0,
        1.0 if _RELATION_BEFORE.search(before) else 0.0,
        1.0 if _ROLE_FOLDED.search(before, before_lowered) else 0.0,
        1.0 if _WORK_AFTER.search(after) else 0.0,
        1.0 if before.rstrip().endswith(('"', "“", "'")) else 0.0,
        1.0 if not before.strip() else 0.0,
    ]
    return np.asarray(out, dtype=np.float32)


def extract(text: str, spans: Sequence[Span], rules: Sequence[RuleOpinion | None]) -> np.ndarray:
    """One row of FEATURE_NAMES per span."""
    if not spans:
        return np.zeros((0, len(FEATURE_NAMES)), dtype=np.float32)
    prompt = prompt_features(text, len(spans))
    counts: dict[str, int] = {}
    for span in spans:
        key = span.text.casefold()
        counts[key] = counts.get(key, 0) + 1
    rows = [
        span_features(text, span, rule, counts[span.text.casefold()], prompt)
        for span, rule in zip(spans, rules)
    ]
    matrix = np.vstack(rows)
    assert matrix.shape[1] == len(FEATURE_NAMES), (matrix.shape, len(FEATURE_NAMES))
    return matrix
