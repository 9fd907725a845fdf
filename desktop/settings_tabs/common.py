"""Small pieces the settings tabs share: the tab interface, sizes in words, and the
secondary-text label."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import QLabel

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
