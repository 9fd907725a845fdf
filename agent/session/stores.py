"""The store interface a conversation is kept in (the vault implements it), an in-memory
store for runs without a vault, and `render_and_store`: sanitize and store in one step,
again when another process stored a clashing map entry meanwhile (see conversation.py)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol, TypeVar, runtime_checkable

from agent.session.conversation import (
    ORIGINS,
    Conversation,
    ConversationNotFound,
    ConversationSummary,
    MapConflict,
    Message,
)


@runtime_checkable
class ConversationStore(Protocol):
    """Where conversations live. MemoryStore here; the encrypted vault implements the same."""

    def create_conversation(
        self, title: str = "", conversation_id: str | None = None, origin: str = "chat"
    ) -> Conversation: ...

    def set_conversation_origin(self, conversation_id: str, origin: str) -> None:
        """E.g. "chat" when the user opens a CLI or clipboard conversation in the chat list."""
        ...

    def load_conversation(self, conversation_id: str) -> Conversation:
        """Raises ConversationNotFound."""
        ...

    def save_conversation(self, conversation: Conversation) -> None:
        """Persist the conversation's unsaved map entries and choices (and its title).
        Raises MapConflict when another process stored a clashing entry meanwhile."""
        ...

    def refresh_conversation(self, conversation: Conversation) -> int:
        """Teach an open conversation the map entries others stored since it was loaded
        (returns how many)."""
        ...

    def list_conversations(self) -> list[ConversationSummary]: ...

    def rename_conversation(self, conversation_id: str, title: str) -> None: ...

    def delete_conversation(self, conversation_id: str) -> None: ...

    def add_message(self, message: Message) -> Message:
        """Store a new message; returns it with its id set."""
        ...

    def update_message(self, message: Message) -> None: ...

    def list_messages(self, conversation_id: str) -> list[Message]: ...


class MemoryStore:
    """A ConversationStore that lives as long as the process (tests, one-shot CLI use)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._conversations: dict[str, Conversation] = {}
        self._updated: dict[str, float] = {}
        self._messages: dict[str, list[Message]] = {}
        self._origins: dict[str, str] = {}
        self._next_message_id = 1
        self.audit: list[dict] = []  # the audit log: one dict per request, in order

    def create_conversation(
        self, title: str = "", conversation_id: str | None = None, origin: str = "chat"
    ) -> Conversation:
        _check_origin(origin)
        with self._lock:
            if conversation_id is not None and conversation_id in self._conversations:
                raise ValueError(f"conversation {conversation_id!r} already exists")
            conversation = Conversation(conversation_id, title=title)
            self._conversations[conversation.id] = conversation
            self._updated[conversation.id] = conversation.created_at
            self._messages[conversation.id] = []
            self._origins[conversation.id] = origin
            return conversation

    def set_conversation_origin(self, conversation_id: str, origin: str) -> None:
        _check_origin(origin)
        with self._lock:
            self.load_conversation(conversation_id)
            self._origins[conversation_id] = origin

    def load_conversation(self, conversation_id: str) -> Conversation:
        with self._lock:
            try:
                return self._conversations[conversation_id]
            except KeyError:
                raise ConversationNotFound(conversation_id) from None

    def refresh_conversation(self, conversation: Conversation) -> int:
        return 0  # one process, one copy of each conversation: nothing to learn

    def save_conversation(self, conversation: Conversation) -> None:
        with self._lock:
            self._conversations[conversation.id] = conversation
            conversation.take_unsaved()
            conversation.take_unsaved_choices()
            conversation.choices_deleted(conversation.forgotten_choices())
            self._updated[conversation.id] = time.time()
            self._messages.setdefault(conversation.id, [])

    def list_conversations(self) -> list[ConversationSummary]:
        with self._lock:
            return sorted(
                (
                    ConversationSummary(
                        c.id, c.title, c.created_at, self._updated[c.id], len(self._messages[c.id]),
                        self._origins.get(c.id, "chat"),
                    )
                    for c in self._conversations.values()
                ),
                key=lambda s: s.updated_at,
                reverse=True,
            )

    def rename_conversation(self, conversation_id: str, title: str) -> None:
        self.load_conversation(conversation_id).title = title

    def delete_conversation(self, conversation_id: str) -> None:
        with self._lock:
            self.load_conversation(conversation_id)
            del self._conversations[conversation_id]
            del self._messages[conversation_id]
            del self._updated[conversation_id]
            self._origins.pop(conversation_id, None)

    def add_message(self, message: Message) -> Message:
        with self._lock:
            self.load_conversation(message.conversation_id)
            message.id = self._next_message_id
            self._next_message_id += 1
            self._messages[message.conversation_id].append(message)
            self._updated[message.conversation_id] = time.time()
            return message

    def update_message(self, message: Message) -> None:
        with self._lock:
            messages = self._messages[message.conversation_id]
            for i, existing in enumerate(messages):
                if existing.id == message.id:
                    messages[i] = message
                    return
            raise KeyError(f"no message with id {message.id}")

    def list_messages(self, conversation_id: str) -> list[Message]:
        with self._lock:
            self.load_conversation(conversation_id)
            return list(self._messages[conversation_id])

    # -- a TurnStore (agent.session.turns): turns and their audit entries, in memory -------------
    def save_turn(self, conversation: Conversation, message: Message) -> Message:
        with self._lock:
            self.save_conversation(conversation)
            if message.id is None:
                return self.add_message(message)
            self.update_message(message)
            return message

    def record_request(self, provider: str, model: str, sanitized_text: str, *, conversation_id: str | None = None,
                       message_id: int | None = None, received_chars: int | None = None, status: str = "sent",
                       at: float | None = None) -> int:
        with self._lock:
            self.audit.append({"at": time.time() if at is None else at, "provider": provider, "model": model,
                               "conversation_id": conversation_id, "message_id": message_id,
                               "sent_text": sanitized_text, "received_chars": received_chars, "status": status})
            return len(self.audit)

    def finish_request(self, audit_id: int, *, received_chars: int, status: str = "answered") -> None:
        with self._lock:
            self.audit[audit_id - 1].update(received_chars=received_chars, status=status)



