"""The chat window: conversations on the left, the transcript and the composer with its
live preview in the middle, the detected items on the right; answers stream in with the
real values restored and highlighted.

The window assembles its parts (desktop/conversation_list.py, composer.py,
chat_widgets.py, details_panel.py, provider_picker.py) and connects them to a Qt-free
ChatSession (agent/session/chat_session.py) that holds the conversation, the preview's
sequencing and the sending state. The live preview and the keep/replace choices are
desktop/chat_preview.py's, sending and streaming desktop/chat_send.py's; what stays here
is the layout, which conversation is open, and what the window shows while the vault is
locked (no real value at all). Everything slow runs in workers (AppState.background).
"""

from __future__ import annotations

import itertools
import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from agent.session.chat_session import ChatSession
from agent.session.conversation import MessageState
from desktop import icons
from desktop.chat_preview import PreviewController
from desktop.chat_send import SendController
from desktop.chat_widgets import Banner, LockedPage, MessageView, Transcript
from desktop.composer import ComposerPane
from desktop.conversation_list import ConversationList
from desktop.details_panel import DetailsPanel
from desktop.provider_picker import ProviderPicker, destination_text
from desktop.state import AppState, EnginePhase, VaultPhase

if TYPE_CHECKING:
    from desktop.app_host import AppHost

log = logging.getLogger("veil.desktop")


