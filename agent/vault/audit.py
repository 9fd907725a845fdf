"""The audit log: one entry per request that left the machine (time, provider, model,
the sanitized text that was sent, sizes, status), never a real value. `VaultAudit`
owns writing and finishing entries and listing them. Entries outlive their conversation
(they are the record of what left), unlinked; retention and wipe remove them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from agent.session.conversation import ConversationNotFound
from agent.vault.conversations import conversation_exists
from agent.vault.session import VaultSession


@dataclass(frozen=True, slots=True)
class AuditRecord:
    id: int
    at: float
    provider: str
    model: str
    conversation_id: str | None
    message_id: int | None
    sent_text: str
    sent_chars: int
    received_chars: int | None
    status: str


class VaultAudit(VaultSession):
    """The audit-log part of the vault."""

    def record_request(
        self,
        provider: str,
        model: str,
        sanitized_text: str,
        *,
        conversation_id: str | None = None,
        message_id: int | None = None,
        received_chars: int | None = None,
        status: str = "sent",
        at: float | None = None,
    ) -> int:
        """Log one request that left the machine: what was sent (sanitized text ONLY:
        never pass real values here), to whom, and its size. Returns the entry's id."""
        # Written just before the request leaves: not folded here (that would delay the
        # request), but by the write that records the answer.
        with self._write(fold=False) as conn:
            if conversation_id is not None and not conversation_exists(conn, conversation_id):
                raise ConversationNotFound(conversation_id)
            if message_id is not None and conn.execute(
                "SELECT 1 FROM messages WHERE id = ?", (message_id,)
            ).fetchone() is None:
                raise KeyError(f"no message with id {message_id}")
            cursor = conn.execute(
                "INSERT INTO audit_log (at, provider, model, conversation_id, message_id, sent_text, "
                "sent_chars, received_chars, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    time.time() if at is None else at,
                    provider,
                    model,
                    conversation_id,
                    message_id,
                    sanitized_text,
                    len(sanitized_text),
                    received_chars,
                    status,
                ),
            )
            return int(cursor.lastrowid)

    def finish_request(self, audit_id: int, *, received_chars: int, status: str = "answered") -> None:
        with self._write() as conn:
            cursor = conn.execute(
                "UPDATE audit_log SET received_chars = ?, status = ? WHERE id = ?",
                (received_chars, status, audit_id),
            )
            if cursor.rowcount == 0:
                raise KeyError(f"no audit entry with id {audit_id}")

    def list_audit(self, *, conversation_id: str | None = None, limit: int = 100) -> list[AuditRecord]:
        """Newest first."""
        query = (
            "SELECT id, at, provider, model, conversation_id, message_id, sent_text, sent_chars, "
            "received_chars, status FROM audit_log"
        )
        params: tuple = ()
        if conversation_id is not None:
            query += " WHERE conversation_id = ?"
            params = (conversation_id,)
        query += " ORDER BY id DESC LIMIT ?"
        with self._read() as conn:
            rows = conn.execute(query, (*params, int(limit))).fetchall()
        return [AuditRecord(*row) for row in rows]
