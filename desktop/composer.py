"""The bottom of the chat window: the composer, the preview of exactly what will be sent
(stand-ins highlighted, the real value on hover, click to keep or replace), the residual
risk, warnings, where the next message goes, and Send / Cancel.

It renders a draft (agent.engine.interface.DryRun) it is given and emits what the user
does; the preview's sequencing and the sending live in the window and its ChatSession.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.chat_widgets import preview_marks
from desktop.colors import risk_color
from desktop.file_drop import install_file_drop
from desktop.textview import HighlightView


class ComposerPane(QWidget):
    send_clicked = Signal()
    cancel_clicked = Signal()
    details_toggled = Signal(bool)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        self.composer = QPlainTextEdit()
        self.composer.setObjectName("composer")
        self.composer.setPlaceholderText("Type a message… (Ctrl+Enter sends)")
        self.composer.setTabChangesFocus(True)
        layout.addWidget(self.composer, 2)
        head = QHBoxLayout()
        head.addWidget(QLabel("<b>What will be sent</b>"))
        self.preview_status = QLabel()
        self.preview_status.setEnabled(False)
        head.addWidget(self.preview_status)
        head.addStretch(1)
        self.risk_label = QLabel()
        self.risk_label.setObjectName("risk")
        head.addWidget(self.risk_label)
        self.copy_sent_button = self._tool("Copy sanitized", "Copy the text exactly as it will be sent")
        self.copy_sent_button.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.preview.text()))
        head.addWidget(self.copy_sent_button)
        self.details_button = self._tool("Details", "Show or hide everything detected, with keep/replace per value")
        self.details_button.setCheckable(True)
        self.details_button.setChecked(True)
        self.details_button.toggled.connect(self.details_toggled.emit)
        head.addWidget(self.details_button)
        layout.addLayout(head)
        self.preview = HighlightView(clickable=True)
        self.preview.setObjectName("preview")
        self.preview.setPlaceholderText("The sanitized text appears here as you type.")
        layout.addWidget(self.preview, 2)
        self.warning_label = QLabel()
        self.warning_label.setWordWrap(True)
        self.warning_label.setStyleSheet("color: #b36200;")
        self.warning_label.setVisible(False)
        layout.addWidget(self.warning_label)
        buttons = QHBoxLayout()
        hint = QLabel("Hover a highlighted value to see the real one; click it to keep or replace it.")
        hint.setEnabled(False)
        hint.setWordWrap(True)  # the window may be narrow: the side panel needs room too
        buttons.addWidget(hint, 1)
        self.destination_label = QLabel()
        self.destination_label.setObjectName("destination")
        buttons.addWidget(self.destination_label)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the answer (Esc)")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_clicked.emit)
        buttons.addWidget(self.cancel_button)
        self.send_button = QPushButton("Send")
        self.send_button.setObjectName("send")
        self.send_button.setToolTip("Send the sanitized text (Ctrl+Enter)")
        self.send_button.setDefault(True)
        self.send_button.clicked.connect(self.send_clicked.emit)
        buttons.addWidget(self.send_button)
        layout.addLayout(buttons)
        # A file dropped on the composer goes into the message as text (desktop/file_drop.py).
        self.file_drop = install_file_drop(self.composer, on_error=self.show_drop_error)

    def show_drop_error(self, message: str) -> None:
        self.warning_label.setText("⚠ " + message)
        self.warning_label.setVisible(True)

    @staticmethod
    def _tool(text: str, tip: str) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.setAutoRaise(True)
        return button

    def show_draft(self, draft) -> None:
        """A DryRun's sanitized text with its marks, counts, residual risk and warnings."""
        result = draft.result
        self.preview.set_content(result.sanitized, preview_marks(result))
        replaced = sum(result.counts_by_label().values())
        kept = len(result.entities) - replaced
        self.preview_status.setText(f"{replaced} replaced, {kept} kept" if result.entities else "nothing personal found")
        risk = result.risk
        color = risk_color(risk.level, self.palette()).name()
        self.risk_label.setText(f"Residual risk: <b style='color:{color}'>{risk.level}</b>"
                                + (f" ({risk.total:g})" if risk.total else ""))
        self.risk_label.setToolTip(
            "What is sent as it is, weighted by how identifying it is:<br>"
            + "<br>".join(f"{html.escape(t, quote=False)} ({label.value}, {w:g})" for t, label, w in risk.items[:20])
            if risk.items else "Nothing identifying is sent as it is."
        )
        self.warning_label.setText("\n".join("⚠ " + w for w in result.warnings))
        self.warning_label.setVisible(bool(result.warnings))

    def clear_draft(self) -> None:
        self.preview.clear_content()
        for label in (self.risk_label, self.preview_status, self.warning_label):
            label.clear()
        self.risk_label.setToolTip("")
        self.warning_label.setVisible(False)

    def set_sending(self, sending: bool) -> None:
        self.send_button.setEnabled(not sending)
        self.cancel_button.setEnabled(sending)

    def set_destination(self, text: str, tip: str) -> None:
        self.destination_label.setText(text)
        self.destination_label.setToolTip(tip)
        self.send_button.setToolTip(f"Send the sanitized text (Ctrl+Enter) {text}")
