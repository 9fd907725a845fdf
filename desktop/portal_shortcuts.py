"""Global shortcuts on Wayland through the XDG desktop portal
(org.freedesktop.portal.GlobalShortcuts, on the session D-Bus), where the desktop offers it
(KDE Plasma 6, GNOME 48 and later, Hyprland...). Wayland lets no app watch the keyboard, so
the desktop asks the user to approve the shortcuts and tells Veil when one is pressed.

    status = portal_status()          # is it there? (no side effects)
    session = PortalShortcuts({"sanitize": "<ctrl>+<alt>+s", ...}, on_activated)
    session.start()                   # binds in a thread; session.error says why not

Talks D-Bus with jeepney (pure Python, already installed with keyring on Linux), on one
dedicated thread: CreateSession, BindShortcuts, then Activated signals. No Qt here:
desktop/hotkeys.py turns the callbacks into Qt signals.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

log = logging.getLogger("veil.desktop")

BUS_NAME = "org.freedesktop.portal.Desktop"
OBJECT_PATH = "/org/freedesktop/portal/desktop"
INTERFACE = "org.freedesktop.portal.GlobalShortcuts"
REQUEST_INTERFACE = "org.freedesktop.portal.Request"
CALL_TIMEOUT_S = 5.0
# Approving shortcuts is a dialog the user answers: give them time.
BIND_TIMEOUT_S = 300.0
DESCRIPTIONS = {
    "sanitize": "Sanitize the clipboard (swap personal data for stand-ins)",
    "restore": "Restore the clipboard (put the real values back)",
    "undo": "Undo the last clipboard sanitize",
}
# pynput's modifier names -> the shortcut format of the XDG specification.
_MODIFIERS = {"<ctrl>": "CTRL", "<alt>": "ALT", "<shift>": "SHIFT", "<cmd>": "LOGO"}


@dataclass(frozen=True, slots=True)
class PortalStatus:
    available: bool
    reason: str = ""  # why not, in words
    version: int = 0


def portal_trigger(combo: str) -> str:
    """"<ctrl>+<alt>+s" in the portal's format: "CTRL+ALT+s"."""
    parts = []
    for part in combo.split("+"):
        if part in _MODIFIERS:
            parts.append(_MODIFIERS[part])
        elif part.startswith("<") and part.endswith(">"):
            parts.append(part[1:-1].upper() if part[1:2] == "f" and part[2:-1].isdigit() else part[1:-1].capitalize())
        else:
            parts.append(part)
    return "+".join(parts)


def _connect():
    from jeepney.io.blocking import open_dbus_connection

    return open_dbus_connection(bus="SESSION")


