"""A hotkey field you set by pressing the keys: click it (or Tab into it), press e.g.
Ctrl+Alt+S, done. It shows "Ctrl+Alt+S" and holds pynput's form "<ctrl>+<alt>+s", which
is what the settings store and desktop/hotkeys.py listens for. Esc cancels a recording;
a key without a modifier is refused with a word, since it would fire while typing.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QLineEdit

# Modifier flags in the order people write them, with pynput's names.
_MODIFIERS = (
    (Qt.KeyboardModifier.ControlModifier, "<ctrl>"),
    (Qt.KeyboardModifier.AltModifier, "<alt>"),
    (Qt.KeyboardModifier.ShiftModifier, "<shift>"),
    (Qt.KeyboardModifier.MetaModifier, "<cmd>"),  # the Super/Windows key
)
_MODIFIER_KEYS = {Qt.Key.Key_Control, Qt.Key.Key_Alt, Qt.Key.Key_Shift, Qt.Key.Key_Meta, Qt.Key.Key_AltGr,
                  Qt.Key.Key_Super_L, Qt.Key.Key_Super_R, Qt.Key.Key_Hyper_L, Qt.Key.Key_Hyper_R}
_NAMED_KEYS = {
    Qt.Key.Key_Space: "<space>", Qt.Key.Key_Tab: "<tab>", Qt.Key.Key_Return: "<enter>", Qt.Key.Key_Enter: "<enter>",
    Qt.Key.Key_Backspace: "<backspace>", Qt.Key.Key_Delete: "<delete>", Qt.Key.Key_Insert: "<insert>",
    Qt.Key.Key_Home: "<home>", Qt.Key.Key_End: "<end>", Qt.Key.Key_PageUp: "<page_up>",
    Qt.Key.Key_PageDown: "<page_down>", Qt.Key.Key_Left: "<left>", Qt.Key.Key_Right: "<right>",
    Qt.Key.Key_Up: "<up>", Qt.Key.Key_Down: "<down>", Qt.Key.Key_Pause: "<pause>", Qt.Key.Key_Print: "<print_screen>",
}
# Keys whose character depends on Shift: recorded by their unshifted character.
_PUNCTUATION = {
    Qt.Key.Key_Comma: ",", Qt.Key.Key_Period: ".", Qt.Key.Key_Slash: "/", Qt.Key.Key_Semicolon: ";",
    Qt.Key.Key_Apostrophe: "'", Qt.Key.Key_BracketLeft: "[", Qt.Key.Key_BracketRight: "]",
    Qt.Key.Key_Backslash: "\\", Qt.Key.Key_Minus: "-", Qt.Key.Key_Equal: "=", Qt.Key.Key_QuoteLeft: "`",
}
PROMPT = "press the keys…"


def key_name(key: int) -> str:
    """pynput's name for a Qt key ('' for keys that cannot be a hotkey's main key)."""
    if Qt.Key.Key_A <= key <= Qt.Key.Key_Z or Qt.Key.Key_0 <= key <= Qt.Key.Key_9:
        return chr(key).lower()
    if Qt.Key.Key_F1 <= key <= Qt.Key.Key_F24:
        return f"<f{key - Qt.Key.Key_F1 + 1}>"
    return _NAMED_KEYS.get(Qt.Key(key), "") or _PUNCTUATION.get(Qt.Key(key), "")


def combo_from(modifiers: Qt.KeyboardModifier, key: int) -> str:
    """'<ctrl>+<alt>+s' from Qt's modifiers and key ('' when it is not a usable hotkey)."""
    name = key_name(key)
    if not name:
        return ""
    parts = [pynput for flag, pynput in _MODIFIERS if modifiers & flag]
    return "+".join([*parts, name])


def pretty(combo: str) -> str:
    """'<ctrl>+<alt>+s' as people write it: 'Ctrl+Alt+S'."""
    if not combo:
        return ""
    words = {"<cmd>": "Super", "<page_up>": "PageUp", "<page_down>": "PageDown", "<print_screen>": "Print"}
    out = []
    for part in combo.split("+"):
        if part in words:
            out.append(words[part])
        elif part.startswith("<") and part.endswith(">"):
            inner = part[1:-1]
            out.append(inner.upper() if inner[:1] == "f" and inner[1:].isdigit() else inner.capitalize())
        else:
            out.append(part.upper())
    return "+".join(out)


class KeyRecorder(QLineEdit):
    """Holds one hotkey; `value()` is pynput's form. Emits `recording(True)` while it
    listens (the app then ignores its own hotkeys, so recording Ctrl+Alt+S does not
    sanitize the clipboard) and `changed(value)` when a new hotkey is set."""

    recording = Signal(bool)
    changed = Signal(str)

    def __init__(self, value: str = "") -> None:
        super().__init__()
        self._value = value
        self._recording = False
        self.setReadOnly(True)  # typed characters never land in it; keys are recorded instead
        self.setPlaceholderText("click, then press the keys")
        self.setToolTip("Click here and press the keys you want, e.g. Ctrl+Alt+S. Esc cancels.")
        self.setText(pretty(value))

    def value(self) -> str:
        return self._value

    def set_value(self, value: str) -> None:
        self._value = value
        self.setText(pretty(value))

    def is_recording(self) -> bool:
        return self._recording

    def start_recording(self) -> None:
        if not self._recording:
            self._recording = True
            self.setText("")
            self.setPlaceholderText(PROMPT)
            self.recording.emit(True)

    def stop_recording(self) -> None:
        if self._recording:
            self._recording = False
            self.setPlaceholderText("click, then press the keys")
            self.setText(pretty(self._value))
            self.recording.emit(False)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        super().mousePressEvent(event)
        self.start_recording()

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.start_recording()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        self.stop_recording()
        super().focusOutEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and not event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier:
            super().keyPressEvent(event)  # plain Tab moves on, as everywhere
            return
        if not self._recording:
            self.start_recording()
        if key == Qt.Key.Key_Escape:
            self.stop_recording()
            return
        if key in _MODIFIER_KEYS:
            held = combo_from(event.modifiers(), Qt.Key.Key_A).rsplit("+", 1)[0] if event.modifiers() else ""
            self.setPlaceholderText(pretty(held) + "+…" if held else PROMPT)
            return
        combo = combo_from(event.modifiers(), key)
        if not combo:
            self.setPlaceholderText("that key cannot be a hotkey; try another")
            self.setText("")
            return
        if not any(part in combo.split("+") for part in ("<ctrl>", "<alt>", "<cmd>")):
            self.setPlaceholderText("add Ctrl, Alt or Super: without them it would fire while you type")
            self.setText("")
            return
        self._value = combo
        self.stop_recording()
        self.changed.emit(combo)
