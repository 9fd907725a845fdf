"""Settings › Provider: which LLM answers (kind, base URL, model), its API key, the
generation parameters, and Test connection (the provider's model list, fetched with the
values in the form). The key goes to agent.providers.keys when Apply is pressed, never
into the config file; the key state and the test run in workers."""

from __future__ import annotations

import copy
from collections.abc import Callable

from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from agent.config import Settings
from agent.providers import DEFAULT_BASE_URLS
from desktop.settings_tabs.common import note
from desktop.tasks import Background
from desktop.wizard import PROVIDER_CHOICES


class ProviderTab(QWidget):
    def __init__(self, settings: Settings, background: Background, show_error: Callable[[str], None]):
        super().__init__()
        self.settings = settings
        self.background = background
        self.show_error = show_error
        form = QFormLayout(self)
        p = settings.provider
        self.kind_combo = QComboBox()
        self.kind_combo.setObjectName("kind")
        for kind, title, _ in PROVIDER_CHOICES:
            self.kind_combo.addItem(title, kind)
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
        test_row = QHBoxLayout()
        self.test_button = QPushButton("&Test connection")
        self.test_button.clicked.connect(self.test_connection)
        test_row.addWidget(self.test_button)
        self.test_result = QLabel()
        self.test_result.setObjectName("test-result")
        self.test_result.setWordWrap(True)
        test_row.addWidget(self.test_result, 1)
        form.addRow(test_row)
        form.addRow(note("Only sanitized text is sent to the provider. API keys are kept in the system keyring."))
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
            self.background.submit(lambda: _key_state(kind), lambda text: self.key_status.setText(text))

    def collect(self, settings: Settings) -> None:
        p = settings.provider
        p.kind = self.kind_combo.currentData()
        p.base_url = self.base_url_edit.text().strip() if p.kind != "local" else ""
        p.model = self.model_edit.currentText().strip() if p.kind != "local" else ""
        p.temperature = float(self.temperature.value())
        p.max_tokens = int(self.max_tokens.value())

    def test_connection(self) -> None:
        """list_models with the values in the dialog (typed key, else the stored one)."""
        from agent.providers import provider_from_settings

        settings = copy.deepcopy(self.settings)
        self.collect(settings)
        typed = self.api_key_edit.text().strip() or None
        self.test_result.setText("connecting…")
        self.test_button.setEnabled(False)

        def work():
            provider = provider_from_settings(settings, api_key=typed)
            try:
                return provider.list_models()
            finally:
                provider.close()

        def done(models) -> None:
            self.test_button.setEnabled(True)
            self.test_result.setStyleSheet("color: #2e7d32;")
            self.test_result.setText(f"Connected: {len(models)} model{'s' if len(models) != 1 else ''} available.")
            current = self.model_edit.currentText()
            self.model_edit.clear()
            self.model_edit.addItems(list(models))
            self.model_edit.setCurrentText(current or (models[0] if models else ""))

        def failed(exc: BaseException) -> None:
            self.test_button.setEnabled(True)
            self.test_result.setStyleSheet("color: #c62828;")
            self.test_result.setText(f"Failed: {exc}")

        self.background.submit(work, done, failed)

    def store_typed_key(self, kind: str) -> None:
        """Apply: the key typed in the form goes to the key store (in a worker)."""
        key = self.api_key_edit.text().strip()
        if not key or kind == "local":
            return
        from agent.providers.keys import set_api_key

        def stored(_: object) -> None:
            self.api_key_edit.clear()
            self.key_status.setText("key stored in the keyring")

        self.background.submit(lambda: set_api_key(kind, key), stored,
                               lambda exc: self.show_error(f"The API key was not stored: {exc}"))


def _key_state(kind: str) -> str:
    from agent.providers.keys import get_api_key

    try:
        return "a key is stored" if get_api_key(kind) is not None else "no key stored"
    except Exception as exc:
        return f"keyring: {exc}"
