"""`veil clipboard sanitize|restore|undo`: ask the running desktop app to do what its
hotkeys do. Where an app may not watch the keyboard (Wayland without the desktop's
GlobalShortcuts portal), the desktop's own keyboard settings bind keys to these commands.

The app listens on a local socket (the one a second `veil` uses to bring its window up);
this module owns the address and the one-line protocol, without Qt, so the command starts
fast and the app (desktop/app.py) imports the same rules:

    request  one line: "show" | "clipboard sanitize" | "clipboard restore" | "clipboard undo"
    reply    one JSON line: {"ok": bool, "title": str, "text": str} (what the notification said)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import socket
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from agent import paths
from agent.cli import CliError

CLIPBOARD_ACTIONS = ("sanitize", "restore", "undo")
CONNECT_TIMEOUT_S = 2.0
# Long enough for a passphrase typed into the unlock dialog the action may need first.
REPLY_TIMEOUT_S = 300.0


@dataclass(frozen=True, slots=True)
class AppReply:
    ok: bool
    title: str
    text: str

    def to_line(self) -> bytes:
        return (json.dumps({"ok": self.ok, "title": self.title, "text": self.text}, ensure_ascii=False) + "\n").encode()

    @classmethod
    def from_line(cls, line: bytes) -> AppReply:
        data = json.loads(line.decode("utf-8"))
        return cls(bool(data.get("ok")), str(data.get("title", "")), str(data.get("text", "")))


def instance_name() -> str:
    """One Veil per user and data folder (VEIL_HOME gives tests their own)."""
    user = os.environ.get("USER") or os.environ.get("USERNAME") or str(os.getuid() if hasattr(os, "getuid") else "")
    digest = hashlib.sha256(f"{user}:{paths.data_dir()}".encode()).hexdigest()[:16]
    return f"veil-{digest}"


def instance_address() -> str:
    """Where the running app listens: a Unix socket in the user's runtime folder (only
    the user can reach it), or on Windows a named pipe called instance_name()."""
    if os.name == "nt":
        return instance_name()
    folder = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    return str(Path(folder) / f"{instance_name()}.sock")


def ask_running_app(request: str, *, reply_timeout: float = REPLY_TIMEOUT_S) -> AppReply | None:
    """Send one request to the running app and wait for its reply; None when no app runs."""
    if os.name == "nt":  # pragma: no cover - named pipes (QLocalServer on Windows)
        return _ask_pipe(request, reply_timeout)
    address = instance_address()
    if not os.path.exists(address):
        return None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(CONNECT_TIMEOUT_S)
        try:
            conn.connect(address)
        except OSError:  # a socket left by a crashed app
            return None
        conn.sendall(request.encode() + b"\n")
        conn.settimeout(reply_timeout)
        return AppReply.from_line(_read_line(conn))


def _read_line(conn: socket.socket) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        try:
            chunk = conn.recv(65536)
        except TimeoutError:
            raise CliError("Veil did not answer in time (is a dialog waiting for you?)") from None
        if not chunk:
            break
        data += chunk
    if not data.strip():
        raise CliError("the running Veil closed the connection without an answer")
    return data


def _ask_pipe(request: str, reply_timeout: float) -> AppReply | None:  # pragma: no cover - Windows
    deadline = time.monotonic() + CONNECT_TIMEOUT_S
    while True:
        try:
            pipe = open(rf"\\.\pipe\{instance_name()}", "r+b", buffering=0)  # noqa: SIM115
            break
        except FileNotFoundError:
            return None
        except OSError:  # busy: another client is being served
            if time.monotonic() > deadline:
                return None
            time.sleep(0.05)
    with pipe:
        pipe.write(request.encode() + b"\n")
        return AppReply.from_line(pipe.readline())


def register(subcommands: argparse._SubParsersAction) -> None:
    p = subcommands.add_parser(
        "clipboard",
        help="ask the running Veil to sanitize, restore or undo the clipboard (bind keys to these on Wayland)",
        description="What the clipboard hotkeys do, as commands for the desktop's own keyboard shortcuts "
        "(Wayland desktops let no app watch the keyboard): the running Veil sanitizes the clipboard, "
        "restores the real values in it, or undoes the last sanitize, and shows its usual notification. "
        "Exit status: 0 done, 1 Veil could not (the message says why), 2 Veil is not running.",
    )
    p.add_argument("action", choices=CLIPBOARD_ACTIONS)
    p.add_argument("--quiet", action="store_true", help="print nothing (the notification still shows)")
    p.set_defaults(func=run_clipboard)


def run_clipboard(args: argparse.Namespace) -> int:
    reply = ask_running_app(f"clipboard {args.action}")
    if reply is None:
        raise CliError("Veil is not running: start it (`veil --tray`) and try again; the clipboard commands ask "
                       "the running app")
    if not args.quiet:
        print(f"{reply.title}: {reply.text}" if reply.title else reply.text, file=sys.stdout if reply.ok else sys.stderr)
    return 0 if reply.ok else 1
