"""Person names that NER misses: after a title ("Ms. Mitchell"), after a cue ("my name is",
"Dear", "Regards,"), and proper nouns that are known first names (Faker's name lists
across ~90 locales), extended over the surname that follows."""

from __future__ import annotations

import re

from agent.detect.base import DetectionContext
from agent.detect.nlp import LazyAnalysis, SpacyPipeline
from agent.entities import Label, Span
from agent.names import lexicon

TITLES = (
    "Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Professor|Sir|Dame|Lady|Lord|Rev|Reverend|Fr|Father|Sister|"
    "Judge|Justice|Mme|Mlle|Herr|Frau|Sr|Sra|Srta|Sgt|Capt|Captain|Col|Gen|Lt|Officer|"
    "Detective|Det|Coach|Uncle|Aunt|Auntie|Grandma|Grandpa"
)
_NAME_TOKEN = r"[A-Z][a-zà-öø-ÿ'’\-]+(?:-[A-Z][a-zà-öø-ÿ]+)?"
_NAME = rf"{_NAME_TOKEN}(?:\s+(?:[A-Z]\.\s+)?{_NAME_TOKEN}){{0,2}}"
_TITLE_NAME = re.compile(rf"\b(?:{TITLES})\.?\s+(?P<v>{_NAME})")
_CUE_NAME = re.compile(
    rf"(?:\b(?:[Mm]y name is|[Mm]y name's|I am called|[Nn]amed|[Cc]alled|[Dd]ear|[Hh]i|[Hh]ello|[Hh]ey|"
    rf"[Ss]incerely|[Rr]egards|[Tt]hanks|[Tt]hank you|[Cc]heers|[Bb]est|[Yy]ours|[Ff]rom|[Ss]igned|"
    rf"[Cc]ontact|[Aa]sk|[Ww]ith|[Mm]y (?:friend|colleague|boss|manager|wife|husband|son|daughter|"
    rf"brother|sister|mother|father|mom|dad|partner|client|customer|neighbou?r|landlord|tenant|"
    rf"student|teacher|doctor|lawyer|coworker|co-worker|girlfriend|boyfriend|cousin|niece|nephew)))"
    rf"[,:]?\s+(?P<v>{_NAME})"
)
_STOP_AFTER_CUE = frozenset(
    {"I", "We", "You", "The", "This", "That", "There", "It", "All", "Everyone", "Team", "Sir",
     "Madam", "GPT", "ChatGPT", "AI", "Assistant", "Regards", "Thanks", "Thank", "Please", "Hope",
     "Good", "Best", "Kind", "Warm", "Dear", "Hello", "Hi", "Hey", "Yes", "No", "Ok", "Okay"}
)


class PersonNameDetector:
    name = "person_names"
    labels = frozenset({Label.PERSON})

    def __init__(self, pipeline: SpacyPipeline | None = None):
        self.pipeline = pipeline

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans = self._by_cue(text)
        if self.pipeline is not None:
            try:
                analysis = context.analysis or LazyAnalysis(self.pipeline, text)
                spans.extend(self._by_lexicon(text, analysis.doc))
            except RuntimeError:
                pass  # no spaCy model: the cue rules still work
        return spans

    def _by_cue(self, text: str) -> list[Span]:
        names = lexicon()
        spans = []
        for pattern, score in ((_TITLE_NAME, 0.9), (_CUE_NAME, 0.7)):
            for match in pattern.finditer(text):
                value = match.group("v")
                tokens = value.split()
                if tokens[0] in _STOP_AFTER_CUE:
                    continue  # "Dear Team", "Thanks Everyone"
                if pattern is _CUE_NAME:
                    known = [t for t in tokens if names.is_first_name(t) or names.is_last_name(t)]
                    if not known:
                        continue
                    # Keep the run up to the last known name token.
                    last_known = max(i for i, t in enumerate(tokens) if t in known)
                    tokens = tokens[: last_known + 1]
                value = " ".join(tokens)
                start = match.start("v")
                if text[start : start + len(value)] != value:
                    value = text[start : start + len(" ".join(tokens))]
                spans.append(Span(start, start + len(value), Label.PERSON, value, score, self.name))
        return spans

    @staticmethod
    def _likely_first_name(token: str) -> bool:
        """Listed as a first name by at least two locales' curated lists (one list alone
        has too many words that are ordinary English: "Server", "Will")."""
        info = lexicon().info(token)
        return len(info.first_in - {"en"}) >= 2

    def _by_lexicon(self, text: str, doc) -> list[Span]:
        names = lexicon()
        spans = []
        i = 0
        n = len(doc)
        while i < n:
            token = doc[i]
            if (
                token.pos_ == "PROPN"
                and token.is_title
                and len(token.text) >= 3
                and self._likely_first_name(token.text)
                and token.ent_type_ not in ("GPE", "LOC", "NORP", "FAC")
            ):
                j = i + 1
                while (
                    j < n
                    and j - i < 3
                    and doc[j].pos_ == "PROPN"
                    and (doc[j].is_title or (len(doc[j].text) == 2 and doc[j].text.endswith(".")))
                ):
                    j += 1
                start, end = token.idx, doc[j - 1].idx + len(doc[j - 1].text)
                value = text[start:end]
                known_surname = j - i > 1 and names.is_last_name(doc[j - 1].text)
                score = 0.85 if known_surname else (0.7 if j - i > 1 else 0.65)
                spans.append(Span(start, end, Label.PERSON, value, score, self.name))
                i = j
            else:
                i += 1
        return spans
