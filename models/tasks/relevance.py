"""(a) Relevance judge (LOPSIDED's semantic awareness): does the answer to this prompt
depend on the real entity (keep), or would a made-up one of the same kind do (swap)?

The model never writes free text here: for each entity it picks " keep" or " swap" as
its next token (`LocalModel.choose`), so the answer is one of the two by construction.
Base models get a few-shot prompt and a calibrated decision (the logit margin minus the
margin on a content-free input, after Zhao et al. 2021 "Calibrate before use": tiny
models have a strong prior for one label). Close calls return None ("no opinion"), and
the engine's own rules decide.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from agent.entities import Label, Span
from models.runtime import LocalModel
from models.tasks.common import Budget, few_shot_header, one_line, window

log = logging.getLogger(__name__)

_KIND = {
    Label.PERSON: "person",
    Label.ORG: "organisation",
    Label.LOCATION: "place",
    Label.ADDRESS: "address",
    Label.NORP: "group",
    Label.DATE: "date",
    Label.MISC: "name",
}

# Our own examples (not from any evaluation set), alternating so the last one does not
# bias the answer.
FEW_SHOT = (
    ("What is the population of Chicago?", "Chicago", "keep"),
    ("Write an email to my colleague Sarah Miller asking to move our meeting to Friday.", "Sarah Miller", "swap"),
    ("Summarize the main scientific achievements of Marie Curie.", "Marie Curie", "keep"),
    ("My landlord at Greenfield Properties will not return my deposit. What can I do?", "Greenfield Properties", "swap"),
    ("How does the Toyota Prius hybrid system work?", "Toyota", "keep"),
    ("I live in Dayton and want to start running. Make me a 6 week plan.", "Dayton", "swap"),
    ("Plan a three day trip to Kyoto with temples and food markets.", "Kyoto", "keep"),
    ("Tell Tom politely that his report is late again.", "Tom", "swap"),
)

INSTRUCTIONS = (
    "Decide whether answering a request needs the real entity (keep) or would be just as "
    "good with a made-up entity of the same kind (swap). Keep public people, places, "
    "organisations, products and works the request asks about; swap private people, the "
    "user's own places, employers and clients."
)

SYSTEM = (
    INSTRUCTIONS + " Reply with exactly one word: keep or swap."
)


# (keep above x, swap below -y) margins per label for base models (few-shot + calibrated);
# None: the model has no say in that direction. Chosen on the LOPSIDED dev set with the
# tiny model: its "swap" for organisations was right only 58% of the time (no better than
# the base rate); its "keep" for people was right 5 times in 8 on LOPSIDED and kept a
# private name in the other prompt sets, and a wrongly kept name is a direct identifier
# sent in clear. So a base model may only ever swap a person, never keep one.
BASE_THRESHOLDS: dict[Label, tuple[float | None, float | None]] = {
    Label.PERSON: (None, 1.0),
    Label.ORG: (1.0, None),
    Label.LOCATION: (1.0, 1.0),
}
DEFAULT_BASE_THRESHOLD = (1.0, 1.0)
# Instruct models answer without few-shot calibration: a symmetric, small dead zone.
CHAT_THRESHOLD = (0.5, 0.5)


def _example(request: str, entity: str) -> str:
    return f"Request: {one_line(request)}\nEntity: {one_line(entity, 200)}\nDecision:"


def base_prompt_header() -> str:
    return few_shot_header(INSTRUCTIONS, (f"{_example(r, e)} {d}" for r, e, d in FEW_SHOT))


class LocalRelevanceJudge:
    """agent.engine.local_tasks.RelevanceJudge over a LocalModel."""

    def __init__(
        self,
        model: LocalModel,
        *,
        time_budget_s: float = 8.0,
        thresholds: dict[Label, tuple[float | None, float | None]] | None = None,
        max_chars: int = 1200,
    ):
        self.model = model
        self.time_budget_s = time_budget_s
        self.chat = model.has_chat_template
        # Margins between the swap and keep thresholds are "unsure" (None).
        self.thresholds = thresholds if thresholds is not None else ({} if self.chat else BASE_THRESHOLDS)
        self.default_threshold = CHAT_THRESHOLD if self.chat else DEFAULT_BASE_THRESHOLD
        self.max_chars = max_chars
        self._bias: float | None = None
        self._header = base_prompt_header()

    def judge(self, text: str, spans: Sequence[Span]) -> list[bool | None]:
        budget = Budget(self.time_budget_s)
        verdicts: list[bool | None] = []
        for span in spans:
            if budget.expired:
                verdicts.append(None)
                continue
            verdicts.append(self._one(text, span, budget))
        return verdicts

    def margin(self, text: str, span: Span, budget: Budget | None = None) -> float | None:
        """Calibrated keep-vs-swap logit margin (positive: keep), None when not computed."""
        budget = budget or Budget(self.time_budget_s)
        piece, _ = window(text, span.start, span.end, self.max_chars)
        entity = span.text
        if self.chat:
            kind = _KIND.get(span.label, "entity")
            messages = [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": f"Request: {piece}\n\nEntity ({kind}): {entity}\n\nkeep or swap?"},
            ]
            choice = self.model.choose(messages, ["keep", "swap"], time_budget_s=budget.remaining())
            if choice.best is None:
                return None
            return choice.margin("keep", "swap")
        bias = self._calibration(budget)
        if bias is None:
            return None
        choice = self.model.choose(
            self._header + _example(piece, entity), [" keep", " swap"], time_budget_s=budget.remaining()
        )
        if choice.best is None:
            return None
        return choice.margin(" keep", " swap") - bias

    def _one(self, text: str, span: Span, budget: Budget) -> bool | None:
        try:
            m = self.margin(text, span, budget)
        except ValueError as exc:  # e.g. a tokenizer where keep/swap share a first token
            log.warning("relevance judge unusable with this model: %s", exc)
            return None
        return self.verdict(span.label, m, span.text)

    def verdict(self, label: Label, margin: float | None, text: str = "") -> bool | None:
        """Keep (True), swap (False) or no opinion (None) for a calibrated margin. An
        organisation or place that reads like a person's name ("Elinborg Gudmundsdottir"
        tagged ORG by NER) gets the person thresholds: keeping it would send a name."""
        if margin is None:
            return None
        if label is not Label.PERSON and text and looks_like_person(text):
            label = Label.PERSON
        keep_above, swap_below = self.thresholds.get(label, self.default_threshold)
        if keep_above is not None and margin > keep_above:
            return True
        if swap_below is not None and margin < -swap_below:
            return False
        return None

    def _calibration(self, budget: Budget) -> float | None:
        """The margin on a content-free request: the model's prior, subtracted later."""
        if self._bias is None:
            choice = self.model.choose(
                self._header + _example("N/A", "N/A"), [" keep", " swap"], time_budget_s=budget.remaining()
            )
            if choice.best is None:
                return None
            self._bias = choice.margin(" keep", " swap")
        return self._bias


def looks_like_person(text: str) -> bool:
    """2-4 capitalised words starting with a known first name (Faker's lists), not a known
    place and without organisation words."""
    from agent.knowledge.names import lexicon
    from agent.knowledge.org_words import GENERIC_ORG_WORDS
    from agent.knowledge.places import place_kind

    tokens = text.split()
    if not 2 <= len(tokens) <= 4 or not all(t[:1].isupper() for t in tokens):
        return False
    if any(t.casefold().strip(".,") in GENERIC_ORG_WORDS for t in tokens):
        return False
    return lexicon().is_first_name(tokens[0]) and place_kind(text)[0] == "unknown"
