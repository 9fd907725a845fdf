"""(d) Fallback restorer: for answers where the rule-based restore left stand-ins behind,
usually because the remote LLM changed their form (inflected "Priyas", misspelled
"Sharme", "Sharma-san", digits regrouped).

The model never rewrites the answer. Candidate mentions are found by string similarity to
the leftover stand-ins; the model confirms each uncertain one with a yes/no next-token
choice; confirmed mentions are replaced by the matching part of the real value. So the
result differs from the answer only at those mentions, and every replacement is a real
value from the conversation map.
"""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from agent.entities import Action
from agent.session.conversation import MapEntry
from agent.splice import splice
from models.runtime import LocalModel
from models.tasks.common import Budget, few_shot_header, one_line, window

log = logging.getLogger(__name__)

_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s?$")
MAX_SUFFIX = 4  # "Priya" -> "Priyas", "Priyaji"; longer is a different word
MIN_RATIO = 0.8  # for misspellings of stand-in parts of 5+ characters


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    replacement: str
    entry: MapEntry
    exact: bool  # the whole stand-in, only the case differs: no need to ask the model


FEW_SHOT = (
    ("Thanks! I will forward this to Priyas team today.", "Priyas", "Priya Sharma", "yes"),
    ("The report from Bergmann is ready.", "Bergmann", "Bergman Logistics", "yes"),
    ("You can reach Sharma-san on Monday.", "Sharma-san", "Priya Sharma", "yes"),
    ("We watched the documentary Rivers.", "Rivers", "Tom Rivera", "no"),
    ("Ask Dan about it, not Danielle.", "Danielle", "Dan Cole", "no"),
)
INSTRUCTIONS = "Decide whether the quoted word in the text refers to the given name (possibly misspelled or inflected)."


def _example(text: str, mention: str, name: str) -> str:
    return f"Text: {one_line(text, 600)}\nWord: \"{mention}\"\nName: {name}\nSame:"


def base_prompt_header() -> str:
    return few_shot_header(INSTRUCTIONS, (f"{_example(t, m, n)} {a}" for t, m, n, a in FEW_SHOT))


class LocalFallbackRestorer:
    """agent.engine.local_tasks.FallbackRestorer over a LocalModel."""

    def __init__(self, model: LocalModel, *, time_budget_s: float = 8.0, threshold: float = 0.0):
        self.model = model
        self.time_budget_s = time_budget_s
        self.threshold = threshold
        self._header = base_prompt_header()

    def restore(self, answer: str, leftovers: Sequence[MapEntry]) -> str | None:
        entries = [e for e in leftovers if e.action is Action.REPLACE and e.stand_in.strip() and e.real]
        if not answer or not entries:
            return None
        budget = Budget(self.time_budget_s)
        accepted: list[Mention] = []
        for mention in find_mentions(answer, entries):
            if mention.exact:
                accepted.append(mention)
                continue
            if budget.expired:
                break
            verdict = self._confirm(answer, mention, budget)
            if verdict is None:
                break  # out of time: use what is confirmed so far
            if verdict:
                accepted.append(mention)
        if not accepted:
            return None
        return apply_mentions(answer, accepted)

    def _confirm(self, answer: str, mention: Mention, budget: Budget) -> bool | None:
        piece, _ = window(answer, mention.start, mention.end, 600)
        word = answer[mention.start : mention.end]
        try:
            if self.model.has_chat_template:
                messages = [
                    {"role": "system", "content": INSTRUCTIONS + " Reply yes or no."},
                    {"role": "user", "content": f"Text: {piece}\n\nWord: \"{word}\"\nName: {mention.entry.stand_in}"},
                ]
                choice = self.model.choose(messages, ["yes", "no"], time_budget_s=budget.remaining())
                yes_no = ("yes", "no")
            else:
                choice = self.model.choose(
                    self._header + _example(piece, word, mention.entry.stand_in),
                    [" yes", " no"],
                    time_budget_s=budget.remaining(),
                )
                yes_no = (" yes", " no")
        except ValueError as exc:
            log.warning("fallback restorer unusable with this model: %s", exc)
            return None
        if choice.best is None:
            return None
        return choice.margin(*yes_no) > self.threshold


def find_mentions(answer: str, entries: Sequence[MapEntry]) -> list[Mention]:
    """Non-overlapping candidate mentions of the stand-ins, in text order."""
    found: list[Mention] = []
    for entry in entries:
        found.extend(_exact(answer, entry))
        found.extend(_near(answer, entry))
    found.sort(key=lambda m: (m.start, -(m.end - m.start), not m.exact))
    out: list[Mention] = []
    for m in found:
        if out and m.start < out[-1].end:
            continue
        out.append(m)
    return out


def apply_mentions(answer: str, mentions: Sequence[Mention]) -> str:
    return splice(answer, ((m.start, m.end, m.replacement) for m in mentions))


def _exact(answer: str, entry: MapEntry) -> list[Mention]:
    pattern = re.compile(r"(?<!\w)" + re.escape(entry.stand_in) + r"(?!\w)", re.IGNORECASE)
    return [
        Mention(m.start(), m.end(), _cased(m.group(0), entry.real), entry, True)
        for m in pattern.finditer(answer)
    ]


def _near(answer: str, entry: MapEntry) -> list[Mention]:
    """Words that look like an inflected or misspelled part of the stand-in."""
    stand_parts = _WORD.findall(entry.stand_in)
    real_parts = _WORD.findall(entry.real)
    if not stand_parts or not real_parts:
        return []
    out = []
    for m in _WORD.finditer(answer):
        word = m.group(0)
        for index, part in enumerate(stand_parts):
            if len(part) < 3:
                continue
            real_part = _aligned(index, stand_parts, real_parts, entry.real)
            replacement = _rewrite(word, part, real_part)
            if replacement is not None:
                out.append(Mention(m.start(), m.end(), replacement, entry, False))
                break
    return out


def _aligned(index: int, stand_parts: list[str], real_parts: list[str], real: str) -> str:
    """The part of the real value that corresponds to stand-in part `index` (first to
    first, last to last; the whole value when the shapes differ)."""
    if len(stand_parts) == len(real_parts):
        return real_parts[index]
    if index == 0:
        return real_parts[0]
    if index == len(stand_parts) - 1:
        return real_parts[-1]
    return real


def _rewrite(word: str, part: str, real_part: str) -> str | None:
    """The word with `part` replaced by `real_part`, keeping an inflection suffix, or None
    when the word is not a form of `part`."""
    folded, target = word.casefold(), part.casefold()
    if folded == target:
        return _cased(word, real_part)
    possessive = _POSSESSIVE.search(word)
    if possessive and word[: possessive.start()].casefold() == target:
        return _cased(word[: possessive.start()], real_part) + word[possessive.start() :]
    if folded.startswith(target) and 0 < len(word) - len(part) <= MAX_SUFFIX and len(part) >= 4:
        return _cased(word[: len(part)], real_part) + word[len(part) :]
    if (
        len(part) >= 5
        and abs(len(word) - len(part)) <= 2
        and difflib.SequenceMatcher(None, folded, target).ratio() >= MIN_RATIO
    ):
        return _cased(word, real_part)
    return None


def _cased(mention: str, real: str) -> str:
    """The real value written in the mention's case (all caps stays all caps)."""
    if mention.isupper() and len(mention) > 1:
        return real.upper()
    if mention.islower():
        return real.lower()
    return real
