"""The Markdown table `veil bench` writes next to its JSON."""

from __future__ import annotations

from agent.bench.headline import headline_table
from agent.bench.runner import BenchReport
from agent.bench.speed import speed_rows


def _fmt(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _mean_latency(validation: dict, fit: dict, name: str) -> float | None:
    times = [t for half in (validation, fit) if name in half for t in half[name].latencies_ms]
    return round(sum(times) / len(times), 3) if times else None


def markdown(report: BenchReport) -> str:
    veil = report.summary(report.engine)
    strict = report.summary(report.strict) if report.strict else {}
    presidio = report.summary(report.presidio) if report.presidio else {}
    fit = report.summary(report.fit_engine) if report.fit_engine else {}
    lines = [
        (
            "Fit = the half of every dev source that rules, lists and models may be fitted on; "
            "validation = the other half (fixed hash of the item id, agent/bench/split.py): the "
            "numbers to quote. A fit-validation gap above 0.03 is a finding. In brackets: 95% "
            "bootstrap intervals over texts (documents for TAB; 1,000 resamples, fixed seed); a gap "
            "whose interval reaches zero is within the sampling noise of halves this size."
        ),
        "",
    ]
    lines += headline_table(fit, veil, strict, presidio, report.intervals())
    lines += ["", "| speed (all texts) | target | Veil | Presidio |", "|---|---|---|---|"]
    speed = report.speed_50_words
    if speed:
        lines.append(f"| Sanitize p95, 50-word prompts (ms) | <= 30 | {_fmt(speed.get('p95_ms'))} | — |")
        lines.append(f"| Restore p95, answers to the 50-word prompts (ms) | <= 2 | {_fmt(speed.get('restore_p95_ms'))} | — |")
    lines += speed_rows(report.speed_side_by_side)
    lines.append(f"| Restore p95, answers to every text (ms) | | {_fmt(veil.get('restore_p95_ms'))} | — |")
    lines.append(f"| Streaming restore p95, per chunk of 1-12 characters (ms) | | {_fmt(veil.get('stream_chunk_p95_ms'))} | — |")
    for name in report.engine:
        mine = _mean_latency(report.engine, report.fit_engine, name)
        other = _mean_latency(report.presidio, report.fit_presidio, name)
        lines.append(f"| Mean latency per text, {name} (ms) | | {_fmt(mine)} | {_fmt(other)} |")
    lines += ["", "| dataset | label | n (val) | Veil fit | Veil validation | Veil strict (val) | Presidio (val) |",
              "|---|---|---|---|---|---|---|"]
    for name, score in report.engine.items():
        data = score.to_json()
        loose = report.fit_engine[name].to_json() if name in report.fit_engine else {}
        tight = report.strict[name].to_json() if name in report.strict else {}
        other = report.presidio[name].to_json() if name in report.presidio else {}

        def recall_of(source: dict, label: str):
            return source.get("recall", {}).get(label, {}).get("recall") if source else None

        for label, counts in data["recall"].items():
            lines.append(
                f"| {name} | {label} | {counts['n']} | {_fmt(recall_of(loose, label))} | {_fmt(counts['recall'])} | "
                f"{_fmt(recall_of(tight, label))} | {_fmt(recall_of(other, label))} |"
            )
        lines.append(
            f"| {name} | **all** | {data['entities']} | **{_fmt(loose.get('recall_all'))}** | **{_fmt(data['recall_all'])}** | "
            f"**{_fmt(tight.get('recall_all'))}** | **{_fmt(other.get('recall_all'))}** |"
        )
    over = [(n, s.to_json().get("over_redaction")) for n, s in report.engine.items()]
    lines += ["", "Over-redaction (share of non-entity words swapped): " + ", ".join(f"{n} {_fmt(v)}" for n, v in over)]
    lines += [f"- {note}" for note in report.notes]
    if report.generated:
        from agent.bench.generated import markdown_generated

        lines.append(markdown_generated(report.generated))
    return "\n".join(lines) + "\n"
