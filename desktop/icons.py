"""The app's own icons (SVG in resources/icons), loaded once."""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QIcon

from agent import paths

APP = "veil"
PAUSED = "veil-paused"
LOCKED = "veil-locked"


@cache
def icon(name: str = APP) -> QIcon:
    path = paths.resource("icons", f"{name}.svg")
    result = QIcon(str(path))
    if result.isNull():  # no SVG plugin in a broken bundle: at least not an empty tray slot
        from PySide6.QtWidgets import QApplication, QStyle

        return QApplication.style().standardIcon(QStyle.StandardPixmap.SP_DialogYesButton)
    return result
