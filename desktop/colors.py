"""Entity colours that stay readable in light and dark palettes.

One hue per entity type; the background's lightness and the text colour are chosen from
the window palette, so a stand-in highlighted in a light theme (pastel background, dark
text) is as legible in a dark one (deep background, light text).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QPalette

from agent.detect.table import hues

# Hues (degrees), one per entity type: read from the type table (agent/detect/table.py).
HUES = hues()


@dataclass(frozen=True)
class EntityStyle:
    background: QColor
    foreground: QColor
    border: QColor


def is_dark(palette: QPalette) -> bool:
    """A dark theme has light text. (The text colour, not the background: a widget whose
    style sheet makes its background transparent reports a transparent, "black" Window.)"""
    return palette.color(QPalette.ColorRole.WindowText).lightness() > 128


def entity_style(label: str, palette: QPalette) -> EntityStyle:
    hue = HUES.get(label, 230)
    if is_dark(palette):
        background = QColor.fromHsl(hue, 150, 70)
        foreground = QColor.fromHsl(hue, 60, 235)
        border = QColor.fromHsl(hue, 170, 150)
    else:
        background = QColor.fromHsl(hue, 200, 222)
        foreground = QColor.fromHsl(hue, 90, 35)
        border = QColor.fromHsl(hue, 150, 120)
    return EntityStyle(background, foreground, border)


def kept_style(palette: QPalette) -> EntityStyle:
    """An entity sent as it is: no fill, a warning-coloured underline."""
    text = palette.color(QPalette.ColorRole.Text)
    underline = QColor("#f0a030") if is_dark(palette) else QColor("#b36200")
    return EntityStyle(QColor(0, 0, 0, 0), text, underline)


def risk_color(level: str, palette: QPalette) -> QColor:
    dark = is_dark(palette)
    return {
        "none": QColor("#5cc46a" if dark else "#1f7a35"),
        "low": QColor("#9ccc65" if dark else "#4d7a1f"),
        "medium": QColor("#f0a030" if dark else "#a35a00"),
        "high": QColor("#ff6b6b" if dark else "#b3261e"),
    }.get(level, palette.color(QPalette.ColorRole.Text))


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio (1..21) between two colours; tests use it for legibility."""

    def luminance(c: QColor) -> float:
        def channel(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())

    la, lb = luminance(a), luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)
