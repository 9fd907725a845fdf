"""Settings: the dialog that holds the tabs (desktop/settings_tabs/: provider, protection,
hotkeys, local model, vault, local proxy) and the OK / Apply / Cancel buttons.

The mouse wheel changes a dropdown or number box only when it has the focus; saving a
provider URL whose Test connection has just failed asks first.

The dialog edits a copy of the Settings; OK/Apply collects every tab into a fresh copy
and hands it to AppState.apply_settings (validated, saved with
agent.config.save_settings, engine reloaded in a worker). Keys go to agent.providers.keys,
never into the config file. A tab that cannot accept a value raises ConfigError and the
message is shown under the tabs; nothing is saved then.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import fields

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTabWidget, QVBoxLayout, QWidget

from agent.config import ConfigError, Settings
from desktop import icons
from desktop.dialogs import confirm
from desktop.settings_tabs.common import guard_wheel
from desktop.settings_tabs.hotkeys import HotkeysTab
from desktop.settings_tabs.local_model import LocalModelTab
from desktop.settings_tabs.protection import ProtectionTab
from desktop.settings_tabs.provider import ProviderTab
from desktop.settings_tabs.proxy import ProxyTab
from desktop.settings_tabs.vault import VaultTab
from desktop.state import AppState

log = logging.getLogger("veil.desktop")


class SettingsDialog(QDialog):
    applied = Signal()

    def __init__(self, state: AppState, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self.settings: Settings = copy.deepcopy(state.settings)  # shared by the tabs
        self.setWindowTitle("Veil — Settings")
        self.setWindowIcon(icons.icon())
        self.resize(860, 640)
        layout = QVBoxLayout(self)
        self.provider_tab = ProviderTab(self.settings, state.background, self.show_error,
                                        lambda: state.store if state.vault_is_open() else None)
        self.protection_tab = ProtectionTab(self.settings)
        self.hotkeys_tab = HotkeysTab(self.settings)
        self.model_tab = LocalModelTab(self.settings, state.background)
        self.vault_tab = VaultTab(state, self.settings)
        self.proxy_tab = ProxyTab(state, self.settings)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.provider_tab, "&Provider")
        self.tabs.addTab(self.protection_tab, "P&rotection")
        self.tabs.addTab(self.hotkeys_tab, "&Hotkeys")
        self.tabs.addTab(self.model_tab, "&Local model")
        self.tabs.addTab(self.vault_tab, "&Vault")
        self.tabs.addTab(self.proxy_tab, "Local pro&xy")
        guard_wheel(self.tabs)
        layout.addWidget(self.tabs)
        self.error_label = QLabel()
        self.error_label.setObjectName("settings-error")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #ffffff; background: #b3261e; padding: 4px; border-radius: 3px;")
        self.error_label.setVisible(False)
        layout.addWidget(self.error_label)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Apply
            | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._ok)
        self.buttons.rejected.connect(self.reject)
        self.buttons.button(QDialogButtonBox.StandardButton.Apply).clicked.connect(self.apply)
        layout.addWidget(self.buttons)

    # -- what the app calls --------------------------------------------------------------------------------------
    def set_hotkey_status(self, text: str) -> None:
        self.hotkeys_tab.set_status(text)

    def refresh_proxy(self) -> None:
        self.proxy_tab.refresh()

    def refresh_vault_status(self) -> None:
        self.vault_tab.refresh_status()

    # -- apply ---------------------------------------------------------------------------------------------------
    def collect(self) -> Settings:
        settings = copy.deepcopy(self.state.settings)
        for tab in (self.provider_tab, self.protection_tab, self.hotkeys_tab, self.model_tab, self.vault_tab,
                    self.proxy_tab):
            tab.collect(settings)
        settings.validate()
        return settings

    def apply(self) -> bool:
        try:
            settings = self.collect()
        except (ConfigError, ValueError) as exc:
            self.show_error(str(exc))
            return False
        if not self._failed_endpoint_confirmed(settings):
            return False
        self.provider_tab.store_typed_key(settings.provider.kind)
        retention_changed = settings.vault.retention_days != self.state.settings.vault.retention_days
        try:
            self.state.apply_settings(settings, on_error=lambda exc: self.show_error(str(exc)))
        except (ConfigError, OSError, ValueError) as exc:
            self.show_error(str(exc))
            return False
        if retention_changed and settings.vault.retention_days > 0 and self.state.vault_is_open():
            store, days = self.state.store, settings.vault.retention_days
            self.state.background.submit(lambda: store.apply_retention(days),
                                         lambda _: self.state.conversations_changed.emit())
        for field in fields(Settings):  # the tabs keep comparing with what is now saved
            setattr(self.settings, field.name, copy.deepcopy(getattr(settings, field.name)))
        self.error_label.setVisible(False)
        self.applied.emit()
        return True

    def _failed_endpoint_confirmed(self, settings: Settings) -> bool:
        """A provider URL whose Test connection failed just now is saved only when the user
        says so (a server not started yet is a fair reason; a typo is the usual one)."""
        failed = self.provider_tab.test.failed_for(settings.provider.kind, settings.provider.base_url)
        if failed is None:
            return True
        where = settings.provider.base_url or "the provider's own endpoint"
        if confirm(self, "Save a connection that failed?",
                   f"Test connection to {where} failed just now:\n\n{failed.message}\n\n"
                   "Save these provider settings anyway? Messages will fail until it answers.",
                   "Save anyway", destructive=False):
            return True
        self.show_error("Not saved: the provider's test failed. Correct the URL (or the key) and test again, "
                        "or save anyway.")
        self.tabs.setCurrentWidget(self.provider_tab)
        return False

    def show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(True)

    def _ok(self) -> None:
        if self.apply():
            self.accept()

    def reject(self) -> None:
        self.model_tab.cancel_download()
        super().reject()
