"""Settings › Vault: where the vault is and what it holds, retention and auto-lock, and
the lock / change passphrase / wipe actions (each in a worker, with its outcome in words)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from agent.config import Settings
from agent.sizes import human_size
from desktop.dialogs import PassphraseDialog, confirm
from desktop.settings_tabs.common import button_row, status_label
from desktop.state import AppState


class VaultTab(QWidget):
    def __init__(self, state: AppState, settings: Settings):
        super().__init__()
        self.state = state
        self.background = state.background
        layout = QVBoxLayout(self)
        self.vault_status = status_label("vault-status", "…")
        layout.addWidget(self.vault_status)
        form = QFormLayout()
        self.retention = QSpinBox()
        self.retention.setObjectName("retention_days")
        self.retention.setRange(0, 3650)
        self.retention.setSpecialValueText("keep everything")
        self.retention.setSuffix(" days")
        self.retention.setValue(settings.vault.retention_days)
        form.addRow("Delete conversations older than:", self.retention)
        self.auto_lock = QSpinBox()
        self.auto_lock.setRange(0, 24 * 60)
        self.auto_lock.setSpecialValueText("never")
        self.auto_lock.setSuffix(" minutes idle")
        self.auto_lock.setValue(settings.vault.auto_lock_minutes)
        form.addRow("Lock automatically after:", self.auto_lock)
        layout.addLayout(form)
        self.lock_button = QPushButton("&Lock now")
        self.lock_button.clicked.connect(self._lock)
        self.passphrase_button = QPushButton("Change &passphrase…")
        self.passphrase_button.clicked.connect(lambda: self.change_passphrase())
        self.wipe_button = QPushButton("&Wipe everything…")
        self.wipe_button.setObjectName("wipe")
        self.wipe_button.clicked.connect(lambda: self.wipe())
        layout.addLayout(button_row(self.lock_button, self.passphrase_button, self.wipe_button))
        self.vault_message = status_label("vault-message")
        layout.addWidget(self.vault_message)
        layout.addStretch(1)
        self.refresh_status()

    def refresh_status(self) -> None:
        if not self.state.vault_is_open():
            self.vault_status.setText(f"The vault is {self.state.vault_phase.replace('-', ' ')}.")
            return
        store = self.state.store

        def show(status) -> None:
            mode = "a random key in the system keyring" if status.mode == "keyring" else "your passphrase"
            self.vault_status.setText(
                f"<b>{status.path}</b><br>Encrypted with {mode}. {status.conversations} conversations, "
                f"{status.messages} messages, {status.entities} map entries, {human_size(status.size_bytes)}."
            )

        self.background.submit(store.status, show, lambda exc: self.vault_status.setText(f"Vault: {exc}"))

    def _lock(self) -> None:
        self.state.lock_vault()
        self.vault_message.setText("Locked. Veil asks to unlock it when it is needed.")

    def change_passphrase(self, passphrase: str | None = None) -> None:
        if not self.state.vault_is_open():
            self.vault_message.setText("Unlock the vault first.")
            return
        if passphrase is None:
            dialog = PassphraseDialog(self, new=True, intro="Choose a new passphrase for the vault. "
                                      "Everything is re-encrypted; nothing is lost.")
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return
            passphrase = dialog.value()
        store = self.state.store
        self.vault_message.setText("Re-encrypting…")
        self.background.submit(
            lambda: store.change_key("passphrase", passphrase=passphrase),
            lambda _: (self.vault_message.setText("The vault now uses the new passphrase."), self.refresh_status()),
            lambda exc: self.vault_message.setText(f"Not changed: {exc}"),
        )

    def wipe(self, *, confirmed: bool = False) -> None:
        if not self.state.vault_is_open():
            self.vault_message.setText("Unlock the vault first.")
            return
        if not confirmed and not confirm(
            self, "Wipe the vault",
            "Delete every conversation, message, map of real values and the audit log? "
            "This cannot be undone.", "Wipe everything",
        ):
            return
        store = self.state.store

        def done(_: object) -> None:
            self.vault_message.setText("Wiped: the vault is empty.")
            self.refresh_status()
            self.state.conversations_changed.emit()

        self.background.submit(store.wipe, done, lambda exc: self.vault_message.setText(f"Not wiped: {exc}"))

    def collect(self, settings: Settings) -> None:
        settings.vault.retention_days = int(self.retention.value())
        settings.vault.auto_lock_minutes = int(self.auto_lock.value())
