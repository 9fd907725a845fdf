"""Fixtures and helpers for the desktop tests (tests/test_desktop_*.py, test_files_drop.py).

tests/conftest.py loads this module as a plugin, so its fixtures (shared_engine,
desktop_env, fake_openai, veil, memory_keyring, xserver) need no import; test modules
import the helpers they call.

Widget tests run on Qt's offscreen platform in the pytest process, with the real
privacy engine (one helper process shared by the session: it keeps no state between
calls), a real vault in a tmp VEIL_HOME (passphrase mode through VEIL_PASSPHRASE, the
"fail" keyring unless a test asks for the in-memory one) and the fake OpenAI-compatible
server of tests/provider_fakes.py on loopback.

Tests that need a real X server (tray, clipboard, global hotkeys) start Xvfb and
trayer themselves and run the app in a child process (one process has one Qt platform).
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

# Before any QApplication exists (the X tests give their app processes "xcb").
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import keyring
import keyring.backends.fail
import pytest
from vault_support import memory_keyring  # noqa: F401  (a fixture: the in-memory keyring)
from xserver_support import X_TOOLS, XServer, require_x_tools

REPO = Path(__file__).resolve().parent.parent
TEST_PASSPHRASE = "a test passphrase"
PROMPT = "Draft a short reply to Sarah Mitchell (sarah.m@globaltech.com) about the invoice."


# -- the shared engine ---------------------------------------------------------------------------
@pytest.fixture(scope="session")
def shared_engine():
    from agent.config import default_settings
    from agent.engine.host import EngineHost

    host = EngineHost(default_settings())
    host.warm_up()
    yield host
    host.close()


# -- environment -----------------------------------------------------------------------------------
@pytest.fixture
def desktop_env(veil_home, monkeypatch):
    """VEIL_HOME in tmp, the vault in passphrase mode via VEIL_PASSPHRASE, no real keyring."""
    monkeypatch.setenv("VEIL_PASSPHRASE", TEST_PASSPHRASE)
    monkeypatch.delenv("VEIL_API_KEY", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    # Never the user's session bus: a desktop portal there would show real shortcut dialogs.
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/veil-tests-bus")
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    yield veil_home
    keyring.set_keyring(previous)


@pytest.fixture
def fake_openai():
    from provider_fakes import FakeProvider

    with FakeProvider("openai") as server:
        yield server


def app_settings(base_url: str = "", **provider):
    """Default settings, first run done, answering through an OpenAI-compatible URL."""
    from agent.config import default_settings

    settings = default_settings()
    settings.first_run_done = True
    if base_url:
        settings.provider.kind = "openai"
        settings.provider.base_url = base_url
        settings.provider.model = "test-model"
        settings.provider.max_attempts = 1
        settings.provider.timeout_s = 10.0
    for key, value in provider.items():
        setattr(settings.provider, key, value)
    return settings


def start_app(qtbot, engine, settings, *, wait_vault: bool = True, open_chat: bool = True):
    """A VeilApp on the offscreen platform (no tray there: the chat window opens)."""
    from PySide6.QtWidgets import QApplication

    from desktop.app import VeilApp
    from desktop.state import EnginePhase

    veil = VeilApp(QApplication.instance(), settings, use_hotkeys=False, engine=engine)
    veil.start(open_chat=open_chat)
    if wait_vault:
        qtbot.waitUntil(lambda: veil.state.vault_is_open(), timeout=15000)
    qtbot.waitUntil(lambda: veil.state.engine_phase == EnginePhase.READY, timeout=60000)
    if open_chat:
        qtbot.waitUntil(lambda: veil.chat is not None, timeout=5000)
    return veil


def stop_app(veil) -> None:
    from PySide6.QtWidgets import QApplication

    if veil.chat is not None:
        veil.chat.set_hide_on_close(False)
        veil.chat.close()
    if veil.settings_dialog is not None:
        veil.settings_dialog.close()
    veil.shutdown()
    QApplication.processEvents()


@pytest.fixture
def veil(qtbot, desktop_env, shared_engine, fake_openai):
    """The app with its chat window open, answering through the fake OpenAI-compatible server."""
    app = start_app(qtbot, shared_engine, app_settings(fake_openai.base_url))
    yield app
    stop_app(app)


def type_and_preview(qtbot, chat, text: str, timeout: int = 20000):
    """Put text in the composer and wait for its preview (the debounced worker call)."""
    chat.composer.setPlainText(text)
    qtbot.waitUntil(lambda: chat.last_draft is not None and chat._draft_text == text
                    and not chat.preview.rendering, timeout=timeout)
    return chat.last_draft


def wait_answer(qtbot, chat, timeout: int = 30000):
    qtbot.waitUntil(lambda: not chat.sending, timeout=timeout)
    answers = [v for v in chat.views if v.role == "assistant"]
    assert answers, f"nothing was sent: {chat.last_error or chat.error_banner.label.text()}"
    return answers[-1]


# -- X server ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def xserver():
    require_x_tools(*X_TOOLS)
    server = XServer().start()
    try:
        server.start_tray()
        yield server
    finally:
        server.stop()


def xclip_set(server: XServer, text: str) -> None:
    """Put text on the CLIPBOARD with xclip (it stays running, serving it, until replaced)."""
    process = subprocess.Popen(["xclip", "-selection", "clipboard", "-i"], env=server.env(),
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    process.communicate(text.encode(), timeout=10)


def xclip_get(server: XServer, timeout: float = 10) -> str:
    done = subprocess.run(["xclip", "-selection", "clipboard", "-o"], env=server.env(), capture_output=True,
                          timeout=timeout, check=False)
    return done.stdout.decode(errors="replace") if done.returncode == 0 else ""


def wait_for(predicate, timeout: float = 20.0, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


def veil_env(server: XServer, home: Path, **extra: str) -> dict[str, str]:
    """The environment of a `veil` process on the X server, with the test's vault."""
    return server.env(VEIL_HOME=str(home), VEIL_PASSPHRASE=TEST_PASSPHRASE, VEIL_LOG="info",
                      PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring", **extra)


def start_veil(server: XServer, home: Path, *args: str, **extra: str) -> tuple[subprocess.Popen, Path]:
    """`veil ARGS` (the real app) on the X server, set up and answering with the local
    model; returns the process and its log file."""
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "config.toml").write_text('first_run_done = true\n[provider]\nkind = "local"\n')
    log = home / "veil.log"
    with open(log, "wb") as out:  # the child keeps its own copy of the descriptor
        process = subprocess.Popen([sys.executable, "-m", "desktop.launcher", *args], cwd=REPO,
                                   env=veil_env(server, home, **extra), stdout=out, stderr=subprocess.STDOUT)
    return process, log


