"""Global hotkeys, bridged into the Qt thread with signals.

pynput listens to the X server (X11), the system hook (Windows) or an event tap (macOS).
On Wayland no application may see global keys: the desktop portal's GlobalShortcuts is
used where the desktop offers it (desktop/portal_shortcuts.py), otherwise the user binds
keys to `veil clipboard sanitize|restore|undo` in the desktop's settings and the tray
menu's actions remain. Callbacks run on other threads, so they only emit a signal,
which Qt queues to the UI thread.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading

from PySide6.QtCore import QObject, Signal

log = logging.getLogger("veil.desktop")

READY_TIMEOUT_S = 3.0
_TOKEN = re.compile(r"^(<[a-z0-9_]+>|[^<>+\s])$")


MODIFIERS = frozenset({"<ctrl>", "<alt>", "<shift>", "<cmd>", "<ctrl_l>", "<ctrl_r>", "<alt_l>", "<alt_r>",
                       "<alt_gr>", "<shift_l>", "<shift_r>", "<cmd_l>", "<cmd_r>"})


def check_hotkey(text: str) -> str:
    """'' when `text` is a hotkey pynput can parse ("<ctrl>+<alt>+s", "<ctrl>+<f8>"), else why not."""
    parts = [p for p in text.strip().lower().split("+")]
    if not text.strip():
        return "empty"
    if any(not _TOKEN.match(p) for p in parts):
        return "write keys like <ctrl>+<alt>+s: modifiers in angle brackets, joined by +"
    keys = [p for p in parts if p not in MODIFIERS]
    if len(keys) != 1 or len(keys) == len(parts):
        return "use at least one modifier (<ctrl>, <alt>, <shift>, <cmd>) and one key"
    return ""


BIND_COMMANDS = ("Bind keys to the commands `veil clipboard sanitize`, `veil clipboard restore` and "
                 "`veil clipboard undo` in your desktop's keyboard settings (the README shows how for GNOME "
                 "and KDE), or use the tray menu.")


def is_wayland() -> bool:
    return os.environ.get("XDG_SESSION_TYPE", "").lower() == "wayland" or bool(
        os.environ.get("WAYLAND_DISPLAY") and not os.environ.get("DISPLAY"))


def unavailable_reason() -> str:
    """Why pynput's global hotkeys cannot work in this session ('' when they may). On
    Wayland the desktop portal may still offer shortcuts (HotkeyBridge tries it)."""
    if is_wayland():
        return "Wayland lets no app watch the keyboard. " + BIND_COMMANDS
    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
        return "Global hotkeys need an X11 display; none was found. " + BIND_COMMANDS
    return ""


class HotkeyBridge(QObject):
    sanitize_pressed = Signal()
    restore_pressed = Signal()
    undo_pressed = Signal()
    # '' when listening, else a message for the user (shown once).
    status_changed = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self._listener = None
        self._portal = None  # desktop.portal_shortcuts.PortalShortcuts on Wayland
        self.status = "not started"
        self.active = False
        self.suspended = False
        self._lock = threading.Lock()

    def start(self, sanitize: str, restore: str, undo: str = "") -> bool:
        """Listen for the hotkeys (undo is optional). False (with `status` saying why) when
        impossible. May take a moment (connecting to the display): call it from a worker.
        On Wayland: the desktop portal's GlobalShortcuts where offered (the desktop asks the
        user to approve them; status_changed tells the outcome), else the reason and the
        `veil clipboard ...` commands to bind instead."""
        self.stop()
        combos = {"sanitize": sanitize, "restore": restore} | ({"undo": undo} if undo else {})
        if is_wayland():
            return self._start_portal(combos)
        reason = unavailable_reason()
        for name, combo in combos.items():
            problem = check_hotkey(combo)
            if problem and not reason:
                reason = f"The {name} hotkey {combo!r} cannot be used: {problem}."
        if not reason:
            try:
                from pynput import keyboard

                signals = {"sanitize": self.sanitize_pressed, "restore": self.restore_pressed,
                           "undo": self.undo_pressed}
                listener = keyboard.GlobalHotKeys({combo: self._emitter(signals[name]) for name, combo in combos.items()})
                listener.daemon = True
                listener.start()
                # Wait until the backend is connected. pynput's wait() never returns when
                # the backend fails before it is ready (no RECORD extension, access
                # denied), so wait on a helper thread with a time limit.
                ready = threading.Thread(target=listener.wait, daemon=True)
                ready.start()
                ready.join(READY_TIMEOUT_S)
                listener.join(0.1)
                if not listener.is_alive() or ready.is_alive():
                    # Not stopped: pynput's stop() waits for readiness too, forever. The
                    # listener is a daemon thread that died or waits on nothing.
                    reason = ("The global hotkeys could not be registered with the display server (on X11 it "
                              "needs the RECORD extension). Use the tray menu: Sanitize clipboard / Restore clipboard.")
                else:
                    self._listener = listener
            except Exception as exc:  # ImportError without a display, Xlib errors...
                reason = f"Global hotkeys are not available here ({type(exc).__name__}: {exc}). Use the tray menu."
        self.active = not reason
        self.status = reason
        if reason:
            log.warning("%s", reason)
        else:
            log.info("global hotkeys: sanitize %s, restore %s, undo %s", sanitize, restore, undo or "-")
        self.status_changed.emit(reason)
        return self.active

    def _start_portal(self, combos: dict[str, str]) -> bool:
        from desktop.portal_shortcuts import PortalShortcuts, portal_status

        status = portal_status()
        if not status.available:
            return self._finish(f"Global hotkeys: Wayland lets no app watch the keyboard and {status.reason}. "
                                + BIND_COMMANDS)
        signals = {"sanitize": self.sanitize_pressed, "restore": self.restore_pressed, "undo": self.undo_pressed}

        def activated(name: str) -> None:
            self._emitter(signals[name])()

        def ready(error: str) -> None:
            if error:
                self._portal = None
                self._finish(f"Global hotkeys: the desktop's shortcut portal said no ({error}). " + BIND_COMMANDS)
            else:
                log.info("global hotkeys through the desktop portal: %s", ", ".join(session.bound) or "none bound")
                self._finish("")

        session = PortalShortcuts(combos, activated, ready)
        self._portal = session
        session.start()
        self.status = "waiting for the desktop to approve the shortcuts"
        return True  # pending: status_changed says how it ended

    def _finish(self, reason: str) -> bool:
        self.active = not reason
        self.status = reason
        if reason:
            log.warning("%s", reason)
        self.status_changed.emit(reason)
        return self.active

    def _emitter(self, signal):
        def pressed() -> None:
            if not self.suspended:  # Settings is recording a new hotkey: not an action
                signal.emit()

        return pressed

    def suspend(self, suspended: bool) -> None:
        self.suspended = suspended

    def stop(self) -> None:
        listener, self._listener = self._listener, None
        portal, self._portal = self._portal, None
        if portal is not None:
            portal.stop()
        self.active = False
        if listener is not None:
            try:
                listener.stop()
            except Exception:
                log.debug("stopping the hotkey listener", exc_info=True)
