"""The chat window's provider and model picker, and the line that says where the next
message goes.

Picking a kind switches to that kind's remembered profile (agent.providers.choice:
another kind's base URL and model are never rewritten); a model picked or typed belongs
to the current kind only. Every change is saved through AppState.apply_settings, so the
tray, the settings dialog and the next send all see the same choice. The picker renders
the settings and turns the user's picks into new settings; it holds no provider state.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QToolButton, QWidget

from agent.config import ConfigError
from agent.providers.choice import choose_provider, destination
from agent.providers.kinds import KINDS
from desktop.state import AppState


def add_provider_kinds(combo: QComboBox) -> None:
    """Every provider kind as an entry (its name; its longer text as the tooltip), the kind as data."""
    for each in KINDS:
        combo.addItem(each.name, each.kind)
        combo.setItemData(combo.count() - 1, each.detail, Qt.ItemDataRole.ToolTipRole)


class ProviderPicker(QWidget):
    """Provider kind and model combos, plus a button that asks the provider for its models."""

    failed = Signal(str)  # a message for the window's error banner
    status = Signal(str)  # a short status for the window's status line

    def __init__(self, state: AppState, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("Provider:"))
        self.provider_combo = QComboBox()
        self.provider_combo.setObjectName("provider")
        add_provider_kinds(self.provider_combo)
        layout.addWidget(self.provider_combo)
        layout.addWidget(QLabel("Model:"))
        self.model_combo = QComboBox()
        self.model_combo.setObjectName("model")
        self.model_combo.setEditable(True)
        self.model_combo.setMinimumContentsLength(18)
        self.model_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        layout.addWidget(self.model_combo)
        self.refresh_models_button = QToolButton()
        self.refresh_models_button.setText("⟳")
        self.refresh_models_button.setToolTip("Ask the provider which models it has")
        self.refresh_models_button.clicked.connect(self.refresh_models)
        layout.addWidget(self.refresh_models_button)
        self._shown_kind = ""
        self.sync()
        self.provider_combo.activated.connect(self._kind_picked)
        self.model_combo.activated.connect(self._model_picked)
        self.model_combo.lineEdit().editingFinished.connect(self._model_picked)
        state.settings_changed.connect(self.sync)

    def picked(self) -> tuple[str, str]:
        """(kind, model) as shown."""
        return self.provider_combo.currentData(), self.model_combo.currentText().strip()

    def sync(self) -> None:
        """Show the saved choice (after a pick here, or a change in Settings)."""
        settings = self.state.settings
        kind = settings.provider.kind
        index = self.provider_combo.findData(kind)
        if index >= 0:
            self.provider_combo.setCurrentIndex(index)
        if kind != self._shown_kind:
            self.model_combo.clear()  # the listed models belonged to the other kind
            self._shown_kind = kind
        model = destination(settings).model
        if model and self.model_combo.findText(model) < 0:
            self.model_combo.addItem(model)
        self.model_combo.setCurrentText(model)

    def commit(self) -> None:
        """Save a model typed but not confirmed yet (Send calls this first)."""
        self._model_picked()

    def _kind_picked(self, *_: object) -> None:
        kind = self.provider_combo.currentData()
        if kind != self.state.settings.provider.kind:
            self._apply(lambda settings: choose_provider(settings, kind))

    def _model_picked(self, *_: object) -> None:
        kind, model = self.picked()
        if kind != self.state.settings.provider.kind:
            return  # the kind's own pick is on its way; this text belonged to the old kind
        if model != destination(self.state.settings).model and (model or kind != "local"):
            self._apply(lambda settings: choose_provider(settings, model=model))

    def _apply(self, change: Callable) -> None:
        try:
            settings = change(self.state.settings)
            self.state.apply_settings(settings)
        except (ConfigError, OSError, ValueError) as exc:  # refused or not writable: said, nothing lost
            self.failed.emit(f"Cannot use this provider: {exc}")
            self.sync()

    def refresh_models(self) -> None:
        kind, model = self.picked()
        state = self.state

        def fetch():
            sender = state.make_sender(kind, model or None)
            try:
                return sender.provider.list_models()
            finally:
                sender.provider.close()

        def done(models) -> None:
            current = self.model_combo.currentText()
            self.model_combo.clear()
            self.model_combo.addItems(list(models))
            self.model_combo.setCurrentText(current or (models[0] if models else ""))
            self.status.emit(f"{len(models)} models available")

        self.status.emit("asking for models…")
        self.state.background.submit(fetch, done, lambda exc: self.failed.emit(f"Could not list models: {exc}"))


def destination_text(state: AppState) -> tuple[str, str]:
    """(label, tooltip) saying where the next message goes."""
    where = destination(state.settings)
    if where.leaves_machine:
        tip = (f"Your next message goes to {html.escape(where.provider)} at <b>{html.escape(where.host)}</b>"
               f" ({html.escape(where.model or 'its default model')}). Only the sanitized text leaves this computer.")
    else:
        tip = (f"The local model ({html.escape(where.model or 'a model file')}) answers: "
               "nothing leaves this computer.")
    return where.describe(), tip
