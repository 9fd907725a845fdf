"""Small pieces the settings tabs share: the tab interface, sizes in words, the
secondary-text label, and the guard that keeps the mouse wheel from changing values."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QComboBox, QLabel, QWidget

from agent.config import Settings


class SettingsTab(Protocol):
    """What the dialog needs from a tab."""

    def collect(self, settings: Settings) -> None:
        """Write the values shown into `settings`; ConfigError for a value that cannot be used."""
        ...


def human_size(n: int | None) -> str:
    if not n:
        return "?"
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit in ("B", "KB") else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"


def note(text: str) -> QLabel:
    """Greyed, wrapped secondary text under a group of fields."""
    label = QLabel(text)
    label.setWordWrap(True)
    label.setEnabled(False)
    return label


class WheelGuard(QObject):
    """Turning the mouse wheel over a dropdown or a number box changes it only when it has
    the keyboard focus; otherwise the wheel scrolls the page under it (a scroll through the
    Protection tab must not silently turn "Person names" from auto to replace)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.Wheel or not isinstance(watched, QWidget) or watched.hasFocus():
            return False
        area = _scroll_area_of(watched)
        if area is not None:
            QCoreApplication.sendEvent(area.verticalScrollBar(), event)
        return True  # not the value


def _scroll_area_of(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return parent
        parent = parent.parentWidget()
    return None


_GUARD: WheelGuard | None = None


def guard_wheel(root: QWidget) -> None:
    """Keep the wheel from changing `root` (a dropdown or number box) and every one under
    it unless focused; they also stop taking the focus from the wheel (a click or Tab gives it)."""
    global _GUARD
    if _GUARD is None:
        _GUARD = WheelGuard(QCoreApplication.instance())
    widgets = root.findChildren(QComboBox) + root.findChildren(QAbstractSpinBox)
    if isinstance(root, (QComboBox, QAbstractSpinBox)):
        widgets.append(root)
    for widget in widgets:
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        widget.installEventFilter(_GUARD)
