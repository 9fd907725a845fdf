"""Global hotkeys where the display server decides (issue 15 item 11): on Wayland the
desktop portal's GlobalShortcuts when the session bus has one, else a message that says
to bind `veil clipboard ...` commands. Real D-Bus: a private dbus-daemon, with nothing on
it (a desktop without the portal) or with tests/portal_fake.py speaking the portal's
protocol. The command path itself is tested in tests/test_desktop_clipboard_xvfb.py."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

pytestmark = pytest.mark.gui


@pytest.fixture
def session_bus(monkeypatch):
    """A private D-Bus session bus (dbus-daemon), as DBUS_SESSION_BUS_ADDRESS."""
    if shutil.which("dbus-daemon") is None:
        if os.environ.get("CI"):
            pytest.fail("CI: dbus-daemon is missing (apt-get install dbus)", pytrace=False)
        pytest.skip("needs dbus-daemon (apt-get install dbus)")
    daemon = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        address = daemon.stdout.readline().strip()
        assert address.startswith("unix:"), address
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        yield address
    finally:
        daemon.terminate()
        daemon.wait(10)


def test_no_session_bus_is_said_in_words(monkeypatch):
    from desktop.portal_shortcuts import portal_status

    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    status = portal_status()
    assert not status.available and "no D-Bus session bus" in status.reason
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
    status = portal_status()
    assert not status.available and "no D-Bus session bus" in status.reason


def test_a_bus_without_the_portal_is_detected(session_bus):
    from desktop.portal_shortcuts import portal_status

    status = portal_status()
    assert not status.available and status.reason == "no desktop portal (xdg-desktop-portal) runs in this session"


def test_on_wayland_without_the_portal_the_bridge_says_which_commands_to_bind(qtbot, session_bus, monkeypatch):
    from desktop.hotkeys import HotkeyBridge

    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    bridge = HotkeyBridge()
    with qtbot.waitSignal(bridge.status_changed, timeout=5000) as said:
        assert bridge.start("<ctrl>+<alt>+s", "<ctrl>+<alt>+r", "<ctrl>+<alt>+z") is False
    message = said.args[0]
    assert "Wayland" in message and "no desktop portal" in message
    for command in ("veil clipboard sanitize", "veil clipboard restore", "veil clipboard undo"):
        assert command in message
    assert not bridge.active


def test_on_wayland_with_the_portal_the_shortcuts_are_bound_and_fire(qtbot, session_bus, monkeypatch):
    from portal_fake import FakePortal

    from desktop.hotkeys import HotkeyBridge

    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    with FakePortal(session_bus) as portal:
        bridge = HotkeyBridge()
        with qtbot.waitSignal(bridge.status_changed, timeout=10000) as said:
            assert bridge.start("<ctrl>+<alt>+s", "<ctrl>+<alt>+r", "<ctrl>+<alt>+z") is True
        assert said.args[0] == "" and bridge.active
        triggers = {name: options["preferred_trigger"][1] for name, options in portal.bound}
        assert triggers == {"sanitize": "CTRL+ALT+s", "restore": "CTRL+ALT+r", "undo": "CTRL+ALT+z"}
        with qtbot.waitSignal(bridge.restore_pressed, timeout=5000):
            portal.press("restore")
        with qtbot.waitSignal(bridge.undo_pressed, timeout=5000):
            portal.press("undo")
        bridge.suspend(True)  # Settings records a hotkey: a press is not an action
        with qtbot.assertNotEmitted(bridge.sanitize_pressed, wait=500):
            portal.press("sanitize")
        bridge.stop()


def test_shortcuts_the_user_refuses_are_said_with_the_commands_to_bind(qtbot, session_bus, monkeypatch):
    from portal_fake import FakePortal

    from desktop.hotkeys import HotkeyBridge

    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    with FakePortal(session_bus, approve=False):
        bridge = HotkeyBridge()
        with qtbot.waitSignal(bridge.status_changed, timeout=10000) as said:
            bridge.start("<ctrl>+<alt>+s", "<ctrl>+<alt>+r")
        assert "not approved" in said.args[0] and "veil clipboard sanitize" in said.args[0]
        assert not bridge.active


def test_hotkeys_in_the_portals_format():
    from desktop.portal_shortcuts import portal_trigger

    assert portal_trigger("<ctrl>+<alt>+s") == "CTRL+ALT+s"
    assert portal_trigger("<cmd>+<shift>+<f8>") == "LOGO+SHIFT+F8"


def test_on_wayland_the_app_runs_through_xwayland_for_the_clipboard():
    from desktop.main import qt_platform_for

    assert qt_platform_for({"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}) == "xcb"
    assert qt_platform_for({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":1"}) == "xcb"
    assert qt_platform_for({"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0"}) == ""  # no XWayland
    assert qt_platform_for({"XDG_SESSION_TYPE": "x11", "DISPLAY": ":0"}) == ""
    assert qt_platform_for({"XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0", "QT_QPA_PLATFORM": "wayland"}) == ""
