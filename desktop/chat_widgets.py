"""The chat window's building blocks: the marks that highlight values (preview, answers,
what was sent), the banner with its actions, one message of the transcript, the
transcript itself, and the page shown while the vault is locked.

They render what they are given and report clicks through signals; the window
(desktop/chat.py) decides what happens.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from agent.entities import Action, Label
from agent.providers.kinds import provider_name
from agent.session.conversation import Message, MessageState
from desktop import icons
from desktop.markdown_view import MarkdownView
from desktop.textview import HighlightView, Mark

USER_TEXT_SHOWN = 4000  # longer messages are folded in the transcript ("Show all")


def _e(text: str) -> str:
    return html.escape(text, quote=False)


def _nowrap(tip: str) -> str:
    return f"<div style='white-space:nowrap'>{tip}</div>"


def preview_marks(result) -> list[Mark]:
    """Marks for a SanitizeResult: each entity at its place in the sanitized text."""
    marks = []
    for r in result.entities:
        label = r.label.value
        if r.action is Action.KEEP:
            tip = (f"<b>{label}</b> — sent as it is<br>why: {_e(r.reason)}<br>"
                   "<i>Click to replace it with a stand-in</i>")
            style = "kept"
        else:
            action = "label" if r.action is Action.LABEL else "stand-in"
            tip = (f"<b>{label}</b> — real value: <b>{_e(r.real)}</b><br>sent as {action}: {_e(r.sent)}<br>"
                   f"why: {_e(r.reason)}<br>")
            tip += ("<i>Secrets are never sent</i>" if r.label is Label.SECRET
                    else "<i>Click to send the real value instead</i>")
            style = "replaced"
        marks.append(Mark(r.sanitized_start, r.sanitized_end, label, style, _nowrap(tip), r))
    return marks


def restored_marks(spans, offset: int = 0) -> list[Mark]:
    """Marks for RestoredSpans (offsets in the whole answer; `offset` is where the text
    being added starts)."""
    return [
        Mark(s.start - offset, s.end - offset, s.label.value, "restored",
             _nowrap(f"<b>{s.label.value}</b> — restored: <b>{_e(s.real)}</b><br>the answer said: {_e(s.stand_in)}"), s)
        for s in spans
    ]


def sent_marks(result) -> list[Mark]:
    """Marks for what was sent, from restoring it with the conversation's map: each
    restored span's place in the restored text, moved back to where its stand-in is."""
    marks, shift = [], 0
    for s in sorted(result.spans, key=lambda s: s.start):
        start = s.start + shift
        end = start + len(s.stand_in)
        shift += len(s.stand_in) - (s.end - s.start)
        tip = (f"<b>{s.label.value}</b> — real value: <b>{_e(s.real)}</b><br>sent as: {_e(s.stand_in)}")
        marks.append(Mark(start, end, s.label.value, "replaced", _nowrap(tip), s))
    return marks