def log_has(log: Path, pattern: str) -> re.Match | None:
    return re.search(pattern, log.read_text(errors="replace")) if log.exists() else None


def wait_ready(log: Path) -> None:
    """The app's engine and vault are up (it logs both)."""
    assert wait_for(lambda: log_has(log, r"engine ready"), 120), log.read_text()
    assert wait_for(lambda: log_has(log, r"vault open"), 30), log.read_text()


def stop_veil(process: subprocess.Popen, log: Path) -> None:
    """SIGTERM, as a logout does: the app must quit cleanly (exit code 0)."""
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        code = process.wait()
    assert code == 0, log.read_text()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_driver(server: XServer, scenario: str, home: Path, *args: str, timeout: float = 150,
               extra_env: dict[str, str] | None = None) -> dict:
    """Run tests/desktop_driver.py SCENARIO under the X server; returns its JSON report."""
    env = server.env(
        VEIL_HOME=str(home), VEIL_PASSPHRASE=TEST_PASSPHRASE,
        PYTHONPATH=os.pathsep.join([str(REPO), str(REPO / "tests"), os.environ.get("PYTHONPATH", "")]),
        PYTHON_KEYRING_BACKEND="vault_support.MemoryKeyring",
        **(extra_env or {}),
    )
    report = home / f"{scenario}.json"
    done = subprocess.run(
        [sys.executable, str(REPO / "tests" / "desktop_driver.py"), scenario, str(report), *args],
        env=env, capture_output=True, text=True, timeout=timeout, cwd=REPO, check=False,
    )
    if done.returncode != 0 or not report.exists():
        raise AssertionError(f"driver {scenario} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}")
    return json.loads(report.read_text())
