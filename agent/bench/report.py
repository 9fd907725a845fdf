"""The Markdown table `veil bench` writes next to its JSON."""

from __future__ import annotations

from agent.bench.runner import BenchReport

_TARGETS = (
    ("direct_identifiers_recall", "Direct identifiers recall (prompt sets)", ">= 0.99"),
    ("person_recall", "PERSON recall (prompt sets)", ">= 0.95"),
    ("all_pii_recall", "All labelled PII recall (prompt sets)", ">= 0.95"),
    ("lopsided_utility_error", "LOPSIDED utility error (relevant replaced)", "<= 0.15"),
    ("lopsided_privacy_error", "LOPSIDED privacy error (irrelevant left)", "<= 0.10"),
    ("restore_exact", "Restore exactness (echo LLM)", ">= 0.995"),
)


def _fmt(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def markdown(report: BenchReport) -> str:
    veil = report.summary(report.engine)
    strict = report.summary(report.strict) if report.strict else {}
    presidio = report.summary(report.presidio) if report.presidio else {}
    lines = ["| measure | target | Veil (default) | Veil (strict) | Presidio |", "|---|---|---|---|---|"]
    for key, title, target in _TARGETS:
        lines.append(f"| {title} | {target} | {_fmt(veil.get(key))} | {_fmt(strict.get(key))} | {_fmt(presidio.get(key))} |")
    speed = report.speed_50_words
    if speed:
        lines.append(f"| Sanitize p95, 50-word prompts (ms) | <= 30 | {_fmt(speed.get('p95_ms'))} | | — |")
        lines.append(f"| Restore p95, answers to the 50-word prompts (ms) | <= 2 | {_fmt(speed.get('restore_p95_ms'))} | | — |")
    lines.append(f"| Restore p95, answers to every text (ms) | | {_fmt(veil.get('restore_p95_ms'))} | | — |")
    lines.append(f"| Streaming restore p95, per chunk of 1-12 characters (ms) | | {_fmt(veil.get('stream_chunk_p95_ms'))} | | — |")
    for name, score in report.engine.items():
        data = score.to_json()
        other = report.presidio[name].to_json() if name in report.presidio else {}
        lines.append(
            f"| Mean latency per text, {name} (ms) | | {_fmt(data['latency_ms']['mean'])} | | "
            f"{_fmt(other.get('latency_ms', {}).get('mean'))} |"
        )
    lines += ["", "| dataset | label | n | Veil (default) | Veil (strict) | Presidio |", "|---|---|---|---|---|---|"]
    for name, score in report.engine.items():
        data = score.to_json()
        tight = report.strict[name].to_json() if name in report.strict else {}
        other = report.presidio[name].to_json() if name in report.presidio else {}

        def recall_of(source: dict, label: str):
            return source.get("recall", {}).get(label, {}).get("recall") if source else None

        for label, counts in data["recall"].items():
            lines.append(
                f"| {name} | {label} | {counts['n']} | {_fmt(counts['recall'])} | "
                f"{_fmt(recall_of(tight, label))} | {_fmt(recall_of(other, label))} |"
            )
        lines.append(
            f"| {name} | **all** | {data['entities']} | **{_fmt(data['recall_all'])}** | "
            f"**{_fmt(tight.get('recall_all'))}** | **{_fmt(other.get('recall_all'))}** |"
        )
    over = [(n, s.to_json().get("over_redaction")) for n, s in report.engine.items()]
    lines += ["", "Over-redaction (share of non-entity words swapped): " + ", ".join(f"{n} {_fmt(v)}" for n, v in over)]
    lines += [f"- {note}" for note in report.notes]
    return "\n".join(lines) + "\n"
