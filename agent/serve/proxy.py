"""The proxy's work for one chat completion, without any HTTP server around it:

    proxy = PrivacyProxy(engine, store, upstream)
    exchange = proxy.begin(chat_request, conversation_header)   # sanitized, stored, audited
    for chunk in exchange.chunks(): ...                         # restored chunks (stream)
    completion = exchange.completion()                          # or: restored, whole

The vault keeps, per request, a message (the last message of the request as the client
sent it and as it was sent, the answer as received and as restored) and an audit entry
that lists every field of the request as it left (`path: value`, sanitized). Nothing
real goes into the audit log.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

from agent.engine.interface import PrivacyEngine
from agent.providers.base import CancelToken
from agent.serve.conversations import ConversationBook, ConversationSlot, ProxyStore
from agent.serve.fields import UNKNOWN_FIELD_POLICIES, UnknownFields, field_listing
from agent.serve.restoring import ChunkRestorer, completion_texts, restore_completion
from agent.serve.threads import ChatOpening
from agent.serve.upstream import Upstream
from agent.serve.wire import ChatRequest, WireError, iter_choices, message_text
from agent.session.conversation import Message, MessageState
from agent.session.stores import render_and_store
from agent.session.turns import TurnLog, title_for

log = logging.getLogger("veil.serve")

MODELS_CACHE_S = 300.0
# New text (not sent before in this conversation) one request may bring, in characters.
MAX_NEW_TEXT_CHARS = 1_000_000


class _AnswerComplete:
    def __repr__(self) -> str:
        return "ANSWER_COMPLETE"


# Yielded by Exchange.chunks() after the last chunk of a complete answer.
ANSWER_COMPLETE = _AnswerComplete()


class PrivacyProxy:
    def __init__(self, engine: PrivacyEngine, store: ProxyStore, upstream: Upstream, *, conversations: ConversationBook | None = None,
                 default_conversation: str | None = None, unknown_fields: UnknownFields = "sanitize",
                 max_new_chars: int = MAX_NEW_TEXT_CHARS):
        if unknown_fields not in UNKNOWN_FIELD_POLICIES:
            raise ValueError(f"unknown_fields must be one of {', '.join(UNKNOWN_FIELD_POLICIES)}")
        self.unknown_fields = unknown_fields
        self.max_new_chars = max_new_chars
        self.engine = engine
        self.default_conversation = default_conversation
        self.store = store
        self.turns = TurnLog(store)  # stores and audits each turn (shared with the chat's Sender)
        self.upstream = upstream
        self.conversations = conversations or ConversationBook(engine, store)
        self._models: tuple[float, list[str]] | None = None
        self._models_lock = threading.Lock()

    def begin(self, request: ChatRequest, conversation_header: str | None = None) -> Exchange:
        """Sanitize the request with its conversation's map and record it (message +
        audit entry). Raises WireError, agent.engine.core.InputRejected, vault errors; nothing
        has been sent when it raises."""
        self.upstream.check(request)
        conversation_id, opening = self.conversations.conversation_id(conversation_header or self.default_conversation,
                                                                      request.messages)
        if opening is not None:  # a new chat: nothing of it was sanitized before
            self._check_size(self.conversations.new_text_chars(None, request.body, self.unknown_fields))
        slot = self.conversations.slot(conversation_id)
        model = self.upstream.model_for(request)
        with slot.lock:
            if opening is None:
                self._check_size(self.conversations.new_text_chars(slot, request.body, self.unknown_fields))
            conversation = slot.conversation
            assert conversation is not None
            if not conversation.title:
                first = next((m for m in request.messages if m["role"] == "user"), request.messages[-1])
                conversation.title = title_for(message_text(first))
            message = Message(
                conversation_id=conversation.id,
                typed=message_text(request.messages[-1]),
                state=MessageState.SENDING,
                provider=self.upstream.kind,
                model=model,
            )
            memo_before = set(slot.memo)

            def render() -> tuple[dict[str, Any], dict[str, Any]]:
                # Texts a clashing attempt memoized use stand-ins the vault did not keep.
                for text in [t for t in slot.memo if t not in memo_before]:
                    slot.forget(text)
                sanitized = self.conversations.sanitize_request(slot, request.body, self.unknown_fields)
                return sanitized, self.upstream.outgoing(request, sanitized)

            def store(rendered: tuple[dict[str, Any], dict[str, Any]]) -> None:
                message.sent = message_text(rendered[0]["messages"][-1])
                self.turns.save(conversation, message)

            # Sanitized again when another process (the tray, the CLI) stored clashing map
            # entries meanwhile: what is forwarded always restores from the vault.
            _sanitized, outgoing = render_and_store(self.store, conversation, render, store)
        audit_id = self.turns.sent(message, provider=self.upstream.kind, model=model, sent_text=field_listing(outgoing))
        return Exchange(self, slot, request, outgoing, message, audit_id, opening)

    def _check_size(self, new_chars: int) -> None:
        """Refuse, before any work and before anything is sent, a request with more new
        text than one request may bring (sanitizing is CPU work, and what is sanitized
        must be restorable). Earlier turns sent before do not count."""
        if new_chars > self.max_new_chars:
            raise WireError(413, f"this request has {new_chars:,} characters of new text; the Veil proxy checks at "
                                 f"most {self.max_new_chars:,} per request. Send it in parts.",
                            code="request_too_large")

    def models(self) -> list[str]:
        """The configured model first, then what the upstream offers (cached a while)."""
        configured = self.upstream.default_model
        with self._models_lock:
            if self._models is not None and time.monotonic() - self._models[0] < MODELS_CACHE_S:
                offered = self._models[1]
            else:
                try:
                    offered = self.upstream.models()
                except Exception:
                    if not configured:
                        raise
                    offered = []  # the configured model is enough to answer
                self._models = (time.monotonic(), offered)
        return ([configured] if configured else []) + [m for m in offered if m != configured]

    def _finish(self, exchange: Exchange, received: str, shown: str, error: BaseException | None) -> None:
        message = exchange.message
        message.received, message.shown = received, shown
        self.turns.finish(message, exchange.audit_id, error=error)


class Exchange:
    """One request on its way: `chunks()` (streaming) or `completion()`, once."""

    def __init__(self, proxy: PrivacyProxy, slot: ConversationSlot, request: ChatRequest,
                 outgoing: dict[str, Any], message: Message, audit_id: int | None,
                 opening: ChatOpening | None = None):
        self.proxy = proxy
        self.slot = slot
        self.request = request
        self.outgoing = outgoing  # exactly what is sent upstream
        self.message = message
        self.audit_id = audit_id
        self.cancel_token = CancelToken()
        self.done = False
        # A chat's first request: its answers identify the chat from then on.
        self.opening = opening
        self._threads: list[tuple[str, str]] = []  # (chat digest, its conversation) to keep in the vault

    @property
    def conversation_id(self) -> str:
        return self.slot.id

    def cancel(self) -> None:
        """Stop the upstream request (safe from any thread)."""
        self.cancel_token.set()

    def chunks(self) -> Iterator[dict[str, Any] | _AnswerComplete]:
        """The answer as restored chat.completion.chunk dicts, then ANSWER_COMPLETE once the
        upstream has finished (the vault is updated when the generator is resumed or closed
        after it). Raises the upstream's errors (agent.providers.errors); the message and
        audit entry are updated either way."""
        conversation = self.slot.conversation
        restorer = ChunkRestorer(self.proxy.engine, conversation)
        upstream = self.proxy.upstream.stream(self.request, self.outgoing, self.cancel_token)
        try:
            for chunk in upstream:
                yield from restorer.feed(chunk)
            yield from restorer.finish()
        except BaseException as exc:  # upstream errors, cancel, the client going away
            self._end(*restorer.texts(), exc)
            raise
        finally:
            upstream.close()
        # A client may send its next turn the moment it has [DONE]: the memo and the chat's
        # identity are ready first.
        self._remember(restorer.pairs())
        self._record_answers(restorer.answers())
        try:
            # The client can be told the answer is complete before the vault is updated.
            yield ANSWER_COMPLETE
        finally:
            self._end(*restorer.texts(), None)

    def completion(self) -> dict[str, Any]:
        try:
            answer = self.proxy.upstream.complete(self.request, self.outgoing, self.cancel_token)
            restored, pairs = restore_completion(self.proxy.engine, answer, self.slot.conversation)
        except BaseException as exc:
            self._end("", "", exc)
            raise
        self._remember(pairs)
        self._record_answers([c["message"] for c in iter_choices(restored) if isinstance(c.get("message"), dict)])
        self._end(completion_texts(answer), completion_texts(restored), None)
        return restored

    def _record_answers(self, answers: list[dict[str, Any]]) -> None:
        """Index the chat by its opening and each answer the client may keep (in memory now;
        in the vault by _end)."""
        if self.opening is None:
            return
        book = self.proxy.conversations
        for answer in answers:
            digest = book.threads.digest_for(self.opening, answer)
            if book.threads.find(digest) is not None:
                continue  # the same first answer as a chat before: the same chat so far
            try:
                # The opening's first answer goes on in its conversation; another answer
                # to the same opening is another chat, with a conversation of its own.
                conversation_id = self.slot.id if book.threads.claim(self.opening) else book.fork(self.slot, self.opening)
            except Exception:
                log.exception("could not start the chat's own conversation")
                continue
            book.threads.record(digest, conversation_id)
            self._threads.append((digest, conversation_id))

    def _end(self, received: str, shown: str, error: BaseException | None) -> None:
        for digest, conversation_id in self._threads:
            try:
                self.proxy.conversations.threads.save(digest, conversation_id)
            except Exception:
                log.exception("could not keep the chat's index entry in the vault")
        self._threads = []
        if not self.done:
            self.done = True
            self.proxy._finish(self, received, shown, error)

    def _remember(self, pairs: list[tuple[str, str]]) -> None:
        with self.slot.lock:
            for shown, received in pairs:
                self.slot.remember(shown, received)
