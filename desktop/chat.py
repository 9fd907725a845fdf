"""The chat window: conversations, a composer with a live preview of exactly what will
be sent, and answers streamed in with the real values restored and highlighted.

Everything slow runs in workers (AppState.background); the window only renders state
and turns clicks into calls of agent/ objects (EngineHost, Sender, the vault).
"""

from __future__ import annotations

import html
import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from agent.decide.choices import chosen_for_all, distinct_values, toggled
from agent.entities import Action, Label
from agent.providers.errors import describe_failure
from agent.session.conversation import Conversation, Message, MessageState
from desktop import icons
from desktop.colors import risk_color
from desktop.details_panel import DetailsPanel
from desktop.dialogs import confirm
from desktop.markdown_view import MarkdownView
from desktop.provider_picker import ProviderPicker, destination_text
from desktop.state import AppState, EnginePhase, VaultPhase
from desktop.tasks import ChunkPipe
from desktop.textview import HighlightView, Mark

if TYPE_CHECKING:
    from agent.engine.host import DryRun

log = logging.getLogger("veil.desktop")

PREVIEW_DELAY_MS = 300
USER_TEXT_SHOWN = 4000  # longer messages are folded in the transcript ("Show all")
CLIPBOARD_PREFIX = "clipboard-"


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
                meta.append(message.provider + (f" · {message.model}" if message.model else ""))
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


