"""Conversations and their messages in the vault: `VaultConversations` owns creating,
loading and listing conversations, storing a conversation's map and choices
(entity_map.py checks every new map entry against what other processes stored, in the
same transaction), storing a turn (map and message in one transaction: the vault never
holds a sent text whose stand-ins it cannot restore), and the messages themselves. New
map entries that could not be stored (a full disk) are kept and go with the next save;
entries that clash with another process's are dropped (MapConflict).
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

from agent.entities import Action, Label
from agent.session.conversation import (
    ORIGINS,
    Conversation,
    ConversationNotFound,
    ConversationSummary,
    EntityChoice,
    MapConflict,
    MapEntry,
    Message,
    MessageState,
    fold,
)
from agent.vault import db, entity_map
from agent.vault.session import VaultSession


def conversation_exists(conn: db.Connection, conversation_id: str) -> bool:
    return conn.execute("SELECT 1 FROM conversations WHERE id = ?", (conversation_id,)).fetchone() is not None


def _label(value: str) -> Label:
    try:
        return Label(value)
    except ValueError:  # a label from a newer Veil: keep the value usable
        return Label.MISC


class VaultConversations(VaultSession):
    """The ConversationStore part of the vault (agent.session.conversation)."""

    def __init__(self, *args: Any, **kwargs: Any):
        self._pending_lock = threading.Lock()
        # Map entries and choices whose save failed (disk full...): they go with the next one.
        self._pending: dict[str, tuple[list[MapEntry], list[EntityChoice]]] = {}
        super().__init__(*args, **kwargs)

    def create_conversation(
        self, title: str = "", conversation_id: str | None = None, origin: str = "chat"
    ) -> Conversation:
        """origin: where it was started (agent.session.conversation.ORIGINS)."""
        if origin not in ORIGINS:
            raise ValueError(f"unknown conversation origin {origin!r}; expected one of {', '.join(ORIGINS)}")
        conversation = Conversation(conversation_id, title=title)
        with self._write() as conn:
            if conversation_exists(conn, conversation.id):
                raise ValueError(f"conversation {conversation.id!r} already exists")
            conn.execute(
                "INSERT INTO conversations (id, seed, title, created_at, updated_at, origin) VALUES (?, ?, ?, ?, ?, ?)",
                (conversation.id, conversation.seed, title, conversation.created_at, conversation.created_at, origin),
            )
        return conversation

    def set_conversation_origin(self, conversation_id: str, origin: str) -> None:
        if origin not in ORIGINS:
            raise ValueError(f"unknown conversation origin {origin!r}; expected one of {', '.join(ORIGINS)}")
        with self._write() as conn:
            if conn.execute("UPDATE conversations SET origin = ? WHERE id = ?", (origin, conversation_id)).rowcount == 0:
                raise ConversationNotFound(conversation_id)

    def load_conversation(self, conversation_id: str) -> Conversation:
        """A fresh Conversation from the file (so it includes what other threads and
        processes saved). Raises ConversationNotFound."""
        with self._read() as conn:
            row = conn.execute(
                "SELECT seed, title, created_at FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
            if row is None:
                raise ConversationNotFound(conversation_id)
            entries, synced_through = entity_map.load_entries(conn, conversation_id)
            choices = [
                EntityChoice(real, _label(label), Action(action), chosen_at)
                for real, label, action, chosen_at in conn.execute(
                    "SELECT real, label, action, chosen_at FROM choices WHERE conversation_id = ? "
                    "ORDER BY chosen_at, rowid",
                    (conversation_id,),
                )
            ]
        seed, title, created_at = row
        conversation = Conversation(
            conversation_id, seed=seed, title=title, created_at=created_at, entries=entries, choices=choices
        )
        conversation.synced_through = synced_through
        return conversation

    def refresh_conversation(self, conversation: Conversation) -> int:
        """Teach an open conversation the map entries other processes (or other copies
        of it) stored since it was loaded or last stored; returns how many it learnt.
        Long-running processes call this before sanitizing (render_and_store does)."""
        with self._read() as conn:
            entries, last = entity_map.entries_after(conn, conversation.id, conversation.synced_through)
        return conversation.absorb(entries, last)

    def save_conversation(self, conversation: Conversation) -> None:
        """Persist the unsaved map entries and choices, and the title (one transaction).
        If it fails (disk full...), the entries are kept and go with the next save.
        Raises MapConflict (nothing stored, the conversation re-synced) when another
        process stored a clashing entry since this conversation last read the map."""
        self._store_map(conversation, None)

    def save_turn(self, conversation: Conversation, message: Message) -> Message:
        """The conversation's new map entries and choices plus one message (added if it
        has no id, else updated) in ONE transaction: use this when sending, so the vault
        never holds a sent text whose stand-ins it cannot restore. Raises MapConflict
        like save_conversation (the message is then not stored either)."""
        if message.conversation_id != conversation.id:
            raise ValueError("the message belongs to another conversation")
        new_id = self._store_map(conversation, message)
        if new_id is not None:
            message.id = new_id
        return message

    def _store_map(self, conversation: Conversation, message: Message | None) -> int | None:
        entries, choices = self._take_unsaved(conversation)
        try:
            with self._write() as conn:
                learnt, last = entity_map.entries_after(conn, conversation.id, conversation.synced_through)
                forgotten = conversation.forgotten_choices()
                self._persist(conn, conversation, entries, choices)
                new_id = self._write_message(conn, message) if message is not None else None
                last = max(last, entity_map.last_row_id(conn, conversation.id))
        except entity_map.AllocationClash as clash:
            # Rolled back. The entries this copy made cannot be kept: it forgets them and
            # learns the stored map, and the caller sanitizes again (render_and_store).
            self._give_back(conversation.id, [], choices)
            with self._read() as conn:
                stored, last = entity_map.entries_after(conn, conversation.id, conversation.synced_through)
            conversation.forget(entries)
            conversation.absorb(stored, last)
            raise MapConflict(
                f"{clash.clash.reason} ({clash.clash.entry.label.value}); sanitize the text again"
            ) from None
        except BaseException:
            self._give_back(conversation.id, entries, choices)
            raise
        conversation.absorb(learnt, last)
        conversation.choices_deleted(forgotten)
        return new_id

    def list_conversations(self) -> list[ConversationSummary]:
        with self._read() as conn:
            rows = conn.execute(
                "SELECT c.id, c.title, c.created_at, c.updated_at, "
                "(SELECT count(*) FROM messages m WHERE m.conversation_id = c.id), c.origin "
                "FROM conversations c ORDER BY c.updated_at DESC, c.rowid DESC"
            ).fetchall()
        return [ConversationSummary(*row) for row in rows]

    def rename_conversation(self, conversation_id: str, title: str) -> None:
        with self._write() as conn:
            cursor = conn.execute("UPDATE conversations SET title = ? WHERE id = ?", (title, conversation_id))
            if cursor.rowcount == 0:
                raise ConversationNotFound(conversation_id)

    def delete_conversation(self, conversation_id: str) -> None:
        """Deletes it with its messages, map and choices (secure_delete: overwritten, and
        the WAL is checkpointed). Audit entries stay, unlinked (sanitized text only)."""
        with self._write() as conn:
            cursor = conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
            if cursor.rowcount == 0:
                raise ConversationNotFound(conversation_id)
        with self._pending_lock:
            self._pending.pop(conversation_id, None)
        self._checkpoint()

    def add_message(self, message: Message) -> Message:
        with self._write() as conn:
            new_id = self._write_message(conn, replace(message, id=None))
        message.id = new_id
        return message

    def update_message(self, message: Message) -> None:
        if message.id is None:
            raise KeyError("the message has no id (add it first)")
        with self._write() as conn:
            self._write_message(conn, message)

    def list_messages(self, conversation_id: str) -> list[Message]:
        with self._read() as conn:
            if not conversation_exists(conn, conversation_id):
                raise ConversationNotFound(conversation_id)
            rows = conn.execute(
                "SELECT id, typed, sent, received, shown, state, provider, model, error, created_at "
                "FROM messages WHERE conversation_id = ? ORDER BY id",
                (conversation_id,),
            ).fetchall()
        return [
            Message(
                conversation_id=conversation_id,
                typed=typed,
                sent=sent,
                received=received,
                shown=shown,
                state=MessageState(state),
                provider=provider,
                model=model,
                error=error,
                created_at=created_at,
                id=message_id,
            )
            for message_id, typed, sent, received, shown, state, provider, model, error, created_at in rows
        ]

    # -- helpers for the above ---------------------------------------------------------------

    def _take_unsaved(self, conversation: Conversation) -> tuple[list[MapEntry], list[EntityChoice]]:
        with self._pending_lock:
            old_entries, old_choices = self._pending.pop(conversation.id, ([], []))
        return old_entries + conversation.take_unsaved(), old_choices + conversation.take_unsaved_choices()

    def _give_back(self, conversation_id: str, entries: list[MapEntry], choices: list[EntityChoice]) -> None:
        if not entries and not choices:
            return
        with self._pending_lock:
            later_entries, later_choices = self._pending.get(conversation_id, ([], []))
            self._pending[conversation_id] = (entries + later_entries, choices + later_choices)

    @staticmethod
    def _persist(
        conn: db.Connection, conversation: Conversation, entries: list[MapEntry], choices: list[EntityChoice]
    ) -> None:
        now = time.time()
        conn.execute(
            "INSERT INTO conversations (id, seed, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET title = excluded.title, updated_at = excluded.updated_at",
            (conversation.id, conversation.seed, conversation.title, conversation.created_at, now),
        )
        entity_map.insert_entries(conn, conversation.id, entries)
        # Choices the user reset (chat window): deleted before the new ones are written.
        conn.executemany("DELETE FROM choices WHERE conversation_id = ? AND real_key = ?",
                         [(conversation.id, key) for key in conversation.forgotten_choices()])
        conn.executemany(
            "INSERT INTO choices (conversation_id, real_key, real, label, action, chosen_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(conversation_id, real_key) DO UPDATE SET "
            "real = excluded.real, label = excluded.label, action = excluded.action, "
            "chosen_at = excluded.chosen_at",
            [
                (conversation.id, fold(c.real), c.real, c.label.value, c.action.value, c.chosen_at)
                for c in choices
            ],
        )

    @staticmethod
    def _write_message(conn: db.Connection, message: Message) -> int | None:
        """Insert (no id: returns the new id) or update (returns None) one message."""
        if not conversation_exists(conn, message.conversation_id):
            raise ConversationNotFound(message.conversation_id)
        now = time.time()
        values = (
            message.typed,
            message.sent,
            message.received,
            message.shown,
            MessageState(message.state).value,
            message.provider,
            message.model,
            message.error,
        )
        if message.id is None:
            cursor = conn.execute(
                "INSERT INTO messages (typed, sent, received, shown, state, provider, model, error, "
                "conversation_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*values, message.conversation_id, message.created_at, now),
            )
            new_id: int | None = cursor.lastrowid
        else:
            cursor = conn.execute(
                "UPDATE messages SET typed = ?, sent = ?, received = ?, shown = ?, state = ?, provider = ?, "
                "model = ?, error = ?, updated_at = ? WHERE id = ? AND conversation_id = ?",
                (*values, now, message.id, message.conversation_id),
            )
            if cursor.rowcount == 0:
                raise KeyError(f"no message with id {message.id}")
            new_id = None
        conn.execute("UPDATE conversations SET updated_at = ? WHERE id = ?", (now, message.conversation_id))
        return new_id

    def _forget_pending(self, conversation_ids: list[str] | None = None) -> None:
        """Deleted conversations (None: all) have nothing left to save."""
        with self._pending_lock:
            if conversation_ids is None:
                self._pending.clear()
            for conversation_id in conversation_ids or ():
                self._pending.pop(conversation_id, None)
