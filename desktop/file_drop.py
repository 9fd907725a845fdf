"""Files dropped on the chat composer: their text goes into the message.

A dropped .txt/.md/.csv/.tsv/.json/.jsonl/.docx/.pdf/.srt/.vtt is read (off the UI thread,
with agent.files.attach) and inserted at the drop point as "[name]" and its text, so it
goes through the same path as typed text: the preview with its highlights and
keep/replace clicks, the send, and the restored answer. Other drops (plain text, an
unsupported file) are left to the editor, or refused with a message.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QPlainTextEdit

from desktop.tasks import Invoker

log = logging.getLogger("veil.desktop")


def _dropped_files(mime) -> list[Path]:
    if mime is None or not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]


class FileDrop(QObject):
    """Event filter on a QPlainTextEdit and its viewport (where drops arrive)."""

    def __init__(self, editor: QPlainTextEdit, on_error: Callable[[str], None] | None = None):
        super().__init__(editor)
        self.editor = editor
        self.on_error = on_error or (lambda message: log.warning("%s", message))
        self.invoker = Invoker()
        self.pending = 0  # files being read (tests wait for 0)
        # Drops reach the first widget up from the pointer that accepts drops: the
        # viewport normally, the editor itself when the viewport does not.
        for widget in (editor.viewport(), editor):
            widget.setAcceptDrops(True)
            widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            if _dropped_files(event.mimeData()):
                event.acceptProposedAction()
                return True
        elif kind == QEvent.Type.Drop:
            files = _dropped_files(event.mimeData())
            if files:
                event.acceptProposedAction()
                self.drop_files(files, event.position().toPoint())
                return True
        return False

    def drop_files(self, files: list[Path], point=None) -> None:
        """The files dropped at point (viewport coordinates; None: at the cursor)."""
        if point is not None:
            self.editor.setTextCursor(self.editor.cursorForPosition(point))
        for path in files:
            self.attach(path)

    def attach(self, path: Path) -> None:
        """Read path in a worker thread; insert its text at the cursor when it is read."""
        self.pending += 1

        def work() -> None:
            from agent.files.attach import read_attachment
            from agent.files.document import FileRejected

            part, error = None, None
            try:
                part = read_attachment(path).as_message_part()
            except FileRejected as exc:
                error = str(exc)
            except OSError as exc:
                error = f"{path.name}: {exc.strerror or exc}"
            self.invoker.post(lambda: self._done(part, error))

        threading.Thread(target=work, name="veil-attach", daemon=True).start()

    def _done(self, part: str | None, error: str | None) -> None:
        self.pending -= 1
        if error is not None:
            self.on_error(error)
            return
        cursor = self.editor.textCursor()
        before = self.editor.toPlainText()[: cursor.position()]
        if before and not before.endswith("\n"):
            part = "\n" + part
        cursor.insertText(part)
        self.editor.setTextCursor(cursor)
        self.editor.setFocus()


def install_file_drop(editor: QPlainTextEdit, on_error: Callable[[str], None] | None = None) -> FileDrop:
    return FileDrop(editor, on_error)