class ChatWindow(QMainWindow):
    def __init__(self, state: AppState, host: Any):
        """`host` is the app (VeilApp): ensure_vault(then), open_settings()."""
        super().__init__()
        self.state = state
        self.host = host
        self.background = state.background
        self.conversation: Conversation | None = None
        self.conversation_stored = False
        self.views: list[MessageView] = []
        self.last_draft: DryRun | None = None
        self._draft_text = ""
        self._preview_seq = 0
        self.reply: Any = None  # SendStream on its way
        self.sending = False
        self.last_error = ""
        self._restore_after_unlock: tuple[str | None, str] = (None, "")  # while locked
        self._hide_on_close = True
        self.setWindowTitle("Veil")
        self.setWindowIcon(icons.icon())
        self.resize(1100, 760)
        self.setMinimumSize(720, 480)
        self._build()
        self._shortcuts()
        state.engine_changed.connect(self._engine_changed)
        state.vault_changed.connect(self._vault_changed)
        state.conversations_changed.connect(self.refresh_conversations)
        state.settings_changed.connect(self._show_destination)
        self._engine_changed()
        self._vault_changed()
        self._show_destination()
        self.new_conversation()

    # -- layout ----------------------------------------------------------------------------------------
    def _build(self) -> None:
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.setChildrenCollapsible(False)
        # Conversations
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(8, 8, 0, 8)
        self.new_button = QPushButton("New conversation")
        self.new_button.setToolTip("Start a new conversation (Ctrl+N)")
        self.new_button.clicked.connect(self.new_conversation)
        left_layout.addWidget(self.new_button)
        self.conversation_list = QListWidget()
        self.conversation_list.setObjectName("conversations")
        self.conversation_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.conversation_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.conversation_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.conversation_list.itemActivated.connect(self._conversation_chosen)
        self.conversation_list.itemClicked.connect(self._conversation_chosen)
        self.conversation_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.conversation_list.customContextMenuRequested.connect(self._list_menu)
        left_layout.addWidget(self.conversation_list, 1)
        splitter.addWidget(left)

        right = QWidget()
        layout = QVBoxLayout(right)
        layout.setContentsMargins(8, 8, 8, 8)
        # Provider / model picker and status
        bar = QHBoxLayout()
        self.picker = ProviderPicker(self.state)
        self.picker.failed.connect(self.show_error)
        self.picker.status.connect(lambda text: self.status_label.setText(text))
        self.provider_combo, self.model_combo = self.picker.provider_combo, self.picker.model_combo
        bar.addWidget(self.picker)
        bar.addStretch(1)
        self.status_label = QLabel()
        self.status_label.setEnabled(False)
        bar.addWidget(self.status_label)
        settings_button = QToolButton()
        settings_button.setText("Settings")
        settings_button.clicked.connect(lambda: self.host.open_settings())
        bar.addWidget(settings_button)
        layout.addLayout(bar)

        self.info_banner = Banner("info")
        layout.addWidget(self.info_banner)
        self.error_banner = Banner("error")
        layout.addWidget(self.error_banner)

        vertical = QSplitter(Qt.Orientation.Vertical)
        vertical.setChildrenCollapsible(False)
        # Transcript
        self.transcript = QScrollArea()
        self.transcript.setWidgetResizable(True)
        self.transcript.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        holder = QWidget()
        self.transcript_layout = QVBoxLayout(holder)
        self.transcript_layout.setContentsMargins(4, 4, 12, 4)
        self.transcript_layout.setSpacing(8)
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
        self.transcript_layout.addStretch(1)
        self.transcript_layout.addWidget(self.empty_label)
        self.transcript_layout.addStretch(1)
        self.transcript.setWidget(holder)
        vertical.addWidget(self.transcript)

        # Composer and preview
        bottom = QWidget()
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 4, 0, 0)
        self.composer = QPlainTextEdit()
        self.composer.setObjectName("composer")
        self.composer.setPlaceholderText("Type a message… (Ctrl+Enter sends)")
        self.composer.setTabChangesFocus(True)
        self.composer.textChanged.connect(self._composer_changed)
        self.composer.installEventFilter(self)
        bottom_layout.addWidget(self.composer, 2)
        head = QHBoxLayout()
        self.preview_title = QLabel("<b>What will be sent</b>")
        head.addWidget(self.preview_title)
        self.preview_status = QLabel()
        self.preview_status.setEnabled(False)
        head.addWidget(self.preview_status)
        head.addStretch(1)
        self.risk_label = QLabel()
        self.risk_label.setObjectName("risk")
        head.addWidget(self.risk_label)
        self.copy_sent_button = QToolButton()
        self.copy_sent_button.setText("Copy sanitized")
        self.copy_sent_button.setToolTip("Copy the text exactly as it will be sent")
        self.copy_sent_button.setAutoRaise(True)
        self.copy_sent_button.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.preview.text()))
        head.addWidget(self.copy_sent_button)
        self.details_button = QToolButton()
        self.details_button.setText("Details")
        self.details_button.setToolTip("Show or hide the list of everything detected, with keep/replace per value")
        self.details_button.setCheckable(True)
        self.details_button.setChecked(True)
        self.details_button.setAutoRaise(True)
        self.details_button.toggled.connect(lambda on: self.details.setVisible(on))
        head.addWidget(self.details_button)
        bottom_layout.addLayout(head)
        self.preview = HighlightView(clickable=True)
        self.preview.setObjectName("preview")
        self.preview.setPlaceholderText("The sanitized text appears here as you type.")
        self.preview.mark_clicked.connect(self.toggle_entity)
        bottom_layout.addWidget(self.preview, 2)
        self.warning_label = QLabel()
        self.warning_label.setWordWrap(True)
        self.warning_label.setStyleSheet("color: #b36200;")
        self.warning_label.setVisible(False)
        bottom_layout.addWidget(self.warning_label)
        buttons = QHBoxLayout()
        hint = QLabel("Hover a highlighted value to see the real one; click it to keep or replace it.")
        hint.setEnabled(False)
        buttons.addWidget(hint, 1)
        self.destination_label = QLabel()
        self.destination_label.setObjectName("destination")
        buttons.addWidget(self.destination_label)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the answer (Esc)")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        buttons.addWidget(self.cancel_button)
        self.send_button = QPushButton("Send")
        self.send_button.setObjectName("send")
        self.send_button.setToolTip("Send the sanitized text (Ctrl+Enter)")
        self.send_button.setDefault(True)
        self.send_button.clicked.connect(self.send)
        buttons.addWidget(self.send_button)
        bottom_layout.addLayout(buttons)
        vertical.addWidget(bottom)
        vertical.setStretchFactor(0, 3)
        vertical.setStretchFactor(1, 2)
        vertical.setSizes([430, 300])
        layout.addWidget(vertical, 1)
        splitter.addWidget(right)
        self.details = DetailsPanel()
        self.details.value_toggled.connect(self.choose_for_value)
        self.details.type_toggled.connect(self.choose_for_type)
        self.details.reset_requested.connect(self.reset_choices)
        splitter.addWidget(self.details)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([220, 620, 380])
        # The chat, or (vault locked) a page that shows no real value at all.
        self.pages = QStackedWidget()
        self.pages.addWidget(splitter)
        self.locked_page = self._build_locked_page()
        self.pages.addWidget(self.locked_page)
        self.setCentralWidget(self.pages)

        self.preview_timer = QTimer(self)
        self.preview_timer.setSingleShot(True)
        self.preview_timer.setInterval(PREVIEW_DELAY_MS)
        self.preview_timer.timeout.connect(self.update_preview)

        QWidget.setTabOrder(self.conversation_list, self.composer)
        QWidget.setTabOrder(self.composer, self.preview)
        QWidget.setTabOrder(self.preview, self.send_button)
        QWidget.setTabOrder(self.send_button, self.cancel_button)
        QWidget.setTabOrder(self.cancel_button, self.provider_combo)
        QWidget.setTabOrder(self.provider_combo, self.model_combo)
        QWidget.setTabOrder(self.model_combo, self.new_button)
        QWidget.setTabOrder(self.new_button, self.conversation_list)

    def _build_locked_page(self) -> QWidget:
        page = QWidget()
        page.setObjectName("locked-page")
        layout = QVBoxLayout(page)
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
        self.unlock_button.clicked.connect(lambda: self.host.ensure_vault(lambda: None))
        row.addWidget(self.unlock_button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(2)
        return page

    def _shortcuts(self) -> None:
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, activated=self.send)
        QShortcut(QKeySequence("Escape"), self, activated=self.cancel)
        QShortcut(QKeySequence("Ctrl+N"), self, activated=self.new_conversation)
        QShortcut(QKeySequence("Ctrl+L"), self, activated=lambda: self.composer.setFocus())
        rename = QAction("Rename", self.conversation_list)
        rename.setShortcut(QKeySequence("F2"))
        rename.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        rename.triggered.connect(self.rename_current)
        delete = QAction("Delete", self.conversation_list)
        delete.setShortcut(QKeySequence.StandardKey.Delete)
        delete.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        delete.triggered.connect(self.delete_current)
        self.conversation_list.addAction(rename)
        self.conversation_list.addAction(delete)

    def eventFilter(self, watched, event) -> bool:
        # The window's shortcuts only fire while it is the active window; keys typed in the
        # composer must work whatever the window manager thinks.
        if watched is self.composer and event.type() == QEvent.Type.KeyPress:
            key, mods = event.key(), event.modifiers()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and mods & Qt.KeyboardModifier.ControlModifier:
                self.send()
                return True
            if key == Qt.Key.Key_Escape and self.sending:
                self.cancel()
                return True
        return super().eventFilter(watched, event)

    def sizeHint(self) -> QSize:
        return QSize(1100, 760)

    def set_hide_on_close(self, hide: bool) -> None:
        self._hide_on_close = hide

    def closeEvent(self, event) -> None:
        if self._hide_on_close:
            event.ignore()
            self.hide()
        else:
            self.preview_timer.stop()  # the app is closing: no more work for its workers
            super().closeEvent(event)

    # -- status --------------------------------------------------------------------------------------------
    def _engine_changed(self) -> None:
        phase = self.state.engine_phase
        text = {EnginePhase.LOADING: "Privacy engine loading…", EnginePhase.READY: "Protection on",
                EnginePhase.FAILED: "Privacy engine failed"}[phase]
        self.status_label.setText(text)
        if phase == EnginePhase.FAILED:
            self.error_banner.show_message(f"The privacy engine could not start: {self.state.engine_error}")
        if phase == EnginePhase.READY and self.composer.toPlainText().strip() and not self.last_draft:
            self.update_preview()

    def _vault_changed(self) -> None:
        phase = self.state.vault_phase
        locked = phase in (VaultPhase.LOCKED, VaultPhase.NEEDS_PASSPHRASE)
        if locked and not self.locked_view:
            self._hide_for_lock()
        elif phase == VaultPhase.OPEN and self.locked_view:
            self._show_after_unlock()
        if locked:
            self.info_banner.show_message("The vault is locked: conversations cannot be opened or saved.",
                                          "Unlock…", lambda: self.host.ensure_vault(self.refresh_conversations))
        elif phase == VaultPhase.FAILED:
            self.info_banner.show_message(f"The vault cannot be used: {self.state.vault_error}")
        elif self.info_banner.label.text().startswith("The vault"):
            self.info_banner.hide()

    def show_info(self, text: str) -> None:
        self.info_banner.show_message(text)

    # -- locked: nothing real on screen ----------------------------------------------------------------
    @property
    def locked_view(self) -> bool:
        return self.pages.currentWidget() is self.locked_page

    def _hide_for_lock(self) -> None:
        """Clear (not just cover) everything that shows real values: the transcript, the
        list's titles, the draft and its preview, the window title. What is needed to
        bring it back stays in memory: the conversation's id and the draft."""
        if self.reply is not None:
            self.reply.cancel()  # kept as cancelled in the vault; Retry sends it again
        self._restore_after_unlock = (self.conversation.id if self.conversation_stored and self.conversation else None,
                                      self.composer.toPlainText())
        self.pages.setCurrentWidget(self.locked_page)
        self.preview_timer.stop()
        self._preview_seq += 1
        self._clear_transcript()
        self.conversation_list.clear()
        self.composer.blockSignals(True)
        self.composer.clear()
        self.composer.blockSignals(False)
        self.preview.clear_content()
        self.details.clear()
        self.last_draft = None
        for label in (self.risk_label, self.preview_status, self.warning_label):
            label.clear()
        self.risk_label.setToolTip("")
        self.error_banner.hide()
        self.error_banner.label.clear()
        self.setWindowTitle("Veil — locked")

    def _show_after_unlock(self) -> None:
        conversation_id, draft = self._restore_after_unlock
        self._restore_after_unlock = (None, "")
        self.pages.setCurrentIndex(0)
        self.setWindowTitle("Veil")
        if conversation_id is not None:
            self.open_conversation(conversation_id)
        else:
            self.new_conversation()
        self.composer.setPlainText(draft)
        self.refresh_conversations()

    # -- conversations ------------------------------------------------------------------------------------
    def refresh_conversations(self) -> None:
        if not self.state.vault_is_open():
            return
        store = self.state.store
        self.background.submit(store.list_conversations, self._show_conversations, self._vault_error)

    def _show_conversations(self, summaries) -> None:
        if self.locked_view:
            return  # listed before the lock: not shown now
        current = self.conversation.id if self.conversation else None
        self.conversation_list.clear()
        for summary in summaries:
            if summary.id.startswith(CLIPBOARD_PREFIX):
                continue  # the clipboard's maps: kept for restoring, not chats
            item = QListWidgetItem(summary.title or "(untitled)")
            item.setData(Qt.ItemDataRole.UserRole, summary.id)
            item.setToolTip(f"{_e(summary.title or '(untitled)')}<br>{summary.message_count} "
                            f"message{'s' if summary.message_count != 1 else ''} · F2 renames, Delete deletes")
            self.conversation_list.addItem(item)
            if summary.id == current:
                item.setSelected(True)
                self.conversation_list.setCurrentItem(item)

    def _vault_error(self, exc: BaseException) -> None:
        from agent.vault import VaultLocked

        if isinstance(exc, VaultLocked):
            self.state.note_vault_locked()
            return
        self.error_banner.show_message(f"Vault: {exc}")

    def new_conversation(self) -> None:
        if self.sending:
            return
        self.conversation = Conversation()
        self.conversation_stored = False
        self._clear_transcript()
        self.conversation_list.clearSelection()
        self.last_draft = None
        if not self.locked_view:
            self.setWindowTitle("Veil — new conversation")
        self._composer_changed()
        self.composer.setFocus()

    def _conversation_chosen(self, item: QListWidgetItem) -> None:
        conversation_id = item.data(Qt.ItemDataRole.UserRole)
        if self.sending or (self.conversation and self.conversation.id == conversation_id):
            return
        self.open_conversation(conversation_id)

    def open_conversation(self, conversation_id: str) -> None:
        store, engine = self.state.store, self.state.engine
        ready = self.state.engine_phase == EnginePhase.READY

        def load():
            conversation = store.load_conversation(conversation_id)
            messages = store.list_messages(conversation_id)
            restored = {}
            for m in messages:
                # The answer's highlights are recomputed from the map (spans are not stored).
                if m.received and ready:
                    try:
                        restored[m.id] = engine.restore(m.received, conversation)
                    except Exception:
                        log.debug("re-restoring message %s failed", m.id, exc_info=True)
            return conversation, messages, restored

        self.background.submit(load, self._show_conversation, self._vault_error)

    def _show_conversation(self, loaded) -> None:
        if self.locked_view:
            return
        conversation, messages, restored = loaded
        self.conversation = conversation
        self.conversation_stored = True
        self.last_draft = None
        self.setWindowTitle(f"Veil — {conversation.title or 'conversation'}")
        self._clear_transcript()
        for message in messages:
            user = self._add_view("user")
            user.message = message
            user.set_user_text(message.typed)
            answer = self._add_view("assistant")
            result = restored.get(message.id)
            if result is not None:
                answer.set_answer(result.text, result.spans)
            else:
                answer.set_answer(message.shown)
            answer.set_state(message, message.error, error=message.state is MessageState.FAILED)
        self._scroll_to_end()
        self._composer_changed()

    def _list_menu(self, point) -> None:
        item = self.conversation_list.itemAt(point)
        if item is None:
            return
        # The list may be refreshed (its items deleted) while the menu is open: keep the id.
        conversation_id, title = item.data(Qt.ItemDataRole.UserRole), item.text()
        menu = QMenu(self)
        menu.addAction("Rename…", lambda: self.rename_conversation(conversation_id, current=title))
        menu.addAction("Delete…", lambda: self.delete_conversation(conversation_id, current=title))
        menu.exec(self.conversation_list.mapToGlobal(point))

    def rename_current(self) -> None:
        item = self.conversation_list.currentItem()
        if item is not None:
            self.rename_conversation(item.data(Qt.ItemDataRole.UserRole), current=item.text())

    def delete_current(self) -> None:
        item = self.conversation_list.currentItem()
        if item is not None:
            self.delete_conversation(item.data(Qt.ItemDataRole.UserRole), current=item.text())

    def rename_conversation(self, conversation_id: str, title: str | None = None, *, current: str = "") -> None:
        if title is None:
            title, ok = QInputDialog.getText(self, "Rename conversation", "Title:", text=current)
            if not ok:
                return
        title = title.strip()
        if not title:
            return
        store = self.state.store

        def done(_: object) -> None:
            if self.conversation is not None and self.conversation.id == conversation_id:
                self.conversation.title = title
                self.setWindowTitle(f"Veil — {title}")
            self.refresh_conversations()

        self.background.submit(lambda: store.rename_conversation(conversation_id, title), done, self._vault_error)

    def delete_conversation(self, conversation_id: str, *, current: str = "", confirmed: bool = False) -> None:
        if not confirmed and not confirm(
            self, "Delete conversation",
            f"Delete “{current or 'this conversation'}” with its messages and its map of real values? "
            "This cannot be undone.",
            "Delete",
        ):
            return
        store = self.state.store

        def done(_: object) -> None:
            if self.conversation is not None and self.conversation.id == conversation_id:
                self.new_conversation()
            self.refresh_conversations()

        self.background.submit(lambda: store.delete_conversation(conversation_id), done, self._vault_error)

    # -- transcript -----------------------------------------------------------------------------------------
    def _clear_transcript(self) -> None:
        for view in self.views:
            view.setParent(None)
            view.deleteLater()
        self.views = []
        self.empty_label.setVisible(True)
        self._top_stretch(True)

    def _top_stretch(self, on: bool) -> None:
        """The empty-state text sits in the middle; messages start at the top."""
        self.transcript_layout.setStretch(0, 1 if on else 0)

    def _add_view(self, role: str) -> MessageView:
        view = MessageView(role)
        view.retry_clicked.connect(self.retry)
        view.sent_requested.connect(self.show_sent)
        self.empty_label.setVisible(False)
        self._top_stretch(False)
        self.transcript_layout.insertWidget(self.transcript_layout.count() - 1, view)
        self.views.append(view)
        return view

    def _scroll_to_end(self, *, only_if_at_end: bool = False) -> None:
        bar = self.transcript.verticalScrollBar()
        if only_if_at_end and bar.value() < bar.maximum() - 40:
            return
        QTimer.singleShot(0, lambda: bar.setValue(bar.maximum()))

    # -- preview ----------------------------------------------------------------------------------------------
    def _composer_changed(self) -> None:
        if not self.composer.toPlainText().strip():
            self.preview_timer.stop()
            self._preview_seq += 1
            self.last_draft = None
            self.preview.clear_content()
            self.details.clear()
            self.risk_label.clear()
            self.preview_status.clear()
            self.warning_label.setVisible(False)
            return
        self.preview_status.setText("checking…")
        self.preview_timer.start()

    def update_preview(self) -> None:
        """Sanitize the composer's text in a worker (dry run: the conversation is only
        changed when the message is sent) and show the result."""
        self.preview_timer.stop()
        text = self.composer.toPlainText()
        if not text.strip() or self.conversation is None:
            return
        if self.state.engine_phase != EnginePhase.READY:
            self.preview_status.setText("waiting for the privacy engine…")
            return
        self._preview_seq += 1
        seq = self._preview_seq
        conversation, engine = self.conversation, self.state.engine
        self.preview_status.setText("checking…")

        def done(draft) -> None:
            if seq != self._preview_seq or conversation is not self.conversation:
                return  # the text changed meanwhile: a newer preview is on its way
            self.show_preview(draft, text)

        def failed(exc: BaseException) -> None:
            if seq == self._preview_seq:
                self.preview_status.setText("")
                self.preview.set_content(f"(cannot sanitize this text: {exc})")
                self.last_draft = None

        self.background.submit(lambda: engine.dry_run(text, conversation), done, failed)

    def show_preview(self, draft: DryRun, text: str) -> None:
        if self.locked_view:
            return
        self.last_draft = draft
        self._draft_text = text
        result = draft.result
        self.preview.set_content(result.sanitized, preview_marks(result))
        counts = result.counts_by_label()
        replaced = sum(counts.values())
        kept = len(result.entities) - replaced
        self.preview_status.setText(
            f"{replaced} replaced, {kept} kept" if result.entities else "nothing personal found"
        )
        risk = result.risk
        color = risk_color(risk.level, self.palette()).name()
        self.risk_label.setText(f"Residual risk: <b style='color:{color}'>{risk.level}</b>"
                                + (f" ({risk.total:g})" if risk.total else ""))
        self.risk_label.setToolTip(
            "What is sent as it is, weighted by how identifying it is:<br>"
            + "<br>".join(f"{_e(t)} ({label.value}, {w:g})" for t, label, w in risk.items[:20])
            if risk.items else "Nothing identifying is sent as it is."
        )
        self.warning_label.setText("\n".join("⚠ " + w for w in result.warnings))
        self.warning_label.setVisible(bool(result.warnings))
        self.details.show_result(result, choices=len(self.conversation.choices) if self.conversation else 0)

    def toggle_entity(self, mark: Mark) -> None:
        """A click on a highlighted value in the preview."""
        if mark.key is not None:
            self.choose_for_value(mark.key)

    def choose_for_value(self, entity) -> None:
        """Keep the real value, or force a stand-in (agent.decide.choices says which):
        remembered for this conversation."""
        if self.conversation is None:
            return
        action = toggled(entity.action, entity.label, self.state.settings)
        if action is None:
            self.preview_status.setText("secrets are never sent")
            return
        self.conversation.set_choice(entity.real, entity.label, action)
        self._choices_changed()

    def choose_for_type(self, label, keep: bool, values: list[str]) -> None:
        """Keep (or swap) every value of a type found in this message."""
        if self.conversation is None:
            return
        action = chosen_for_all(label, keep, self.state.settings)
        if action is None:
            self.preview_status.setText("secrets are never sent")
            return
        for _, real in distinct_values((label, value) for value in values):
            self.conversation.set_choice(real, label, action)
        self._choices_changed()

    def reset_choices(self) -> None:
        """Forget this conversation's keep/replace choices: the engine decides again."""
        if self.conversation is None:
            return
        self.conversation.forget_choices()
        self._choices_changed()

    def _choices_changed(self) -> None:
        if self.conversation_stored and self.state.vault_is_open():
            conversation, store = self.conversation, self.state.store
            self.background.submit(lambda: store.save_conversation(conversation), None, self._vault_error)
        self.update_preview()

    def show_sent(self, view: MessageView) -> None:
        """Highlight the stand-ins of a sent message: found with the conversation's map."""
        conversation, engine, message = self.conversation, self.state.engine, view.message
        if conversation is None or message is None or self.state.engine_phase != EnginePhase.READY:
            return

        def done(result) -> None:
            if not self.locked_view:
                view.show_sent_marks(sent_marks(result))

        self.background.submit(lambda: engine.restore(message.sent, conversation), done,
                               lambda exc: log.debug("marking what was sent failed: %s", exc))

    # -- sending ------------------------------------------------------------------------------------------------
    def picked_provider(self) -> tuple[str, str]:
        self.picker.commit()
        return self.picker.picked()

    def send(self) -> None:
        text = self.composer.toPlainText()
        if self.sending or not text.strip() or self.conversation is None:
            return
        if not self.state.vault_is_open():
            self.host.ensure_vault(self.send)
            return
        self.sending = True
        self._set_sending(True)
        self.error_banner.hide()
        conversation = self.conversation
        draft = self.last_draft if self._draft_text == text else None
        kind, model = self.picked_provider()
        state = self.state
        stored = self.conversation_stored

        def prepare():
            sender = state.make_sender(kind, model or None)
            if not stored:
                # A new conversation exists only in memory until its first message.
                state.store.save_conversation(conversation)
            sanitized = None
            if draft is not None and state.engine.commit(conversation, draft):
                sanitized = draft.result
            return sender, sender.send(conversation, text, sanitized=sanitized)

        self.preview_status.setText("sending…")
        self.background.submit(prepare, lambda out: self._sent(text, *out), self._send_failed_early)

    def _send_failed_early(self, exc: BaseException) -> None:
        """Nothing was stored (or it was refused): the text stays in the composer."""
        from agent.vault import VaultLocked

        self.sending = False
        self._set_sending(False)
        self.preview_status.setText("")
        if isinstance(exc, VaultLocked):
            self.state.note_vault_locked()
            self.host.ensure_vault(self.send)
            return
        self.show_failure(describe_failure(exc, sent=False))

    def _sent(self, text: str, sender, reply) -> None:
        """The message is stored: clear the composer, show it, stream the answer."""
        self.conversation_stored = True
        if self.composer.toPlainText() == text:
            self.composer.clear()
        user = self._add_view("user")
        user.message = reply.message
        user.set_user_text(text)
        answer = self._add_view("assistant")
        answer.set_state(reply.message)
        self._scroll_to_end()
        self.state.conversations_changed.emit()
        self._stream(sender, reply, answer)

    def _stream(self, sender, reply, view: MessageView) -> None:
        self.reply = reply
        self.sender = sender
        # The provider says when it retries (from its thread): shown in the answer's bubble.
        sender.provider.on_retry = lambda notice: self.background.post(lambda: self._retrying(view, notice))
        pipe = ChunkPipe(self.background, lambda chunks: self._chunks(view, chunks))

        def run() -> None:
            error: BaseException | None = None
            try:
                for chunk in reply:
                    pipe.put(chunk)
            except BaseException as exc:
                error = exc
            finally:
                try:
                    sender.provider.close()  # each send has its own client
                except Exception:
                    log.debug("closing the provider", exc_info=True)
            self.background.post(lambda: self._stream_ended(reply, view, error))

        self.background.thread(run, "veil-answer")

    def _chunks(self, view: MessageView, chunks) -> None:
        if self.locked_view:
            return  # the answer is cancelled and stored; it comes back with the conversation
        if view.note.isVisible() and view.message is not None:
            view.set_state(view.message)  # a "retrying" note is over once text arrives
        view.append_answer(chunks)
        self._scroll_to_end(only_if_at_end=True)

    def _retrying(self, view: MessageView, notice) -> None:
        if self.reply is not None and view.message is not None:
            view.set_state(view.message, notice.describe())
            self.preview_status.setText(f"retrying ({notice.attempt} of {notice.max_attempts})…")

    def _stream_ended(self, reply, view: MessageView, exc: BaseException | None) -> None:
        from agent.providers import Cancelled

        self.reply = None
        self.sending = False
        self._set_sending(False)
        self.preview_status.setText("")
        if self.locked_view:
            return  # the transcript was cleared by the lock; the vault has the message
        # Pieces still queued in the pipe were posted before this call: already shown.
        view.finish_answer()
        message = reply.message
        if exc is None:
            note = ""
            if reply.result is not None and reply.result.unrestored:
                note = ("⚠ Some stand-ins could not be restored (the model changed them): "
                        + ", ".join(reply.result.unrestored))
            view.set_state(message, note)
        elif isinstance(exc, Cancelled):
            view.set_state(message, "Stopped. Retry sends the message again.")
        else:
            failure = describe_failure(exc, partial_kept=bool(view.body.text()))
            view.set_state(message, failure.text, error=True)
            self.show_failure(failure, retry_id=message.id)
        self._scroll_to_end(only_if_at_end=True)
        self.state.conversations_changed.emit()
        if self.composer.toPlainText().strip():
            self.update_preview()  # the map grew: stand-ins in the draft may change

    def show_error(self, text: str, retry_id: int | None = None) -> None:
        self.last_error = text
        if retry_id is not None:
            self.error_banner.show_message(text + "\nYour message is saved.", "Retry", lambda: self.retry(retry_id))
        else:
            self.error_banner.show_message(text)

    def show_failure(self, failure, retry_id: int | None = None) -> None:
        """A failed send, in the provider layer's words, with the actions that can help."""
        self.last_error = failure.text
        text = failure.text if retry_id is None else failure.text + "\nYour message is saved."
        retry = ("Retry", lambda: self.retry(retry_id)) if failure.retry and retry_id is not None else ("", None)
        settings = ("Open Settings", self.host.open_settings) if failure.open_settings else ("", None)
        if not retry[0]:
            retry, settings = settings, ("", None)
        self.error_banner.show_message(text, retry[0], retry[1], second=settings[0], second_callback=settings[1])

    def retry(self, message_id: int) -> None:
        if self.sending or self.conversation is None:
            return
        view = next((v for v in self.views if v.role == "assistant" and v.message and v.message.id == message_id), None)
        if view is None:
            return
        self.sending = True
        self._set_sending(True)
        self.error_banner.hide()
        conversation = self.conversation
        kind, model = self.picked_provider()
        state = self.state

        def prepare():
            sender = state.make_sender(kind, model or None)
            return sender, sender.retry(conversation, message_id)

        def started(out) -> None:
            sender, reply = out
            view.body.clear_content()
            view.set_state(reply.message)
            self._stream(sender, reply, view)

        self.background.submit(prepare, started, self._send_failed_early)

    def cancel(self) -> None:
        if self.reply is not None:
            self.reply.cancel()
            self.preview_status.setText("cancelling…")

    def _set_sending(self, sending: bool) -> None:
        self.send_button.setEnabled(not sending)
        self.cancel_button.setEnabled(sending)
        self.new_button.setEnabled(not sending)

    def _show_destination(self) -> None:
        text, tip = destination_text(self.state)
        self.destination_label.setText(text)
        self.destination_label.setToolTip(tip)
        self.send_button.setToolTip(f"Send the sanitized text (Ctrl+Enter) {text}")
