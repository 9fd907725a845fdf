"""The first run, in order and one dialog at a time: the wizard (desktop/wizard.py); once
it is finished, the settings are saved and the vault is opened (its passphrase dialog
when there is no keyring); then the API key typed in the wizard is kept (keyring, else
the now open vault) and the chat window opens. Cancel saves nothing and creates no
vault: the next start asks again, and without a tray Veil quits.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog, QSystemTrayIcon

from agent.config import ConfigError
from agent.providers.kinds import provider_name
from desktop.dialogs import bring_to_front

if TYPE_CHECKING:
    from desktop.app_host import AppHost
    from desktop.wizard import FirstRunWizard

log = logging.getLogger("veil.desktop")


class FirstRun:
    def __init__(self, app: AppHost):
        self.app = app
        self.wizard: FirstRunWizard | None = None  # while it is open
        self.pending_key: tuple[str, str] | None = None  # (kind, key) typed in the wizard, not kept yet
        self.opening_vault = False  # the wizard is done; the vault is being opened

    def run(self) -> None:
        from desktop.wizard import FirstRunWizard, wizard_facts

        if self.wizard is not None:
            bring_to_front(self.wizard)
            return
        app = self.app
        wizard = FirstRunWizard(app.state.settings, app.background, **wizard_facts())
        self.wizard = wizard

        def finished(result: int) -> None:
            self.wizard = None
            wizard.deleteLater()
            if app.is_shut_down:
                return
            if result != QDialog.DialogCode.Accepted:
                self._cancelled()
                return
            settings = wizard.result_settings()
            key = wizard.api_key()
            try:
                app.state.apply_settings(settings)
            except (ConfigError, OSError) as exc:
                app.notify("Veil: settings not saved", str(exc), QSystemTrayIcon.MessageIcon.Warning)
            if key:
                self.pending_key = (settings.provider.kind, key)
            self.opening_vault = True
            app.state.open_vault(on_done=self._vault_open)

        wizard.finished.connect(finished)
        bring_to_front(wizard)

    def _cancelled(self) -> None:
        app = self.app
        if app.tray is None:
            # Nothing else of Veil is on screen: leave, having created nothing.
            log.info("first-run wizard cancelled without a tray: quitting")
            app.quit()
            return
        app.notify("Veil is not set up yet", "Nothing was saved. Open chat or Settings from the tray "
                   "to set Veil up; it also asks again at the next start.")

    def _vault_open(self) -> None:
        self.opening_vault = False
        self.store_pending_key()
        self.app.open_chat()

    def passphrase_cancelled(self) -> None:
        """The passphrase dialog after the wizard was closed: the chat opens anyway (it
        shows the vault as locked); the key waits in memory for the vault."""
        if not self.opening_vault:
            return
        self.opening_vault = False
        if self.pending_key is not None:
            self.app.notify("Veil: API key not kept yet", "It is kept once the vault is unlocked "
                            "(tray › Unlock vault); until then Veil holds it in memory only.")
        self.app.open_chat()

    def vault_opened(self) -> None:
        """The vault opened later (unlocked from the tray): a key still waiting goes in."""
        if self.pending_key is not None and not self.opening_vault:
            self.store_pending_key()

    def store_pending_key(self) -> None:
        """The key typed in the wizard: to the keyring, or to the vault (now open)."""
        if self.pending_key is None:
            return
        from agent.providers.keys import VAULT, set_api_key

        app = self.app
        (kind, key), self.pending_key = self.pending_key, None
        store = app.state.store if app.state.vault_is_open() else None

        def stored(place: str) -> None:
            where = "Veil's encrypted vault" if place == VAULT else "the system keyring"
            app.notify("Veil: API key kept", f"Your {provider_name(kind)} API key is kept in {where}.")

        def failed(exc: BaseException) -> None:
            self.pending_key = (kind, key)  # kept in memory: tried again when the vault opens
            app.notify("Veil: API key not kept yet", f"{exc}", QSystemTrayIcon.MessageIcon.Warning)

        app.background.submit(lambda: set_api_key(kind, key, vault=store), stored, failed)

    def close(self) -> None:
        if self.wizard is not None:
            self.wizard.close()