def portal_status() -> PortalStatus:
    """Whether the session bus has a desktop portal with GlobalShortcuts, and why not."""
    try:
        from jeepney import DBusAddress, HeaderFields, MessageType, Properties
    except ImportError:
        return PortalStatus(False, "the jeepney package (D-Bus) is not installed")
    try:
        conn = _connect()
    except KeyError:
        return PortalStatus(False, "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
    except Exception as exc:  # refused, gone, auth failed
        return PortalStatus(False, f"no D-Bus session bus ({type(exc).__name__}: {exc})")
    try:
        portal = DBusAddress(OBJECT_PATH, bus_name=BUS_NAME, interface=INTERFACE)
        reply = conn.send_and_get_reply(Properties(portal).get("version"), timeout=CALL_TIMEOUT_S)
    except Exception as exc:
        return PortalStatus(False, f"the desktop portal did not answer ({type(exc).__name__})")
    finally:
        conn.close()
    if reply.header.message_type == MessageType.error:
        error = str(reply.header.fields.get(HeaderFields.error_name, ""))
        if "ServiceUnknown" in error or "NameHasNoOwner" in error:
            return PortalStatus(False, "no desktop portal (xdg-desktop-portal) runs in this session")
        return PortalStatus(False, "this desktop's portal has no GlobalShortcuts")
    version = reply.body[0][1] if reply.body and isinstance(reply.body[0], tuple) else 0
    return PortalStatus(True, "", int(version))


class PortalShortcuts:
    """One GlobalShortcuts session: binds `shortcuts` (name -> pynput combo, the preferred
    trigger; the user may pick others in the desktop's dialog) and calls
    `on_activated(name)` from its own thread when one is pressed."""

    def __init__(self, shortcuts: Mapping[str, str], on_activated: Callable[[str], None],
                 on_ready: Callable[[str], None] = lambda error: None):
        """`on_ready(error)`: called once from the session's thread, "" when bound."""
        self.shortcuts = dict(shortcuts)
        self.on_activated = on_activated
        self.on_ready = on_ready
        self.error = ""
        self.bound: list[str] = []
        self._ready = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._conn = None

    def start(self, wait: float = 0.0) -> bool:
        """Create the session and bind in the session's thread; waits up to `wait` seconds
        for the outcome (on_ready says it either way). False when it failed by then."""
        self._thread = threading.Thread(target=self._run, name="veil-portal-shortcuts", daemon=True)
        self._thread.start()
        self._ready.wait(wait)
        return not self.error

    def stop(self) -> None:
        self._stop.set()
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except OSError:
                pass

    # -- the session thread ------------------------------------------------------------------
    def _run(self) -> None:
        from jeepney import MatchRule, message_bus

        activated = MatchRule(type="signal", interface=INTERFACE, member="Activated", path=OBJECT_PATH)
        try:
            self._conn = _connect()
            # Listen before binding: a press right after the approval must not be missed.
            self._conn.send_and_get_reply(message_bus.AddMatch(activated), timeout=CALL_TIMEOUT_S)
            with self._conn.filter(activated, bufsize=16) as activations:
                try:
                    session = self._create_session()
                    self.bound = self._bind(session)
                except Exception as exc:
                    self.error = self.error or f"{type(exc).__name__}: {exc}"
                    raise
                finally:
                    self._ready.set()
                self.on_ready("")
                self._listen(session, activations)
        except Exception as exc:  # no bus, refused, or the bus went away (logout) / stop()
            if not self._ready.is_set() or self.error:
                self.error = self.error or f"{type(exc).__name__}: {exc}"
                self._ready.set()
                self.on_ready(self.error)
            elif not self._stop.is_set():
                log.warning("portal shortcuts stopped: %s", exc)

    def _request(self, method: str, signature: str, body: tuple, token: str) -> dict:
        """Call a portal method that answers through a Request object's Response signal."""
        from jeepney import DBusAddress, MatchRule, MessageType, message_bus, new_method_call

        conn = self._conn
        sender = conn.unique_name[1:].replace(".", "_")
        request_path = f"{OBJECT_PATH}/request/{sender}/{token}"
        rule = MatchRule(type="signal", interface=REQUEST_INTERFACE, member="Response", path=request_path)
        conn.send_and_get_reply(message_bus.AddMatch(rule), timeout=CALL_TIMEOUT_S)
        with conn.filter(rule) as responses:
            portal = DBusAddress(OBJECT_PATH, bus_name=BUS_NAME, interface=INTERFACE)
            reply = conn.send_and_get_reply(new_method_call(portal, method, signature, body), timeout=CALL_TIMEOUT_S)
            if reply.header.message_type == MessageType.error:
                raise RuntimeError(f"{method} refused: {reply.body[0] if reply.body else 'no reason given'}")
            signal = conn.recv_until_filtered(responses, timeout=BIND_TIMEOUT_S)
        code, results = signal.body
        if code != 0:
            self.error = "the shortcuts were not approved" if code == 1 else f"{method} failed (code {code})"
            raise RuntimeError(self.error)
        return results

    def _create_session(self) -> str:
        token, session_token = f"veil{secrets.token_hex(6)}", f"veil{secrets.token_hex(6)}"
        options = {"handle_token": ("s", token), "session_handle_token": ("s", session_token)}
        results = self._request("CreateSession", "a{sv}", (options,), token)
        return str(results["session_handle"][1])

    def _bind(self, session: str) -> list[str]:
        token = f"veil{secrets.token_hex(6)}"
        shortcuts = [(name, {"description": ("s", DESCRIPTIONS.get(name, name)),
                             "preferred_trigger": ("s", portal_trigger(combo))})
                     for name, combo in self.shortcuts.items()]
        results = self._request("BindShortcuts", "oa(sa{sv})sa{sv}",
                                (session, shortcuts, "", {"handle_token": ("s", token)}), token)
        bound = results.get("shortcuts", ("a(sa{sv})", []))[1]
        return [name for name, _ in bound]

    def _listen(self, session: str, activations) -> None:
        while not self._stop.is_set():
            try:
                signal = self._conn.recv_until_filtered(activations, timeout=1.0)
            except TimeoutError:
                continue
            handle, name = signal.body[0], signal.body[1]
            if handle == session and name in self.shortcuts:
                self.on_activated(name)