def _check_origin(origin: str) -> None:
    if origin not in ORIGINS:
        raise ValueError(f"unknown conversation origin {origin!r}; expected one of {', '.join(ORIGINS)}")


Rendered = TypeVar("Rendered")

# A clash needs another process to store a clashing entry between our read and our
# write; each attempt re-reads first, so more than a few in a row means something is off.
MAX_RENDER_ATTEMPTS = 8


def render_and_store(
    store: ConversationStore,
    conversation: Conversation,
    render: Callable[[], Rendered],
    persist: Callable[[Rendered], object],
    *,
    first: Rendered | None = None,
) -> Rendered:
    """Sanitize with the conversation's map and store the result with the entries it
    added, so that what is sent always agrees with the vault.

    `render` sanitizes (adding map entries to `conversation`); `persist` stores its
    result together with the conversation's unsaved entries in one transaction
    (save_turn / save_conversation). Before each render the conversation learns what
    other processes stored; when storing raises MapConflict the text is rendered again
    against the map as stored. `first`: a result rendered already (the preview the user
    saw), stored as it is unless it clashes. Returns the result that was stored.
    Raises MapConflict after MAX_RENDER_ATTEMPTS clashes in a row."""
    result = first
    for _ in range(MAX_RENDER_ATTEMPTS):
        if result is None:
            store.refresh_conversation(conversation)
            result = render()
        try:
            persist(result)
            return result
        except MapConflict:
            result = None
    raise MapConflict(
        "other Veil processes kept changing this conversation's map while it was being stored; "
        "nothing was sent, try again"
    )
