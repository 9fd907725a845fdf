"""A read-only text view with highlighted, hoverable, clickable entity marks.

Used for the send preview (stand-ins, click to keep or replace) and for answers
(restored values). Large texts are rendered in slices across event-loop turns, so a
50 kB preview never stalls the window; marks are located by document position, which
is counted in UTF-16 units (an emoji is two), not by Python string offsets.
"""

from __future__ import annotations

import bisect
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QPalette, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextEdit, QToolTip, QWidget

from desktop.colors import entity_style, kept_style

SLICE_BUDGET_S = 0.008  # UI time per rendering slice, well under the 50 ms stall bar
SLICE_CHARS = 2000  # the text of one insert call at most
SLICE_CHARS_MAX = 4000  # characters laid out per slice at most


@dataclass(frozen=True)
class Mark:
    start: int  # offsets in the text given to set_content / append_content
    end: int
    label: str  # entity type (PERSON, EMAIL...)
    style: str  # "replaced" | "kept" | "restored"
    tooltip: str
    key: Any = None  # what mark_clicked reports (e.g. the Replacement)


class HighlightView(QTextEdit):
    mark_clicked = Signal(object)  # Mark
    render_finished = Signal()

    def __init__(self, parent: QWidget | None = None, *, fit_height: bool = False, clickable: bool = False):
        super().__init__(parent)
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.setMouseTracking(True)
        self._clickable = clickable
        self._fit = fit_height
        self._text = ""
        self._starts: list[int] = []  # document positions of mark starts, sorted
        self._spans: list[tuple[int, int, Mark]] = []
        self._queue: deque[tuple[str, Mark | None]] = deque()
        self._generation = 0
        self._press: QPoint | None = None
        self._rendering = False
        self._formats: dict[tuple[str, str], QTextCharFormat] = {}  # per palette
        self._slice_timer = QTimer(self)
        self._slice_timer.setSingleShot(True)
        self._slice_timer.setInterval(0)
        self._slice_timer.timeout.connect(lambda: self._render_slice(self._generation))
        if fit_height:
            self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            self.setFrameShape(QFrame.Shape.NoFrame)
            self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            self.document().documentLayout().documentSizeChanged.connect(self._fit_height)
            self.document().setDocumentMargin(2)
            self._fit_height()

    # -- content --------------------------------------------------------------------------------
    def text(self) -> str:
        """The text as given (Python string), whatever has been rendered so far."""
        return self._text

    @property
    def rendering(self) -> bool:
        return self._rendering

    def marks(self) -> list[Mark]:
        return [m for _, _, m in self._spans]

    def clear_content(self) -> None:
        self._generation += 1
        self._slice_timer.stop()
        self._queue = deque()
        self._rendering = False
        self._text = ""
        self._starts, self._spans = [], []
        self.document().clear()

    def set_content(self, text: str, marks: list[Mark] = ()) -> None:  # type: ignore[assignment]
        """Replace the content. Rendering finishes in later event-loop turns when large
        (render_finished is emitted when it is complete)."""
        self.clear_content()
        self.append_content(text, marks)

    def append_content(self, text: str, marks: list[Mark] = ()) -> None:  # type: ignore[assignment]
        """Add text at the end (answer streaming); marks' offsets are within `text`."""
        self._text += text
        position = 0
        for mark in sorted(marks, key=lambda m: m.start):
            if mark.start < position or mark.end > len(text):
                continue  # overlapping or out of range: shown as plain text
            self._enqueue(text[position : mark.start], None)
            self._queue.append((text[mark.start : mark.end], mark))
            position = mark.end
        self._enqueue(text[position:], None)
        if not self._rendering:
            self._rendering = True
            self._render_slice(self._generation)

    def _enqueue(self, text: str, mark: Mark | None) -> None:
        for i in range(0, len(text), SLICE_CHARS):
            self._queue.append((text[i : i + SLICE_CHARS], mark))

    def _render_slice(self, generation: int) -> None:
        if generation != self._generation:
            return
        began = time.perf_counter()
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        plain = QTextCharFormat()
        # One edit block per slice: Qt lays the slice out once, at its end (inserting
        # piece by piece without it re-lays a long paragraph at every piece). The layout
        # is not inside the time check, so the characters per slice are bounded too.
        cursor.beginEditBlock()
        inserted = 0
        while self._queue and inserted < SLICE_CHARS_MAX and time.perf_counter() - began < SLICE_BUDGET_S:
            piece, mark = self._queue.popleft()
            inserted += len(piece)
            if mark is None:
                cursor.insertText(piece, plain)
                continue
            start = cursor.position()
            cursor.insertText(piece, self._format_for(mark))
            self._spans.append((start, cursor.position(), mark))
            self._starts.append(start)
        cursor.endEditBlock()
        if self._queue:
            self._slice_timer.start()  # owned by the view: dies with it, never fires after
        else:
            self._rendering = False
            self.render_finished.emit()

    def _format_for(self, mark: Mark) -> QTextCharFormat:
        key = (mark.label, mark.style)
        fmt = self._formats.get(key)
        if fmt is None:
            fmt = self._formats[key] = self._make_format(mark)
        return fmt

    def _make_format(self, mark: Mark) -> QTextCharFormat:
        fmt = QTextCharFormat()
        palette = self.palette()
        if mark.style == "kept":
            style = kept_style(palette)
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
            fmt.setUnderlineColor(style.border)
        else:
            style = entity_style(mark.label, palette)
            fmt.setBackground(style.background)
            fmt.setForeground(style.foreground)
            if mark.style == "restored":
                fmt.setFontWeight(600)
        fmt.setProperty(QTextFormat.Property.UserProperty, mark.label)
        return fmt

    def wait_rendered_for_tests(self) -> bool:
        return not self._rendering

    # -- where the marks are ------------------------------------------------------------------------
    def mark_at_position(self, position: int) -> Mark | None:
        """The mark covering the character at this document position."""
        i = bisect.bisect_right(self._starts, position) - 1
        if 0 <= i < len(self._spans):
            start, end, mark = self._spans[i]
            if start <= position < end:
                return mark
        return None

    def mark_at(self, point: QPoint) -> Mark | None:
        """The mark under a point in viewport coordinates."""
        offset = QPointF(self.horizontalScrollBar().value(), self.verticalScrollBar().value())
        position = self.document().documentLayout().hitTest(QPointF(point) + offset, Qt.HitTestAccuracy.ExactHit)
        if position < 0:
            return None
        # hitTest gives the cursor position nearest to the point: the character is the one
        # after it, or before it when the point is on a character's right half.
        mark = self.mark_at_position(position)
        if mark is None and position > 0:
            cursor = self.cursorForPosition(point)
            rect = self.cursorRect(cursor)
            if point.x() <= rect.x():
                mark = self.mark_at_position(position - 1)
        return mark

    def rect_of(self, mark: Mark) -> tuple[QPoint, QPoint] | None:
        """Viewport points inside the mark's first and last character (tests click there)."""
        for start, end, m in self._spans:
            if m is mark:
                cursor = QTextCursor(self.document())
                cursor.setPosition(start)
                first = self.cursorRect(cursor)
                cursor.setPosition(end - 1)
                last = self.cursorRect(cursor)
                return (QPoint(first.x() + 3, first.center().y()), QPoint(last.x() + 2, last.center().y()))
        return None

    def tooltip_at(self, point: QPoint) -> str:
        mark = self.mark_at(point)
        return mark.tooltip if mark is not None else ""

    # -- events -------------------------------------------------------------------------------------
    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            tip = self.tooltip_at(event.pos())
            if tip:
                QToolTip.showText(event.globalPos(), tip, self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)

    def mouseMoveEvent(self, event) -> None:
        super().mouseMoveEvent(event)
        if self._clickable:
            over = self.mark_at(event.position().toPoint()) is not None
            shape = Qt.CursorShape.PointingHandCursor if over else Qt.CursorShape.IBeamCursor
            self.viewport().setCursor(shape)

    def mousePressEvent(self, event) -> None:
        self._press = event.position().toPoint()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        point = event.position().toPoint()
        pressed, self._press = self._press, None
        if not self._clickable or event.button() != Qt.MouseButton.LeftButton:
            return
        if pressed is not None and (pressed - point).manhattanLength() > 4:
            return  # a drag to select text, not a click
        mark = self.mark_at(point)
        if mark is not None:
            self.mark_clicked.emit(mark)

    def keyPressEvent(self, event) -> None:
        # Keyboard users: move the caret into a highlighted value, press Space or Enter.
        if self._clickable and event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            position = self.textCursor().position()
            mark = self.mark_at_position(position) or (self.mark_at_position(position - 1) if position else None)
            if mark is not None:
                self.mark_clicked.emit(mark)
                return
        super().keyPressEvent(event)

    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        self.viewport().update()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._formats.clear()
            if self._spans:
                self._recolor()

    def _recolor(self) -> None:
        """The system switched light/dark: re-apply the mark colours for the new palette."""
        cursor = QTextCursor(self.document())
        for start, end, mark in self._spans:
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(self._format_for(mark))

    # -- height that follows the content (message bubbles) -------------------------------------------
    def _fit_height(self, *_: object) -> None:
        if not self._fit:
            return
        height = int(self.document().size().height()) + 2 * self.frameWidth() + 2
        if self.height() != height:
            self.setFixedHeight(max(height, self.fontMetrics().height() + 8))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def palette_is_dark(self) -> bool:
        return self.palette().color(QPalette.ColorRole.Base).lightness() < 128
