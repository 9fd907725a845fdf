"""What `veil bench` measures, per example and summed per dataset and label."""

from __future__ import annotations

import random
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from agent.bench.data import Example
from agent.entities import Action, Label, SanitizeResult
from agent.knowledge.names import lexicon
from agent.session.conversation import Conversation
from agent.substitute.persons import parse_name

DIRECT_LABELS = ("EMAIL", "PHONE", "CREDIT_CARD", "IBAN", "SSN", "IP", "SECRET")


def still_present(entity_text: str, sanitized: str) -> bool:
    """The gold text still appears, whole-word and case-insensitively: not protected. A
    one-letter value ("S" of a relation puzzle) is matched as written and not after an
    apostrophe: the "s" of "'s" is no person."""
    if len(entity_text.strip()) == 1:
        return re.search(r"(?<![\w'’])" + re.escape(entity_text.strip()) + r"(?!\w)", sanitized) is not None
    pattern = r"(?<!\w)" + r"\s+".join(re.escape(p) for p in entity_text.split()) + r"(?!\w)"
    return re.search(pattern, sanitized, re.IGNORECASE) is not None


# Words of a person's name that say nothing about who it is (titles, particles).
_NOT_NAME_WORDS = frozenset({
    "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "lady", "lord", "rev", "the", "and",
    "van", "von", "der", "den", "del", "della", "des", "bin", "ibn", "binti", "jr", "sr",
})
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def name_words(entity_text: str) -> list[str]:
    """The words of 3+ letters that make a name identifying ("Sarah", "Mitchell")."""
    return [w for w in _WORD.findall(entity_text) if len(w) >= 3 and w.casefold() not in _NOT_NAME_WORDS]


def strictly_protected(entity_text: str, sanitized: str) -> bool:
    """Strict recall: leaked when the whole value or any of its name words survives
    ("Sarah Mitchell" sent as "Sarah Clarke" is a leak)."""
    if still_present(entity_text, sanitized):
        return False
    return not any(still_present(word, sanitized) for word in name_words(entity_text))


@dataclass
class Counts:
    total: int = 0
    protected: int = 0

    def add(self, protected: bool) -> None:
        self.total += 1
        self.protected += int(protected)

    @property
    def recall(self) -> float | None:
        return self.protected / self.total if self.total else None


@dataclass
class DatasetScore:
    name: str
    examples: int = 0
    by_label: dict[str, Counts] = field(default_factory=dict)
    # Entities that should not be sent as they are (every gold entity except LOPSIDED's
    # "relevant" ones), per label: recall, and strict recall (no name word survives).
    private_by_label: dict[str, Counts] = field(default_factory=dict)
    private_strict_by_label: dict[str, Counts] = field(default_factory=dict)
    relevant: Counts = field(default_factory=Counts)  # LOPSIDED: relevant entities (protected = replaced)
    irrelevant: Counts = field(default_factory=Counts)  # LOPSIDED: irrelevant entities (protected = replaced)
    restore_exact: Counts = field(default_factory=Counts)
    stream_exact: Counts = field(default_factory=Counts)
    non_entity_words: int = 0
    lost_words: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    restore_latencies_ms: list[float] = field(default_factory=list)
    stream_chunk_latencies_ms: list[float] = field(default_factory=list)  # one streaming-restore feed each
    # Per text: (resampling unit, text id, {measure: (numerator, denominator)}), for the
    # bootstrap intervals and paired comparisons of two runs (agent/bench/bootstrap.py).
    texts: list[tuple[str, str, dict[str, tuple[int, int]]]] = field(default_factory=list)

    def recall_all(self, labels: tuple[str, ...] | None = None) -> Counts:
        total = Counts()
        for label, counts in self.by_label.items():
            if labels is None or label in labels:
                total.total += counts.total
                total.protected += counts.protected
        return total

    def to_json(self, texts: bool = False) -> dict:
        """`texts`: also every text's counts (for paired comparisons of two runs; only the
        default engine's are written, they are most of the file's size)."""
        pct = percentile  # short: many calls below
        out = {
            "examples": self.examples,
            "recall": {k: {"n": v.total, "protected": v.protected, "recall": _r(v.recall)} for k, v in sorted(self.by_label.items())},
            "recall_all": _r(self.recall_all().recall),
            "private_recall": {k: {"n": v.total, "recall": _r(v.recall),
                                   "strict": _r(self.private_strict_by_label[k].recall)}
                               for k, v in sorted(self.private_by_label.items())},
            "entities": self.recall_all().total,
            "over_redaction": _r(self.lost_words / self.non_entity_words) if self.non_entity_words else None,
            "latency_ms": {"p50": pct(self.latencies_ms, 0.5), "p95": pct(self.latencies_ms, 0.95),
                           "mean": round(statistics.fmean(self.latencies_ms), 3) if self.latencies_ms else None},
        }
        if self.restore_exact.total:
            out["restore_exact"] = _r(self.restore_exact.recall)
            out["stream_exact"] = _r(self.stream_exact.recall)
            out["restore_latency_ms"] = {"p50": pct(self.restore_latencies_ms, 0.5), "p95": pct(self.restore_latencies_ms, 0.95)}
            out["stream_chunk_ms"] = {"p50": pct(self.stream_chunk_latencies_ms, 0.5),
                                      "p95": pct(self.stream_chunk_latencies_ms, 0.95)}
        if texts:
            out["texts"] = {item: {"unit": unit, "parts": {k: list(v) for k, v in parts.items()}}
                            for unit, item, parts in self.texts}
        if self.relevant.total or self.irrelevant.total:
            out["lopsided"] = {
                "relevant": self.relevant.total,
                "irrelevant": self.irrelevant.total,
                "utility_error": _r(self.relevant.recall),
                "privacy_error": _r(1 - self.irrelevant.recall) if self.irrelevant.total else None,
            }
        return out


