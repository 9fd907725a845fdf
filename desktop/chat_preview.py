"""The chat window's live preview and the user's keep/replace choices: what will be sent,
computed while the user types, and what a click on a value (in the preview or the side
panel) changes.

A short pause after the last keystroke starts a dry run of the composer's text in a worker
(the conversation changes only when the message is sent); ChatSession's tickets drop a
result computed for older text. A choice is remembered for the conversation (saved to the
vault once the conversation is there) and previews again. `PreviewController` works on
the window's parts named by the `PreviewWindow` protocol; the window connects its
widgets' signals to it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QTimer

from desktop.chat_widgets import sent_marks
from desktop.state import EnginePhase

if TYPE_CHECKING:
    from PySide6.QtWidgets import QLabel, QPlainTextEdit

    from agent.engine.interface import DryRun
    from agent.entities import Label, Replacement
    from agent.session.chat_session import ChatSession, PreviewTicket
    from agent.session.conversation import Conversation
    from desktop.chat_widgets import MessageView
    from desktop.composer import ComposerPane
    from desktop.details_panel import DetailsPanel
    from desktop.state import AppState
    from desktop.tasks import Background
    from desktop.textview import HighlightView, Mark

log = logging.getLogger("veil.desktop")

PREVIEW_DELAY_MS = 300


class PreviewWindow(Protocol):
    """What the preview uses of the chat window (desktop/chat.py ChatWindow)."""

    state: AppState
    background: Background
    session: ChatSession
    composer: QPlainTextEdit
    pane: ComposerPane
    preview: HighlightView
    preview_status: QLabel
    details: DetailsPanel

    @property
    def locked_view(self) -> bool: ...

    @property
    def conversation(self) -> Conversation: ...

    def vault_error(self, exc: BaseException) -> None: ...


class PreviewController:
    def __init__(self, window: PreviewWindow, parent: QObject):
        self.window = window
        self.timer = QTimer(parent)
        self.timer.setSingleShot(True)
        self.timer.setInterval(PREVIEW_DELAY_MS)
        self.timer.timeout.connect(self.update)

    def composer_changed(self) -> None:
        w = self.window
        if not w.composer.toPlainText().strip():
            self.stop()
            w.pane.clear_draft()
            w.details.clear()
            return
        w.preview_status.setText("checking…")
        self.timer.start()

    def stop(self) -> None:
        """No preview now: the one waiting for the pause and those on their way are dropped."""
        self.timer.stop()
        self.window.session.cancel_previews()

    def update(self) -> None:
        """Sanitize the composer's text in a worker (a dry run: the conversation changes
        only when the message is sent) and show it, unless newer text came meanwhile."""
        w = self.window
        self.timer.stop()
        text = w.composer.toPlainText()
        if not text.strip() or w.locked_view:
            return
        if w.state.engine_phase != EnginePhase.READY:
            w.preview_status.setText("waiting for the privacy engine…")
            return
        ticket, engine = w.session.preview_request(text), w.state.engine
        w.preview_status.setText("checking…")

        def failed(exc: BaseException) -> None:
            if w.session.is_current(ticket):
                w.preview_status.setText("")
                w.preview.set_content(f"(cannot sanitize this text: {exc})")
                w.session.draft = None

        w.background.submit(lambda: engine.dry_run(text, ticket.conversation),
                            lambda draft: self.show(draft, ticket), failed)

    def show(self, draft: DryRun, ticket: PreviewTicket) -> None:
        w = self.window
        if w.locked_view or not w.session.preview_done(ticket, draft):
            return
        w.pane.show_draft(draft)
        w.details.show_result(draft.result, choices=len(w.conversation.choices))

    # -- keep / replace ---------------------------------------------------------------------------
    def toggle_entity(self, mark: Mark) -> None:
        """A click on a highlighted value in the preview."""
        if mark.key is not None:
            self.choose_for_value(mark.key)

    def choose_for_value(self, entity: Replacement) -> None:
        self._chose(self.window.session.choose_for_value(entity, self.window.state.settings))

    def choose_for_type(self, label: Label, keep: bool, values: list[str]) -> None:
        self._chose(self.window.session.choose_for_type(label, keep, values, self.window.state.settings))

    def reset_choices(self) -> None:
        self.window.session.reset_choices()
        self._chose(True)

    def _chose(self, changed: bool) -> None:
        """A choice was made (remembered for the conversation), or refused for a secret."""
        w = self.window
        if not changed:
            w.preview_status.setText("secrets are never sent")
            return
        if w.session.stored and w.state.vault_is_open():
            conversation, store = w.conversation, w.state.store
            w.background.submit(lambda: store.save_conversation(conversation), None, w.vault_error)
        self.update()

    # -- what was sent ----------------------------------------------------------------------------
    def show_sent(self, view: MessageView) -> None:
        """Highlight the stand-ins of a sent message: found with the conversation's map."""
        w = self.window
        conversation, engine, message = w.conversation, w.state.engine, view.message
        if message is None or w.state.engine_phase != EnginePhase.READY:
            return

        def done(result) -> None:
            if not w.locked_view:
                view.show_sent_marks(sent_marks(result))

        w.background.submit(lambda: engine.restore(message.sent, conversation), done,
                            lambda exc: log.debug("marking what was sent failed: %s", exc))
