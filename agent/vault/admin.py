"""Looking after the vault as a whole. `VaultAdmin` owns retention (conversations not used
for N days and older audit entries go), exporting a conversation as JSON (real values
only when asked), wiping everything while keeping the vault usable, re-keying (a new
passphrase, or a move between keyring and passphrase mode, with no data loss) and the
status summary `veil vault status` prints.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from agent.session.conversation import ConversationNotFound
from agent.vault import db
from agent.vault.conversations import VaultConversations
from agent.vault.errors import VaultLocked
from agent.vault.keys import (
    KeyMode,
    Prompt,
    SecretSource,
    keyring_delete,
    keyring_status,
    new_slot,
    read_header,
    write_header,
)
from agent.vault.schema import schema_version
from agent.vault.session import request_lock
from agent.vault.vault_file import companion_paths

EXPORT_FORMAT = "veil-conversation/1"


@dataclass(frozen=True, slots=True)
class RetentionResult:
    conversations: int
    audit_entries: int


@dataclass(frozen=True, slots=True)
class VaultStatus:
    path: Path
    vault_id: str
    mode: KeyMode
    size_bytes: int
    schema_version: int
    conversations: int
    messages: int
    entities: int
    audit_entries: int
    created_at: float
    keyring_backend: str
    auto_lock_seconds: float


class VaultAdmin(VaultConversations):
    """Retention, export, wipe, re-key and status (they need the conversations)."""

    def apply_retention(self, days: int, *, now: float | None = None) -> RetentionResult:
        """Delete conversations not used for `days` days, and older audit entries.
        days <= 0 keeps everything."""
        if days <= 0:
            return RetentionResult(0, 0)
        cutoff = (time.time() if now is None else now) - days * 86400
        with self._write() as conn:
            gone = [row[0] for row in conn.execute("SELECT id FROM conversations WHERE updated_at < ?", (cutoff,))]
            conn.execute("DELETE FROM conversations WHERE updated_at < ?", (cutoff,))
            audit = conn.execute("DELETE FROM audit_log WHERE at < ?", (cutoff,)).rowcount
        self._forget_pending(gone)
        if gone or audit:
            self._checkpoint()
        return RetentionResult(len(gone), audit)

    def export_conversation(self, conversation_id: str, *, include_real: bool = False) -> dict[str, Any]:
        """A JSON-ready dict. Without `include_real` it holds only what left the machine
        (sanitized texts, answers with stand-ins, stand-ins and their types): no typed or
        shown text, no real values, no choices."""
        with self._read() as conn:
            row = conn.execute(
                "SELECT title, created_at, updated_at FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
            if row is None:
                raise ConversationNotFound(conversation_id)
            messages = conn.execute(
                "SELECT id, typed, sent, received, shown, state, provider, model, error, created_at "
                "FROM messages WHERE conversation_id = ? ORDER BY id",
                (conversation_id,),
            ).fetchall()
            entities = conn.execute(
                "SELECT real, stand_in, label, action, first_seen, parent, role FROM entities "
                "WHERE conversation_id = ? ORDER BY id",
                (conversation_id,),
            ).fetchall()
            choices = conn.execute(
                "SELECT real, label, action, chosen_at FROM choices WHERE conversation_id = ? ORDER BY chosen_at",
                (conversation_id,),
            ).fetchall()
        title, created_at, updated_at = row
        out: dict[str, Any] = {
            "format": EXPORT_FORMAT,
            "includes_real_values": include_real,
            "exported_at": time.time(),
            "id": conversation_id,
            "created_at": created_at,
            "updated_at": updated_at,
            "messages": [],
            "entities": [],
        }
        if include_real:
            out["title"] = title  # titles are usually the first words the user typed
        for message_id, typed, sent, received, shown, state, provider, model, error, m_created in messages:
            item = {
                "id": message_id,
                "created_at": m_created,
                "state": state,
                "provider": provider,
                "model": model,
                "sent": sent,
                "received": received,
                "error": error,
            }
            if include_real:
                item.update(typed=typed, shown=shown)
            out["messages"].append(item)
        for real, stand_in, label, action, first_seen, parent, role in entities:
            item = {"stand_in": stand_in, "label": label, "action": action, "first_seen": first_seen, "role": role}
            if include_real:
                item.update(real=real, parent=parent)
            out["entities"].append(item)
        if include_real:
            out["choices"] = [
                {"real": real, "label": label, "action": action, "chosen_at": chosen_at}
                for real, label, action, chosen_at in choices
            ]
        return out

    def wipe(self) -> None:
        """Delete everything (conversations, messages, maps, choices, audit log,
        settings), overwrite it (secure_delete), shrink the file and empty the WAL. The
        vault stays usable and keeps its key."""
        with self._write() as conn:
            for table in ("conversations", "audit_log", "settings"):
                conn.execute(f"DELETE FROM {table}")
        self._forget_pending()
        with self._session() as conn, self._write_lock:
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    # -- key changes ---------------------------------------------------------------------------

    def change_key(
        self,
        mode: KeyMode,
        *,
        passphrase: str | None = None,
        interactive: bool = False,
        prompt: Prompt | None = None,
        scrypt_n: int | None = None,
    ) -> None:
        """Re-encrypt the vault under a new key (`PRAGMA rekey`), with no data loss:
        mode="passphrase": a new passphrase (argument or prompt; VEIL_PASSPHRASE is not
        used, it usually holds the old one); mode="keyring": a new random key kept in the
        keyring. Also how a vault moves between keyring and passphrase mode."""
        source = SecretSource(passphrase, interactive=interactive, prompt=prompt, use_env=False)
        if mode == "passphrase":  # ask before stopping the other threads, not while
            source.passphrase(confirm=True, why="protect the Veil vault")
        with self._cond:
            if self._key is None:
                raise VaultLocked("unlock the vault before changing its key", path=self.path)
            with self._exclusive():
                self._change_key(mode, source, scrypt_n or self._file.scrypt_n)

    def _change_key(self, mode: KeyMode, source: SecretSource, scrypt_n: int) -> None:
        assert self._key is not None and self._header is not None and self._pool is not None
        self._pool.close_all()
        header = read_header(self.header_path)
        if header is None or header.vault_id != self._header.vault_id:
            raise VaultLocked("the vault was replaced since it was opened; open it again", path=self.path)
        slot, new_key = new_slot(
            header.vault_id, mode, source, pending=True, scrypt_n=scrypt_n, why="protect the Veil vault"
        )
        write_header(self.header_path, replace(header, pending=slot))
        try:
            conn = db.connect(self.path, self._key, pragmas=self._file.pragmas)
            try:
                with self._write_lock:
                    conn.execute(f"PRAGMA rekey = \"x'{new_key.hex()}'\"")
            finally:
                conn.close()
            db.connect(self.path, new_key, pragmas=self._file.pragmas).close()  # proves the new key opens it
        except BaseException as exc:
            # The rekey is one transaction: if it failed, the old key still opens the file.
            write_header(self.header_path, header)
            if mode == "keyring":
                keyring_delete(header.vault_id, pending=True)
            if isinstance(exc, db.DbError):
                raise db.translate(exc, self.path) from exc
            raise
        settled = self._file.settle_key_change(replace(header, pending=slot), True, new_key)
        request_lock(self.path, "rekey")  # other processes hold the old key
        self._start(new_key, settled)

    # -- status -------------------------------------------------------------------------------

    def status(self) -> VaultStatus:
        assert self._header is not None
        with self._read() as conn:
            counts = [
                conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                for table in ("conversations", "messages", "entities", "audit_log")
            ]
            version = schema_version(conn)
        size = sum(p.stat().st_size for p in companion_paths(self.path)[:3] if p.exists())
        return VaultStatus(
            path=self.path,
            vault_id=self._header.vault_id,
            mode=self._header.mode,
            size_bytes=size,
            schema_version=version,
            conversations=counts[0],
            messages=counts[1],
            entities=counts[2],
            audit_entries=counts[3],
            created_at=self._header.created_at,
            keyring_backend=keyring_status().backend,
            auto_lock_seconds=self.auto_lock_seconds,
        )
