"""Which conversation a proxied request belongs to, and the request sanitized with that
conversation's map.

A client names its conversation with the `X-Veil-Conversation` header; otherwise it is
found from the chat's opening and first answer (agent.serve.threads).

Earlier turns come back from the client with real values (it got restored text), so
each request is sanitized whole (every field, see agent.serve.fields) with the
conversation's map: the same stand-ins as before. Texts already sent once are not
sanitized again: a memo gives back exactly what was sent (and for earlier answers, what the upstream wrote), so the upstream sees the
same history every turn.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol

from agent.engine.interface import PrivacyEngine
from agent.serve.fields import RequestWalker, UnknownFields
from agent.serve.threads import ChatOpening, ChatThreads, SettingsStore, new_conversation_id
from agent.serve.wire import WireError
from agent.session.conversation import Conversation, ConversationNotFound, MessageState, fold
from agent.session.turns import TurnStore

CONVERSATION_HEADER = "X-Veil-Conversation"
_VALID_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")


# The memo keeps texts up to this size (a big message is not sanitized again each turn),
# and at most this many characters per conversation (client and upstream text together).
MEMO_TEXT_CHARS = 1_000_000
MEMO_SLOT_CHARS = 4_000_000
# All conversations in memory together: least recently used ones go first past this.
BOOK_MEMO_CHARS = 32_000_000


class ConversationSlot:
    """A conversation the proxy has in memory: its map, a lock for sanitizing, and the
    memo of texts as the client has them -> as the upstream had them."""

    def __init__(self, conversation_id: str, memo_size: int):
        self.id = conversation_id
        self.lock = threading.Lock()
        self.conversation: Conversation | None = None
        self.memo: OrderedDict[str, str] = OrderedDict()
        self.memo_size = memo_size
        self.memo_chars = 0

    def remember(self, client_text: str, upstream_text: str) -> None:
        if not client_text.strip() or len(client_text) > MEMO_TEXT_CHARS:
            return
        self.forget(client_text)
        self.memo[client_text] = upstream_text
        self.memo_chars += len(client_text) + len(upstream_text)
        while len(self.memo) > self.memo_size or self.memo_chars > MEMO_SLOT_CHARS:
            self.forget(next(iter(self.memo)))

    def forget(self, client_text: str) -> None:
        upstream_text = self.memo.pop(client_text, None)
        if upstream_text is not None:
            self.memo_chars -= len(client_text) + len(upstream_text)

    def recall(self, client_text: str) -> str | None:
        found = self.memo.get(client_text)
        if found is not None:
            self.memo.move_to_end(client_text)
        return found


class _RecallOnly:
    """A memo that is read, never written (for counting what a request would need)."""

    def __init__(self, memo: ConversationSlot):
        self.memo = memo

    def recall(self, client_text: str) -> str | None:
        return self.memo.recall(client_text)

    def remember(self, client_text: str, upstream_text: str) -> None:
        pass


class ProxyStore(TurnStore, SettingsStore, Protocol):
    """What the proxy keeps conversations, turns, the audit log, its token and the chat
    index in: the vault."""


class ConversationBook:
    """The proxy's conversations: at most `capacity` in memory (least recently used go;
    they stay in the store and are loaded again when a client comes back)."""

    def __init__(self, engine: PrivacyEngine, store: ProxyStore, *, capacity: int = 256, memo_size: int = 256):
        self.engine = engine
        self.store = store
        self.capacity = capacity
        self.memo_size = memo_size
        self._slots: OrderedDict[str, ConversationSlot] = OrderedDict()
        self._lock = threading.Lock()
        self.threads = ChatThreads(store)

    # -- identity ---------------------------------------------------------------------------------
    def conversation_id(self, header: str | None, messages: Sequence[dict[str, Any]]) -> tuple[str, ChatOpening | None]:
        """(the conversation id, and for a chat's first request its opening, under which
        its first answer is to be recorded: `threads.record`/`save`)."""
        if header is not None and header.strip():
            header = header.strip()
            if not _VALID_ID.fullmatch(header):
                raise WireError(400, f"{CONVERSATION_HEADER} must be 1-64 characters: letters, digits, '.', '_', ':', '-'",
                                param=CONVERSATION_HEADER)
            return header, None
        return self.threads.conversation_for(messages)

    def fork(self, slot: ConversationSlot, opening: ChatOpening) -> str:
        """A conversation of its own for a chat that began like the slot's (the same
        opening, another first answer): it starts with the opening's stand-ins, the map
        entries of the values the opening mentions, and has nothing else of the other
        chat (its seed is its own). Returns its id."""
        with slot.lock:
            assert slot.conversation is not None
            source = slot.conversation
            said = fold(opening.text)
            entries = [e for e in source.entries if fold(e.real) in said]
        fork = self.store.create_conversation(title=source.title, conversation_id=new_conversation_id())
        for entry in entries:
            try:
                fork.add_entry(entry)
            except ValueError:  # a case variant ("ReLU", "relu"): its value's stand-in
                base = fork.lookup_stand_in(entry.stand_in)
                if base is not None:
                    fork.add_variant(base, entry.real, entry.stand_in)
        self.store.save_conversation(fork)
        return fork.id

    # -- slots ----------------------------------------------------------------------------------------
    def slot(self, conversation_id: str) -> ConversationSlot:
        """The slot for this id, its conversation loaded from the store (created there
        when new)."""
        with self._lock:
            slot = self._slots.get(conversation_id)
            if slot is None:
                slot = self._slots[conversation_id] = ConversationSlot(conversation_id, self.memo_size)
                while len(self._slots) > 1 and (len(self._slots) > self.capacity or
                                                sum(s.memo_chars for s in self._slots.values()) > BOOK_MEMO_CHARS):
                    self._slots.popitem(last=False)
            else:
                self._slots.move_to_end(conversation_id)
        with slot.lock:
            if slot.conversation is None:
                slot.conversation = self._load(slot)
        return slot

    def _load(self, slot: ConversationSlot) -> Conversation:
        try:
            conversation = self.store.load_conversation(slot.id)
        except ConversationNotFound:
            try:
                return self.store.create_conversation(conversation_id=slot.id)
            except ValueError:  # created meanwhile by another process using the same vault
                conversation = self.store.load_conversation(slot.id)
        # What was sent before, so a continued chat sends its history exactly as before.
        for message in self.store.list_messages(slot.id)[-self.memo_size :]:
            if message.sent:
                slot.remember(message.typed, message.sent)
            if message.state is MessageState.ANSWERED and message.received:
                slot.remember(message.shown, message.received)
        return conversation

    # -- sanitizing ----------------------------------------------------------------------------------
    def new_text_chars(self, slot: ConversationSlot | None, body: dict[str, Any],
                       unknown_fields: UnknownFields = "sanitize") -> int:
        """How many characters of this request would go through the engine (texts not
        sanitized before; all of them for a new chat, slot None): what the size limit is
        checked against, before any work. Raises WireError as sanitize_request would."""
        total = 0

        def count(text: str) -> str:
            nonlocal total
            total += len(text)
            return text

        RequestWalker(count, unknown=unknown_fields, memo=_RecallOnly(slot) if slot else None).walk(body)
        return total

    def sanitize_request(self, slot: ConversationSlot, body: dict[str, Any],
                         unknown_fields: UnknownFields = "sanitize") -> dict[str, Any]:
        """The request with every text sanitized (call with slot.lock held); texts sent
        before come from the memo, exactly as they were sent. Raises WireError for what
        cannot be sanitized."""
        assert slot.conversation is not None
        conversation = slot.conversation

        def sanitize(text: str) -> str:
            return self.engine.sanitize(text, conversation).sanitized

        return RequestWalker(sanitize, unknown=unknown_fields, memo=slot).walk(body)
