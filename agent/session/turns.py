"""One turn of a conversation, kept and audited the same way by everything that sends
(the chat's Sender and the local proxy):

    turns = TurnLog(store)
    turns.save(conversation, message)        # map entries + the message, one step (SENDING)
    audit_id = turns.sent(message, provider="openai", model="gpt-4o-mini", sent_text=...)
    ...                                      # the answer streams in
    turns.finish(message, audit_id)          # ANSWERED; or finish(..., error=exc): the
                                             # state the error means, the audit entry too

The store is typed (TurnStore): it keeps conversations, turns and the audit log, like the
vault and MemoryStore do. Saving a turn raises (nothing has been sent yet); once the
request has left, a store that fails (vault locked, disk full) is logged, never raised,
so the provider's own outcome reaches the caller.
"""

from __future__ import annotations

import logging
from typing import Protocol, runtime_checkable

from agent.providers.errors import Cancelled, MissingApiKey, ProviderError
from agent.session.conversation import Conversation, Message, MessageState
from agent.session.stores import ConversationStore

log = logging.getLogger("veil.turns")

TITLE_CHARS = 60


@runtime_checkable
class AuditLog(Protocol):
    """Every request that left the machine: what was sent (sanitized text only), to whom."""

    def record_request(self, provider: str, model: str, sanitized_text: str, *, conversation_id: str | None = None,
                       message_id: int | None = None, received_chars: int | None = None, status: str = "sent",
                       at: float | None = None) -> int: ...

    def finish_request(self, audit_id: int, *, received_chars: int, status: str = "answered") -> None: ...


@runtime_checkable
class TurnStore(ConversationStore, AuditLog, Protocol):
    """A conversation store that keeps turns and audits them (VaultStore, MemoryStore)."""

    def save_turn(self, conversation: Conversation, message: Message) -> Message:
        """The conversation's unsaved map entries and choices plus the message (added when
        it has no id, else updated), in one step: a sent text is never stored without the
        stand-ins that restore it. Raises MapConflict like save_conversation."""
        ...


def state_for(error: BaseException) -> tuple[MessageState, str]:
    """The state a message is left in by what ended its request, and the note kept with it."""
    if isinstance(error, (Cancelled, KeyboardInterrupt, GeneratorExit)):
        return MessageState.CANCELLED, "cancelled"
    if isinstance(error, MissingApiKey):
        return MessageState.UNSENT, str(error)  # nothing left the machine
    if isinstance(error, ProviderError):
        return MessageState.FAILED, str(error)
    return MessageState.FAILED, f"internal error: {type(error).__name__}: {error}"


def title_for(text: str) -> str:
    """A conversation's title from its first message: one line, at most TITLE_CHARS."""
    line = " ".join(text.split())
    return line if len(line) <= TITLE_CHARS else line[: TITLE_CHARS - 1].rstrip() + "…"


class TurnLog:
    def __init__(self, store: TurnStore):
        self.store = store

    def save(self, conversation: Conversation, message: Message) -> Message:
        """Store the turn before it is sent (raises: then nothing is sent)."""
        if not conversation.title:
            conversation.title = title_for(message.typed)
        return self.store.save_turn(conversation, message)

    def sent(self, message: Message, *, provider: str, model: str, sent_text: str) -> int | None:
        """The audit entry of a request that is leaving: `sent_text` is sanitized text ONLY.
        Returns its id (None when the log could not be written: the request still goes)."""
        try:
            return self.store.record_request(provider, model, sent_text, conversation_id=message.conversation_id,
                                             message_id=message.id, status="sent")
        except Exception:
            log.exception("could not record the request in the audit log")
            return None

    def finish(self, message: Message, audit_id: int | None, *, error: BaseException | None = None,
               nothing_sent: bool = False) -> None:
        """The turn's outcome: ANSWERED, or the state `error` means (UNSENT rather than
        FAILED when `nothing_sent`); `message.received`/`shown` as they are now."""
        if error is None:
            message.state, message.error = MessageState.ANSWERED, ""
        else:
            message.state, message.error = state_for(error)
            if nothing_sent and message.state is MessageState.FAILED:
                message.state = MessageState.UNSENT
        self.update(message)
        if audit_id is not None:
            try:
                self.store.finish_request(audit_id, received_chars=len(message.received), status=message.state.value)
            except Exception:
                log.exception("could not update the audit log")

    def update(self, message: Message) -> None:
        """Store the message as it is now (logged, not raised, on failure)."""
        try:
            self.store.update_message(message)
        except Exception:
            log.exception("could not store message %s", message.id)
