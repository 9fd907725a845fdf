"""Markdown tokens (markdown-it-py) -> a QTextDocument, with restored values highlighted.

The restored spans are computed on the raw answer. Before parsing, each span is wrapped in
a pair of private-use characters that carry its index (U+100000 + 2i opens span i, the
next code point closes it); the parser keeps them inside text and code. While the
document is built with QTextCursor the markers are not inserted: the cursor's position at
each one is the span's place in the rendered document, and the text between them gets the
highlight merged into its own format (bold, code font... stay). A marker that ends up
where no text is drawn (a link's URL) just leaves that span plain.

`DocumentBuilder` appends blocks at the end of a document and reports what it found into
a `BuildTarget`; desktop/markdown_view.py decides which blocks to (re)build while an
answer streams in, and owns the target's lists.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token
from PySide6.QtGui import (
    QFont,
    QPalette,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
    QTextFrameFormat,
    QTextLength,
    QTextListFormat,
    QTextTableFormat,
)

from desktop.textview import Mark

MARKER_BASE = 0x100000  # supplementary private use area B: never in an LLM's answer
MARKER_LIMIT = 0x10FFFD
COPY_PREFIX = "veil-copy:"
HEADING_SCALE = {1: 1.45, 2: 1.25, 3: 1.12}
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")

PARSER = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])


def marked_text(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with span i wrapped in its open/close markers (spans sorted, not overlapping)."""
    pieces, position = [], 0
    for i, (start, end) in enumerate(spans):
        if MARKER_BASE + 2 * i + 1 > MARKER_LIMIT:
            break
        pieces += [text[position:start], chr(MARKER_BASE + 2 * i), text[start:end], chr(MARKER_BASE + 2 * i + 1)]
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def strip_markers(text: str) -> str:
    return "".join(c for c in text if not MARKER_BASE <= ord(c) <= MARKER_LIMIT)


def top_level_blocks(tokens: list[Token]) -> list[tuple[int, int, int]]:
    """(first token, end token, first source line) of each top-level block."""
    blocks, depth, first = [], 0, 0
    for i, token in enumerate(tokens):
        if depth == 0:
            first = i
        depth += token.nesting
        if depth == 0:
            line = tokens[first].map[0] if tokens[first].map else 0
            blocks.append((first, i + 1, line))
    return blocks


def fence_opening(line: str) -> str:
    """The fence (``` or ~~~ run) that opens a code block on this line, or ""."""
    found = _FENCE.match(line)
    return found.group(1) if found else ""


def closes_fence(line: str, fence: str) -> bool:
    stripped = line.strip()
    return len(line) - len(line.lstrip(" ")) <= 3 and stripped.startswith(fence) and set(stripped) == {fence[0]}


def last_block_boundary(text: str) -> int:
    """Offset just after the last blank line of `text` outside a fenced code block (0 if
    none): every block before it is complete."""
    boundary, offset, fence = 0, 0, ""
    for line in text.splitlines(keepends=True):
        offset += len(line)
        if fence:
            if closes_fence(line, fence):
                fence = ""
        elif fence_opening(line):
            fence = fence_opening(line)
        elif not line.strip() and line.endswith("\n"):
            boundary = offset
    return boundary


@dataclass
class ListState:
    format: QTextListFormat
    items: list = field(default_factory=list)  # the QTextList, once created
    first_paragraph: bool = False


@dataclass
class BuildTarget:
    """What a builder reports besides the document, and the look it draws with."""

    spans: list[tuple[int, int, Mark]]  # appended: (document start, end, Mark) of each highlight
    codes: list[str]  # appended: each code block's text (what its Copy link copies)
    palette: QPalette
    font_size: float  # the body text's point size (0 or less: unknown)
    fixed_fonts: list[str]  # font families for code
    highlight: Callable[[Mark], QTextCharFormat]  # a restored value's format


