"""The desktop app: tray icon first (fast), then the privacy engine and the vault in the
background, global hotkeys for the clipboard, the chat window and settings on demand.
VeilApp owns the tray, the windows and the dialogs; the first run (desktop/first_run.py),
the clipboard actions (desktop/clipboard_actions.py) and the single-instance socket
(desktop/instance.py) live beside it; AppState (desktop/state.py) owns the data.

    veil                 # tray (first run: the setup wizard, then the chat window)
    veil --chat          # and open the chat window
    VEIL_LOG=info veil   # timings and state changes on stderr
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMenu, QSystemTrayIcon

from agent.config import Settings
from desktop import icons
from desktop.clipboard_actions import RESTORE, SANITIZE, ClipboardActions, Report
from desktop.dialogs import bring_to_front
from desktop.first_run import FirstRun
from desktop.hotkeys import HotkeyBridge
from desktop.state import AppState, VaultPhase
from desktop.tasks import Background

if TYPE_CHECKING:
    from agent.engine.host import EngineHost

log = logging.getLogger("veil.desktop")

_STARTED = time.perf_counter()
NOTIFY_MS = 6000


def _since_start() -> float:
    return time.perf_counter() - _STARTED


def restart_clock() -> None:
    """Time "tray shown after ..." from here (desktop/main.py calls it at start)."""
    global _STARTED
    _STARTED = time.perf_counter()


class VeilApp(QObject):
    """Owns the tray, the windows and the dialogs; AppState owns the data."""

    clipboard_done = Signal(object)  # ClipboardOutcome (tests and notifications)

    def __init__(self, app: QApplication, settings: Settings, *, settings_problem: str = "",
                 isolated_engine: bool = True, use_hotkeys: bool = True, engine: EngineHost | None = None):
        super().__init__()
        self.app = app
        self.background = Background()
        self.state = AppState(settings, self.background, isolated_engine=isolated_engine, engine=engine)
        self.settings_problem = settings_problem
        self.use_hotkeys = use_hotkeys
        self.chat = None
        self.settings_dialog = None
        self.files_window = None  # desktop.files_window.FilesWindow, made on first use
        self.unlock_dialog = None
        self.tray: QSystemTrayIcon | None = None
        self.hotkeys = HotkeyBridge()
        self.hotkeys.sanitize_pressed.connect(lambda: self.sanitize_clipboard(from_hotkey=True))
        self.hotkeys.restore_pressed.connect(lambda: self.restore_clipboard(from_hotkey=True))
        self.hotkeys.undo_pressed.connect(lambda: self.undo_clipboard())
        self.hotkeys.status_changed.connect(self._hotkey_status)
        self.hotkey_message = ""
        self.notifications: list[tuple[str, str]] = []  # (title, text): what was shown, newest last
        self._told_no_tray = False
        self.first_run = FirstRun(self)
        self.clipboard = ClipboardActions(self)
        self.is_shut_down = False
        self.state.engine_changed.connect(self._refresh_tray)
        self.state.vault_changed.connect(self._vault_changed)
        self.state.paused_changed.connect(self._refresh_tray)
        self.state.settings_changed.connect(self._settings_changed)
        self.state.proxy_changed.connect(self._proxy_changed)

    # -- start -------------------------------------------------------------------------------------------
    def start(self, *, open_chat: bool = False) -> None:
        """Show the tray at once; everything slow starts on the next event-loop turn."""
        if QSystemTrayIcon.isSystemTrayAvailable():
            self._make_tray()
            log.info("tray shown after %.2f s", _since_start())
        else:
            log.warning("no system tray: the chat window replaces it")
        QTimer.singleShot(0, lambda: self._start_background(open_chat))

    def _start_background(self, open_chat: bool) -> None:
        self.state.start_engine()
        if self.use_hotkeys:
            self.start_hotkeys()
        if self.settings_problem:
            self.notify("Veil: settings not loaded", self.settings_problem, QSystemTrayIcon.MessageIcon.Warning)
        if not self.state.settings.first_run_done:
            # One dialog at a time: the wizard first; the vault (and its passphrase dialog,
            # when there is no keyring) only once the wizard is finished.
            self.first_run.run()
            return
        self.state.open_vault()
        if self.tray is None:
            self.open_chat()
            self._say_no_tray()
        elif open_chat:
            self.open_chat()

    def start_hotkeys(self) -> None:
        hk = self.state.settings.hotkeys
        if not hk.enabled:
            self.hotkeys.stop()
            self._hotkey_status("")
            return
        self.background.submit(lambda: self.hotkeys.start(hk.sanitize, hk.restore, hk.undo))

    def _hotkey_status(self, message: str) -> None:
        changed = message != self.hotkey_message
        self.hotkey_message = message
        if self.settings_dialog is not None:
            self.settings_dialog.set_hotkey_status(message)
        if message and changed:
            # Said once: a notification, and a line in the chat window if it is open.
            self.notify("Veil: hotkeys unavailable", message, QSystemTrayIcon.MessageIcon.Warning)
            if self.chat is not None:
                self.chat.show_info(message)

    # -- tray ----------------------------------------------------------------------------------------------
    def _make_tray(self) -> None:
        tray = QSystemTrayIcon(icons.icon(), self)
        menu = QMenu()
        self.action_open = QAction("Open chat", menu, triggered=self.open_chat)
        self.action_sanitize = QAction("Sanitize clipboard", menu, triggered=lambda: self.sanitize_clipboard())
        self.action_restore = QAction("Restore clipboard", menu, triggered=lambda: self.restore_clipboard())
        self.action_undo = QAction("Undo last sanitize", menu, triggered=lambda: self.undo_clipboard())
        self.action_pause = QAction("Pause protection", menu, checkable=True)
        self.action_pause.toggled.connect(self.state.set_paused)
        self.action_lock = QAction("Lock vault", menu, triggered=self._lock_or_unlock)
        self.action_settings = QAction("Settings…", menu, triggered=self.open_settings)
        self.action_files = QAction("Files…", menu, triggered=self.open_files)
        self.action_proxy = QAction("Local proxy (veil serve)", menu, checkable=True)
        self.action_proxy.toggled.connect(self._toggle_proxy)
        self.action_quit = QAction("Quit", menu, triggered=self.quit)
        menu.addAction(self.action_open)
        menu.addSeparator()
        menu.addAction(self.action_sanitize)
        menu.addAction(self.action_restore)
        menu.addAction(self.action_undo)
        menu.addSeparator()
        menu.addAction(self.action_pause)
        menu.addAction(self.action_lock)
        menu.addAction(self.action_proxy)
        menu.addAction(self.action_files)
        menu.addAction(self.action_settings)
        menu.addSeparator()
        menu.addAction(self.action_quit)
        tray.setContextMenu(menu)
        tray.activated.connect(self._tray_activated)
        self.tray_menu = menu
        self.tray = tray
        self._refresh_tray()
        tray.show()

    def _tray_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (QSystemTrayIcon.ActivationReason.Trigger, QSystemTrayIcon.ActivationReason.DoubleClick):
            self.open_chat()

    def _refresh_tray(self, *_: object) -> None:
        if self.tray is None:
            return
        if self.state.paused:
            name = icons.PAUSED
        elif self.state.vault_phase in (VaultPhase.LOCKED, VaultPhase.NEEDS_PASSPHRASE):
            name = icons.LOCKED
        else:
            name = icons.APP
        self.tray.setIcon(icons.icon(name))
        self.tray.setToolTip(self.state.describe())
        self.action_pause.setChecked(self.state.paused)
        self.action_pause.setText("Resume protection" if self.state.paused else "Pause protection")
        self.action_proxy.setEnabled(self.state.vault_is_open() or self.state.proxy is not None)
        locked = self.state.vault_phase in (VaultPhase.LOCKED, VaultPhase.NEEDS_PASSPHRASE)
        self.action_lock.setText("Unlock vault…" if locked else "Lock vault")

    def _toggle_proxy(self, on: bool) -> None:
        if on and self.state.proxy is None:
            self.state.start_proxy()
        elif not on and self.state.proxy is not None:
            self.state.stop_proxy()

    def _proxy_changed(self) -> None:
        running = self.state.proxy is not None
        if self.tray is not None:
            self.action_proxy.blockSignals(True)
            self.action_proxy.setChecked(running)
            self.action_proxy.blockSignals(False)
            self.tray.setToolTip(self.state.describe())
        if running:
            self.notify("Veil: local proxy on", f"OpenAI-compatible endpoint at {self.state.proxy.url}; "
                        "the bearer token is in Settings → Local proxy.")
        elif self.state.proxy_error:
            self.notify("Veil: local proxy", self.state.proxy_error, QSystemTrayIcon.MessageIcon.Warning)
            self.state.proxy_error = ""
        if self.settings_dialog is not None:
            self.settings_dialog.refresh_proxy()

    def _say_no_tray(self) -> None:
        if self._told_no_tray or self.chat is None:
            return
        self._told_no_tray = True
        self.chat.set_hide_on_close(False)
        self.chat.show_info("No system tray was found on this desktop, so Veil runs as this window "
                            "(closing it quits Veil). The clipboard hotkeys still work while it is open.")

    def notify(self, title: str, text: str,
               icon: QSystemTrayIcon.MessageIcon = QSystemTrayIcon.MessageIcon.Information) -> None:
        self.notifications.append((title, text))
        log.info("notification: %s: %s", title, text)
        if self.tray is not None and self.tray.isVisible():
            self.tray.showMessage(title, text, icon, NOTIFY_MS)
        elif self.chat is not None:
            self.chat.show_info(f"{title}: {text}")

    # -- vault ----------------------------------------------------------------------------------------------
    def _vault_changed(self) -> None:
        self._refresh_tray()
        phase = self.state.vault_phase
        if phase in (VaultPhase.LOCKED, VaultPhase.NEEDS_PASSPHRASE):
            self.clipboard.forget()  # real values in memory go when the vault locks
        if phase == VaultPhase.NEEDS_PASSPHRASE:
            self.ask_passphrase()
        elif phase == VaultPhase.FAILED:
            self.notify("Veil: vault unavailable", self.state.vault_error, QSystemTrayIcon.MessageIcon.Critical)
        elif phase == VaultPhase.OPEN:
            if self.unlock_dialog is not None:
                dialog, self.unlock_dialog = self.unlock_dialog, None
                dialog.accept()
            self.first_run.vault_opened()

    def ask_passphrase(self) -> None:
        """The unlock dialog (passphrase mode). Wrong passphrase: the message, try again."""
        from desktop.dialogs import PassphraseDialog

        error = self.state.vault_error
        if self.unlock_dialog is not None:
            self.unlock_dialog.show_error(error)
            self.unlock_dialog.setEnabled(True)
            self.unlock_dialog.passphrase.selectAll()
            self.unlock_dialog.passphrase.setFocus()
            return
        dialog = PassphraseDialog(self.chat, new=self.state.vault_creating, error=error, keep_open=True)
        self.unlock_dialog = dialog

        def submitted(passphrase: str) -> None:
            dialog.setEnabled(False)  # while the key is derived (a few tenths of a second)
            dialog.show_error("Creating the vault…" if self.state.vault_creating else "Unlocking…")
            self.state.open_vault(passphrase)

        def cancelled() -> None:
            self.unlock_dialog = None
            self.state.cancel_vault_waiters()
            self._refresh_tray()
            self.first_run.passphrase_cancelled()

        dialog.submitted.connect(submitted)
        dialog.rejected.connect(cancelled)
        bring_to_front(dialog)

    def ensure_vault(self, then: Callable[[], None]) -> None:
        """Run `then` once the vault is open, asking to unlock it if needed."""
        if self.state.vault_is_open():
            then()
            return
        self.state.open_vault(on_done=then)

    def _lock_or_unlock(self) -> None:
        if self.state.vault_phase in (VaultPhase.LOCKED, VaultPhase.NEEDS_PASSPHRASE):
            self.state.open_vault()
        else:
            self.state.lock_vault()

    # -- clipboard (desktop/clipboard_actions.py) ------------------------------------------------------------------
    def sanitize_clipboard(self, *, from_hotkey: bool = False, report: Report | None = None) -> None:
        self.clipboard.run(SANITIZE, from_hotkey, report)

    def restore_clipboard(self, *, from_hotkey: bool = False, report: Report | None = None) -> None:
        self.clipboard.run(RESTORE, from_hotkey, report)

    def undo_clipboard(self, report: Report | None = None) -> None:
        self.clipboard.undo(report)

    # -- requests from other processes (a second `veil`, `veil clipboard ...`) --------------------------------------
    def handle_request(self, request: str, report: Report) -> None:
        """One line from the app's socket (agent/cli/clipboard.py has the protocol)."""
        words = request.split()
        if words == ["show"]:
            self.open_chat()
            report(True, "Veil", "window shown")
        elif len(words) == 2 and words[0] == "clipboard" and words[1] in ("sanitize", "restore"):
            # A key the desktop binds to the command: the hotkey's rules (pause) apply.
            self.clipboard.run(words[1], from_hotkey=True, report=report)
        elif words == ["clipboard", "undo"]:
            self.undo_clipboard(report=report)
        else:
            report(False, "Veil", f"unknown request {request!r}")

    # -- windows ---------------------------------------------------------------------------------------------------
    @property
    def wizard(self):
        """The first-run wizard while it is open (tests and the X driver look at it)."""
        return self.first_run.wizard

    def run_wizard(self) -> None:
        self.first_run.run()

    def needs_setup(self) -> bool:
        """The first-run wizard was cancelled: the vault does not exist yet, so anything
        that would create it goes through the wizard again."""
        if self.state.settings.first_run_done:
            return False
        self.first_run.run()
        return True

    def open_chat(self) -> None:
        from desktop.chat import ChatWindow

        if self.needs_setup():
            return
        if self.tray is None and not self._told_no_tray:
            QTimer.singleShot(0, self._say_no_tray)
        if self.chat is None:
            self.chat = ChatWindow(self.state, self)
            if self.tray is None:
                self.chat.set_hide_on_close(False)
            if self.hotkey_message:
                self.chat.show_info(self.hotkey_message)
            self.chat.refresh_conversations()
        bring_to_front(self.chat)

    def open_files(self) -> None:
        """The Files window (veil files): sanitize files and folders into a project's map."""
        from desktop.files_window import FilesWindow

        if self.needs_setup():
            return
        if self.files_window is None:
            self.files_window = FilesWindow(self.state.store, self.state.settings)
        self.files_window.store = self.state.store  # the vault may have been opened since
        bring_to_front(self.files_window)

    def open_settings(self) -> None:
        from desktop.settings_dialog import SettingsDialog

        if self.needs_setup():
            return
        if self.settings_dialog is None:
            self.settings_dialog = SettingsDialog(self.state, self.chat)
            self.settings_dialog.set_hotkey_status(self.hotkey_message)
            self.settings_dialog.hotkeys_tab.recording.connect(self.hotkeys.suspend)
            self.settings_dialog.finished.connect(self._settings_closed)
        bring_to_front(self.settings_dialog)

    def _settings_closed(self, *_: object) -> None:
        dialog, self.settings_dialog = self.settings_dialog, None
        self.hotkeys.suspend(False)
        if dialog is not None:
            dialog.deleteLater()

    def _settings_changed(self) -> None:
        self._refresh_tray()
        if self.use_hotkeys:
            self.start_hotkeys()

    def quit(self) -> None:
        self.shutdown()
        # exit(), not quit(): Qt's quit() first asks every window to close, and the chat
        # window only hides itself (the app lives in the tray), which cancels the quit.
        self.app.exit(0)

    def shutdown(self) -> None:
        if self.is_shut_down:
            return
        self.is_shut_down = True
        self.first_run.close()
        if self.unlock_dialog is not None:
            self.unlock_dialog.close()
        self.hotkeys.stop()
        if self.chat is not None and self.chat.reply is not None:
            self.chat.reply.cancel()
        if self.tray is not None:
            self.tray.hide()
        self.state.shutdown()