class Banner(QFrame):
    """A one-line message across the window, with optional action buttons."""

    def __init__(self, kind: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName(f"banner-{kind}")
        colors = {"error": ("#b3261e", "#ffffff"), "info": ("#e8c547", "#1f1f1f")}[kind]
        self.setStyleSheet(
            f"QFrame#banner-{kind} {{ background: {colors[0]}; border-radius: 4px; }}"
            f"QFrame#banner-{kind} QLabel {{ color: {colors[1]}; }}"
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.label, 1)
        self.action_button = QPushButton()  # the main action (Retry, Unlock…)
        self.action_button.setVisible(False)
        layout.addWidget(self.action_button)
        self.second_button = QPushButton()  # e.g. Open Settings
        self.second_button.setVisible(False)
        layout.addWidget(self.second_button)
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setToolTip("Dismiss")
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(self.hide)
        layout.addWidget(self.close_button)
        self._actions: list = [None, None]
        self.action_button.clicked.connect(lambda: self._run_action(0))
        self.second_button.clicked.connect(lambda: self._run_action(1))
        self.hide()

    def show_message(self, text: str, action: str = "", callback=None, *, second: str = "",
                     second_callback=None) -> None:
        self.label.setText(text)
        self._actions = [callback, second_callback]
        for button, label in ((self.action_button, action), (self.second_button, second)):
            button.setText(label)
            button.setVisible(bool(label))
        self.show()

    def show_failure(self, failure, retry=None, open_settings=None) -> None:
        """A FailureMessage (agent.providers.errors): its text, and Retry (when the message is
        kept and trying again can help) and Open Settings (when a setting is the fix)."""
        text = failure.text + ("\nYour message is saved." if retry is not None else "")
        actions = [("Retry", retry)] if failure.retry and retry is not None else []
        if failure.open_settings and open_settings is not None:
            actions.append(("Open Settings", open_settings))
        actions += [("", None)] * (2 - len(actions))
        self.show_message(text, *actions[0], second=actions[1][0], second_callback=actions[1][1])

    def _run_action(self, index: int) -> None:
        callback = self._actions[index]
        self.hide()
        if callback is not None:
            callback()


class MessageView(QFrame):
    """One message in the transcript: who, the text, copy, and a state line."""

    retry_clicked = Signal(int)
    sent_requested = Signal(object)  # this view wants the marks of what was sent (show_sent_marks)

    def __init__(self, role: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.role = role
        self.message: Message | None = None
        self.setObjectName("user-message" if role == "user" else "assistant-message")
        self.setStyleSheet(
            "QFrame#user-message { background: palette(alternate-base); border-radius: 8px; }"
            "QFrame#assistant-message { background: palette(base); border: 1px solid palette(mid); border-radius: 8px; }"
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 8)
        layout.setSpacing(2)
        head = QHBoxLayout()
        self.title = QLabel("<b>You</b>" if role == "user" else "<b>Answer</b>")
        head.addWidget(self.title)
        self.meta = QLabel()
        self.meta.setEnabled(False)
        head.addWidget(self.meta)
        head.addStretch(1)
        self.toggle_sent = QToolButton()
        self.toggle_sent.setText("Show what was sent")
        self.toggle_sent.setCheckable(True)
        self.toggle_sent.setAutoRaise(True)
        self.toggle_sent.setVisible(role == "user")
        self.toggle_sent.toggled.connect(self._show_sent)
        head.addWidget(self.toggle_sent)
        self.retry_button = QToolButton()
        self.retry_button.setText("Retry")
        self.retry_button.setVisible(False)
        self.retry_button.clicked.connect(lambda: self.message and self.message.id is not None
                                          and self.retry_clicked.emit(self.message.id))
        head.addWidget(self.retry_button)
        self.copy_button = QToolButton()
        self.copy_button.setText("Copy")
        self.copy_button.setAutoRaise(True)
        self.copy_button.setToolTip("Copy this message (with the real values)")
        self.copy_button.clicked.connect(self.copy)
        head.addWidget(self.copy_button)
        layout.addLayout(head)
        # Answers are Markdown (restored values highlighted inside); what the user typed is shown as typed.
        self.body = MarkdownView(self, fit_height=True) if role == "assistant" else HighlightView(self, fit_height=True)
        self.body.setStyleSheet("QTextEdit { background: transparent; }")
        layout.addWidget(self.body)
        self.show_all = QToolButton()
        self.show_all.setAutoRaise(True)
        self.show_all.setVisible(False)
        self.show_all.clicked.connect(self._unfold)
        layout.addWidget(self.show_all, 0, Qt.AlignmentFlag.AlignLeft)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setVisible(False)
        layout.addWidget(self.note)
        self._full = ""

    # -- user messages -------------------------------------------------------------------------------
    def set_user_text(self, text: str) -> None:
        self._full = text
        if len(text) > USER_TEXT_SHOWN:
            self.body.set_content(text[:USER_TEXT_SHOWN] + " …")
            self.show_all.setText(f"Show all ({len(text):,} characters)")
            self.show_all.setVisible(True)
        else:
            self.body.set_content(text)

    def _unfold(self) -> None:
        self.show_all.setVisible(False)
        self.body.set_content(self._full)
        if self.toggle_sent.isChecked():
            self.sent_requested.emit(self)

    def _show_sent(self, on: bool) -> None:
        if self.message is None:
            return
        self.title.setText("<b>Sent</b>" if on else "<b>You</b>")
        self.toggle_sent.setText("Show what you typed" if on else "Show what was sent")
        self.set_user_text(self.message.sent if on else self.message.typed)
        if on:
            self.sent_requested.emit(self)  # the stand-ins get highlighted when the window has them

    def show_sent_marks(self, marks: list[Mark]) -> None:
        """What was sent, with its stand-ins highlighted like the preview (hover: the real value)."""
        if self.toggle_sent.isChecked() and self.message is not None:
            self._full = self.message.sent
            self.body.set_content(self.message.sent, marks)

    # -- answers -----------------------------------------------------------------------------------------
    def append_answer(self, chunks) -> None:
        """SendChunks (in order) -> one append with their restored spans."""
        if not chunks:
            return
        base = chunks[0].start
        text = "".join(c.text for c in chunks)
        spans = [s for c in chunks for s in c.spans]
        self.body.append_content(text, restored_marks(spans, base))

    def set_answer(self, text: str, spans=()) -> None:
        self.body.set_content(text, restored_marks(spans))

    def finish_answer(self) -> None:
        """The stream ended (answered, stopped or failed): render its last block for good."""
        self.body.finish()

    def set_state(self, message: Message, note: str = "", *, error: bool = False) -> None:
        self.message = message
        meta = []
        if self.role == "assistant":
            if message.provider:
                meta.append(provider_name(message.provider) + (f" · {message.model}" if message.model else ""))
            state = {
                MessageState.SENDING: "answering…", MessageState.FAILED: "failed",
                MessageState.CANCELLED: "cancelled", MessageState.UNSENT: "not sent",
            }.get(message.state)
            if state:
                meta.append(state)
            self.retry_button.setVisible(message.state in (MessageState.FAILED, MessageState.CANCELLED,
                                                           MessageState.UNSENT))
        self.meta.setText("  ·  ".join(meta))
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self.note.setStyleSheet("color: #d9534f;" if error else "color: #b36200;")

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self._full if self.role == "user" and self._full else self.body.text())


class Transcript(QScrollArea):
    """The conversation's messages, top to bottom; a hint in the middle while empty."""

    retry_clicked = Signal(int)
    sent_requested = Signal(object)  # a MessageView wants the marks of what was sent

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.views: list[MessageView] = []
        holder = QWidget()
        self.column = QVBoxLayout(holder)
        self.column.setContentsMargins(4, 4, 12, 4)
        self.column.setSpacing(8)
        self.empty_label = QLabel(
            "<p style='font-size:14pt'>Ask anything.</p>"
            "<p>Before you send, the panel below shows exactly what will leave this computer: "
            "names, emails, numbers and other personal data are swapped for stand-ins "
            "(highlighted; hover to see the real value, click to keep it). "
            "The answer comes back with the real values restored.</p>"
        )
        self.empty_label.setWordWrap(True)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setEnabled(False)
        self.column.addStretch(1)
        self.column.addWidget(self.empty_label)
        self.column.addStretch(1)
        self.setWidget(holder)

    def clear(self) -> None:
        for view in self.views:
            view.setParent(None)
            view.deleteLater()
        self.views = []
        self.empty_label.setVisible(True)
        self.column.setStretch(0, 1)  # the empty-state text sits in the middle

    def add(self, role: str) -> MessageView:
        view = MessageView(role)
        view.retry_clicked.connect(self.retry_clicked.emit)
        view.sent_requested.connect(self.sent_requested.emit)
        self.empty_label.setVisible(False)
        self.column.setStretch(0, 0)  # messages start at the top
        self.column.insertWidget(self.column.count() - 1, view)
        self.views.append(view)
        return view

    def answer_view(self, message_id: int) -> MessageView | None:
        return next((v for v in self.views if v.role == "assistant" and v.message and v.message.id == message_id),
                    None)

    def scroll_to_end(self, *, only_if_at_end: bool = False) -> None:
        bar = self.verticalScrollBar()
        if only_if_at_end and bar.value() < bar.maximum() - 40:
            return
        QTimer.singleShot(0, lambda: bar.setValue(bar.maximum()))


class LockedPage(QWidget):
    """What the window shows while the vault is locked: no real value at all."""

    unlock_clicked = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("locked-page")
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        picture = QLabel()
        picture.setPixmap(icons.icon("veil-locked").pixmap(72, 72))
        picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(picture)
        title = QLabel("<p style='font-size:15pt'>The vault is locked</p>")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(title)
        note = QLabel("Conversations, drafts and real values are hidden until you unlock it.")
        note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        note.setEnabled(False)
        layout.addWidget(note)
        row = QHBoxLayout()
        row.addStretch(1)
        self.unlock_button = QPushButton("Unlock…")
        self.unlock_button.setObjectName("unlock")
        self.unlock_button.clicked.connect(self.unlock_clicked.emit)
        row.addWidget(self.unlock_button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(2)
