"""How much of a headline number is sampling noise: a bootstrap over *texts*.

The validation halves are small (about 140 LOPSIDED prompts), so a fit-validation gap of
0.05 can be the split's own noise or a rule fitted to the fit half. Entities of one text
are not independent (a prompt's names share its context and its verdict), so resampling
entities would understate the noise; the unit resampled is the text, or the document where
the split keeps a document's pieces together (TAB). Each dataset is resampled on its own,
so every replicate keeps the datasets' sizes.

Every headline measure is a ratio of two sums over texts (entities protected / entities,
relevant entities swapped / relevant entities...), so each text contributes a pair per
measure; a replicate's value is the ratio of the replicate's sums.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from agent.bench.data import PROMPT_SETS, Example
from agent.bench.metrics import DIRECT_LABELS, Counts, DatasetScore, score_protection

RESAMPLES = 1000
SEED = 20261124
LEVEL = 0.95

# The measures with an interval: the headline table's rows (agent/bench/headline.py) and
# the all-PII figure of the summary.
KEYS = (
    "direct_identifiers_recall", "person_recall", "person_strict_recall", "all_pii_recall", "pupa_recall",
    "lopsided_utility_error", "lopsided_privacy_error", "tab_recall", "tab_person_recall",
    "wnut17_recall", "wnut17_person_recall", "restore_exact",
)
_SHORT = {"tab": "tab", "wnut17_test": "wnut17"}


def _pair(counts: Iterable[Counts]) -> tuple[int, int]:
    protected = total = 0
    for c in counts:
        protected += c.protected
        total += c.total
    return protected, total


def text_parts(name: str, score: DatasetScore) -> dict[str, tuple[int, int]]:
    """(numerator, denominator) per measure that `score` (one text's, or a whole
    dataset's) contributes to; the same counting as headline() and BenchReport.summary()."""
    out: dict[str, tuple[int, int]] = {}
    private = score.private_by_label
    if name in PROMPT_SETS:
        out["person_recall"] = _pair([private.get("PERSON", Counts())])
        out["person_strict_recall"] = _pair([score.private_strict_by_label.get("PERSON", Counts())])
        out["direct_identifiers_recall"] = _pair(c for label, c in private.items() if label in DIRECT_LABELS)
        # LOPSIDED counts towards all-PII recall with its entities safe to swap only.
        out["all_pii_recall"] = _pair([score.irrelevant] if name == "lopsided" else score.by_label.values())
    if name == "lopsided":
        out["lopsided_utility_error"] = _pair([score.relevant])  # relevant ones swapped
        left = score.irrelevant.total - score.irrelevant.protected
        out["lopsided_privacy_error"] = (left, score.irrelevant.total)
    if name == "pupa":
        out["pupa_recall"] = _pair(private.values())
    if name in _SHORT:
        out[f"{_SHORT[name]}_recall"] = _pair(private.values())
        out[f"{_SHORT[name]}_person_recall"] = _pair([private.get("PERSON", Counts())])
    out["restore_exact"] = _pair([score.restore_exact])
    return {k: v for k, v in out.items() if v[1]}


def record_text(score: DatasetScore, example: Example, sanitized: str, restored_exactly: bool | None) -> None:
    """Keep one text's contribution to every measure, with its resampling unit."""
    one = DatasetScore(score.name)
    score_protection(one, example, sanitized)
    if restored_exactly is not None:
        one.restore_exact.add(restored_exactly)
    score.texts.append((example.group or example.id, example.id, text_parts(score.name, one)))


def _unit_matrix(score: DatasetScore) -> np.ndarray:
    return _units((unit, parts) for unit, _, parts in score.texts)[1]


def _units(texts: Iterable[tuple[str, dict]]) -> tuple[list[str], np.ndarray]:
    """Rows: resampling units (texts, or documents) of the dataset; columns: the
    numerator and denominator of every key."""
    index: dict[str, int] = {}
    rows: list[np.ndarray] = []
    for unit, parts in texts:
        if unit not in index:
            index[unit] = len(rows)
            rows.append(np.zeros(2 * len(KEYS)))
        row = rows[index[unit]]
        for k, (num, den) in parts.items():
            i = KEYS.index(k)
            row[2 * i] += num
            row[2 * i + 1] += den
    return list(index), (np.vstack(rows) if rows else np.zeros((0, 2 * len(KEYS))))


def _values(sums: np.ndarray) -> np.ndarray:
    num, den = sums[..., 0::2], sums[..., 1::2]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def replicates(scores: dict[str, DatasetScore], seed: int = SEED, resamples: int = RESAMPLES) -> np.ndarray:
    """resamples x len(KEYS): every measure on each bootstrap replicate of the texts."""
    rng = np.random.default_rng(seed)
    sums = np.zeros((resamples, 2 * len(KEYS)))
    for name in sorted(scores):
        units = _unit_matrix(scores[name])
        n = len(units)
        if n == 0:
            continue
        weights = rng.multinomial(n, np.full(n, 1.0 / n), size=resamples)  # how often each unit is drawn
        sums += weights @ units
    return _values(sums)


def point(scores: dict[str, DatasetScore]) -> np.ndarray:
    """Every measure on the texts as they are (the same numbers as the headline)."""
    total = sum((_unit_matrix(s).sum(axis=0) for s in scores.values()), np.zeros(2 * len(KEYS)))
    return _values(total)


def _interval(values: np.ndarray) -> list[float] | None:
    values = values[~np.isnan(values)]
    if not len(values):
        return None
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return [round(float(low), 4), round(float(high), 4)]


def intervals(fit: dict[str, DatasetScore], validation: dict[str, DatasetScore]) -> dict:
    """95% intervals per half, and for the gap: {"fit": {key: [lo, hi]}, "validation":
    ..., "gap": {key: {"gap": |fit - val|, "interval": [lo, hi]}}}. The gap's interval
    is of (fit - validation) signed like the observed gap, so a lower end at or below
    zero says the gap is within the noise of halves this size."""
    out: dict = {"resamples": RESAMPLES, "seed": SEED, "level": LEVEL, "unit": "text (TAB: document)",
                 "fit": {}, "validation": {}, "gap": {}}
    # Different seeds: the two halves are independent samples.
    draws = {"fit": replicates(fit, SEED) if fit else None,
             "validation": replicates(validation, SEED + 1) if validation else None}
    for half, values in draws.items():
        if values is None:
            continue
        for i, key in enumerate(KEYS):
            found = _interval(values[:, i])
            if found is not None:
                out[half][key] = found
    if draws["fit"] is None or draws["validation"] is None:
        return out
    observed = point(fit) - point(validation)
    for i, key in enumerate(KEYS):
        if np.isnan(observed[i]):
            continue
        sign = -1.0 if observed[i] < 0 else 1.0
        found = _interval(sign * (draws["fit"][:, i] - draws["validation"][:, i]))
        if found is not None:
            out["gap"][key] = {"gap": round(abs(float(observed[i])), 4), "interval": found}
    return out


def _texts_of(report: dict, half: str) -> dict[str, dict]:
    """{dataset: {text id: {"unit", "parts"}}} of one half of a bench.json."""
    veil = report["veil"] if half == "validation" else report.get("fit", {}).get("veil", {})
    return {name: data.get("texts", {}) for name, data in veil.get("datasets", {}).items()}


def paired(before: dict, after: dict, half: str = "validation", seed: int = SEED,
           resamples: int = RESAMPLES) -> dict[str, dict]:
    """Two bench.json runs compared on the texts they share: {measure: {"before", "after",
    "difference", "interval"}}. Both runs are resampled with the same draws, so what the
    texts have in common cancels out and a change is judged against its own spread: far
    tighter than comparing the two halves' separate intervals."""
    rng = np.random.default_rng(seed)
    sums = {"before": np.zeros((resamples, 2 * len(KEYS))), "after": np.zeros((resamples, 2 * len(KEYS)))}
    totals = {"before": np.zeros(2 * len(KEYS)), "after": np.zeros(2 * len(KEYS))}
    old, new = _texts_of(before, half), _texts_of(after, half)
    for name in sorted(set(old) & set(new)):
        shared = sorted(set(old[name]) & set(new[name]))
        if not shared:
            continue
        for which, texts in (("before", old[name]), ("after", new[name])):
            units, matrix = _units((texts[i]["unit"], {k: tuple(v) for k, v in texts[i]["parts"].items()}) for i in shared)
            if which == "before":
                weights = rng.multinomial(len(units), np.full(len(units), 1.0 / len(units)), size=resamples)
            sums[which] += weights @ matrix
            totals[which] += matrix.sum(axis=0)
    difference = _values(sums["after"]) - _values(sums["before"])
    a, b = _values(totals["before"]), _values(totals["after"])
    out = {}
    for i, key in enumerate(KEYS):
        found = _interval(difference[:, i])
        if found is not None and not np.isnan(a[i]) and not np.isnan(b[i]):
            out[key] = {"before": round(float(a[i]), 4), "after": round(float(b[i]), 4),
                        "difference": round(float(b[i] - a[i]), 4), "interval": found}
    return out


def main(argv: list[str] | None = None) -> int:
    """python -m agent.bench.bootstrap BEFORE/bench.json AFTER/bench.json: is a change a
    gain, or noise? The fit half only, unless --validation asks for the validation half
    too (read it once, to report: looking at it while choosing rules fits it)."""
    import argparse
    import json
    from pathlib import Path

    parser = argparse.ArgumentParser(prog="python -m agent.bench.bootstrap", description=main.__doc__)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--validation", action="store_true", help="also the validation half (after the fit half)")
    args = parser.parse_args(argv)
    runs = [json.loads(Path(path).read_text(encoding="utf-8")) for path in (args.before, args.after)]
    for half in ("fit", "validation") if args.validation else ("fit",):
        rows = paired(*runs, half=half)
        print(f"\n{half}: | measure | before | after | after - before (95%, paired over texts) |")
        for key, row in rows.items():
            low, high = row["interval"]
            print(f"| {key} | {row['before']:.3f} | {row['after']:.3f} | {row['difference']:+.3f} ({low:+.3f} to {high:+.3f}) |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
