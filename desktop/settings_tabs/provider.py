"""Settings › Provider: which LLM answers (kind, base URL, model), its API key, the
generation parameters, and Test connection (the provider's model list, fetched with the
values in the form). The key goes to agent.providers.keys when Apply is pressed, never
into the config file; the key state and the test run in workers."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from agent.config import Settings
from agent.providers import DEFAULT_BASE_URLS
from desktop.connection_test import ConnectionTest
from desktop.provider_picker import add_provider_kinds
from desktop.settings_tabs.common import note
from desktop.tasks import Background


class ProviderTab(QWidget):
    def __init__(self, settings: Settings, background: Background, show_error: Callable[[str], None],
                 vault: Callable[[], Any] = lambda: None):
        """`vault()`: the open vault or None (it keeps the keys where there is no keyring)."""
        super().__init__()
        self.settings = settings
        self.vault = vault
        self.background = background
        self.show_error = show_error
        form = QFormLayout(self)
        p = settings.provider
        self.kind_combo = QComboBox()
        self.kind_combo.setObjectName("kind")
        add_provider_kinds(self.kind_combo)
        self.kind_combo.setCurrentIndex(max(0, self.kind_combo.findData(p.kind)))
        self.kind_combo.currentIndexChanged.connect(self._kind_changed)
        form.addRow("&Type:", self.kind_combo)
        self.base_url_edit = QLineEdit(p.base_url)
        self.base_url_edit.setObjectName("base_url")
        form.addRow("&Base URL:", self.base_url_edit)
        self.model_edit = QComboBox()
        self.model_edit.setObjectName("model")
        self.model_edit.setEditable(True)
        self.model_edit.setCurrentText(p.model)
        form.addRow("&Model:", self.model_edit)
        key_row = QHBoxLayout()
        self.api_key_edit = QLineEdit()
        self.api_key_edit.setObjectName("api_key")
        self.api_key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        key_row.addWidget(self.api_key_edit, 1)
        self.key_status = QLabel()
        self.key_status.setEnabled(False)
        key_row.addWidget(self.key_status)
        form.addRow("API key:", key_row)
        self.temperature = QDoubleSpinBox()
        self.temperature.setRange(0.0, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setValue(p.temperature)
        form.addRow("Temperature:", self.temperature)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(16, 200_000)
        self.max_tokens.setValue(p.max_tokens)
        form.addRow("Max answer tokens:", self.max_tokens)
        self.test = ConnectionTest(background, self._test_values, self.model_edit, vault)
        self.test_button, self.test_result = self.test.button, self.test.result
        form.addRow(self.test)
        from agent.providers.keys import key_home

        self.key_note = note("Only sanitized text is sent to the provider. " + key_home().describe())
        self.key_note.setObjectName("key-home")
        form.addRow(self.key_note)
        self._kind_changed()

    def _kind_changed(self, *_: object) -> None:
        kind = self.kind_combo.currentData()
        remote = kind != "local"
        for widget in (self.base_url_edit, self.api_key_edit):
            widget.setEnabled(remote)
        self.model_edit.setEnabled(remote)
        self.base_url_edit.setPlaceholderText(DEFAULT_BASE_URLS.get(kind, "") or "(not used)")
        self.api_key_edit.setPlaceholderText("stored key unchanged" if remote else "not needed")
        # Each kind remembers its own URL, model and values (agent.config ProviderSettings).
        profile = self.settings.provider.profile(kind)
        self.base_url_edit.setText(profile.base_url)
        self.model_edit.setCurrentText(profile.model)
        self.temperature.setValue(profile.temperature)
        self.max_tokens.setValue(profile.max_tokens)
        self.key_status.setText("")
        if remote:
            self._refresh_key_state(kind)

    def collect(self, settings: Settings) -> None:
        p = settings.provider
        p.kind = self.kind_combo.currentData()
        p.base_url = self.base_url_edit.text().strip() if p.kind != "local" else ""
        p.model = self.model_edit.currentText().strip() if p.kind != "local" else ""
        p.temperature = float(self.temperature.value())
        p.max_tokens = int(self.max_tokens.value())

    def _test_values(self) -> tuple[Settings, str | None]:
        settings = copy.deepcopy(self.settings)
        self.collect(settings)
        return settings, self.api_key_edit.text().strip() or None

    def test_connection(self) -> None:
        """list_models with the values in the dialog (typed key, else the stored one)."""
        self.test.run()

    def store_typed_key(self, kind: str) -> None:
        """Apply: the key typed in the form is kept (keyring, else the vault) in a worker."""
        key = self.api_key_edit.text().strip()
        if not key or kind == "local":
            return
        from agent.providers.keys import VAULT, set_api_key

        vault = self.vault()

        def stored(place: str) -> None:
            self.api_key_edit.clear()
            self.key_status.setText("key kept in the vault" if place == VAULT else "key kept in the keyring")

        self.background.submit(lambda: set_api_key(kind, key, vault=vault), stored,
                               lambda exc: self.show_error(f"The API key was not kept: {exc}"))

    def _refresh_key_state(self, kind: str) -> None:
        vault = self.vault()
        self.background.submit(lambda: _key_state(kind, vault), self.key_status.setText)


def _key_state(kind: str, vault: Any) -> str:
    from agent.providers.keys import KeyStoreError, get_api_key

    try:
        return "a key is stored" if get_api_key(kind, vault) is not None else "no key stored"
    except KeyStoreError as exc:
        return str(exc)
