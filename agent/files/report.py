"""The run's residual-risk report, as JSON (for tools) and HTML (for people): the
project's policy, totals, then every document sorted by risk score, highest first, with
the ones to read first marked, and per document its reasons, what was kept and why, the
leftovers and the quasi-identifier combinations. No replaced real value appears in it."""

from __future__ import annotations

import html
import json
import time
from collections import Counter
from pathlib import Path

from agent.files.policy import ProjectPolicy
from agent.files.runner import RunResult, write_atomically

READ_FIRST = 5


def run_summary(result: RunResult, project: str, policy: ProjectPolicy) -> dict:
    files = sorted(result.files, key=lambda f: -(f.risk.score if f.risk else -1))
    replaced: Counter[str] = Counter()
    for f in files:
        if f.risk:
            replaced.update(f.risk.replaced)
    scored = [f for f in files if f.risk is not None]
    return {
        "project": project,
        "created_at": time.strftime("%Y-%m-%d %H:%M:%S"),
        "policy": policy.to_json(),
        "totals": {
            "files": len(files),
            "sanitized": sum(f.status == "sanitized" for f in files),
            "skipped_done_before": sum(f.status == "skipped" for f in files),
            "failed": sum(f.status == "failed" for f in files),
            "bytes": sum(f.size for f in files),
            "seconds": round(result.seconds, 2),
            "replaced_by_type": dict(sorted(replaced.items())),
            "kept": sum(len(f.risk.kept) for f in scored),
            "leftovers": sum(len(f.risk.leftovers) for f in scored),
            "combinations": sum(len(f.risk.combinations) for f in scored),
        },
        "read_first": [f.relative for f in scored[:READ_FIRST] if f.risk.score > 0],
        "files": [f.to_json() for f in files],
    }


def write_reports(result: RunResult, project: str, policy: ProjectPolicy, folder: Path) -> tuple[Path, Path]:
    summary = run_summary(result, project, policy)
    json_path, html_path = folder / "veil-report.json", folder / "veil-report.html"
    write_atomically(json_path, (json.dumps(summary, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
    write_atomically(html_path, render_html(summary).encode("utf-8"))
    return json_path, html_path


_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
.high{background:#fde2e1}.medium{background:#fff3cd}.low{background:#eef7ee}.none{background:#fff}
.first{font-weight:bold}.tag{display:inline-block;border-radius:3px;padding:0 5px;background:#eee;margin:1px}
details{margin:.4em 0}summary{cursor:pointer}.failed{color:#a00}code{background:#f4f4f4;padding:0 3px}
"""


def _e(value) -> str:
    return html.escape(str(value))


def render_html(summary: dict) -> str:
    totals = summary["totals"]
    read_first = set(summary["read_first"])
    policy = summary["policy"]
    out = [f"<!doctype html><meta charset='utf-8'><title>Veil files report: {_e(summary['project'])}</title>",
           f"<style>{_STYLE}</style>",
           f"<h1>Residual-risk report: project {_e(summary['project'])}</h1>",
           (f"<p>{_e(summary['created_at'])} &middot; {totals['files']} files ({totals['sanitized']} sanitized, "
            f"{totals['skipped_done_before']} done before, <span class='failed'>{totals['failed']} failed</span>) "
            f"&middot; {totals['bytes']:,} bytes in {totals['seconds']} s</p>"),
           ("<p>Replaced: " + (" ".join(f"<span class='tag'>{_e(k)} {v}</span>" for k, v in totals["replaced_by_type"].items())
                               or "nothing") + "</p>")]
    if read_first:
        out.append("<p><b>Read these first:</b> " + ", ".join(f"<code>{_e(r)}</code>" for r in summary["read_first"]) + "</p>")
    out.append("<h2>Policy</h2><ul>")
    out.append(f"<li>Never replaced: {_e(', '.join(policy['exclusions']) or '—')}</li>")
    out.append(f"<li>Always replaced: {_e(', '.join(policy['dictionary']) or '—')}</li>")
    out.append("<li>Hotwords: " + _e(", ".join(f"{h['phrase']} → {h['label']}" for h in policy["hotwords"]) or "—") + "</li>")
    out.append("<li>Per type: " + _e(", ".join(f"{k}={v}" for k, v in policy["types"].items()) or "every type replaced") + "</li>")
    out.append("<li>Columns: " + _e(", ".join(f"{k}={v}" for k, v in policy["columns"].items()) or "all auto") + "</li>")
    out.append(f"<li>Corpus swapping: {'on' if policy['corpus_swap'] else 'off'}</li></ul>")
    out.append("<h2>Documents, highest risk first</h2><table><tr><th>file</th><th>score</th><th>replaced</th>"
               "<th>kept</th><th>left over</th><th>combinations</th></tr>")
    for f in summary["files"]:
        risk = f.get("risk")
        if risk is None:
            out.append(f"<tr><td class='failed'>{_e(f['relative'])}</td><td colspan='5' class='failed'>"
                       f"{_e(f['status'])}: {_e(f['error'])}</td></tr>")
            continue
        cls = risk["level"] + (" first" if f["relative"] in read_first else "")
        out.append(f"<tr class='{cls}'><td><a href='#{_e(f['relative'])}'>{_e(f['relative'])}</a></td>"
                   f"<td>{risk['score']}</td><td>{sum(risk['replaced'].values())}</td><td>{len(risk['kept'])}</td>"
                   f"<td>{len(risk['leftovers'])}</td><td>{len(risk['combinations'])}</td></tr>")
    out.append("</table>")
    for f in summary["files"]:
        risk = f.get("risk")
        if risk is None:
            continue
        out.append(f"<h2 id='{_e(f['relative'])}'>{_e(f['relative'])} &mdash; score {risk['score']} ({risk['level']})</h2>")
        out.append(f"<p>Output: <code>{_e(f['output'])}</code> &middot; {f['chars']:,} characters</p>")
        if risk["reasons"]:
            out.append("<ul>" + "".join(f"<li>{_e(r)}</li>" for r in risk["reasons"]) + "</ul>")
        out.append("<p>Replaced: " + (" ".join(f"<span class='tag'>{_e(k)} {v}</span>" for k, v in risk["replaced"].items()) or "nothing") + "</p>")
        for title, rows, cells in (
            ("Kept, and why", risk["kept"], lambda k: (k["label"], k["value"], k["reason"], k["count"])),
            ("Left over (no detector was sure)", risk["leftovers"], lambda x: (x["kind"], x["text"], x["where"])),
            ("Quasi-identifiers together", risk["combinations"],
             lambda c: (" + ".join(c["kinds"]), ", ".join(c["values"]), c["where"])),
        ):
            if rows:
                out.append(f"<details open><summary>{title} ({len(rows)})</summary><table>")
                out.extend("<tr>" + "".join(f"<td>{_e(v)}</td>" for v in cells(row)) + "</tr>" for row in rows)
                out.append("</table></details>")
        for warning in f["warnings"]:
            out.append(f"<p class='failed'>warning: {_e(warning)}</p>")
    return "\n".join(out) + "\n"
