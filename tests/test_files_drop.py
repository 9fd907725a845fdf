"""A file dropped on the chat composer: its text goes into the message (and from there
through the preview, the send and the restore like typed text)."""

from __future__ import annotations

import pytest
from files_support import make_docx

pytestmark = pytest.mark.gui


def _drop(pane, paths) -> None:
    """What the composer does with a drop of local files. (Qt's offscreen platform has no
    drag and drop: a synthetic QDropEvent is not routed to widgets, so the test calls the
    handler the event filter calls.)"""
    from PySide6.QtCore import QMimeData, QUrl

    from desktop.file_drop import _dropped_files

    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    pane.file_drop.drop_files(_dropped_files(mime))


def test_dropped_docx_text_goes_into_the_message(qtbot, tmp_path):
    from desktop.composer import ComposerPane

    path = tmp_path / "memo.docx"
    make_docx(path)
    pane = ComposerPane()
    qtbot.addWidget(pane)
    pane.composer.setPlainText("Summarise this for the client:")
    pane.composer.moveCursor(pane.composer.textCursor().MoveOperation.End)
    _drop(pane, [path])
    qtbot.waitUntil(lambda: pane.file_drop.pending == 0, timeout=20000)
    text = pane.composer.toPlainText()
    assert "[memo.docx]" in text
    assert "Client: Marguerite Okonkwo of Brightfield Legal LLP" in text
    assert "file://" not in text  # not the URL the editor would have pasted


def test_unsupported_drop_says_why(qtbot, tmp_path):
    from desktop.composer import ComposerPane

    path = tmp_path / "photo.png"
    path.write_bytes(b"\x89PNG")
    pane = ComposerPane()
    qtbot.addWidget(pane)
    pane.show()
    _drop(pane, [path])
    qtbot.waitUntil(lambda: pane.file_drop.pending == 0, timeout=20000)
    assert pane.composer.toPlainText() == ""
    assert "can attach" in pane.warning_label.text() and pane.warning_label.isVisible()


def test_dropped_file_is_previewed_sent_sanitized_and_the_answer_restored(qtbot, veil, fake_openai, tmp_path):
    from desktop_support import wait_answer
    from provider_fakes import Reply, last_user_text

    chat = veil.chat
    note = tmp_path / "visit.txt"
    note.write_text("Visit notes: Marguerite Okonkwo (m.okonkwo@brightfield-legal.com) called about her lease.\n",
                    encoding="utf-8")
    chat.composer.setPlainText("Summarise:")
    chat.composer.moveCursor(chat.composer.textCursor().MoveOperation.End)
    _drop(chat.pane, [note])
    qtbot.waitUntil(lambda: "[visit.txt]" in chat.composer.toPlainText(), timeout=20000)
    qtbot.waitUntil(lambda: chat.last_draft is not None and "[visit.txt]" in chat.preview.text()
                    and not chat.preview.rendering, timeout=30000)
    shown = chat.preview.text()
    assert "Okonkwo" not in shown and "brightfield-legal" not in shown
    assert {"PERSON", "EMAIL"} <= {m.label for m in chat.preview.marks()}
    person = next(m for m in chat.preview.marks() if m.label == "PERSON")
    stand_in = shown[person.start:person.end]
    fake_openai.plan(Reply(f"{stand_in} called about a lease."))
    chat.send_button.click()
    answer = wait_answer(qtbot, chat)
    assert last_user_text("openai", fake_openai.requests[-1].json) == shown
    assert "Okonkwo" not in fake_openai.all_bodies()
    assert answer.body.text() == "Marguerite Okonkwo called about a lease."
