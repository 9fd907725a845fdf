"""Answers rendered as Markdown (headings, lists, code blocks with a Copy link, tables,
quotes), with the restored values still highlighted and hoverable inside them (how the
highlights survive the rendering: desktop/markdown_build.py).

Streaming stays smooth because finished blocks are never rendered again: the answer is
parsed from the start of its last top-level block only; every block before it is final
(once another block has begun, later text cannot change it) and is appended once; the
open block is rebuilt at a bounded rate (at most every MIN_INTERVAL_S, and at most a
fifth of the time). A long answer shown at once (history) goes through the same path in
slices of FEED_CHARS, so opening a conversation never stalls the window either. A block
longer than LARGE_BLOCK (a 50 kB paragraph, a huge code block) is drawn line by line as
it comes, without Markdown inside it: parsing it again at every chunk would freeze the
window.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QWidget

from desktop.markdown_build import (
    COPY_PREFIX,
    PARSER,
    BuildTarget,
    DocumentBuilder,
    closes_fence,
    fence_opening,
    last_block_boundary,
    marked_text,
    strip_markers,
    top_level_blocks,
)
from desktop.textview import HighlightView, Mark

MIN_INTERVAL_S = 0.06  # the open block is rebuilt at most this often while streaming
FEED_CHARS = 3000  # a long answer shown at once is fed in slices of this size
LARGE_BLOCK = 6000  # an open block longer than this is drawn line by line, as text


@dataclass
class _Open:
    """Where the open (last, still growing) part starts; everything before is final."""

    raw: int = 0  # offset in the raw answer
    position: int = 0  # document position
    reuse_block: bool = True  # the document's last block is empty and free for the next block
    spans: int = 0  # entries of view._spans before it
    codes: int = 0  # code blocks before it


class MarkdownView(HighlightView):
    """A HighlightView whose content is Markdown. Marks' offsets are in the raw text."""

    code_copied = Signal(str)

    def __init__(self, parent: QWidget | None = None, *, fit_height: bool = False):
        super().__init__(parent, fit_height=fit_height)
        self._raw = ""
        self._raw_marks: list[Mark] = []  # offsets in _raw, sorted
        self._pending = ""  # text given but not fed yet (long answers shown at once)
        self._finished = False
        self._open = _Open()
        self._oversize = ""  # "text" or "code" while an oversize block is drawn line by line
        self._fence = ""  # the oversize code block's fence (``` or ~~~...)
        self._codes: list[str] = []
        self._last_build_s = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._tick)

    # -- content -------------------------------------------------------------------------------
    def text(self) -> str:
        """The raw Markdown (what Copy gives)."""
        return self._raw + self._pending

    def code_blocks(self) -> list[str]:
        return list(self._codes)

    def clear_content(self) -> None:
        super().clear_content()
        self._timer.stop()
        self._raw, self._raw_marks, self._pending = "", [], ""
        self._finished = False
        self._open, self._oversize, self._codes = _Open(), "", []

    def set_content(self, text: str, marks: list[Mark] = ()) -> None:  # type: ignore[assignment]
        """The whole answer at once (history)."""
        self.clear_content()
        self.append_content(text, marks)
        self.finish()

    def append_content(self, text: str, marks: list[Mark] = ()) -> None:  # type: ignore[assignment]
        """More of a streaming answer; marks' offsets are within `text`."""
        base = len(self._raw) + len(self._pending)
        for mark in marks:
            if 0 <= mark.start < mark.end <= len(text):
                self._raw_marks.append(Mark(mark.start + base, mark.end + base, mark.label, mark.style,
                                            mark.tooltip, mark.key))
        self._raw_marks.sort(key=lambda m: m.start)
        self._pending += text
        self._rendering = True
        self._schedule()

    def finish(self) -> None:
        """The answer is complete: its last block is final too (drawn now unless a long
        text is still being fed in slices)."""
        self._finished = True
        self._rendering = True
        if len(self._pending) <= FEED_CHARS:
            self._timer.stop()
            self._tick()
        else:
            self._schedule(at_once=True)

    # -- building --------------------------------------------------------------------------------
    def _schedule(self, *, at_once: bool = False) -> None:
        if self._timer.isActive() and not at_once:
            return
        wait = 0.0 if at_once else max(MIN_INTERVAL_S, 4 * self._last_build_s)
        self._timer.start(int(wait * 1000))

    def _tick(self) -> None:
        began = time.perf_counter()
        take = min(len(self._pending), FEED_CHARS)
        self._raw += self._pending[:take]
        self._pending = self._pending[take:]
        final = self._finished and not self._pending
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()
        self._build(final=final)
        cursor.endEditBlock()
        self._starts = [s for s, _, _ in self._spans]
        self._last_build_s = time.perf_counter() - began
        if self._pending:
            self._timer.start(0)  # the rest of a long answer, next event-loop turn
        elif final:
            self._rendering = False
            self.render_finished.emit()

    def _build(self, *, final: bool) -> None:
        self._drop_open()
        if self._oversize:
            self._build_lines(final=final)
            if self._oversize:
                return
        tail = self._raw[self._open.raw:]
        if len(tail) > LARGE_BLOCK:
            cut = last_block_boundary(tail)
            if cut:  # the complete blocks in front of a huge open one
                self._build_markdown(self._open.raw + cut, final=True)
                tail = self._raw[self._open.raw:]
            if len(tail) > LARGE_BLOCK:
                self._fence = fence_opening(tail)
                self._oversize = "code" if self._fence else "text"
                self._build_lines(final=final, first=True)
                if self._oversize:
                    return
        self._build_markdown(len(self._raw), final=final)

    def _builder(self, marks: list[Mark]) -> DocumentBuilder:
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        target = BuildTarget(self._spans, self._codes, self.palette(), self.font().pointSizeF(),
                             self.fixed_font_families(), self.highlight_format)
        return DocumentBuilder(target, cursor, marks, reuse_block=self._open.reuse_block)

    def _marks_in(self, start: int, end: int) -> list[Mark]:
        return [m for m in self._raw_marks if m.start >= start and m.end <= end]

    def _set_open(self, raw: int, builder: DocumentBuilder) -> None:
        self._open = _Open(raw, builder.cursor.position(), builder.reuse_block, len(self._spans), len(self._codes))

    def _build_markdown(self, end: int, *, final: bool) -> None:
        """Parse raw[open.raw:end]; blocks before the last are final, the last too if `final`."""
        start = self._open.raw
        tail = self._raw[start:end]
        marks = self._marks_in(start, end)
        tokens = PARSER.parse(marked_text(tail, [(m.start - start, m.end - start) for m in marks]))
        blocks = top_level_blocks(tokens)
        line_starts = [0] + [i + 1 for i, c in enumerate(tail) if c == "\n"]
        builder = self._builder(marks)
        for n, (first, stop, line) in enumerate(blocks):
            if n == len(blocks) - 1 and not final:
                self._set_open(start + line_starts[min(line, len(line_starts) - 1)], builder)
            builder.block(tokens[first:stop])
        if final:
            self._set_open(end, builder)

    def _build_lines(self, *, final: bool, first: bool = False) -> None:
        """An oversize block, drawn line by line: complete lines are final; the block ends
        at a blank line (text) or at its closing fence (code)."""
        start = self._open.raw
        text = self._raw[start:]
        marks = self._marks_in(start, len(self._raw))
        lines = marked_text(text, [(m.start - start, m.end - start) for m in marks]).split("\n")
        builder = self._builder(marks)
        fence = self._fence
        offset = start
        for n, line in enumerate(lines):
            complete = n < len(lines) - 1
            plain = strip_markers(line)
            if not complete and not final:
                self._set_open(offset, builder)  # the line still growing: drawn again next time
                if not plain:
                    return
            if first and n == 0 and fence:
                builder.code_head(plain.strip()[len(fence):])
            elif (closes_fence(plain, fence) if self._oversize == "code" and fence
                  else self._oversize == "text" and complete and not plain.strip()):
                self._oversize = ""  # the block's end: a closing fence, or a blank line
            elif self._oversize == "code":
                builder.code_line(line, last=False)
                if complete or final:  # the growing line is added once it is complete
                    self._codes[-1] += plain + "\n"
            else:
                builder.text_line(line, last=not complete)
            offset += len(plain) + (1 if complete else 0)
            if not self._oversize:
                break
        if self._codes and (final or not self._oversize):
            self._codes[-1] = self._codes[-1].removesuffix("\n")
        if final or not self._oversize:
            self._oversize = ""
            self._set_open(offset, builder)

    def _drop_open(self) -> None:
        """Remove what was drawn for the open part (it is drawn again with more text)."""
        doc = self.document()
        cursor = QTextCursor(doc)
        cursor.setPosition(min(self._open.position, doc.characterCount() - 1))
        # Removing the separator in front of the open block merges it into the last final
        # block, which would then take the open block's format: keep the final block's own.
        kept = cursor.blockFormat()
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        if cursor.hasSelection():
            cursor.removeSelectedText()
            cursor.setBlockFormat(kept)
        del self._spans[self._open.spans:]
        if self._oversize != "code":  # an oversize code block's text grows line by line
            del self._codes[self._open.codes:]

    # -- formats -------------------------------------------------------------------------------
    def fixed_font_families(self) -> list[str]:
        return [QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family(), "monospace"]

    def highlight_format(self, mark: Mark) -> QTextCharFormat:
        return self._format_for(mark)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._formats.clear()
            if self.text():
                self._rebuild()
        QWidget.changeEvent(self, event)

    def _rebuild(self) -> None:
        """Light/dark switch: drawn again with the new palette's colours."""
        raw, marks, finished = self.text(), list(self._raw_marks), self._finished
        super().clear_content()
        self._raw, self._pending, self._raw_marks = "", raw, marks
        self._open, self._oversize, self._codes = _Open(), "", []
        self._finished = finished
        self._rendering = True
        self._schedule(at_once=True)

    # -- the Copy link of code blocks, link addresses ------------------------------------------------
    def tooltip_at(self, point) -> str:
        tip = super().tooltip_at(point)
        if tip:
            return tip
        if self.anchorAt(point).startswith(COPY_PREFIX):
            return "Copy this code (with the real values)"
        cursor = self.cursorForPosition(point)
        return cursor.charFormat().toolTip() if not cursor.atBlockStart() else ""

    def mouseMoveEvent(self, event) -> None:
        super().mouseMoveEvent(event)
        if self.anchorAt(event.position().toPoint()).startswith(COPY_PREFIX):
            self.viewport().setCursor(Qt.CursorShape.PointingHandCursor)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        anchor = self.anchorAt(event.position().toPoint())
        if anchor.startswith(COPY_PREFIX):
            self.copy_code(int(anchor[len(COPY_PREFIX):]))

    def copy_code(self, index: int) -> None:
        if 0 <= index < len(self._codes):
            QGuiApplication.clipboard().setText(self._codes[index])
            self.code_copied.emit(self._codes[index])
