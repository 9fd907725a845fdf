"""Speed side by side on the same texts, in one run (machine load hits both alike):
bare spaCy NER (tok2vec, tagger, ner: what any NER-based sanitizer pays at least), Veil's
fast path (rules + NER + the judge's head, no local model) and, when one is configured,
Veil with its local model."""

from __future__ import annotations

import time
from collections.abc import Callable

from agent.bench.data import Example
from agent.bench.metrics import bench_conversation, percentile
from agent.engine.interface import PrivacyEngine

# The fast path may cost this much more than bare NER at p95 (issue 11).
FAST_OVER_NER_LIMIT = 1.5


def _times(fn: Callable[[str, int], object], texts: list[str], runs: int) -> list[float]:
    out = []
    for run in range(runs):
        for i, text in enumerate(texts):
            start = time.perf_counter()
            fn(text, run * len(texts) + i)
            out.append((time.perf_counter() - start) * 1000)
    return out


def side_by_side(engine: PrivacyEngine, datasets: dict[str, list[Example]], spacy_model: str, runs: int = 2,
                 limit: int = 150, llm_engine: PrivacyEngine | None = None) -> dict:
    """p50/p95 (ms) of bare spaCy NER and of Veil's sanitize on the LOPSIDED prompts (the
    judge's bar is per LOPSIDED prompt), or on the first texts of any set when it is absent."""
    import spacy

    source = datasets.get("lopsided") or next(iter(datasets.values()), [])
    texts = [e.text for e in source][:limit]
    if not texts:
        return {}
    nlp = spacy.load(spacy_model, exclude=["parser", "lemmatizer", "senter", "attribute_ruler"])
    for text in texts[:5]:  # warm both up
        nlp(text)
        engine.sanitize(text, bench_conversation("speed-warm"))
    ner = _times(lambda text, i: nlp(text), texts, runs)
    fast = _times(lambda text, i: engine.sanitize(text, bench_conversation(f"speed-fast-{i}")), texts, runs)
    out = {
        "texts": len(texts), "runs": runs,
        "spacy_ner_p50_ms": percentile(ner, 0.5, 2), "spacy_ner_p95_ms": percentile(ner, 0.95, 2),
        "fast_p50_ms": percentile(fast, 0.5, 2), "fast_p95_ms": percentile(fast, 0.95, 2),
    }
    out["fast_over_ner_p95"] = round(out["fast_p95_ms"] / out["spacy_ner_p95_ms"], 2) if out["spacy_ner_p95_ms"] else None
    if llm_engine is not None:
        slow = _times(lambda text, i: llm_engine.sanitize(text, bench_conversation(f"speed-llm-{i}")), texts, 1)
        out["with_model_p50_ms"], out["with_model_p95_ms"] = percentile(slow, 0.5, 2), percentile(slow, 0.95, 2)
    return out


def speed_rows(speed: dict) -> list[str]:
    """Markdown rows for the speed table (| measure | target | Veil | Presidio |)."""
    if not speed:
        return []

    def fmt(value) -> str:
        return "—" if value is None else f"{value:.2f}" if isinstance(value, float) else str(value)

    rows = [
        f"| Bare spaCy NER p95, LOPSIDED prompts (ms) | | {fmt(speed.get('spacy_ner_p95_ms'))} | — |",
        (
            f"| Sanitize `--fast` p95, same prompts (ms) | <= {FAST_OVER_NER_LIMIT} x NER | {fmt(speed.get('fast_p95_ms'))} "
            f"({fmt(speed.get('fast_over_ner_p95'))} x) | — |"
        ),
    ]
    if "with_model_p95_ms" in speed:
        rows.append(f"| Sanitize with the local model p95, same prompts (ms) | <= 250 | {fmt(speed.get('with_model_p95_ms'))} | — |")
    return rows
