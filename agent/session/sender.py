"""The end-to-end send of one message in a conversation:

    typed text -> detect, decide, substitute (engine.sanitize)
               -> store (map entries + the message, state SENDING, one transaction)
               -> provider stream (earlier turns sent as they were sent: stand-ins only)
               -> streaming restore (real values back, spans for highlighting)
               -> store (ANSWERED, or FAILED / CANCELLED / UNSENT with the error)

    sender = Sender(engine, store, provider, params=params_from_settings(settings))
    reply = sender.send(conversation, "Draft a reply to Anjali ...")
    print(reply.sent_text)                 # exactly what leaves the machine
    for chunk in reply:                    # SendChunk(text, spans), restored
        show(chunk.text, chunk.spans)
    reply.result                           # RestoreResult of the whole answer
    reply.cancel()                         # from another thread: Stop

The user's message is stored before anything is sent and is never lost: a failed
request leaves it FAILED (or UNSENT when nothing left the machine) with the error text,
and `sender.retry(conversation, message_id)` sends it again in place.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from agent.engine.interface import PrivacyEngine
from agent.entities import Action, RestoredSpan, RestoreResult, SanitizeResult
from agent.providers.base import CancelToken, ChatMessage, GenerationParams, Provider
from agent.session.conversation import (
    Conversation,
    Message,
    MessageState,
)
from agent.session.stores import ConversationStore, render_and_store
from agent.session.turns import TurnLog, TurnStore

# States a message can be sent again from.
RETRYABLE_STATES = (MessageState.UNSENT, MessageState.FAILED, MessageState.CANCELLED)


@dataclass(frozen=True, slots=True)
class SendChunk:
    """A piece of the restored answer, ready to show.

    `start` is its offset in the whole restored answer; each span's offsets are in the
    whole restored answer too (so chunk-relative: span.start - chunk.start)."""

    text: str
    start: int
    spans: tuple[RestoredSpan, ...] = ()


@dataclass
class SendTimings:
    """Seconds, measured with time.perf_counter()."""

    prepare_s: float = 0.0  # sanitize + store + audit: added before the request leaves
    first_chunk_s: float | None = None  # from send() to the first restored text
    total_s: float | None = None
    restore_s: float = 0.0  # time spent in the streaming restorer, all chunks together
    chunks: int = 0


class MessageNotRetryable(ValueError):
    """retry() on a message that was answered, or is being sent."""


class SendStream(Iterator[SendChunk]):
    """One message on its way: iterate for the restored answer.

    Before iterating, `message` (stored, with its id), `sanitized` and `request` (the
    exact messages sent) are already set. Iterating sends the request; it raises the
    provider's exception (agent.providers.errors) after storing the message's state.
    Once exhausted: `result` (RestoreResult), `finish_reason`, `timings`."""

    def __init__(
        self,
        sender: Sender,
        conversation: Conversation,
        message: Message,
        sanitized: SanitizeResult,
        request: list[ChatMessage],
        model: str,
        cancel: CancelToken | threading.Event | None,
        started: float,
    ):
        self.sender = sender
        self.conversation = conversation
        self.message = message
        self.sanitized = sanitized
        self.request = request
        self.model = model
        self.cancel_token = cancel if cancel is not None else CancelToken()
        self.result: RestoreResult | None = None
        self.finish_reason = ""
        self.error: BaseException | None = None
        self.timings = SendTimings()
        self._started = started
        self._iterated = False
        self._chunks = self._run()

    @property
    def sent_text(self) -> str:
        """The new user message as sent (sanitized)."""
        return self.sanitized.sanitized

    def __iter__(self) -> SendStream:
        return self

    def __next__(self) -> SendChunk:
        self._iterated = True
        return next(self._chunks)

    def cancel(self) -> None:
        """Stop the answer (safe from any thread). Iteration then raises Cancelled."""
        self.cancel_token.set()

    def close(self) -> None:
        """Stop (or drop, if never iterated) this send; the message is kept as CANCELLED."""
        if not self._iterated and self.message.state is MessageState.SENDING:
            self.message.state, self.message.error = MessageState.CANCELLED, "cancelled"
            self.sender.turns.update(self.message)
        self._chunks.close()

    def text(self) -> str:
        """Consume the whole answer and return it restored (raises like iteration)."""
        for _ in self:
            pass
        assert self.result is not None
        return self.result.text

    def _run(self) -> Iterator[SendChunk]:
        sender, message = self.sender, self.message
        restorer = sender.engine.streaming_restorer(self.conversation)
        shown_length = 0
        audit_id = None
        stream = None
        turns = sender.turns

        def restored(piece) -> SendChunk | None:
            nonlocal shown_length
            if not piece.text:
                return None
            chunk = SendChunk(piece.text, shown_length, tuple(piece.spans))
            shown_length += len(piece.text)
            return chunk

        try:
            stream = sender.provider.stream(self.request, self.model or None, sender.params, self.cancel_token)
            audit_id = turns.sent(message, provider=sender.provider.kind, model=self.model, sent_text=message.sent)
            for piece in stream:
                began = time.perf_counter()
                out = restored(restorer.feed(piece))
                self.timings.restore_s += time.perf_counter() - began
                self.timings.chunks += 1
                if out is not None:
                    if self.timings.first_chunk_s is None:
                        self.timings.first_chunk_s = time.perf_counter() - self._started
                    yield out
            tail = restored(restorer.finish())
            if tail is not None:
                yield tail
        except BaseException as exc:  # provider errors, Cancelled, Ctrl-C, close(), bugs
            self.error = exc
            # What the restorer still holds back may be the start of a stand-in: it is not
            # shown (never half a value). `received` keeps it, so nothing is lost.
            partial = restorer.result()
            self.result = partial
            message.received = restorer.received
            message.shown = partial.text
            # Refused before the request was built (stream None): nothing left, UNSENT.
            turns.finish(message, audit_id, error=exc, nothing_sent=stream is None)
            if stream is not None:
                stream.close()
            raise
        self.result = restorer.result()
        self.finish_reason = stream.finish_reason
        self.timings.total_s = time.perf_counter() - self._started
        message.received = restorer.received
        message.shown = self.result.text
        turns.finish(message, audit_id)


class Sender:
    """Sends messages of conversations through one provider. Thread-safe enough for a
    UI: each send() returns its own SendStream, to be iterated in a worker thread."""

    def __init__(
        self,
        engine: PrivacyEngine,
        store: TurnStore,
        provider: Provider,
        *,
        params: GenerationParams | None = None,
        model: str | None = None,
        system_prompt: str = "",
    ):
        self.engine = engine
        self.store = store
        self.turns = TurnLog(store)  # stores and audits each turn (shared with the proxy)
        self.provider = provider
        self.params = params or GenerationParams()
        self.model = model if model is not None else provider.config.model
        # Sent as is with every request: it must not contain personal data.
        self.system_prompt = system_prompt

    # -- public API --------------------------------------------------------------------------
    def preview(
        self, conversation: Conversation, text: str, overrides: Mapping[str, Action] | None = None
    ) -> SanitizeResult:
        """What would be sent (for the preview). Pass it to send(sanitized=...) so that
        exactly what the user saw is sent. Adds map entries to the conversation (in memory)."""
        return self.engine.sanitize(text, conversation, overrides)

    def send(
        self,
        conversation: Conversation,
        text: str,
        *,
        overrides: Mapping[str, Action] | None = None,
        sanitized: SanitizeResult | None = None,
        cancel: CancelToken | threading.Event | None = None,
    ) -> SendStream:
        """Sanitize and store the message now; the request goes out when the returned
        stream is iterated. Raises agent.engine.core.InputRejected (nothing stored) for text the
        engine refuses, and the store's errors (e.g. a locked vault) before anything is sent."""
        started = time.perf_counter()
        if not text.strip():
            from agent.engine.core import InputRejected

            raise InputRejected("nothing to send: the message is empty")
        given = sanitized if sanitized is not None and sanitized.original == text else None
        message = Message(
            conversation_id=conversation.id,
            typed=text,
            state=MessageState.SENDING,
            provider=self.provider.kind,
            model=self.model,
        )
        return self._start(conversation, message, lambda: self.engine.sanitize(text, conversation, overrides),
                           given, cancel, started)

    def retry(
        self, conversation: Conversation, message_id: int, *, cancel: CancelToken | threading.Event | None = None
    ) -> SendStream:
        """Send a FAILED / UNSENT / CANCELLED message again, in place (same id)."""
        started = time.perf_counter()
        message = next((m for m in self.store.list_messages(conversation.id) if m.id == message_id), None)
        if message is None:
            raise KeyError(f"no message {message_id} in conversation {conversation.id}")
        if message.state not in RETRYABLE_STATES:
            raise MessageNotRetryable(f"message {message_id} is {message.state.value}; only unsent or failed messages are sent again")
        # Sanitize again: the map is the conversation's, so the stand-ins are the same.
        message.received = message.shown = message.error = ""
        message.state = MessageState.SENDING
        message.provider = self.provider.kind
        message.model = self.model
        return self._start(conversation, message, lambda: self.engine.sanitize(message.typed, conversation),
                           None, cancel, started)

    def history(self, conversation_id: str, before: int | None = None) -> list[ChatMessage]:
        """Earlier answered turns as they were sent and received: stand-ins, never real values."""
        turns: list[ChatMessage] = []
        for m in self.store.list_messages(conversation_id):
            if before is not None and m.id is not None and m.id >= before:
                break
            if m.state is MessageState.ANSWERED and m.sent:
                turns.append(ChatMessage("user", m.sent))
                turns.append(ChatMessage("assistant", m.received))
        return turns

    # -- internals -------------------------------------------------------------------------------
    def _start(
        self,
        conversation: Conversation,
        message: Message,
        sanitize: Callable[[], SanitizeResult],
        sanitized: SanitizeResult | None,
        cancel: CancelToken | threading.Event | None,
        started: float,
    ) -> SendStream:
        retrying = message.id is not None
        history = self.history(conversation.id, before=message.id if retrying else None)

        def store(result: SanitizeResult) -> None:
            message.sent = result.sanitized
            self.turns.save(conversation, message)

        # Sanitized again when another process stored clashing map entries meanwhile, so
        # what is sent is what the vault can restore (agent.session.conversation).
        sanitized = render_and_store(self.store, conversation, sanitize, store, first=sanitized)
        request = [*([ChatMessage("system", self.system_prompt)] if self.system_prompt else []), *history,
                   ChatMessage("user", sanitized.sanitized)]
        reply = SendStream(self, conversation, message, sanitized, request, self.model, cancel, started)
        reply.timings.prepare_s = time.perf_counter() - started
        return reply


def open_conversation(store: ConversationStore, conversation_id: str | None = None) -> Conversation:
    """The stored conversation, or a new one when conversation_id is None."""
    if conversation_id is None:
        return store.create_conversation()
    return store.load_conversation(conversation_id)
