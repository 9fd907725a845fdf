"""`VaultStore`: the encrypted ConversationStore (SQLCipher), plus the audit log,
sensitive settings, retention, export, wipe, lock/unlock and key changes.

Threads: any number of threads may use one store at once (connections come from a
pool; writes in this process are serialized by a lock and each runs in one
`BEGIN IMMEDIATE` transaction). Other processes may use the same file at the same time
(WAL; SQLite's busy timeout covers their writes).

Each write method is one transaction: a crash in the middle of a send leaves either the
whole message (and the map entries it needs) or nothing. `save_turn` stores a message
together with the conversation's new map entries, which is what a send needs.

Lock: `lock()` closes every connection and drops the key. Afterwards every call raises
VaultLocked until `unlock()`. Locks also come from idle time (`auto_lock_seconds`) and
from other processes (`request_lock`, used by `veil vault lock`, re-key and wipe).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
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
from agent.vault.errors import (
    KeyUnavailable,
    VaultCorrupt,
    VaultError,
    VaultLocked,
    VaultMissing,
    WrongKey,
)
from agent.vault.keys import (
    DEFAULT_SCRYPT_N,
    KeyMode,
    Prompt,
    SecretSource,
    VaultHeader,
    header_path,
    key_matches,
    keyring_delete,
    keyring_set,
    keyring_status,
    new_header,
    new_slot,
    os_error,
    read_header,
    unlock_keys,
    write_header,
)
from agent.vault.schema import CURRENT_VERSION, migrate, schema_version

EXPORT_FORMAT = "veil-conversation/1"


def default_vault_path() -> Path:
    from agent import paths

    return paths.data_dir() / "vault.db"


def companion_paths(path: Path) -> list[Path]:
    """The vault file and every file that belongs to it."""
    return [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"), header_path(path)]


def lock_request_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock-request")


def request_lock(path: Path | None = None, reason: str = "lock") -> None:
    """Ask every process that has this vault open to lock it (checked on their next call).
    reason: "lock" (user asked; needs an explicit unlock), "rekey" (the key changed; a
    keyring/VEIL_PASSPHRASE store unlocks itself again), "wipe" (the vault is gone)."""
    path = path or default_vault_path()
    target = lock_request_path(path)
    # A new file each time (written aside, then renamed): its inode changes even when two
    # requests fall in the same file-system time tick.
    tmp = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # like every file of the vault
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(f"{reason} {time.time_ns()}\n")
        os.replace(tmp, target)
    except OSError as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise os_error(exc, target, "ask other Veil processes to lock the vault") from exc


def _lock_stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(lock_request_path(path))
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _lock_reason(path: Path) -> str:
    try:
        return lock_request_path(path).read_text(encoding="utf-8").split()[0]
    except (OSError, IndexError):
        return "lock"


def _label(value: str) -> Label:
    try:
        return Label(value)
    except ValueError:  # a label from a newer Veil: keep the value usable
        return Label.MISC


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


class VaultStore:
    """The encrypted vault. Implements agent.session.conversation.ConversationStore.

    Opening resolves the key (keyring, or passphrase: argument, VEIL_PASSPHRASE, prompt
    when `interactive`), creates the vault if there is none (`create`), migrates the
    schema. Raises WrongKey, PassphraseRequired/KeyUnavailable, VaultCorrupt,
    VaultUnavailable (read-only, disk full) or VaultTooNew; never replaces a file.
    """

    def __init__(
        self,
        path: Path | str | None = None,
        *,
        passphrase: str | None = None,
        interactive: bool = False,
        prompt: Prompt | None = None,
        mode: KeyMode | None = None,
        create: bool = True,
        auto_lock_seconds: float = 0.0,
        scrypt_n: int = DEFAULT_SCRYPT_N,
        pragmas: Mapping[str, object] | None = None,
    ):
        self.path = Path(path) if path is not None else default_vault_path()
        self.header_path = header_path(self.path)
        self.auto_lock_seconds = float(auto_lock_seconds)
        self._scrypt_n = scrypt_n
        self._pragmas = dict(pragmas or {})
        self._cond = threading.Condition()  # guards key/pool/active/locking
        self._write_lock = threading.Lock()  # one writer at a time in this process
        self._pending_lock = threading.Lock()
        self._pending: dict[str, tuple[list[MapEntry], list[EntityChoice]]] = {}
        self._key: bytes | None = None
        self._header: VaultHeader | None = None
        self._pool: db.Pool | None = None
        self._active = 0
        self._locking = False
        self._closed = False
        self._lock_reason = ""
        self._stamp: tuple[int, int, int] | None = None
        self._last_used = time.monotonic()
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self._unlock(SecretSource(passphrase, interactive=interactive, prompt=prompt), create=create, mode=mode)
        if self.auto_lock_seconds > 0:
            self._watcher = threading.Thread(target=self._watch_idle, name="veil-vault-autolock", daemon=True)
            self._watcher.start()

    # -- opening, locking ------------------------------------------------------------------

    @property
    def mode(self) -> KeyMode:
        assert self._header is not None
        return self._header.mode

    @property
    def vault_id(self) -> str:
        assert self._header is not None
        return self._header.vault_id

    @property
    def locked(self) -> bool:
        with self._cond:
            return self._key is None

    @property
    def lock_reason(self) -> str:
        """Why the vault is locked: "user", "idle", "requested", "rekey", "wipe", "closed"."""
        return self._lock_reason

    def _unlock(self, source: SecretSource, *, create: bool, mode: KeyMode | None) -> None:
        header = read_header(self.header_path)
        if self._header is not None and (header is None or header.vault_id != self._header.vault_id):
            raise VaultLocked(
                f"the vault at {self.path} was wiped or replaced since it was opened; open it again",
                path=self.path,
            )
        if header is None:
            if self.path.exists() and self.path.stat().st_size > 0:
                raise VaultCorrupt(
                    f"{self.path} exists but its header file {self.header_path.name} is missing, so "
                    "its key cannot be found; the file was left as is (`veil vault reset` moves it "
                    "aside and starts a fresh vault)",
                    path=self.path,
                )
            self._refuse_leftover_log()
            if not create:
                raise VaultError(f"there is no vault at {self.path}", path=self.path)
            try:
                header, key = self._create(source, mode)
            except FileExistsError:  # another process created the vault just now
                header = read_header(self.header_path)
                assert header is not None
                key, header = self._open_existing(header, source)
        else:
            self._refuse_lost_database(header)
            key, header = self._open_existing(header, source)
        self._key, self._header = key, header
        self._pool = db.Pool(self._open_connection)
        self._stamp = _lock_stamp(self.path)
        self._lock_reason = ""
        self._last_used = time.monotonic()

    def _create(self, source: SecretSource, mode: KeyMode | None) -> tuple[bytes, VaultHeader]:
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # readable by the user only
        except OSError as exc:
            raise os_error(exc, self.path.parent, "create the vault folder") from exc
        header, key = new_header(source, mode, scrypt_n=self._scrypt_n)
        created: list[Path] = []
        try:
            write_header(self.header_path, replace(header, creating=True), exclusive=True)
            created.append(self.header_path)
            self._create_db_file()
            created.append(self.path)
            self._prepare_db(key)
            write_header(self.header_path, header)  # created: from now on the database must be there
        except BaseException:
            # Only what this call created goes away: there was no vault before.
            for p in reversed(created):
                for q in companion_paths(p) if p == self.path else [p]:
                    try:
                        q.unlink()
                    except OSError:
                        pass
            if header.mode == "keyring":
                keyring_delete(header.vault_id)
            raise
        return header, key

    def _create_db_file(self) -> None:
        # Created by us with owner-only permissions; SQLite gives -wal/-shm the same mode.
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.close(fd)
        except FileExistsError:
            pass  # an empty file left by an interrupted creation: SQLite initialises it
        except OSError as exc:
            raise os_error(exc, self.path, "create the vault") from exc

    def _prepare_db(self, key: bytes) -> None:
        """WAL on, schema migrated to the current version, every page checked."""
        try:
            conn = db.connect(self.path, key, pragmas=self._pragmas)
        except db.DbError as exc:
            raise db.translate(exc, self.path) from exc
        try:
            db.set_wal(conn, self.path)
            migrate(conn)
            db.check_pages(conn, self.path)
        except db.DbError as exc:
            raise db.translate(exc, self.path) from exc
        finally:
            conn.close()

    def _refuse_lost_database(self, header: VaultHeader) -> None:
        """The header says a database was made: a missing or empty vault.db means it was
        lost, and a new empty one would hide that (and everything after would go into it)."""
        if header.creating:
            return  # an interrupted creation: _open_existing finishes it
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            size = None
        except OSError as exc:
            raise os_error(exc, self.path, "read the vault") from exc
        if size is not None and size > 0:
            return
        what = "is missing" if size is None else "is empty (0 bytes)"
        raise VaultMissing(
            f"the vault's database {self.path} {what}, but its header {self.header_path.name} is there: "
            "it was moved, deleted or cut short. Nothing was created in its place. Put the file back "
            "(from where it was moved or a backup), or run `veil vault reset` to move what is left "
            "aside and start a fresh, empty vault",
            path=self.path,
        )

    def _refuse_leftover_log(self) -> None:
        """No header: a write-ahead log without its database still holds someone's data."""
        for leftover in companion_paths(self.path)[1:3]:
            try:
                size = leftover.stat().st_size
            except OSError:
                continue
            if size > 0 and leftover.name.endswith("-wal"):
                raise VaultMissing(
                    f"{leftover} holds vault data but {self.path.name} and its header are gone: they "
                    "were moved or deleted. Put them back, or run `veil vault reset` to move the "
                    "leftover aside and start a fresh, empty vault",
                    path=self.path,
                )

    def _open_existing(self, header: VaultHeader, source: SecretSource) -> tuple[bytes, VaultHeader]:
        if header.creating and not self.path.exists():
            # The header was written but the database never was (interrupted creation).
            self._create_db_file()
        for key, is_pending in unlock_keys(header, source):
            try:
                self._prepare_db(key)
            except db.KeyOrFileRejected:
                continue
            if header.creating:  # an interrupted creation, finished now
                header = replace(header, creating=False)
                write_header(self.header_path, header)
            return key, self._settle_key_change(header, is_pending, key)
        if header.pending is not None:
            raise WrongKey(
                "a key change of this vault was interrupted and this key no longer opens it; "
                "use the new passphrase/key (the vault was not touched)",
                path=self.path,
            )
        raise VaultCorrupt(
            f"the vault file {self.path} is damaged: the key is right but the file cannot be "
            "read. It was left as is; `veil vault reset` moves it aside and starts a fresh vault",
            path=self.path,
        )

    def _settle_key_change(self, header: VaultHeader, is_pending: bool, key: bytes) -> VaultHeader:
        """After an interrupted key change: keep whichever key actually opened the file."""
        if header.pending is None:
            return header
        if is_pending:
            slot = header.pending
            if slot.mode == "keyring":
                keyring_set(header.vault_id, key)
            settled = replace(header, current=slot, pending=None)
            write_header(self.header_path, settled)
            if slot.mode == "keyring":
                keyring_delete(header.vault_id, pending=True)
            elif header.current.mode == "keyring":
                keyring_delete(header.vault_id)
            return settled
        settled = replace(header, pending=None)
        write_header(self.header_path, settled)
        if header.pending.mode == "keyring":
            keyring_delete(header.vault_id, pending=True)
        return settled

    def _open_connection(self) -> db.Connection:
        key = self._key
        if key is None:
            raise VaultLocked("the vault is locked", path=self.path)
        try:
            return db.connect(self.path, key, pragmas=self._pragmas)
        except db.KeyOrFileRejected as exc:
            raise self._rejected() from exc
        except db.DbError as exc:
            raise db.translate(exc, self.path) from exc

    def _rejected(self) -> VaultError:
        """Our key stopped working while open: re-keyed by another process, or damage."""
        try:
            header = read_header(self.header_path)
        except VaultError:
            header = None
        key = self._key
        if header is None or key is None or not key_matches(key, header.current):
            return VaultLocked(
                "the vault was re-keyed or replaced by another Veil process; unlock it again",
                path=self.path,
            )
        return VaultCorrupt(f"the vault file {self.path} is damaged; it was left as is", path=self.path)

    def unlock(
        self,
        passphrase: str | None = None,
        *,
        interactive: bool = False,
        prompt: Prompt | None = None,
    ) -> None:
        """Unlock again after lock(): keyring mode needs nothing; passphrase mode takes
        the passphrase (argument, VEIL_PASSPHRASE, or prompt when interactive)."""
        with self._cond:
            if self._closed:
                raise VaultLocked("the vault store was closed", path=self.path)
            if self._key is not None:
                return
            self._unlock(SecretSource(passphrase, interactive=interactive, prompt=prompt), create=False, mode=None)
            self._cond.notify_all()

    def lock(self, reason: str = "user") -> None:
        """Close every connection and forget the key. Waits for calls in progress."""
        with self._cond:
            if self._key is None:
                return
            with self._exclusive():
                self._lock_now(reason)

    @contextmanager
    def _exclusive(self) -> Iterator[None]:
        """Caller holds _cond: stop new calls, wait for running ones, run the body alone."""
        while self._locking:
            self._cond.wait()
        self._locking = True
        try:
            while self._active > 0:
                self._cond.wait()
            yield
        finally:
            self._locking = False
            self._cond.notify_all()

    def _lock_now(self, reason: str) -> None:
        if self._pool is not None:
            self._pool.close_all()
        self._pool = None
        self._key = None  # Python cannot scrub memory; dropping the reference is what we can do
        self._lock_reason = reason

    def close(self) -> None:
        self._stop.set()
        self.lock("closed")
        with self._cond:
            self._closed = True

    def __enter__(self) -> VaultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _watch_idle(self) -> None:
        interval = max(0.05, min(15.0, self.auto_lock_seconds / 4))
        while not self._stop.wait(interval):
            with self._cond:
                idle = time.monotonic() - self._last_used
                busy = self._active > 0 or self._locking
                if self._key is not None and not busy and idle >= self.auto_lock_seconds:
                    with self._exclusive():
                        self._lock_now("idle")

    def _enter(self) -> db.Pool:
        with self._cond:
            while self._locking:
                self._cond.wait()
            if self._closed:
                raise VaultLocked("the vault store was closed", path=self.path)
            stamp = _lock_stamp(self.path)
            if stamp != self._stamp:
                self._on_lock_request(stamp, _lock_reason(self.path))
            if self._key is None:
                self._unlock_silently()
            assert self._pool is not None
            self._active += 1
            return self._pool

    def _on_lock_request(self, stamp: tuple[int, int, int] | None, reason: str) -> None:
        """Another process wrote the lock-request file (caller holds _cond)."""
        self._stamp = stamp
        if self._key is None:
            if reason == "unlock" and self._lock_reason == "requested":
                self._lock_reason = "unlock"  # `veil vault unlock`: may reopen without typing
            return
        if reason == "unlock":
            return
        with self._exclusive():
            self._lock_now("requested" if reason == "lock" else reason)

    def _unlock_silently(self) -> None:
        """After idle time, another process's key change or `veil vault unlock`, a vault
        whose key needs no typing (keyring, VEIL_PASSPHRASE) opens again by itself."""
        reason = self._lock_reason
        if reason in ("idle", "rekey", "unlock"):
            try:
                self._unlock(SecretSource(None, interactive=False), create=False, mode=None)
                return
            except KeyUnavailable:
                pass
        messages = {
            "idle": "the vault locked itself after being idle; unlock it with your passphrase",
            "unlock": "the vault was locked; unlock it with your passphrase",
            "requested": "the vault was locked (veil vault lock); unlock it to continue",
            "rekey": "the vault's passphrase was changed by another Veil process; unlock it again",
            "wipe": "the vault was wiped by another Veil process; open it again",
            "closed": "the vault store was closed",
        }
        raise VaultLocked(messages.get(reason, "the vault is locked; unlock it to continue"), path=self.path)

    def _leave(self) -> None:
        with self._cond:
            self._active -= 1
            self._last_used = time.monotonic()
            if self._active == 0:
                self._cond.notify_all()

    @contextmanager
    def _session(self) -> Iterator[db.Connection]:
        pool = self._enter()
        try:
            with pool.connection() as conn:
                try:
                    yield conn
                except db.DbError as exc:
                    raise self._translate(exc) from exc
        finally:
            self._leave()

    def _translate(self, exc: db.DbError) -> VaultError:
        error = db.translate(exc, self.path)
        if isinstance(error, VaultCorrupt):
            return self._rejected()
        return error

    @contextmanager
    def _read(self) -> Iterator[db.Connection]:
        """One snapshot for all the statements inside (WAL: never waits for writers)."""
        with self._session() as conn:
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                if conn.in_transaction:
                    conn.execute("COMMIT")

    @contextmanager
    def _write(self, *, fold: bool = True) -> Iterator[db.Connection]:
        """One transaction: all of it is stored, or none of it; then (`fold`) folded from
        the write-ahead log into the file (db.fold_log), so a committed turn does not
        depend on the -wal file. Measured in `veil vault bench`: a few ms per write."""
        with self._session() as conn, self._write_lock:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    try:
                        conn.execute("ROLLBACK")
                    except db.DbError:
                        pass
                raise
            if fold:
                db.fold_log(conn)

    def _checkpoint(self) -> None:
        """Fold the WAL into the file and truncate it, so deleted data leaves the WAL too."""
        with self._session() as conn, self._write_lock:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    # -- ConversationStore ------------------------------------------------------------------

    def create_conversation(
        self, title: str = "", conversation_id: str | None = None, origin: str = "chat"
    ) -> Conversation:
        """origin: where it was started (agent.session.conversation.ORIGINS)."""
        if origin not in ORIGINS:
            raise ValueError(f"unknown conversation origin {origin!r}; expected one of {', '.join(ORIGINS)}")
        conversation = Conversation(conversation_id, title=title)
        with self._write() as conn:
            if _exists(conn, conversation.id):
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
            if not _exists(conn, conversation_id):
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
        if not _exists(conn, message.conversation_id):
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

    # -- audit log ---------------------------------------------------------------------------

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
            if conversation_id is not None and not _exists(conn, conversation_id):
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

    # -- sensitive settings ----------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        """A setting too sensitive for the plain config file (e.g. lists of client names)."""
        with self._read() as conn:
            row = conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def set_setting(self, key: str, value: Any) -> None:
        """`value` must be JSON-serializable."""
        encoded = json.dumps(value)
        with self._write() as conn:
            conn.execute(
                "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO "
                "UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (key, encoded, time.time()),
            )

    def delete_setting(self, key: str) -> bool:
        with self._write() as conn:
            return conn.execute("DELETE FROM settings WHERE key = ?", (key,)).rowcount > 0

    def setting_keys(self) -> list[str]:
        with self._read() as conn:
            return [row[0] for row in conn.execute("SELECT key FROM settings ORDER BY key")]

    # -- retention, export, wipe ------------------------------------------------------------

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
        with self._pending_lock:
            for conversation_id in gone:
                self._pending.pop(conversation_id, None)
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
        with self._pending_lock:
            self._pending.clear()
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
                self._change_key(mode, source, scrypt_n or self._scrypt_n)

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
            conn = db.connect(self.path, self._key, pragmas=self._pragmas)
            try:
                with self._write_lock:
                    conn.execute(f"PRAGMA rekey = \"x'{new_key.hex()}'\"")
            finally:
                conn.close()
            db.connect(self.path, new_key, pragmas=self._pragmas).close()  # proves the new key opens it
        except BaseException as exc:
            # The rekey is one transaction: if it failed, the old key still opens the file.
            write_header(self.header_path, header)
            if mode == "keyring":
                keyring_delete(header.vault_id, pending=True)
            if isinstance(exc, db.DbError):
                raise db.translate(exc, self.path) from exc
            raise
        settled = self._settle_key_change(replace(header, pending=slot), True, new_key)
        self._key, self._header = new_key, settled
        request_lock(self.path, "rekey")  # other processes hold the old key
        self._stamp = _lock_stamp(self.path)
        self._pool = db.Pool(self._open_connection)

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


def _exists(conn: db.Connection, conversation_id: str) -> bool:
    return conn.execute("SELECT 1 FROM conversations WHERE id = ?", (conversation_id,)).fetchone() is not None


assert CURRENT_VERSION >= 1
