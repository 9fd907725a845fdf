"""What the app's parts may ask of the app: the `AppHost` protocol.

The first run (desktop/first_run.py), the clipboard actions (desktop/clipboard_actions.py),
the chat window (desktop/chat.py) and its sending (desktop/chat_send.py) are handed the
app (desktop/app.py VeilApp) and use only what is named here: the shared state and
workers, notifications, the vault prompt, and opening windows. Naming it here, rather than
importing VeilApp, keeps the app the only module that knows all its parts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QSystemTrayIcon

    from desktop.state import AppState
    from desktop.tasks import Background


class AppHost(Protocol):
    state: AppState
    background: Background
    tray: QSystemTrayIcon | None  # None where the desktop has no tray
    is_shut_down: bool
    clipboard_done: SignalInstance  # emitted with each clipboard action's outcome

    def notify(self, title: str, text: str, icon: QSystemTrayIcon.MessageIcon = ...) -> None: ...

    def ensure_vault(self, then: Callable[[], None]) -> None:
        """Open the vault (asking for its passphrase if needed), then call `then`."""
        ...

    def needs_setup(self) -> bool: ...

    def open_chat(self) -> None: ...

    def open_settings(self) -> None: ...

    def quit(self) -> None: ...
