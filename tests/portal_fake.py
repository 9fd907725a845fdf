"""A stand-in for the desktop's xdg-desktop-portal on a private D-Bus session bus, for
tests/test_desktop_hotkeys.py: it speaks org.freedesktop.portal.GlobalShortcuts as the
specification says (CreateSession and BindShortcuts answer through Request objects'
Response signals; Activated when a shortcut is pressed), approving whatever is asked, so
desktop/portal_shortcuts.py is tested over real D-Bus messages. `press(name)` is the user
pressing a bound shortcut. A real portal is not available in a test machine's session."""

from __future__ import annotations

import threading

from jeepney import (
    DBusAddress,
    HeaderFields,
    MessageType,
    message_bus,
    new_method_return,
    new_signal,
)
from jeepney.io.blocking import open_dbus_connection

BUS_NAME = "org.freedesktop.portal.Desktop"
OBJECT_PATH = "/org/freedesktop/portal/desktop"
INTERFACE = "org.freedesktop.portal.GlobalShortcuts"


class FakePortal:
    def __init__(self, bus_address: str, *, approve: bool = True):
        self.bus_address = bus_address
        self.approve = approve
        self.bound: list[tuple[str, dict]] = []
        self.session = ""
        self._conn = open_dbus_connection(bus=bus_address)
        self._conn.send_and_get_reply(message_bus.RequestName(BUS_NAME))
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> FakePortal:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop = True
        self._conn.close()

    def press(self, name: str) -> None:
        signal = new_signal(DBusAddress(OBJECT_PATH, interface=INTERFACE), "Activated", "osta{sv}",
                            (self.session, name, 0, {}))
        self._conn.send(signal)

    def _serve(self) -> None:
        while not self._stop:
            try:
                message = self._conn.receive(timeout=0.5)
            except TimeoutError:
                continue
            except OSError:
                return
            header = message.header
            if header.message_type != MessageType.method_call:
                continue
            member = header.fields.get(HeaderFields.member)
            sender = header.fields.get(HeaderFields.sender, "")
            if member == "Get":  # org.freedesktop.DBus.Properties: the interface's version
                self._conn.send(new_method_return(message, "v", (("u", 1),)))
            elif member == "CreateSession":
                options = message.body[0]
                self.session = f"{OBJECT_PATH}/session/{sender[1:].replace('.', '_')}/{options['session_handle_token'][1]}"
                self._answer(message, sender, options["handle_token"][1], {"session_handle": ("o", self.session)})
            elif member == "BindShortcuts":
                session, shortcuts, _parent, options = message.body
                self.bound = list(shortcuts)
                results = {"shortcuts": ("a(sa{sv})", shortcuts)} if self.approve else {}
                self._answer(message, sender, options["handle_token"][1], results, 0 if self.approve else 1)

    def _answer(self, call, sender: str, token: str, results: dict, code: int = 0) -> None:
        request = f"{OBJECT_PATH}/request/{sender[1:].replace('.', '_')}/{token}"
        self._conn.send(new_method_return(call, "o", (request,)))
        response = new_signal(DBusAddress(request, interface="org.freedesktop.portal.Request"), "Response",
                              "ua{sv}", (code, results))
        self._conn.send(response)
