"""The three user journeys of design.md ("Who uses it") end to end on a real X server:
Xvfb with trayer as the system tray, the real clipboard (xclip), real key presses and
clicks (xdotool), the real engine, a real vault, and an OpenAI-compatible server on
loopback. The app runs in its own process (tests/desktop_driver.py, or `veil` itself).

Screenshots go to a tmp folder, or to docs/screenshots with VEIL_UPDATE_SCREENSHOTS=1.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from desktop_support import (
    REPO,
    log_has,
    run_driver,
    start_veil,
    stop_veil,
    wait_for,
    wait_ready,
    xclip_get,
    xclip_set,
)
from provider_fakes import FakeProvider, Reply, last_user_text
from timing_checks import no_runaway

pytestmark = [pytest.mark.xvfb, pytest.mark.gui]

# Start to tray on 2 shared cores: measured 0.6-1.1 s idle, 3.7 s under the load of other
# suites (design target 2 s, printed on every run). The bound fails only when the tray
# waits for something slow: the engine's helper takes 5-20 s to load.
START_TO_TRAY_BOUND_S = 10.0


@pytest.fixture
def shots(tmp_path) -> Path:
    if os.environ.get("VEIL_UPDATE_SCREENSHOTS") == "1":
        return REPO / "docs" / "screenshots"
    return tmp_path / "screenshots"


def driver_ok(report: dict) -> dict:
    assert report.get("ok"), report.get("traceback") or report
    return report


# -- journey 1: install, start, an icon in the tray, first run: provider, key, done -------------
def test_journey_1_first_run_tray_provider_and_key(xserver, tmp_path, shots):
    key = "sk-journey-one-5678"
    home = tmp_path / "home"
    home.mkdir()
    with FakeProvider("openai", key=key) as server:
        report = driver_ok(run_driver(xserver, "first-run", home, server.base_url, key, str(shots)))
    tray = report["tray"]
    assert tray["available"] and tray["visible"], tray
    assert tray["geometry"][2] > 0 and tray["geometry"][1] < 40  # docked in trayer, top edge
    assert tray["menu"][:3] == ["Open chat", "Sanitize clipboard", "Restore clipboard"]
    assert {"Pause protection", "Settings…", "Quit"} <= set(tray["menu"])
    assert "Provider: OpenAI-compatible (model-a)" in tray["tooltip"] and "Vault: unlocked" in tray["tooltip"]
    assert report["default_provider"] == "local"
    assert report["saved"] == {"kind": "openai", "base_url": server.base_url, "model": "model-a", "first_run_done": True}
    assert report["key_in_keyring"]
    assert report["key_field_echo"] != 0  # typed as a password
    assert key not in (home / "config" / "config.toml").read_text()
    assert report["chat_visible"]
    # The tray is shown before anything slow starts (loading the engine takes 5-20 s).
    no_runaway("tray icon after start", report["tray_after_s"], 4)


# -- journey 2: chat; see what leaves before sending; answer restored and highlighted -------------
def answer_for(body: dict) -> str:
    """What a helpful LLM would write back, using the stand-ins it was given."""
    sent = last_user_text("openai", body)
    found = re.search(r"reply to (.+?) \((\S+?)\)", sent)
    if not found:
        return "Here is a summary: the notes describe next quarter's plan."
    name, mail = found.groups()
    copy = re.search(r"copy (.+?)\.$", sent)
    return (f"Dear {name.split()[0]},\n\nThank you for your message. I confirm our meeting on Friday at the office. "
            f"I will send the agenda to {mail} beforehand{' and copy ' + copy.group(1) if copy else ''}.\n\n"
            f"Best regards")


def test_journey_2_chat_preview_keep_replace_send_restored_answer(xserver, tmp_path, shots):
    home = tmp_path / "home"
    home.mkdir()
    with FakeProvider("openai") as server:
        server.plan(Reply(answer_for, chunk_size=5, chunk_delay=0.01), Reply(answer_for, chunk_size=5, chunk_delay=0.01))
        report = driver_ok(run_driver(xserver, "chat", home, server.base_url, str(shots)))
        bodies = server.all_bodies()
        got = last_user_text("openai", server.requests[-1].json)
    # Before sending, the preview showed exactly what left the machine.
    assert got == report["sent_preview"] == report["preview"]
    for real in ("Sarah Mitchell", "sarah.m@globaltech.com", "Dev Patel", "Anjali Gupta"):
        assert real not in bodies
    marks = {real: (label, style) for label, style, real, _ in report["preview_marks"]}
    assert marks["Sarah Mitchell"] == ("PERSON", "replaced") and marks["sarah.m@globaltech.com"][0] == "EMAIL"
    assert "Sarah Mitchell" in report["preview_tooltip"]  # hover: the real value
    if "after_click_changed" in report:  # clicking "Chicago" flips keep/replace, clicking again flips back
        assert report["after_click_changed"] and report["after_click_style"] != report["before_click_style"]
        assert report["after_second_click"]
    # The answer came back with the real values, highlighted, the stand-in in the tooltip.
    assert report["answer"].startswith("Dear Sarah,")
    assert "sarah.m@globaltech.com" in report["answer"] and "Dev Patel" in report["answer"]
    restored = {(real, stand) for _, real, stand in report["answer_marks"]}
    assert ("sarah.m@globaltech.com", report["stand_ins"]["sarah.m@globaltech.com"]) in restored
    assert report["stand_ins"]["sarah.m@globaltech.com"] in report["answer_tooltip"]
    assert "sarah.m@globaltech.com" in report["answer_tooltip"]
    assert report["stored_messages"] == 1
    assert report["tray"]["visible"]
    for name in ("main-window", "preview", "answer", "settings"):
        assert (shots / f"{name}.png").stat().st_size > 10_000


# -- journey 3: copy anywhere, Ctrl+Alt+S, paste into an LLM, copy back, Ctrl+Alt+R ---------------
def docked_in(display_name: str, containers: set[int], wm_class: str) -> bool:
    """True when a window of this WM_CLASS has one of `containers` among its ancestors."""
    from Xlib import display as xdisplay  # python-xlib, installed with pynput

    x = xdisplay.Display(display_name)
    try:
        pending = [x.screen().root]
        while pending:
            window = pending.pop()
            try:
                classes = window.get_wm_class() or ()
                children = window.query_tree().children
            except Exception:  # a window that went away meanwhile
                continue
            pending.extend(children)
            if any(wm_class in c.lower() for c in classes):
                ancestor = window
                while ancestor.id != x.screen().root.id:
                    ancestor = ancestor.query_tree().parent
                    if ancestor.id in containers:
                        return True
        return False
    finally:
        x.close()


def test_journey_3_clipboard_hotkeys_in_the_real_app(xserver, tmp_path):
    home = tmp_path / "home"
    began = time.perf_counter()
    process, log = start_veil(xserver, home, "--tray")
    try:
        assert wait_for(lambda: log_has(log, r"tray shown"), 30), log.read_text()
        start_to_tray = time.perf_counter() - began
        no_runaway("start to tray", start_to_tray, START_TO_TRAY_BOUND_S)
        # The tray icon is a window of class "Veil" embedded (reparented) inside trayer's panel.
        trayer = {int(w) for w in subprocess.run(["xdotool", "search", "--class", "trayer"], env=xserver.env(),
                                                capture_output=True, text=True, check=True).stdout.split()}
        assert wait_for(lambda: docked_in(xserver.display, trayer, "veil"), 10), "no Veil icon inside trayer"
        assert wait_for(lambda: log_has(log, r"global hotkeys: sanitize <ctrl>\+<alt>\+s"), 30), log.read_text()
        wait_ready(log)

        ticket = ("Hi, I'm Priya Raman (priya.raman@acme-corp.com, +44 20 7946 0958).\n"
                  "The refund for my order 5521 has not arrived yet.")
        xclip_set(xserver, ticket)
        assert xclip_get(xserver) == ticket
        subprocess.run(["xdotool", "key", "ctrl+alt+s"], env=xserver.env(), check=True)
        sanitized = wait_for(lambda: (t := xclip_get(xserver)) != ticket and t, 30)
        assert sanitized, log.read_text()
        for real in ("Priya Raman", "priya.raman@acme-corp.com", "7946 0958"):
            assert real not in sanitized
        found = re.search(r"I'm (.+?) \((\S+), (.+?)\)", sanitized)
        assert found, sanitized
        fields = {"Customer": found.group(1), "Email": found.group(2), "Phone": found.group(3)}
        assert wait_for(lambda: log_has(log, r"Clipboard sanitized: Replaced .*1 person"), 10), log.read_text()

        answer = (f"Hi {fields['Customer'].split()[0]}, we are sorry about the delay. We sent the refund "
                  f"confirmation to {fields['Email']} and will call {fields['Phone']} tomorrow.")
        xclip_set(xserver, answer)
        subprocess.run(["xdotool", "key", "ctrl+alt+r"], env=xserver.env(), check=True)
        restored = wait_for(lambda: (t := xclip_get(xserver)) != answer and t, 30)
        assert restored == ("Hi Priya, we are sorry about the delay. We sent the refund confirmation to "
                            "priya.raman@acme-corp.com and will call +44 20 7946 0958 tomorrow."), log.read_text()
        assert wait_for(lambda: log_has(log, r"Clipboard restored: Restored"), 10)

        # A second start does not run a second Veil: it asks the first to show its window.
        second = subprocess.run([sys.executable, "-m", "desktop.launcher", "--chat"], cwd=REPO, timeout=60, check=False,
                                env=xserver.env(VEIL_HOME=str(home), VEIL_LOG="info"), capture_output=True, text=True)
        assert second.returncode == 0 and "already running" in second.stderr
    finally:
        stop_veil(process, log)
    # The map is in the vault (clipboard conversation of the day), encrypted on disk.
    raw = (home / "data" / "vault.db").read_bytes()
    assert b"Priya Raman" not in raw and b"priya.raman" not in raw


# pynput's listener thread dies with Xlib's "extension RECORD missing" error: that is the case.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_hotkeys_that_cannot_be_registered_are_reported(monkeypatch):
    """An X server without the RECORD extension: pynput cannot listen; the bridge says so
    (the app shows it once; the tray actions remain)."""
    from xserver_support import XServer, require_x_tools

    from desktop.hotkeys import HotkeyBridge

    require_x_tools("Xvfb")
    server = XServer(320, 240, record=False).start()
    try:
        monkeypatch.setenv("DISPLAY", server.display)
        monkeypatch.setenv("XDG_SESSION_TYPE", "x11")
        bridge = HotkeyBridge()
        messages = []
        bridge.status_changed.connect(messages.append)
        began = time.monotonic()
        assert bridge.start("<ctrl>+<alt>+s", "<ctrl>+<alt>+r") is False
        no_runaway("giving up on hotkeys without RECORD", time.monotonic() - began, 30)
        assert "hotkeys" in bridge.status.lower() and messages == [bridge.status]
        assert not bridge.active
    finally:
        server.stop()


def test_no_display_is_a_clear_message_not_a_crash(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    done = subprocess.run([sys.executable, "-m", "desktop.launcher"], env={**env, "VEIL_HOME": str(tmp_path)},
                          cwd=REPO, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "no graphical session" in done.stderr


@pytest.mark.slow
def test_memory_with_the_tiny_model_loaded(xserver, tmp_path, tiny_model_path):
    home = tmp_path / "home"
    home.mkdir()
    report = driver_ok(run_driver(xserver, "memory", home, str(tiny_model_path), timeout=300))
    print("\nmemory (MB):", json.dumps({"ready": report["rss_ready_mb"], "tiny model loaded": report["rss_model_mb"],
                                        "model freed when idle": report["rss_released_mb"]}))
    assert report["state"] == "answered" and report["answer"].strip()
    # Design target: 600 MB with the tiny model. App and engine process together:
    assert report["rss_model_mb"]["total"] < 900, report
    # Idle, the model's weights and buffers are given back (release_after_minutes).
    assert report["rss_released_mb"]["total"] < 600, report
    assert report["rss_released_mb"]["app"] < report["rss_model_mb"]["app"] - 200, report
