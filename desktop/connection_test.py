"""Test connection, shared by the first-run wizard and Settings › Provider: asks the
provider for its model list with the values in the form (the typed key, else the stored
one), in a worker, shows the outcome in words and fills the model box from the list.

It remembers the endpoint of its last test and whether it failed, so a form can warn
before saving a URL whose test has just failed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget

from agent.config import Settings
from desktop.tasks import Background

OK_STYLE, FAILED_STYLE = "color: #2e7d32;", "color: #c62828;"


@dataclass(frozen=True, slots=True)
class Endpoint:
    """What a test was about: the same kind and URL is the same endpoint."""

    kind: str
    base_url: str


@dataclass(frozen=True, slots=True)
class TestOutcome:
    endpoint: Endpoint
    ok: bool
    message: str  # "Connected: 2 models available." / the provider's error in words


class ConnectionTest(QWidget):
    """A "Test connection" button with its outcome next to it.

    `values()` returns the settings to test (the form's values) and the typed key (None:
    the stored one); `vault()` the open vault or None (where keys live without a keyring)."""

    tested = Signal(object)  # TestOutcome

    def __init__(self, background: Background, values: Callable[[], tuple[Settings, str | None]],
                 model_box: QComboBox, vault: Callable[[], Any] = lambda: None):
        super().__init__()
        self.background = background
        self.values = values
        self.model_box = model_box
        self.vault = vault
        self.last: TestOutcome | None = None
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.button = QPushButton("&Test connection")
        self.button.setObjectName("test-connection")
        self.button.clicked.connect(self.run)
        row.addWidget(self.button)
        self.result = QLabel()
        self.result.setObjectName("test-result")
        self.result.setWordWrap(True)
        row.addWidget(self.result, 1)

    def run(self) -> None:
        from agent.providers import provider_from_settings

        settings, typed = self.values()
        endpoint = Endpoint(settings.provider.kind, settings.provider.base_url)
        vault = self.vault()
        self.result.setStyleSheet("")
        self.result.setText("connecting…")
        self.button.setEnabled(False)

        def work() -> list[str]:
            provider = provider_from_settings(settings, api_key=typed, vault=vault)
            try:
                return list(provider.list_models())
            finally:
                provider.close()

        def done(models: list[str]) -> None:
            count = f"{len(models)} model{'s' if len(models) != 1 else ''}"
            self._finish(TestOutcome(endpoint, True, f"Connected: {count} available."))
            current = self.model_box.currentText()
            self.model_box.clear()
            self.model_box.addItems(models)
            self.model_box.setCurrentText(current or (models[0] if models else ""))

        def failed(exc: BaseException) -> None:
            self._finish(TestOutcome(endpoint, False, f"Failed: {exc}"))

        self.background.submit(work, done, failed)

    def _finish(self, outcome: TestOutcome) -> None:
        self.last = outcome
        self.button.setEnabled(True)
        self.result.setStyleSheet(OK_STYLE if outcome.ok else FAILED_STYLE)
        self.result.setText(outcome.message)
        self.tested.emit(outcome)

    def failed_for(self, kind: str, base_url: str) -> TestOutcome | None:
        """The last outcome when it was a failure for this very endpoint, else None."""
        last = self.last
        if last is not None and not last.ok and last.endpoint == Endpoint(kind, base_url):
            return last
        return None
