"""Settings › Hotkeys: whether the global clipboard hotkeys are on, which keys, and
whether the desktop lets Veil listen to them (the status line)."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QFormLayout, QLabel, QLineEdit, QWidget

from agent.config import ConfigError, Settings
from desktop.hotkeys import check_hotkey
from desktop.settings_tabs.common import note


class HotkeysTab(QWidget):
    def __init__(self, settings: Settings):
        super().__init__()
        form = QFormLayout(self)
        hk = settings.hotkeys
        self.hotkeys_enabled = QCheckBox("Use global hotkeys")
        self.hotkeys_enabled.setChecked(hk.enabled)
        form.addRow(self.hotkeys_enabled)
        self.sanitize_hotkey = QLineEdit(hk.sanitize)
        self.sanitize_hotkey.setObjectName("sanitize_hotkey")
        form.addRow("Sanitize the clipboard:", self.sanitize_hotkey)
        self.restore_hotkey = QLineEdit(hk.restore)
        self.restore_hotkey.setObjectName("restore_hotkey")
        form.addRow("Restore the clipboard:", self.restore_hotkey)
        form.addRow(note("Write keys as pynput does: modifiers in angle brackets, joined with +, e.g. "
                         "<ctrl>+<alt>+s or <cmd>+<shift>+r."))
        self.hotkey_status = QLabel()
        self.hotkey_status.setObjectName("hotkey-status")
        self.hotkey_status.setWordWrap(True)
        form.addRow(self.hotkey_status)

    def set_status(self, text: str) -> None:
        self.hotkey_status.setText(text or "Hotkeys are active.")

    def collect(self, settings: Settings) -> None:
        settings.hotkeys.enabled = self.hotkeys_enabled.isChecked()
        settings.hotkeys.sanitize = self.sanitize_hotkey.text().strip()
        settings.hotkeys.restore = self.restore_hotkey.text().strip()
        if settings.hotkeys.enabled:
            for name, value in (("sanitize", settings.hotkeys.sanitize), ("restore", settings.hotkeys.restore)):
                problem = check_hotkey(value)
                if problem:
                    raise ConfigError(f"{name} hotkey {value!r}: {problem}")
            if settings.hotkeys.sanitize == settings.hotkeys.restore:
                raise ConfigError("the two hotkeys must differ")
