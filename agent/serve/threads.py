"""Which conversation a request belongs to when the client does not say.

A client names its conversation with the `X-Veil-Conversation` header. Most clients do
not: they send the whole history with every turn. The history's opening (system prompt
+ first user message) is not enough to tell two chats apart: two chats that begin with
the same words would share one map (the same stand-ins, one chat's memo in the other).

So a chat is identified by its opening *and its first answer*:
- a request with no assistant turn yet belongs to its opening's conversation: the same
  opening (a retry, a regenerated first answer, another chat that begins with the same
  words) is sanitized with the same map, so the upstream sees the same text with the same
  stand-ins (different stand-ins for one text would show it which words were swapped);
  the opening is indexed by a keyed hash, in memory and in the vault;
- the first answer recorded for an opening claims its conversation: the pair (opening,
  answer as the client received it) is indexed -> that conversation, in memory at once
  (before the client can send its next turn) and in the vault (setting
  `serve.thread.<hash>`), so it outlives a restart;
- another first answer to the same opening is another chat: it gets a conversation of its
  own that starts with the opening's stand-ins (the map entries of the values the opening
  mentions) and nothing else of the first chat (agent.serve.conversations.fork);
- a later request carries the same opening and first answer (the client sends back what
  it got), so it finds its conversation; the answer is the nonce the client carries back
  without knowing it.

Trade-offs: two chats that got the very same first answer to the very same opening
(a deterministic model, temperature 0) share a conversation; their texts are identical
up to there, so nothing of one leaks into the other that it did not already have. A
client that edits the first answer, or sends a history the proxy never answered (a chat
begun elsewhere), starts a new conversation: its history is sanitized afresh,
consistently within the request, but with new stand-ins. The hash is an HMAC with a key
kept in the vault, so an index row or an id does not reveal or confirm what a chat
began with.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from agent.serve.wire import message_text

CONVERSATION_KEY_SETTING = "serve.conversation_key"
THREAD_SETTING_PREFIX = "serve.thread."
OPENING_SETTING_PREFIX = "serve.opening."  # opening -> its conversation
ANSWERED_SETTING_PREFIX = "serve.answered."  # opening -> "1" once a first answer claimed it
NEW_PREFIX = "px-"
MEMORY_CAPACITY = 4096


class SettingsStore(Protocol):
    """A store that keeps named settings (the vault: encrypted)."""

    def get_setting(self, key: str, default: Any = None) -> Any: ...

    def set_setting(self, key: str, value: Any) -> None: ...


@dataclass(frozen=True)
class ChatOpening:
    """The opening of a chat that has no answer yet: what its first answer will be
    recorded with."""

    text: str
    digest: str = ""  # its index key (OPENING_SETTING_PREFIX)


def new_conversation_id() -> str:
    return NEW_PREFIX + secrets.token_hex(12)


def opening_and_first_answer(messages: Sequence[dict[str, Any]]) -> tuple[str, dict[str, Any] | None]:
    """The opening (every message up to and including the first user message) as one
    text, and the first assistant message after it (None when there is none yet)."""
    parts, answer = [], None
    rest = iter(messages)
    for message in rest:
        parts.append(f"{message['role']}\x00{message_text(message)}")
        if message["role"] == "user":
            break
    for message in rest:
        if message["role"] == "assistant":
            answer = message
            break
    return "\x1e".join(parts), answer


def answer_text(message: dict[str, Any]) -> str:
    """An assistant message as it identifies a chat: its text and tool-call arguments,
    whitespace folded (a client may trim what it sends back)."""
    return " ".join(message_text(message).split())


class ChatThreads:
    """The index (opening, first answer) -> conversation id, kept in memory and in the
    store's settings."""

    def __init__(self, store: SettingsStore):
        self.store = store
        self._memory: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        self._key_lock = threading.Lock()
        self._key: bytes | None = None

    def conversation_for(self, messages: Sequence[dict[str, Any]]) -> tuple[str, ChatOpening | None]:
        """(conversation id, opening to record the first answer under, or None)."""
        opening, answer = opening_and_first_answer(messages)
        if answer is None:
            return self._opening_conversation(opening)
        digest = self._digest(opening, answer_text(answer))
        found = self.find(digest)
        if found is not None:
            return found, None
        # A history this proxy did not answer (or no longer knows): a new conversation,
        # found again by the same history next turn.
        conversation_id = new_conversation_id()
        self.record(digest, conversation_id)
        self.save(digest, conversation_id)
        return conversation_id, None

    def _opening_conversation(self, opening: str) -> tuple[str, ChatOpening]:
        """The conversation of every request that has this opening and no answer yet."""
        digest = self._digest(opening, None)
        with self._lock:  # two first requests at once: one conversation
            found = self._find(OPENING_SETTING_PREFIX + digest)
            if found is None:
                found = new_conversation_id()
                self.record(OPENING_SETTING_PREFIX + digest, found, locked=True)
                self.store.set_setting(OPENING_SETTING_PREFIX + digest, found)
        return found, ChatOpening(opening, digest)

    def claim(self, opening: ChatOpening) -> bool:
        """True for the first answer recorded under this opening (it continues in the
        opening's conversation), False after it (another chat: a conversation of its own)."""
        key = ANSWERED_SETTING_PREFIX + opening.digest
        with self._lock:
            if self._find(key) is not None:
                return False
            self.record(key, "1", locked=True)
            self.store.set_setting(key, "1")
            return True

    def find(self, digest: str) -> str | None:
        """The conversation of a chat with this (opening, first answer) digest, if known."""
        with self._lock:
            return self._find(digest)

    def digest_for(self, opening: ChatOpening, answer: dict[str, Any]) -> str:
        return self._digest(opening.text, answer_text(answer))

    def record(self, digest: str, conversation_id: str, *, locked: bool = False) -> None:
        """In memory: the next turn finds it at once."""
        if not locked:
            with self._lock:
                self.record(digest, conversation_id, locked=True)
            return
        self._memory[digest] = conversation_id
        self._memory.move_to_end(digest)
        while len(self._memory) > MEMORY_CAPACITY:
            self._memory.popitem(last=False)

    def save(self, digest: str, conversation_id: str) -> None:
        """In the vault: a restarted proxy finds it too."""
        self.store.set_setting(THREAD_SETTING_PREFIX + digest, conversation_id)

    def _find(self, key: str) -> str | None:
        """(Call with the lock held.) A chat digest, or an opening/answered key."""
        found = self._memory.get(key)
        if found is not None:
            self._memory.move_to_end(key)
            return found
        setting = key if key.startswith((OPENING_SETTING_PREFIX, ANSWERED_SETTING_PREFIX)) else THREAD_SETTING_PREFIX + key
        stored = self.store.get_setting(setting)
        if isinstance(stored, str):
            self.record(key, stored, locked=True)
            return stored
        return None

    def _digest(self, opening: str, answer: str | None) -> str:
        # An opening alone and an opening with an empty answer are different keys.
        material = (opening if answer is None else f"{opening}\x1d{answer}").encode("utf-8", "surrogatepass")
        return hmac.new(self._secret(), material, hashlib.sha256).hexdigest()[:32]

    def _secret(self) -> bytes:
        if self._key is None:
            with self._key_lock:
                if self._key is None:
                    stored = self.store.get_setting(CONVERSATION_KEY_SETTING)
                    if not isinstance(stored, str):
                        stored = secrets.token_hex(32)
                        self.store.set_setting(CONVERSATION_KEY_SETTING, stored)
                    self._key = bytes.fromhex(stored)
        return self._key
