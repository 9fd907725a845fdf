"""Settings › Hotkeys: whether the global clipboard hotkeys are on, which keys (set by
pressing them, desktop/key_recorder.py), and whether the desktop lets Veil listen to
them (the status line; on Wayland, how to bind `veil clipboard ...` instead)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QFormLayout, QLabel, QWidget

from agent.config import ConfigError, Settings
from desktop.hotkeys import check_hotkey
from desktop.key_recorder import KeyRecorder, pretty
from desktop.settings_tabs.common import note

ACTIONS = (
    ("sanitize", "Sanitize the clipboard:"),
    ("restore", "Restore the clipboard:"),
    ("undo", "Undo the last sanitize:"),
)


class HotkeysTab(QWidget):
    recording = Signal(bool)  # a key recorder listens: the app's own hotkeys must not fire

    def __init__(self, settings: Settings):
        super().__init__()
        form = QFormLayout(self)
        hk = settings.hotkeys
        self.hotkeys_enabled = QCheckBox("Use global hotkeys")
        self.hotkeys_enabled.setChecked(hk.enabled)
        form.addRow(self.hotkeys_enabled)
        self.recorders: dict[str, KeyRecorder] = {}
        for name, title in ACTIONS:
            recorder = KeyRecorder(getattr(hk, name))
            recorder.setObjectName(f"{name}_hotkey")
            recorder.recording.connect(self.recording)
            self.recorders[name] = recorder
            form.addRow(title, recorder)
        self.sanitize_hotkey = self.recorders["sanitize"]
        self.restore_hotkey = self.recorders["restore"]
        self.undo_hotkey = self.recorders["undo"]
        form.addRow(note("Click a field and press the keys you want (for example Ctrl+Alt+S). Use Ctrl, Alt or "
                         "Super with a letter, digit or function key. Esc cancels."))
        self.hotkey_status = QLabel()
        self.hotkey_status.setObjectName("hotkey-status")
        self.hotkey_status.setWordWrap(True)
        form.addRow(self.hotkey_status)

    def set_status(self, text: str) -> None:
        self.hotkey_status.setText(text or "Hotkeys are active.")

    def collect(self, settings: Settings) -> None:
        settings.hotkeys.enabled = self.hotkeys_enabled.isChecked()
        for name, recorder in self.recorders.items():
            setattr(settings.hotkeys, name, recorder.value())
        if not settings.hotkeys.enabled:
            return
        for name, recorder in self.recorders.items():
            problem = check_hotkey(recorder.value())
            if problem:
                raise ConfigError(f"the {name} hotkey {pretty(recorder.value()) or '(none)'}: {problem}")
        values = [recorder.value() for recorder in self.recorders.values()]
        if len(set(values)) != len(values):
            raise ConfigError("each hotkey must be different")
