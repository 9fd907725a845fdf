"""One Veil per user and data folder: the first one listens on a local socket (a Unix
socket in the user's runtime folder, reachable by this user only); a second `veil` asks it
to show its window, and `veil clipboard ...` asks it to act on the clipboard. The address
and the one-line protocol are Qt-free in agent/cli/clipboard.py, so the command starts fast.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtNetwork import QLocalServer, QLocalSocket

from desktop.clipboard_actions import Report

log = logging.getLogger("veil.desktop")


def claim_instance(on_request: Callable[[str, Report], None]) -> QLocalServer | None:
    """Listen as the running Veil; None when another one answers (it was told to show).
    Requests are lines (agent/cli/clipboard.py); each gets one reply line."""
    from agent.cli.clipboard import AppReply, instance_address

    address = instance_address()
    socket = QLocalSocket()
    socket.connectToServer(address)
    if socket.waitForConnected(150):
        socket.write(b"show\n")
        socket.flush()
        socket.waitForBytesWritten(300)
        socket.disconnectFromServer()
        return None
    server = QLocalServer()
    server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)  # this user only
    if not server.listen(address):
        QLocalServer.removeServer(address)  # a stale socket left by a crash
        if not server.listen(address):
            log.warning("single-instance guard unavailable: %s", server.errorString())
            return server

    def serve(client: QLocalSocket) -> None:
        pending = bytearray()

        def readable() -> None:
            pending.extend(bytes(client.readAll()))
            while b"\n" in pending:
                line, _, rest = bytes(pending).partition(b"\n")
                pending[:] = rest

                def reply(ok: bool, title: str, text: str) -> None:
                    if client.state() == QLocalSocket.LocalSocketState.ConnectedState:
                        client.write(AppReply(ok, title, text).to_line())
                        client.flush()

                on_request(line.decode(errors="replace").strip(), reply)

        client.readyRead.connect(readable)
        client.disconnected.connect(client.deleteLater)

    def connection() -> None:
        while server.hasPendingConnections():
            serve(server.nextPendingConnection())

    server.newConnection.connect(connection)
    return server


