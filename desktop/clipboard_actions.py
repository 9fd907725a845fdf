"""The clipboard actions of the tray, the hotkeys and `veil clipboard ...`: sanitize and
restore the clipboard's text with the day's map (agent/session/clipboard.py does the
work, in a worker) and undo the last sanitize.

Every action ends in one notification; a `report` (a `veil clipboard ...` command waiting
on the app's socket, desktop/instance.py) gets the same words and whether it worked. The
text before the last sanitize is kept for undo in memory only: it holds real values, so
it is never written anywhere and is dropped when the vault locks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QSystemTrayIcon

if TYPE_CHECKING:
    from desktop.app_host import AppHost

Report = Callable[[bool, str, str], None]  # (done, title, text): the outcome for a waiting command
SANITIZE, RESTORE = "sanitize", "restore"


class ClipboardActions:
    def __init__(self, app: AppHost):
        self.app = app
        self.busy = False
        self.undo_text: tuple[str, str] | None = None  # (copied text, its sanitized form)

    def _tell(self, report: Report | None, ok: bool, title: str, text: str,
              icon: QSystemTrayIcon.MessageIcon = QSystemTrayIcon.MessageIcon.Information) -> None:
        self.app.notify(title, text, icon)
        if report is not None:
            report(ok, title, text)

    def forget(self) -> None:
        """The vault locked: the real values kept for undo go too."""
        self.undo_text = None

    def undo(self, report: Report | None = None) -> None:
        """Put back what was copied before the last sanitize (Ctrl+Alt+Z)."""
        clipboard = QGuiApplication.clipboard()
        if self.undo_text is None:
            self._tell(report, False, "Veil", "Nothing to undo: no sanitize since Veil started (or since the vault "
                       "was locked).")
            self.app.clipboard_done.emit(None)
            return
        before, _ = self.undo_text
        self.undo_text = None
        clipboard.setText(before)
        self._tell(report, True, "Clipboard: sanitize undone", "The clipboard holds what you copied before "
                   "sanitizing (with the real values).")
        self.app.clipboard_done.emit(None)

    def run(self, kind: str, from_hotkey: bool, report: Report | None = None) -> None:
        app = self.app
        if from_hotkey and app.state.paused:
            self._tell(report, False, "Veil is paused", "Protection is paused: the clipboard was not changed. "
                       "Resume it from the tray menu.")
            return
        if self.busy:
            self._tell(report, False, "Veil", "Still working on the last clipboard action; try again in a moment.")
            return
        if app.needs_setup():
            if report is not None:
                report(False, "Veil is not set up yet", "Finish the setup window first.")
            return
        if not app.state.vault_is_open():
            app.ensure_vault(lambda: self.run(kind, from_hotkey=False, report=report))
            return
        clipboard = QGuiApplication.clipboard()
        text = clipboard.text()
        if not text.strip():
            self._tell(report, False, "Veil", "The clipboard holds no text.")
            return
        self.busy = True
        guard = app.state.clipboard_guard()
        work = guard.sanitize if kind == SANITIZE else guard.restore

        def done(outcome) -> None:
            self.busy = False
            if clipboard.text() != text:
                self._tell(report, False, "Veil", "The clipboard changed meanwhile; it was left as it is.")
                return
            if outcome.changed:
                clipboard.setText(outcome.text)
                if kind == SANITIZE:
                    self.undo_text = (text, outcome.text)
            if outcome.already_sanitized:
                title = "Clipboard already sanitized"
            else:
                title = "Clipboard sanitized" if kind == SANITIZE else "Clipboard restored"
            body = outcome.summary()
            if outcome.warnings:
                body += "\n" + "\n".join(outcome.warnings)
            self._tell(report, True, title, body)
            app.clipboard_done.emit(outcome)

        def failed(exc: BaseException) -> None:
            from agent.vault import VaultLocked

            self.busy = False
            if isinstance(exc, VaultLocked):
                app.state.note_vault_locked()
                app.ensure_vault(lambda: self.run(kind, from_hotkey=False, report=report))
                return
            self._tell(report, False, "Veil: clipboard not changed", str(exc), QSystemTrayIcon.MessageIcon.Warning)
            app.clipboard_done.emit(exc)

        app.background.submit(lambda: work(text), done, failed)
