"""The desktop app: tray icon first (fast), then the privacy engine and the vault in the
background, global hotkeys for the clipboard, the chat window and settings on demand.

    veil                 # tray (first run: the setup wizard, then the chat window)
    veil --chat          # and open the chat window
    VEIL_LOG=info veil   # timings and state changes on stderr
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import QApplication, QDialog, QMenu, QMessageBox, QSystemTrayIcon

from agent.config import ConfigError, Settings, default_settings, load_settings
from desktop import icons
from desktop.hotkeys import HotkeyBridge
from desktop.state import AppState, VaultPhase
from desktop.tasks import Background

if TYPE_CHECKING:
    from agent.engine.host import EngineHost

log = logging.getLogger("veil.desktop")

_STARTED = time.perf_counter()
Report = Callable[[bool, str, str], None]  # (done, title, text): the outcome for a waiting command
NOTIFY_MS = 6000


def _since_start() -> float:
    return time.perf_counter() - _STARTED


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
        self.wizard = None  # the first-run wizard while it is open
        self._pending_key: tuple[str, str] | None = None  # (kind, key) typed in the wizard, not kept yet
        self._after_first_run = False  # the wizard is done; the vault is being opened
        self._busy_clipboard = False
        # (copied text, its sanitized form) of the last sanitize, for undo. In memory only:
        # it holds real values, so it is never written anywhere and is dropped on lock.
        self._undo: tuple[str, str] | None = None
        self._shut_down = False
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
            self.run_wizard()
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
            self._undo = None  # real values in memory go when the vault locks
        if phase == VaultPhase.NEEDS_PASSPHRASE:
            self.ask_passphrase()
        elif phase == VaultPhase.FAILED:
            self.notify("Veil: vault unavailable", self.state.vault_error, QSystemTrayIcon.MessageIcon.Critical)
        elif phase == VaultPhase.OPEN:
            if self.unlock_dialog is not None:
                dialog, self.unlock_dialog = self.unlock_dialog, None
                dialog.accept()
            if self._pending_key is not None and not self._after_first_run:
                self._store_pending_key()

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
            if self._after_first_run:
                self._after_first_run = False
                if self._pending_key is not None:
                    self.notify("Veil: API key not kept yet", "It is kept once the vault is unlocked "
                                "(tray › Unlock vault); until then Veil holds it in memory only.")
                self.open_chat()

        dialog.submitted.connect(submitted)
        dialog.rejected.connect(cancelled)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()

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

    # -- clipboard ----------------------------------------------------------------------------------------------
    # Every action ends in one notification; `report` (a `veil clipboard ...` command
    # waiting on the app's socket) gets the same words and whether it worked.
    def sanitize_clipboard(self, *, from_hotkey: bool = False, report: Report | None = None) -> None:
        self._clipboard_action("sanitize", from_hotkey, report)

    def restore_clipboard(self, *, from_hotkey: bool = False, report: Report | None = None) -> None:
        self._clipboard_action("restore", from_hotkey, report)

    def _tell(self, report: Report | None, ok: bool, title: str, text: str,
              icon: QSystemTrayIcon.MessageIcon = QSystemTrayIcon.MessageIcon.Information) -> None:
        self.notify(title, text, icon)
        if report is not None:
            report(ok, title, text)

    def undo_clipboard(self, report: Report | None = None) -> None:
        """Put back what was copied before the last sanitize (Ctrl+Alt+Z)."""
        clipboard = QGuiApplication.clipboard()
        if self._undo is None:
            self._tell(report, False, "Veil", "Nothing to undo: no sanitize since Veil started (or since the vault "
                       "was locked).")
            self.clipboard_done.emit(None)
            return
        before, _ = self._undo
        self._undo = None
        clipboard.setText(before)
        self._tell(report, True, "Clipboard: sanitize undone", "The clipboard holds what you copied before "
                   "sanitizing (with the real values).")
        self.clipboard_done.emit(None)

    def _clipboard_action(self, kind: str, from_hotkey: bool, report: Report | None = None) -> None:
        if from_hotkey and self.state.paused:
            self._tell(report, False, "Veil is paused", "Protection is paused: the clipboard was not changed. "
                       "Resume it from the tray menu.")
            return
        if self._busy_clipboard:
            self._tell(report, False, "Veil", "Still working on the last clipboard action; try again in a moment.")
            return
        if self._needs_setup():
            if report is not None:
                report(False, "Veil is not set up yet", "Finish the setup window first.")
            return
        if not self.state.vault_is_open():
            self.ensure_vault(lambda: self._clipboard_action(kind, from_hotkey=False, report=report))
            return
        clipboard = QGuiApplication.clipboard()
        text = clipboard.text()
        if not text.strip():
            self._tell(report, False, "Veil", "The clipboard holds no text.")
            return
        self._busy_clipboard = True
        guard = self.state.clipboard_guard()
        work = guard.sanitize if kind == "sanitize" else guard.restore

        def done(outcome) -> None:
            self._busy_clipboard = False
            if clipboard.text() != text:
                self._tell(report, False, "Veil", "The clipboard changed meanwhile; it was left as it is.")
                return
            if outcome.changed:
                clipboard.setText(outcome.text)
                if kind == "sanitize":
                    self._undo = (text, outcome.text)
            if outcome.already_sanitized:
                title = "Clipboard already sanitized"
            else:
                title = "Clipboard sanitized" if kind == "sanitize" else "Clipboard restored"
            body = outcome.summary()
            if outcome.warnings:
                body += "\n" + "\n".join(outcome.warnings)
            self._tell(report, True, title, body)
            self.clipboard_done.emit(outcome)

        def failed(exc: BaseException) -> None:
            from agent.vault import VaultLocked

            self._busy_clipboard = False
            if isinstance(exc, VaultLocked):
                self.state.note_vault_locked()
                self.ensure_vault(lambda: self._clipboard_action(kind, from_hotkey=False, report=report))
                return
            self._tell(report, False, "Veil: clipboard not changed", str(exc), QSystemTrayIcon.MessageIcon.Warning)
            self.clipboard_done.emit(exc)

        self.background.submit(lambda: work(text), done, failed)

    # -- requests from other processes (a second `veil`, `veil clipboard ...`) --------------------------------------
    def handle_request(self, request: str, report: Report) -> None:
        """One line from the app's socket (agent/cli/clipboard.py has the protocol)."""
        words = request.split()
        if words == ["show"]:
            self.open_chat()
            report(True, "Veil", "window shown")
        elif len(words) == 2 and words[0] == "clipboard" and words[1] in ("sanitize", "restore"):
            # A key the desktop binds to the command: the hotkey's rules (pause) apply.
            self._clipboard_action(words[1], from_hotkey=True, report=report)
        elif words == ["clipboard", "undo"]:
            self.undo_clipboard(report=report)
        else:
            report(False, "Veil", f"unknown request {request!r}")

    # -- windows ---------------------------------------------------------------------------------------------------
    def _needs_setup(self) -> bool:
        """The first-run wizard was cancelled: the vault does not exist yet, so anything
        that would create it goes through the wizard again."""
        if self.state.settings.first_run_done:
            return False
        self.run_wizard()
        return True

    def open_chat(self) -> None:
        from desktop.chat import ChatWindow

        if self._needs_setup():
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
        self.chat.show()
        self.chat.raise_()
        self.chat.activateWindow()

    def open_files(self) -> None:
        """The Files window (veil files): sanitize files and folders into a project's map."""
        from desktop.files_window import FilesWindow

        if self._needs_setup():
            return
        if self.files_window is None:
            self.files_window = FilesWindow(self.state.store, self.state.settings)
        self.files_window.store = self.state.store  # the vault may have been opened since
        self.files_window.show()
        self.files_window.raise_()
        self.files_window.activateWindow()

    def open_settings(self) -> None:
        from desktop.settings_dialog import SettingsDialog

        if self._needs_setup():
            return
        if self.settings_dialog is None:
            self.settings_dialog = SettingsDialog(self.state, self.chat)
            self.settings_dialog.set_hotkey_status(self.hotkey_message)
            self.settings_dialog.hotkeys_tab.recording.connect(self.hotkeys.suspend)
            self.settings_dialog.finished.connect(self._settings_closed)
        self.settings_dialog.show()
        self.settings_dialog.raise_()
        self.settings_dialog.activateWindow()

    def _settings_closed(self, *_: object) -> None:
        dialog, self.settings_dialog = self.settings_dialog, None
        self.hotkeys.suspend(False)
        if dialog is not None:
            dialog.deleteLater()

    def _settings_changed(self) -> None:
        self._refresh_tray()
        if self.use_hotkeys:
            self.start_hotkeys()

    def run_wizard(self) -> None:
        """First run: provider, URL, model, key. Nothing is saved or created until it is
        finished; then the settings are saved, the vault is opened (a passphrase dialog
        when there is no keyring), the key is kept (keyring, else the vault) and the chat
        window opens. Cancel: nothing saved, no vault; the next start asks again."""
        from desktop.wizard import FirstRunWizard, wizard_facts

        if self.wizard is not None:
            self.wizard.raise_()
            self.wizard.activateWindow()
            return
        wizard = FirstRunWizard(self.state.settings, self.background, **wizard_facts())
        self.wizard = wizard

        def finished(result: int) -> None:
            self.wizard = None
            wizard.deleteLater()
            if self._shut_down:
                return
            if result != QDialog.DialogCode.Accepted:
                self._wizard_cancelled()
                return
            settings = wizard.result_settings()
            key = wizard.api_key()
            try:
                self.state.apply_settings(settings)
            except (ConfigError, OSError) as exc:
                self.notify("Veil: settings not saved", str(exc), QSystemTrayIcon.MessageIcon.Warning)
            if key:
                self._pending_key = (settings.provider.kind, key)
            self._after_first_run = True
            self.state.open_vault(on_done=self._first_run_vault_open)

        wizard.finished.connect(finished)
        wizard.show()
        wizard.raise_()
        wizard.activateWindow()

    def _wizard_cancelled(self) -> None:
        if self.tray is None:
            # Nothing else of Veil is on screen: leave, having created nothing.
            log.info("first-run wizard cancelled without a tray: quitting")
            self.quit()
            return
        self.notify("Veil is not set up yet", "Nothing was saved. Open chat or Settings from the tray "
                    "to set Veil up; it also asks again at the next start.")
        self._refresh_tray()

    def _first_run_vault_open(self) -> None:
        self._after_first_run = False
        self._store_pending_key()
        self.open_chat()

    def _store_pending_key(self) -> None:
        """The key typed in the wizard: to the keyring, or to the vault (now open)."""
        if self._pending_key is None:
            return
        from agent.providers.keys import VAULT, set_api_key

        (kind, key), self._pending_key = self._pending_key, None
        store = self.state.store if self.state.vault_is_open() else None

        def stored(place: str) -> None:
            where = "Veil's encrypted vault" if place == VAULT else "the system keyring"
            self.notify("Veil: API key kept", f"Your {kind} API key is kept in {where}.")

        def failed(exc: BaseException) -> None:
            self._pending_key = (kind, key)  # kept in memory: tried again when the vault opens
            self.notify("Veil: API key not kept yet", f"{exc}", QSystemTrayIcon.MessageIcon.Warning)

        self.background.submit(lambda: set_api_key(kind, key, vault=store), stored, failed)

    def quit(self) -> None:
        self.shutdown()
        # exit(), not quit(): Qt's quit() first asks every window to close, and the chat
        # window only hides itself (the app lives in the tray), which cancels the quit.
        self.app.exit(0)

    def shutdown(self) -> None:
        if self._shut_down:
            return
        self._shut_down = True
        for dialog in (self.wizard, self.unlock_dialog):
            if dialog is not None:
                dialog.close()
        self.hotkeys.stop()
        if self.chat is not None and self.chat.reply is not None:
            self.chat.reply.cancel()
        if self.tray is not None:
            self.tray.hide()
        self.state.shutdown()