class ChatWindow(QMainWindow):
    def __init__(self, state: AppState, host: AppHost):
        """`host` is the app (desktop/app.py VeilApp)."""
        super().__init__()
        self.state, self.host, self.background = state, host, state.background
        self.session = ChatSession()
        self.sending_control = SendController(self)
        self.previews = PreviewController(self, self)
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

    # -- the parts, and the names tests and the app use ------------------------------------------------
    def _build(self) -> None:
        self.conversations = ConversationList(self.state, self.vault_error)
        self.conversations.chosen.connect(self._conversation_chosen)
        self.conversations.new_requested.connect(self.new_conversation)
        self.conversations.renamed.connect(self._renamed)
        self.conversations.deleted.connect(lambda cid: cid == self.conversation.id and self.new_conversation())
        self.conversation_list, self.new_button = self.conversations.list, self.conversations.new_button
        self.picker = ProviderPicker(self.state)
        self.picker.failed.connect(self.show_error)
        self.picker.status.connect(lambda text: self.status_label.setText(text))
        self.provider_combo, self.model_combo = self.picker.provider_combo, self.picker.model_combo
        self.status_label = QLabel()
        self.status_label.setEnabled(False)
        settings_button = QToolButton()
        settings_button.setText("Settings")
        settings_button.clicked.connect(lambda: self.host.open_settings())
        bar = QHBoxLayout()
        for widget, stretch in ((self.picker, 0), (QWidget(), 1), (self.status_label, 0), (settings_button, 0)):
            bar.addWidget(widget, stretch)
        self.info_banner, self.error_banner = Banner("info"), Banner("error")
        self.transcript = Transcript()
        self.transcript.retry_clicked.connect(self.retry)
        self.transcript.sent_requested.connect(self.previews.show_sent)
        self.pane = ComposerPane()
        self.pane.send_clicked.connect(self.send)
        self.pane.cancel_clicked.connect(self.cancel)
        self.pane.composer.textChanged.connect(self.previews.composer_changed)
        self.pane.composer.installEventFilter(self)
        self.pane.preview.mark_clicked.connect(self.previews.toggle_entity)
        for name in ("composer", "preview", "send_button", "cancel_button", "risk_label", "preview_status",
                     "warning_label", "destination_label", "details_button"):
            setattr(self, name, getattr(self.pane, name))
        self.details = DetailsPanel()
        self.details.value_toggled.connect(self.previews.choose_for_value)
        self.details.type_toggled.connect(self.previews.choose_for_type)
        self.details.reset_requested.connect(self.previews.reset_choices)
        self.pane.details_toggled.connect(lambda on: (self.details.setVisible(on), self._fit_columns()))
        vertical = QSplitter(Qt.Orientation.Vertical)
        vertical.setChildrenCollapsible(False)
        vertical.addWidget(self.transcript)
        vertical.addWidget(self.pane)
        vertical.setStretchFactor(0, 3)
        vertical.setStretchFactor(1, 2)
        vertical.setSizes([430, 300])
        middle = QWidget()
        column = QVBoxLayout(middle)
        column.setContentsMargins(8, 8, 8, 8)
        column.addLayout(bar)
        column.addWidget(self.info_banner)
        column.addWidget(self.error_banner)
        column.addWidget(vertical, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.setChildrenCollapsible(False)
        for part in (self.conversations, middle, self.details):
            splitter.addWidget(part)
        self.columns = splitter
        self._columns_moved = False  # until the user drags a divider, the columns follow the window
        splitter.splitterMoved.connect(lambda *_: setattr(self, "_columns_moved", True))
        # The chat, or (vault locked) a page that shows no real value at all.
        self.locked_page = LockedPage()
        self.locked_page.unlock_clicked.connect(lambda: self.host.ensure_vault(lambda: None))
        self.unlock_button = self.locked_page.unlock_button
        self.pages = QStackedWidget()
        self.pages.addWidget(splitter)
        self.pages.addWidget(self.locked_page)
        self.setCentralWidget(self.pages)
        order = (self.conversation_list, self.composer, self.preview, self.send_button, self.cancel_button,
                 self.provider_combo, self.model_combo, self.new_button, self.conversation_list)
        for first, second in itertools.pairwise(order):
            QWidget.setTabOrder(first, second)

    @property
    def views(self) -> list[MessageView]:
        return self.transcript.views

    @property
    def conversation(self):
        return self.session.conversation

    @property
    def last_draft(self):
        return self.session.draft

    @last_draft.setter
    def last_draft(self, draft) -> None:
        self.session.draft = draft

    @property
    def _draft_text(self) -> str:
        return self.session.draft_text

    @property
    def reply(self):
        return self.session.reply

    @property
    def sending(self) -> bool:
        return self.session.sending

    def _shortcuts(self) -> None:
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, activated=self.send)
        QShortcut(QKeySequence("Escape"), self, activated=self.cancel)
        QShortcut(QKeySequence("Ctrl+N"), self, activated=self.new_conversation)
        QShortcut(QKeySequence("Ctrl+L"), self, activated=lambda: self.composer.setFocus())

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

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_columns()

    def _fit_columns(self) -> None:
        if hasattr(self, "columns") and not self._columns_moved:  # list, chat, detected items
            width = self.columns.width() or self.width()
            shares = (0.15, 0.52, 0.33) if self.details.isVisibleTo(self) else (0.18, 0.82, 0.0)
            self.columns.setSizes([int(width * share) for share in shares])

    def set_hide_on_close(self, hide: bool) -> None:
        self._hide_on_close = hide

    def closeEvent(self, event) -> None:
        if self._hide_on_close:
            event.ignore()
            self.hide()
        else:
            self.previews.timer.stop()  # the app is closing: no more work for its workers
            super().closeEvent(event)

    # -- engine, vault, banners -------------------------------------------------------------------------
    def _engine_changed(self) -> None:
        phase = self.state.engine_phase
        self.status_label.setText({EnginePhase.LOADING: "Privacy engine loading…", EnginePhase.READY: "Protection on",
                                   EnginePhase.FAILED: "Privacy engine failed"}[phase])
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

    def show_error(self, text: str) -> None:
        self.last_error = text
        self.error_banner.show_message(text)

    def show_failure(self, failure, retry_id: int | None = None) -> None:
        """A failed send, in the provider layer's words, with the actions that can help."""
        self.last_error = failure.text
        retry = (lambda: self.retry(retry_id)) if retry_id is not None else None
        self.error_banner.show_failure(failure, retry, self.host.open_settings)

    def vault_error(self, exc: BaseException) -> None:
        from agent.vault import VaultLocked

        if isinstance(exc, VaultLocked):
            self.state.note_vault_locked()
            return
        self.error_banner.show_message(f"Vault: {exc}")

    def _show_destination(self) -> None:
        self.pane.set_destination(*destination_text(self.state))

    # -- locked: nothing real on screen --------------------------------------------------------------------
    @property
    def locked_view(self) -> bool:
        return self.pages.currentWidget() is self.locked_page

    def _hide_for_lock(self) -> None:
        """Clear (not just cover) everything that shows real values: the transcript, the
        list's titles, the draft and its preview, the window title. What is needed to
        bring it back stays in memory: the conversation's id and the draft."""
        self.session.cancel()  # a running answer is kept as cancelled; Retry sends it again
        self._restore_after_unlock = (self.conversation.id if self.session.stored else None,
                                      self.composer.toPlainText())
        self.pages.setCurrentWidget(self.locked_page)
        self.conversations.frozen = True
        self.previews.stop()
        self.transcript.clear()
        self.conversations.clear()
        self.composer.blockSignals(True)
        self.composer.clear()
        self.composer.blockSignals(False)
        self.pane.clear_draft()
        self.details.clear()
        self.error_banner.hide()
        self.error_banner.label.clear()
        self.setWindowTitle("Veil — locked")

    def _show_after_unlock(self) -> None:
        conversation_id, draft = self._restore_after_unlock
        self._restore_after_unlock = (None, "")
        self.conversations.frozen = False
        self.pages.setCurrentIndex(0)
        self.setWindowTitle("Veil")
        if conversation_id is not None:
            self.open_conversation(conversation_id)
        else:
            self.new_conversation()
        self.composer.setPlainText(draft)
        self.refresh_conversations()

    # -- conversations --------------------------------------------------------------------------------------
    def refresh_conversations(self) -> None:
        self.conversations.refresh()

    def rename_conversation(self, conversation_id: str, title: str | None = None, *, current: str = "") -> None:
        self.conversations.rename(conversation_id, title, current=current)

    def delete_conversation(self, conversation_id: str, *, current: str = "", confirmed: bool = False) -> None:
        self.conversations.delete(conversation_id, current=current, confirmed=confirmed)

    def _renamed(self, conversation_id: str, title: str) -> None:
        if self.conversation.id == conversation_id:
            self.conversation.title = title
            self.setWindowTitle(f"Veil — {title}")

    def new_conversation(self) -> None:
        if self.sending:
            return
        self.session.new()
        self.transcript.clear()
        self.conversations.select(None)
        if not self.locked_view:
            self.setWindowTitle("Veil — new conversation")
        self.previews.composer_changed()
        self.composer.setFocus()

    def _conversation_chosen(self, item_or_id) -> None:
        conversation_id = item_or_id if isinstance(item_or_id, str) else item_or_id.data(Qt.ItemDataRole.UserRole)
        if not self.sending and self.conversation.id != conversation_id:
            # A conversation of a veil command, the clipboard, the proxy or files that the
            # user opens here becomes a chat: it stays in the list from now on.
            self.open_conversation(conversation_id, adopt=self.conversations.origin_of(conversation_id) != "chat")

    def open_conversation(self, conversation_id: str, *, adopt: bool = False) -> None:
        store, engine = self.state.store, self.state.engine
        ready = self.state.engine_phase == EnginePhase.READY

        def load():
            if adopt:
                store.set_conversation_origin(conversation_id, "chat")
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

        def done(loaded) -> None:
            self._show_conversation(loaded)
            if adopt:
                self.refresh_conversations()

        self.background.submit(load, done, self.vault_error)

    def _show_conversation(self, loaded) -> None:
        if self.locked_view:
            return
        conversation, messages, restored = loaded
        self.session.opened(conversation)
        self.conversations.select(conversation.id)
        self.setWindowTitle(f"Veil — {conversation.title or 'conversation'}")
        self.transcript.clear()
        for message in messages:
            user = self.transcript.add("user")
            user.message = message
            user.set_user_text(message.typed)
            answer = self.transcript.add("assistant")
            result = restored.get(message.id)
            answer.set_answer(*((result.text, result.spans) if result is not None else (message.shown,)))
            answer.set_state(message, message.error, error=message.state is MessageState.FAILED)
        self.transcript.scroll_to_end()
        self.previews.composer_changed()

    # -- preview and choices (desktop/chat_preview.py) ----------------------------------------------------
    def update_preview(self) -> None:
        self.previews.update()

    def toggle_entity(self, mark) -> None:
        self.previews.toggle_entity(mark)

    # -- sending (desktop/chat_send.py) ------------------------------------------------------------------
    def picked_provider(self) -> tuple[str, str]:
        self.picker.commit()
        return self.picker.picked()

    def send(self) -> None:
        self.sending_control.send()

    def retry(self, message_id: int) -> None:
        self.sending_control.retry(message_id)

    def cancel(self) -> None:
        self.sending_control.cancel()

    def set_sending(self, sending: bool) -> None:
        self.pane.set_sending(sending)
        self.new_button.setEnabled(not sending)
