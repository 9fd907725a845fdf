"""Sending from the chat window: the message is stored before anything leaves, the answer
streams in from a dedicated thread (coalesced for the UI by ChunkPipe), retries and
failures are said in the provider layer's words, Stop cancels at once.

`SendController` works on the window's parts (its ChatSession, transcript, composer and
banners), named by the `SendingWindow` protocol below; the window only forwards Send,
Retry and Stop to it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Protocol

from agent.providers.errors import describe_failure
from desktop.tasks import ChunkPipe

if TYPE_CHECKING:
    from PySide6.QtWidgets import QLabel, QPlainTextEdit

    from agent.providers.errors import FailureMessage
    from agent.session.chat_session import ChatSession
    from agent.session.sender import SendStream
    from desktop.app_host import AppHost
    from desktop.chat_widgets import Banner, MessageView, Transcript
    from desktop.state import AppState
    from desktop.tasks import Background

log = logging.getLogger("veil.desktop")


class SendingWindow(Protocol):
    """What sending uses of the chat window (desktop/chat.py ChatWindow)."""

    state: AppState
    host: AppHost
    session: ChatSession
    background: Background
    composer: QPlainTextEdit
    transcript: Transcript
    error_banner: Banner
    preview_status: QLabel

    @property
    def locked_view(self) -> bool: ...

    @property
    def reply(self) -> SendStream | None: ...

    @property
    def sending(self) -> bool: ...

    def picked_provider(self) -> tuple[str, str]: ...

    def set_sending(self, sending: bool) -> None: ...

    def show_failure(self, failure: FailureMessage, retry_id: int | None = None) -> None: ...

    def update_preview(self) -> None: ...


class SendController:
    def __init__(self, window: SendingWindow):
        self.window = window

    def _sender_factory(self):
        """A Sender maker for the provider and model shown in the picker (called in a worker)."""
        kind, model = self.window.picked_provider()
        state = self.window.state
        return lambda: state.make_sender(kind, model or None)

    def send(self) -> None:
        w = self.window
        text = w.composer.toPlainText()
        if not w.session.can_send(text) or w.locked_view:
            return
        if not w.state.vault_is_open():
            w.host.ensure_vault(self.send)
            return
        plan = w.session.begin(text)
        w.set_sending(True)
        w.error_banner.hide()
        make_sender, state = self._sender_factory(), w.state
        w.preview_status.setText("sending…")
        w.background.submit(lambda: plan.prepare(make_sender, state.store, state.engine),
                            lambda out: self._sent(text, *out), self._failed_early)

    def _failed_early(self, exc: BaseException) -> None:
        """Nothing was stored (or it was refused): the text stays in the composer."""
        from agent.vault import VaultLocked

        w = self.window
        w.session.ended()
        w.set_sending(False)
        w.preview_status.setText("")
        if isinstance(exc, VaultLocked):
            w.state.note_vault_locked()
            w.host.ensure_vault(self.send)
            return
        w.show_failure(describe_failure(exc, sent=False))

    def _sent(self, text: str, sender, reply) -> None:
        """The message is stored: clear the composer, show it, stream the answer."""
        w = self.window
        w.session.sent(reply)
        if w.composer.toPlainText() == text:
            w.composer.clear()
        user = w.transcript.add("user")
        user.message = reply.message
        user.set_user_text(text)
        answer = w.transcript.add("assistant")
        answer.set_state(reply.message)
        w.transcript.scroll_to_end()
        w.state.conversations_changed.emit()
        self._stream(sender, reply, answer)

    def _stream(self, sender, reply, view: MessageView) -> None:
        w = self.window
        w.session.streaming(reply)
        # The provider says when it retries (from its thread): shown in the answer's bubble.
        sender.provider.on_retry = lambda notice: w.background.post(lambda: self._retrying(view, notice))
        pipe = ChunkPipe(w.background, lambda chunks: self._chunks(view, chunks))

        def run() -> None:
            error: BaseException | None = None
            try:
                for chunk in reply:
                    pipe.put(chunk)
            except BaseException as exc:  # noqa: BLE001 - reported on the UI thread, never lost
                error = exc
            finally:
                try:
                    sender.provider.close()  # each send has its own client
                except Exception:
                    log.debug("closing the provider", exc_info=True)
            w.background.post(lambda: self._ended(reply, view, error))

        w.background.thread(run, "veil-answer")

    def _chunks(self, view: MessageView, chunks) -> None:
        w = self.window
        if w.locked_view:
            return  # the answer is cancelled and stored; it comes back with the conversation
        if view.note.isVisible() and view.message is not None:
            view.set_state(view.message)  # a "retrying" note is over once text arrives
        view.append_answer(chunks)
        w.transcript.scroll_to_end(only_if_at_end=True)

    def _retrying(self, view: MessageView, notice) -> None:
        w = self.window
        if w.reply is not None and view.message is not None and not w.locked_view:
            view.set_state(view.message, notice.describe())
            w.preview_status.setText(f"retrying ({notice.attempt} of {notice.max_attempts})…")

    def _ended(self, reply, view: MessageView, exc: BaseException | None) -> None:
        from agent.providers import Cancelled

        w = self.window
        w.session.ended()
        w.set_sending(False)
        w.preview_status.setText("")
        if w.locked_view:
            return  # the transcript was cleared by the lock; the vault has the message
        # Pieces still queued in the pipe were posted before this call: already shown.
        view.finish_answer()
        message = reply.message
        if exc is None:
            unrestored = reply.result.unrestored if reply.result is not None else []
            view.set_state(message, "⚠ Some stand-ins could not be restored (the model changed them): "
                           + ", ".join(unrestored) if unrestored else "")
        elif isinstance(exc, Cancelled):
            view.set_state(message, "Stopped. Retry sends the message again.")
        else:
            failure = describe_failure(exc, partial_kept=bool(view.body.text()))
            view.set_state(message, failure.text, error=True)
            w.show_failure(failure, retry_id=message.id)
        w.transcript.scroll_to_end(only_if_at_end=True)
        w.state.conversations_changed.emit()
        if w.composer.toPlainText().strip():
            w.update_preview()  # the map grew: stand-ins in the draft may change

    def retry(self, message_id: int) -> None:
        w = self.window
        view = w.transcript.answer_view(message_id)
        if w.sending or view is None:
            return
        w.session.begin()
        w.set_sending(True)
        w.error_banner.hide()
        make_sender = self._sender_factory()

        def started(out) -> None:
            sender, reply = out
            view.body.clear_content()
            view.set_state(reply.message)
            self._stream(sender, reply, view)

        w.background.submit(lambda: w.session.prepare_retry(message_id, make_sender), started, self._failed_early)

    def cancel(self) -> None:
        if self.window.session.cancel():
            self.window.preview_status.setText("cancelling…")