# -- single instance ------------------------------------------------------------------------------------------------
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


# -- entry point ----------------------------------------------------------------------------------------------------
def parse_args(args: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="veil", description="Veil desktop app")
    parser.add_argument("--tray", "--minimized", action="store_true", help="start in the tray only")
    parser.add_argument("--chat", action="store_true", help="open the chat window at start")
    known, _ = parser.parse_known_args(list(args))  # Qt's own options (-style...) pass through
    return known


def qt_platform_for(environ: Mapping[str, str]) -> str:
    """The Qt platform to ask for ('' = Qt's choice). Wayland hands the clipboard only to
    the window that has the keyboard focus, and Veil lives in the tray: where XWayland runs
    (DISPLAY is set), the app uses it, whose clipboard the compositor serves to X11 clients
    whatever has the focus (as clipboard managers such as CopyQ do). QT_QPA_PLATFORM, when
    set, is the user's choice and wins."""
    if environ.get("QT_QPA_PLATFORM"):
        return ""
    wayland = environ.get("XDG_SESSION_TYPE", "").lower() == "wayland" or bool(environ.get("WAYLAND_DISPLAY"))
    return "xcb" if wayland and environ.get("DISPLAY") else ""


def run_app(args: Sequence[str] = ()) -> int:
    global _STARTED
    _STARTED = time.perf_counter()
    level = os.environ.get("VEIL_LOG", "warning").upper()
    logging.basicConfig(level=getattr(logging, level, logging.WARNING), format="%(name)s: %(message)s")
    options = parse_args(args)
    if (sys.platform.startswith("linux") and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")
            and not os.environ.get("QT_QPA_PLATFORM")):
        # Qt would abort with "could not connect to display"; say what to do instead.
        print("veil: no graphical session here (neither DISPLAY nor WAYLAND_DISPLAY is set). The desktop app "
              "needs one; in a terminal use `veil chat`, `veil sanitize` / `veil restore`, or `veil serve`.",
              file=sys.stderr)
        return 2
    platform = qt_platform_for(os.environ)
    if platform:
        log.info("Wayland session: the app runs through XWayland (%s) to read the clipboard in the background",
                 platform)
        os.environ["QT_QPA_PLATFORM"] = platform
    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
    app = QApplication.instance() or QApplication([sys.argv[0], *[a for a in args if a not in ("--tray", "--minimized", "--chat")]])
    app.setApplicationName("Veil")
    app.setApplicationDisplayName("Veil")
    app.setDesktopFileName("veil")
    app.setWindowIcon(icons.icon())
    app.setQuitOnLastWindowClosed(False)

    holder: dict[str, VeilApp] = {}
    def request(line: str, report: Report) -> None:
        if "app" in holder:
            holder["app"].handle_request(line, report)
        else:
            report(False, "Veil", "Veil is starting; try again in a moment.")

    server = claim_instance(request)
    if server is None:
        log.info("Veil is already running: asked it to open its window")
        return 0

    problem = ""
    try:
        settings = load_settings()
    except (ConfigError, OSError) as exc:
        problem = f"{exc}. Veil runs with the default settings; your file was left as it is."
        settings = default_settings()
        settings.first_run_done = True  # never overwrite a broken file through the wizard
    veil = VeilApp(app, settings, settings_problem=problem)
    holder["app"] = veil
    _quit_on_signals(app)
    veil.start(open_chat=options.chat)
    if veil.tray is None:
        app.setQuitOnLastWindowClosed(True)
    code = app.exec()
    veil.shutdown()
    server.close()
    return code


def _quit_on_signals(app: QApplication) -> None:
    """Ctrl-C in a terminal and SIGTERM (logout, kill) close Veil cleanly: the vault is
    checkpointed and the engine process told to stop. Python only runs signal handlers
    between bytecodes, so a timer wakes the interpreter regularly."""
    import signal

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: app.exit(0))  # see VeilApp.quit
    wake = QTimer(app)
    wake.timeout.connect(lambda: None)
    wake.start(300)


def show_fatal(text: str) -> None:  # pragma: no cover - last resort before a crash
    QMessageBox.critical(None, "Veil", text)