class DocumentBuilder:
    """Markdown tokens -> QTextCursor insertions at the end of a document. Spans found and
    code blocks' text go to the target's lists."""

    def __init__(self, target: BuildTarget, cursor: QTextCursor, marks: list[Mark], *, reuse_block: bool):
        """`reuse_block`: the document's last block is empty and free for the next block."""
        self.target = target
        self.cursor = cursor
        self.marks = marks
        self.palette = target.palette
        self.reuse_block = reuse_block
        self.lists: list[ListState] = []
        self.quote_depth = 0
        self.open_span: tuple[int, int] | None = None  # (span index, document position)
        self.base_size = target.font_size if target.font_size > 0 else 10.0

    # -- blocks ----------------------------------------------------------------------------------
    def block(self, tokens: list[Token]) -> None:
        i = 0
        while i < len(tokens):
            i = self._token(tokens, i)

    def _token(self, tokens: list[Token], i: int) -> int:
        token = tokens[i]
        kind = token.type
        if kind == "heading_open":
            level = int(token.tag[1])
            fmt = self._block_format(top=8 if level <= 2 else 6, bottom=4)
            fmt.setHeadingLevel(level)
            char = QTextCharFormat()
            char.setFontWeight(QFont.Weight.Bold)
            char.setFontPointSize(self.base_size * HEADING_SCALE.get(level, 1.0))
            self._new_block(fmt)
            self._inline(tokens[i + 1], char, self.cursor)
            return i + 3
        if kind == "paragraph_open":
            self._paragraph(tokens[i + 1])
            return i + 3
        if kind in ("bullet_list_open", "ordered_list_open"):
            fmt = QTextListFormat()
            depth = len(self.lists) + 1 + self.quote_depth
            fmt.setIndent(depth)
            if kind == "ordered_list_open":
                fmt.setStyle(QTextListFormat.Style.ListDecimal)
                fmt.setStart(int(token.attrs.get("start", 1) or 1))
            else:
                fmt.setStyle((QTextListFormat.Style.ListDisc, QTextListFormat.Style.ListCircle,
                              QTextListFormat.Style.ListSquare)[(depth - 1) % 3])
            self.lists.append(ListState(fmt))
            return i + 1
        if kind in ("bullet_list_close", "ordered_list_close"):
            self.lists.pop()
            return i + 1
        if kind == "list_item_open":
            self.lists[-1].first_paragraph = True
            return i + 1
        if kind == "blockquote_open":
            self.quote_depth += 1
            return i + 1
        if kind == "blockquote_close":
            self.quote_depth -= 1
            return i + 1
        if kind in ("fence", "code_block"):
            self._code(token)
            return i + 1
        if kind == "hr":
            fmt = self._block_format(top=4, bottom=4)
            fmt.setProperty(QTextFormat.Property.BlockTrailingHorizontalRulerWidth,
                            QTextLength(QTextLength.Type.PercentageLength, 100))
            self._new_block(fmt)
            return i + 1
        if kind == "table_open":
            return self._table(tokens, i)
        if kind == "html_block":  # only with html enabled; shown as text anyway
            self._new_block(self._block_format())
            self._text(token.content.rstrip("\n"), QTextCharFormat(), self.cursor)
            return i + 1
        return i + 1  # closing tokens and list_item_close: nothing to draw

    def _block_format(self, *, top: float = 0, bottom: float = 6) -> QTextBlockFormat:
        fmt = QTextBlockFormat()
        fmt.setTopMargin(top)
        fmt.setBottomMargin(bottom)
        if self.quote_depth:
            fmt.setLeftMargin(14 * self.quote_depth)
        return fmt

    def _new_block(self, fmt: QTextBlockFormat, char: QTextCharFormat | None = None) -> None:
        char = char or QTextCharFormat()
        if self.reuse_block:
            self.cursor.movePosition(QTextCursor.MoveOperation.End)
            self.cursor.setBlockFormat(fmt)
            self.cursor.setBlockCharFormat(char)
            self.reuse_block = False
        else:
            self.cursor.movePosition(QTextCursor.MoveOperation.End)
            self.cursor.insertBlock(fmt, char)

    def _paragraph(self, inline: Token) -> None:
        char = QTextCharFormat()
        if self.quote_depth:
            char.setFontItalic(True)
            char.setForeground(self.palette.color(QPalette.ColorRole.PlaceholderText))
        if self.lists:
            state = self.lists[-1]
            fmt = self._block_format(bottom=2)
            if state.first_paragraph:
                self._new_block(fmt)
                if state.items:
                    state.items[0].add(self.cursor.block())
                else:
                    state.items.append(self.cursor.createList(state.format))
                state.first_paragraph = False
            else:  # a second paragraph of the same item: indented, no bullet
                fmt.setIndent(state.format.indent())
                self._new_block(fmt)
        else:
            self._new_block(self._block_format())
        self._inline(inline, char, self.cursor)

    def _code(self, token: Token) -> None:
        code = token.content.removesuffix("\n")
        self.code_head(token.info)
        self.target.codes[-1] = strip_markers(code)
        lines = code.split("\n")
        for n, line in enumerate(lines):
            self.code_line(line, last=n == len(lines) - 1)

    def code_head(self, info: str) -> None:
        """The line above a code block: its language and a Copy link (its text is added to
        view._codes[-1] by the caller)."""
        index = len(self.target.codes)
        self.target.codes.append("")
        language = strip_markers(info).strip().split(" ")[0] if info else ""
        self._new_block(self._block_format(top=4, bottom=0))
        label = QTextCharFormat()
        label.setForeground(self.palette.color(QPalette.ColorRole.PlaceholderText))
        label.setFontPointSize(self.base_size * 0.9)
        if language:
            self.cursor.insertText(language + "  ", label)
        link = QTextCharFormat(label)
        link.setAnchor(True)
        link.setAnchorHref(f"{COPY_PREFIX}{index}")
        link.setForeground(self.palette.color(QPalette.ColorRole.Link))
        self.cursor.insertText("Copy code", link)

    def code_line(self, line: str, *, last: bool) -> None:
        char = QTextCharFormat()
        char.setFontFamilies(self.target.fixed_fonts)
        char.setFontFixedPitch(True)
        fmt = self._block_format(top=0, bottom=6 if last else 0)
        fmt.setBackground(self.palette.color(QPalette.ColorRole.AlternateBase))
        fmt.setNonBreakableLines(True)
        fmt.setLeftMargin(fmt.leftMargin() + 6)
        self._new_block(fmt, char)
        self._text(line, char, self.cursor)

    def text_line(self, line: str, *, last: bool) -> None:
        """One line of an oversize paragraph, drawn as it is (no Markdown parsing)."""
        self._new_block(self._block_format(bottom=6 if last else 0))
        self._text(line, QTextCharFormat(), self.cursor)

    def _table(self, tokens: list[Token], i: int) -> int:
        end = i
        rows: list[list[tuple[Token, bool]]] = []
        depth = 0
        for end in range(i, len(tokens)):
            token = tokens[end]
            depth += token.nesting
            if token.type == "tr_open":
                rows.append([])
            elif token.type in ("th_open", "td_open"):
                rows[-1].append((tokens[end + 1], token.type == "th_open"))
            if depth == 0:
                break
        columns = max((len(r) for r in rows), default=0)
        if not rows or not columns:
            return end + 1
        self._new_block(self._block_format(bottom=0))
        fmt = QTextTableFormat()
        fmt.setBorder(1)
        fmt.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
        fmt.setBorderCollapse(True)
        fmt.setCellPadding(4)
        fmt.setCellSpacing(0)
        fmt.setBorderBrush(self.palette.color(QPalette.ColorRole.Mid))
        fmt.setBottomMargin(6)
        table = self.cursor.insertTable(len(rows), columns, fmt)
        for r, row in enumerate(rows):
            for c, (inline, header) in enumerate(row):
                char = QTextCharFormat()
                if header:
                    char.setFontWeight(QFont.Weight.Bold)
                self._inline(inline, char, table.cellAt(r, c).firstCursorPosition())
        self.cursor.movePosition(QTextCursor.MoveOperation.End)
        self.reuse_block = True  # Qt keeps an empty block after a table: the next block takes it
        return end + 1

    # -- inline ------------------------------------------------------------------------------------
    def _inline(self, inline: Token, base: QTextCharFormat, cursor: QTextCursor) -> None:
        stack = [QTextCharFormat(base)]
        for child in inline.children or ():
            kind = child.type
            fmt = stack[-1]
            if kind == "text":
                self._text(child.content, fmt, cursor)
            elif kind == "code_inline":
                code = QTextCharFormat(fmt)
                code.setFontFamilies(self.target.fixed_fonts)
                code.setFontFixedPitch(True)
                code.setBackground(self.palette.color(QPalette.ColorRole.AlternateBase))
                self._text(child.content, code, cursor)
            elif kind == "softbreak":
                self._text(" ", fmt, cursor)
            elif kind == "hardbreak":
                self._text("\u2028", fmt, cursor)
            elif kind.endswith("_open"):
                inner = QTextCharFormat(fmt)
                if kind == "strong_open":
                    inner.setFontWeight(QFont.Weight.Bold)
                elif kind == "em_open":
                    inner.setFontItalic(True)
                elif kind == "s_open":
                    inner.setFontStrikeOut(True)
                elif kind == "link_open":
                    inner.setForeground(self.palette.color(QPalette.ColorRole.Link))
                    inner.setFontUnderline(True)
                    inner.setToolTip(strip_markers(str(child.attrs.get("href", ""))))
                stack.append(inner)
            elif kind.endswith("_close"):
                if len(stack) > 1:
                    stack.pop()
            elif kind == "image":
                self._text(strip_markers(child.content) or "[image]", fmt, cursor)
            else:  # html_inline and anything new: its source as text
                self._text(child.content, fmt, cursor)

    def _text(self, text: str, fmt: QTextCharFormat, cursor: QTextCursor) -> None:
        """Insert text; span markers become highlight boundaries, not characters."""
        piece_start = 0
        for i, c in enumerate(text):
            code = ord(c)
            if code < MARKER_BASE or code > MARKER_LIMIT:
                continue
            self._insert(cursor, text[piece_start:i], fmt)
            piece_start = i + 1
            index, closing = divmod(code - MARKER_BASE, 2)
            if not closing:
                self.open_span = (index, cursor.position())
            elif self.open_span is not None and self.open_span[0] == index and index < len(self.marks):
                start = self.open_span[1]
                if cursor.position() > start:
                    self.target.spans.append((start, cursor.position(), self.marks[index]))
                self.open_span = None
        self._insert(cursor, text[piece_start:], fmt)

    def _insert(self, cursor: QTextCursor, text: str, fmt: QTextCharFormat) -> None:
        if not text:
            return
        if self.open_span is not None and self.open_span[0] < len(self.marks):
            fmt = QTextCharFormat(fmt)
            fmt.merge(self.target.highlight(self.marks[self.open_span[0]]))
        cursor.insertText(text, fmt)

