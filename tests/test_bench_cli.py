"""`veil bench` on a small slice of the evaluation data, as CI runs it (Presidio beside)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from agent.bench.data import default_data_dir

pytestmark = pytest.mark.skipif(default_data_dir() is None, reason="../shared/data/dev is not beside the checkout")


def run_bench(tmp_path, *args: str) -> dict:
    env = dict(os.environ, VEIL_HOME=str(tmp_path / "home"))
    proc = subprocess.run(
        [sys.executable, "-m", "desktop.launcher", "bench", "--out", str(tmp_path / "out"), *args],
        capture_output=True, text=True, env=env, timeout=900,
    )
    assert proc.returncode == 0, proc.stderr
    assert "| measure | target |" in proc.stdout
    return json.loads((tmp_path / "out" / "bench.json").read_text())


@pytest.mark.slow
def test_bench_slice_with_presidio(tmp_path):
    report = run_bench(
        tmp_path, "--limit", "20", "--datasets", "lopsided,presidio_synth,abcd_sample", "--compare", "presidio"
    )
    veil = report["veil"]["summary"]
    assert 0.0 <= veil["lopsided_utility_error"] <= 1.0
    assert veil["direct_identifiers_n"] > 0 and veil["direct_identifiers_recall"] >= 0.9
    assert report["veil"]["datasets"]["lopsided"]["lopsided"]["relevant"] > 0
    assert "restore_exact" in veil and veil["restore_exact"] >= 0.9
    assert report["presidio"]["summary"]["all_pii_n"] == veil["all_pii_n"]
    assert report["speed_50_words"]["p95_ms"] > 0
    assert 0 < veil["stream_chunk_p95_ms"] < 1000 and 0 < veil["restore_p95_ms"] < 1000
    assert "Streaming restore p95, per chunk" in (tmp_path / "out" / "bench.md").read_text()
    assert (tmp_path / "out" / "bench.md").read_text().count("\n") > 10
    # Both halves of the honest protocol, with the rows that cannot flatter.
    fit = report["fit"]["veil"]["summary"]
    assert fit["person_n"] > 0 and veil["person_n"] > 0
    assert 0.0 <= veil["person_strict_recall"] <= veil["person_recall"] <= 1.0
    assert isinstance(report["fit_validation_gaps"], dict)
    assert "| measure | target | Veil fit | Veil validation |" in (tmp_path / "out" / "bench.md").read_text()


def test_bench_skips_clearly_without_data(tmp_path):
    env = dict(os.environ, VEIL_HOME=str(tmp_path / "home"))
    proc = subprocess.run(
        [sys.executable, "-m", "desktop.launcher", "bench", "--data", str(tmp_path / "missing")],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert proc.returncode == 0
    assert "skipped" in proc.stderr and "evaluation data not found" in proc.stderr
