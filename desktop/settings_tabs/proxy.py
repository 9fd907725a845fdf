"""Settings › Local proxy (veil serve, run inside the app from the tray menu): the port on
127.0.0.1, whether it runs, and the bearer token its clients need (kept in the vault)."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from agent.config import Settings
from desktop.settings_tabs.common import note, status_label
from desktop.state import AppState


class ProxyTab(QWidget):
    def __init__(self, state: AppState, settings: Settings):
        super().__init__()
        self.state = state
        form = QFormLayout(self)
        form.addRow(note("Any tool that speaks the OpenAI API can use Veil as its endpoint: requests are "
                         "sanitized before they reach your provider and answers come back restored. Turn it "
                         "on from the tray menu (Local proxy)."))
        self.proxy_port = QSpinBox()
        self.proxy_port.setObjectName("proxy_port")
        self.proxy_port.setRange(1024, 65535)
        self.proxy_port.setValue(settings.server.port)
        form.addRow("Port on 127.0.0.1:", self.proxy_port)
        self.proxy_status = status_label("proxy-status", wrap=False)
        form.addRow("Status:", self.proxy_status)
        self.proxy_token_field = QLineEdit()
        self.proxy_token_field.setObjectName("proxy_token")
        self.proxy_token_field.setReadOnly(True)
        self.proxy_token_field.setEchoMode(QLineEdit.EchoMode.Password)
        row = QHBoxLayout()
        row.addWidget(self.proxy_token_field, 1)
        show = QPushButton("Show")
        show.setCheckable(True)
        show.toggled.connect(lambda on: self.proxy_token_field.setEchoMode(
            QLineEdit.EchoMode.Normal if on else QLineEdit.EchoMode.Password))
        copy_button = QPushButton("Copy")
        copy_button.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.proxy_token_field.text()))
        rotate = QPushButton("New token")
        rotate.setToolTip("Clients using the old token get 401 until they use the new one.")
        rotate.clicked.connect(lambda: self.refresh(rotate=True))
        for button in (show, copy_button, rotate):
            row.addWidget(button)
        form.addRow("Bearer token:", row)
        self.refresh()

    def refresh(self, *, rotate: bool = False) -> None:
        proxy = self.state.proxy
        self.proxy_status.setText(
            f"on at {proxy.url}" if proxy is not None else "off (turn it on from the tray menu)"
        )
        token = self.state.proxy_token(rotate=rotate)
        self.proxy_token_field.setText(token or "")
        self.proxy_token_field.setPlaceholderText("" if token else "unlock the vault to see it")

    def collect(self, settings: Settings) -> None:
        settings.server.port = int(self.proxy_port.value())
