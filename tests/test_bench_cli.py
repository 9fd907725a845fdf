"""`veil bench`: exact counts on a small labelled file written here, and a slice of the
evaluation data as CI runs it (Presidio beside)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from agent.bench.data import default_data_dir

needs_dev_data = pytest.mark.skipif(default_data_dir() is None, reason="../shared/data/dev is not beside the checkout")


def run_bench(tmp_path, *args: str) -> dict:
    env = dict(os.environ, VEIL_HOME=str(tmp_path / "home"))
    proc = subprocess.run(
        [sys.executable, "-m", "desktop.launcher", "bench", "--out", str(tmp_path / "out"), *args],
        capture_output=True, text=True, env=env, timeout=900,
    )
    assert proc.returncode == 0, proc.stderr
    assert "| measure | target |" in proc.stdout
    return json.loads((tmp_path / "out" / "bench.json").read_text())


# Sentences written for this test; each gold entity's fate is certain: direct identifiers
# are always replaced, a name after "my name is" is a private person, ordinary words are
# never touched.
MINI = [
    ("mini-1", "Please email jane.doe@example.org about the invoice.", [("jane.doe@example.org", "EMAIL")]),
    ("mini-2", "Call me at +1 415 555 0132 tomorrow morning.", [("+1 415 555 0132", "PHONE")]),
    ("mini-3", "Wire it to DE89 3704 0044 0532 0130 00 today.", [("DE89 3704 0044 0532 0130 00", "IBAN")]),
    ("mini-4", "The card 4111 1111 1111 1111 was declined.", [("4111 1111 1111 1111", "CREDIT_CARD")]),
    ("mini-5", "Hello, my name is Sarah Mitchell and I need help.", [("Sarah Mitchell", "PERSON")]),
    ("mini-6", "My favourite colour is blue and I like tea.", [("blue", "MISC"), ("tea", "MISC")]),
]


def write_mini(path) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for item_id, text, gold in MINI:
            entities = [{"start": text.index(v), "end": text.index(v) + len(v), "label": label, "text": v}
                        for v, label in gold]
            f.write(json.dumps({"id": item_id, "text": text, "entities": entities}) + "\n")


def test_bench_counts_a_labelled_file_exactly(tmp_path):
    write_mini(tmp_path / "mini.jsonl")
    report = run_bench(tmp_path, "--data", str(tmp_path / "mini.jsonl"), "--no-speed", "--no-generated", "--no-strict")
    # Each item is in the fit or the validation half (by its id): the two add up.
    halves = [report["veil"]["datasets"].get("mini"), report["fit"]["veil"]["datasets"].get("mini")]
    halves = [h for h in halves if h]
    assert sum(h["examples"] for h in halves) == len(MINI)
    counts: dict[str, list[int]] = {}
    for half in halves:
        for label, row in half["recall"].items():
            n, protected = counts.setdefault(label, [0, 0])
            counts[label] = [n + row["n"], protected + row["protected"]]
    assert counts == {"EMAIL": [1, 1], "PHONE": [1, 1], "IBAN": [1, 1], "CREDIT_CARD": [1, 1],
                      "PERSON": [1, 1], "MISC": [2, 0]}
    assert all(h["restore_exact"] == 1.0 and h["over_redaction"] == 0.0 for h in halves)


@needs_dev_data
@pytest.mark.slow
def test_bench_slice_with_presidio(tmp_path):
    report = run_bench(
        tmp_path, "--limit", "20", "--datasets", "lopsided,presidio_synth,abcd_sample", "--compare", "presidio"
    )
    veil = report["veil"]["summary"]
    lopsided = report["veil"]["datasets"]["lopsided"]["lopsided"]
    assert veil["lopsided_utility_error"] == lopsided["utility_error"]
    assert veil["direct_identifiers_n"] > 0 and veil["direct_identifiers_recall"] >= 0.9
    assert report["veil"]["datasets"]["lopsided"]["lopsided"]["relevant"] > 0
    assert "restore_exact" in veil and veil["restore_exact"] >= 0.9
    assert report["presidio"]["summary"]["all_pii_n"] == veil["all_pii_n"]
    assert report["speed_50_words"]["p95_ms"] > 0
    assert veil["stream_chunk_p95_ms"] > 0 and veil["restore_p95_ms"] > 0  # measured (speed is not judged here)
    assert "Streaming restore p95, per chunk" in (tmp_path / "out" / "bench.md").read_text()
    assert (tmp_path / "out" / "bench.md").read_text().count("\n") > 10
    # Both halves of the honest protocol, with the rows that cannot flatter.
    fit = report["fit"]["veil"]["summary"]
    assert fit["person_n"] > 0 and veil["person_n"] > 0
    assert veil["person_strict_recall"] <= veil["person_recall"]  # strict counts a subset
    assert isinstance(report["fit_validation_gaps"], dict)
    table = (tmp_path / "out" / "bench.md").read_text()
    assert "| measure | target | Veil fit (95%) | Veil validation (95%) | fit-val gap (95%) |" in table
    # Bootstrap intervals over texts, per half and for the gap.
    bounds = report["intervals"]
    low, high = bounds["validation"]["person_recall"]
    assert low <= veil["person_recall"] <= high
    assert "lopsided_utility_error" in bounds["gap"] and "(95% " in table


def test_bench_skips_clearly_without_data(tmp_path):
    env = dict(os.environ, VEIL_HOME=str(tmp_path / "home"))
    proc = subprocess.run(
        [sys.executable, "-m", "desktop.launcher", "bench", "--data", str(tmp_path / "missing")],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert proc.returncode == 0
    assert "skipped" in proc.stderr and "evaluation data not found" in proc.stderr


def test_bench_writes_its_report_under_a_latin1_locale(tmp_path):
    """The report's check marks are not Latin-1: under such a locale the files are still
    written (UTF-8) and the table still printed, instead of a crash after the whole run."""
    locales = tmp_path / "locales"
    locales.mkdir()
    subprocess.run(["localedef", "-i", "de_DE", "-f", "ISO-8859-1", str(locales / "de_DE.ISO-8859-1")],
                   check=True, capture_output=True)
    write_mini(tmp_path / "mini.jsonl")
    env = dict(os.environ, VEIL_HOME=str(tmp_path / "home"), LOCPATH=str(locales), LC_ALL="de_DE.ISO-8859-1",
               PYTHONUTF8="0")
    env.pop("PYTHONIOENCODING", None)
    probe = subprocess.run([sys.executable, "-c", "import locale; print(locale.getpreferredencoding(False))"],
                           env=env, capture_output=True, text=True, check=True)
    assert probe.stdout.strip() == "ISO-8859-1"  # the child really runs under Latin-1
    proc = subprocess.run(
        [sys.executable, "-m", "desktop.launcher", "bench", "--out", str(tmp_path / "out"), "--data",
         str(tmp_path / "mini.jsonl"), "--no-speed", "--no-generated", "--no-strict"],
        capture_output=True, env=env, timeout=900,
    )
    assert proc.returncode == 0, proc.stderr.decode("latin-1")
    table = (tmp_path / "out" / "bench.md").read_text(encoding="utf-8")
    assert "✓" in table
    assert b"| measure | target |" in proc.stdout
    json.loads((tmp_path / "out" / "bench.json").read_text(encoding="utf-8"))
