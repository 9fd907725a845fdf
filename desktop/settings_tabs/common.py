"""Small pieces the settings tabs share: the tab interface, the secondary-text label, the
label that says an outcome, a row of action buttons, and the guard that keeps the mouse
wheel from changing values. (Sizes in words: agent/sizes.py.)"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QWidget,
)

from agent.config import Settings


class SettingsTab(Protocol):
    """What the dialog needs from a tab."""

    def collect(self, settings: Settings) -> None:
        """Write the values shown into `settings`; ConfigError for a value that cannot be used."""
        ...


def note(text: str) -> QLabel:
    """Greyed, wrapped secondary text under a group of fields."""
    label = QLabel(text)
    label.setWordWrap(True)
    label.setEnabled(False)
    return label


def status_label(name: str, text: str = "", *, wrap: bool = True) -> QLabel:
    """A label that says a state or an outcome in words (named for tests, selectable, so
    a path or an error can be copied)."""
    label = QLabel(text)
    label.setObjectName(name)
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def button_row(*buttons: QAbstractButton) -> QHBoxLayout:
    """Action buttons side by side from the left."""
    row = QHBoxLayout()
    for button in buttons:
        row.addWidget(button)
    row.addStretch(1)
    return row


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
