"""The headline measures of `veil bench`, computed the same way on the fit and on the
validation half, and the table that shows them side by side.

Rows that cannot flatter: persons are counted over every prompt set, LOPSIDED's persons
that are safe to swap included; strict recall counts a person as leaked when any of their
name words (3+ letters) survives; TAB and WNUT17 have their own rows. A measure whose fit
and validation values differ by more than GAP_LIMIT is flagged: something was fitted to
the fit half.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.bench.data import PROMPT_SETS
from agent.bench.metrics import DIRECT_LABELS, Counts, DatasetScore

GAP_LIMIT = 0.03


@dataclass(frozen=True)
class Measure:
    key: str
    title: str
    target: str
    lower_is_better: bool = False


HEADLINE = (
    Measure("direct_identifiers_recall", "Direct identifiers recall (prompt sets)", ">= 0.99"),
    Measure("person_recall", "PERSON recall (prompt sets, LOPSIDED safe-to-swap included)", ">= 0.95"),
    Measure("person_strict_recall", "PERSON strict recall (no name word of 3+ letters left)", ">= 0.93"),
    Measure("all_pii_recall", "All labelled PII recall (prompt sets)", ">= 0.95"),
    Measure("pupa_recall", "All labelled PII recall, PUPA", ">= 0.70"),
    Measure("lopsided_utility_error", "LOPSIDED utility error (relevant replaced)", "<= 0.12", True),
    Measure("lopsided_privacy_error", "LOPSIDED privacy error (irrelevant left)", "<= 0.10", True),
    Measure("tab_recall", "All labelled recall, TAB (court cases)", ""),
    Measure("tab_person_recall", "PERSON recall, TAB", ""),
    Measure("wnut17_recall", "All labelled recall, WNUT17 (social media)", ""),
    Measure("wnut17_person_recall", "PERSON recall, WNUT17", ""),
    Measure("restore_exact", "Restore exactness (echo LLM)", ">= 0.995"),
)


def _sum(counts: list[Counts]) -> Counts:
    total = Counts()
    for c in counts:
        total.total += c.total
        total.protected += c.protected
    return total


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def headline(scores: dict[str, DatasetScore]) -> dict:
    """The headline figures (with their n) over one set of dataset scores."""
    prompt = [s for name, s in scores.items() if name in PROMPT_SETS]
    persons = _sum([s.private_by_label.get("PERSON", Counts()) for s in prompt])
    strict = _sum([s.private_strict_by_label.get("PERSON", Counts()) for s in prompt])
    out = {
        "person_recall": _r(persons.recall), "person_n": persons.total,
        "person_strict_recall": _r(strict.recall),
    }
    for name, key in (("pupa", "pupa"), ("tab", "tab"), ("wnut17_test", "wnut17")):
        score = scores.get(name)
        if score is None:
            continue
        every = _sum(list(score.private_by_label.values()))
        out[f"{key}_recall"], out[f"{key}_n"] = _r(every.recall), every.total
        if key != "pupa":
            person = score.private_by_label.get("PERSON", Counts())
            out[f"{key}_person_recall"] = _r(person.recall)
    direct = _sum([c for s in prompt for label, c in s.private_by_label.items() if label in DIRECT_LABELS])
    out["direct_identifiers_recall"], out["direct_identifiers_n"] = _r(direct.recall), direct.total
    return out


def gaps(fit: dict, validation: dict) -> dict[str, float]:
    """{measure: |fit - validation|} for the headline measures above GAP_LIMIT."""
    out = {}
    for m in HEADLINE:
        a, b = fit.get(m.key), validation.get(m.key)
        if a is not None and b is not None and abs(a - b) > GAP_LIMIT:
            out[m.key] = round(abs(a - b), 4)
    return out


def _fmt(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def meets(measure: Measure, value: float | None) -> bool | None:
    if value is None or not measure.target:
        return None
    op, bar = measure.target.split()
    return value >= float(bar) if op == ">=" else value <= float(bar)


def _between(bounds: list[float] | None) -> str:
    return "" if not bounds else f" ({bounds[0]:.2f} to {bounds[1]:.2f})"


def gap_cell(key: str, flagged: dict[str, float], bounds: dict) -> str:
    """"**0.089 > 0.03** (95% 0.02 to 0.16)"; "within noise" when the interval of the gap
    reaches zero (halves this size differ that much by chance)."""
    found = bounds.get("gap", {}).get(key)
    if found is None:
        return f"**{flagged[key]:.3f} > {GAP_LIMIT}**" if key in flagged else ""
    low, high = found["interval"]
    shown = f"**{found['gap']:.3f} > {GAP_LIMIT}**" if key in flagged else f"{found['gap']:.3f}"
    return f"{shown} (95% {low:.3f} to {high:.3f}{', within noise' if low <= 0 else ''})"


def headline_table(fit: dict, validation: dict, strict: dict, presidio: dict, bounds: dict | None = None) -> list[str]:
    """Markdown rows: measure, target, Veil fit, Veil validation (quoted), gap, Veil
    strict and Presidio (validation). `bounds` (agent/bench/bootstrap.py) adds the 95%
    interval over texts to each half and to the gap."""
    bounds = bounds or {}
    flagged = gaps(fit, validation)
    lines = [
        "| measure | target | Veil fit (95%) | Veil validation (95%) | fit-val gap (95%) | Veil strict (val) | Presidio (val) |",
        "|---|---|---|---|---|---|---|",
    ]
    for m in HEADLINE:
        value = validation.get(m.key)
        ok = meets(m, value)
        shown = _fmt(value) + ("" if ok is None else (" ✓" if ok else " ✗"))
        shown += _between(bounds.get("validation", {}).get(m.key))
        mine = _fmt(fit.get(m.key)) + _between(bounds.get("fit", {}).get(m.key))
        lines.append(
            f"| {m.title} | {m.target} | {mine} | {shown} | {gap_cell(m.key, flagged, bounds)} | "
            f"{_fmt(strict.get(m.key))} | {_fmt(presidio.get(m.key))} |"
        )
    return lines