def percentile(values: list[float], q: float, digits: int = 3) -> float | None:
    """The q-quantile (nearest rank below) of the values, rounded; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], digits)


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def score_protection(score: DatasetScore, example: Example, sanitized: str) -> None:
    for entity in example.entities:
        protected = not still_present(entity.text, sanitized)
        score.by_label.setdefault(entity.label, Counts()).add(protected)
        if entity.relevant is not True:
            score.private_by_label.setdefault(entity.label, Counts()).add(protected)
            strict = protected and strictly_protected(entity.text, sanitized)
            score.private_strict_by_label.setdefault(entity.label, Counts()).add(strict)
        if entity.relevant is True:
            score.relevant.add(protected)
        elif entity.relevant is False:
            score.irrelevant.add(protected)


def over_redaction(example: Example, result: SanitizeResult) -> tuple[int, int]:
    """(non-entity words, of which swapped away): how much ordinary text was lost."""
    gold = [(e.start, e.end) for e in example.entities]
    swapped = [(r.start, r.end) for r in result.entities if r.action is not Action.KEEP]
    words = lost = 0
    for m in re.finditer(r"\w+", example.text):
        if any(s <= m.start() < e for s, e in gold):
            continue
        words += 1
        if any(s <= m.start() < e for s, e in swapped):
            lost += 1
    return words, lost


def echo_llm(result: SanitizeResult, rng: random.Random) -> tuple[str, str]:
    """An LLM that repeats what it was sent, writing stand-ins with other casing, with a
    possessive, or as first or last name only. Returns (its answer, the restore we expect)."""
    names = lexicon()
    text = result.sanitized
    echo, expected = [], []
    position = 0
    for rep in sorted(result.entities, key=lambda r: r.sanitized_start):
        between = text[position : rep.sanitized_start]
        echo.append(between)
        expected.append(between)
        position = rep.sanitized_end
        if rep.action is Action.KEEP:
            echo.append(rep.sent)
            expected.append(rep.real)
            continue
        if rep.action is Action.LABEL:
            # A label has no letter case to vary; LLMs do drop its brackets.
            bare = rng.random() < 0.5
            echo.append(rep.sent.strip("[]") if bare else rep.sent)
            expected.append(rep.real)
            continue
        variants = ["exact", "upper", "lower"]
        next_char = text[rep.sanitized_end : rep.sanitized_end + 1]
        if rep.label is Label.PERSON and not next_char.isalnum() and next_char not in "'’":
            variants.append("possessive")
        if rep.label is Label.PERSON and rep.action is Action.REPLACE:
            real = parse_name(rep.real, None, names)
            fake = rep.sent.split()[len(real.titles) :][: len(real.parts)]
            if len(real.parts) > 1 and len(fake) == len(real.parts):
                variants += ["first", "last"]
        variant = rng.choice(variants)
        sent, real_value = rep.sent, rep.real
        # A case change the stand-in does not show (an all-lowercase URL lowered) cannot
        # be seen by restore, so the expected text keeps the real value as written.
        if variant == "upper" and sent.upper() != sent:
            sent, real_value = sent.upper(), real_value.upper()
        elif variant == "lower" and sent.lower() != sent:
            sent, real_value = sent.lower(), real_value.lower()
        elif variant == "possessive":
            sent, real_value = sent + "'s", real_value + "'s"
        elif variant in ("first", "last"):
            index = 0 if variant == "first" else -1
            sent, real_value = fake[index], real.parts[index]
        echo.append(sent)
        expected.append(real_value)
    echo.append(text[position:])
    expected.append(text[position:])
    return "".join(echo), "".join(expected)


def timed(fn: Callable[[], object]) -> tuple[object, float]:
    start = time.perf_counter()
    value = fn()
    return value, (time.perf_counter() - start) * 1000


def bench_conversation(example_id: str) -> Conversation:
    """A fresh conversation per example with a seed fixed by its id: reproducible runs."""
    seed = sum((i + 1) * ord(c) for i, c in enumerate(example_id)) * 7919
    return Conversation(f"bench-{example_id}", seed=seed)
