"""SQLCipher connections: opening one with a raw 256-bit key, the pragmas every
connection needs, a small pool shared by threads, and the translation of SQLite errors
into the vault's exception types.

Why a pool and not one shared connection: the desktop UI, its workers and the local
proxy read while others write. In WAL mode readers never wait for the writer, but only
if they use their own connections. Writers in one process are serialized by a lock in
the store (so they never spin on SQLite's busy handler); writers in other processes are
handled by `BEGIN IMMEDIATE` plus a busy timeout.
"""

from __future__ import annotations

import threading
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import sqlcipher3

from agent.vault.errors import (
    VaultBusy,
    VaultCorrupt,
    VaultError,
    VaultFull,
    VaultReadOnly,
    VaultUnavailable,
)

BUSY_TIMEOUT_MS = 15_000

# Applied to every connection, after the key. secure_delete: deleted rows are overwritten
# (zeros, then encrypted) instead of left in free pages. temp_store=MEMORY: sorts and
# temporary tables never reach the disk. synchronous=FULL: a committed message survives a
# power cut, not only a crash of Veil (a few ms per commit; measured in `veil vault bench`).
CONNECTION_PRAGMAS: dict[str, object] = {
    "foreign_keys": "ON",
    "secure_delete": "ON",
    "temp_store": "MEMORY",
    "synchronous": "FULL",
    "busy_timeout": BUSY_TIMEOUT_MS,
}

Connection = sqlcipher3.Connection
DbError = sqlcipher3.Error


class KeyOrFileRejected(Exception):
    """SQLCipher could not read page 1 with this key: a wrong key or a damaged file (the
    caller tells them apart with the header's key check)."""


def _uri(path: Path, create: bool) -> str:
    # mode=rw: opening never creates a file by accident (a mistyped path, a vault that
    # was moved) unless we mean to. Windows paths become file:///C:/...
    absolute = path.absolute().as_posix()
    if not absolute.startswith("/"):
        absolute = "/" + absolute
    quoted = urllib.parse.quote(absolute, safe="/:")
    return f"file://{quoted}?mode={'rwc' if create else 'rw'}"


def connect(
    path: Path,
    key: bytes,
    *,
    create: bool = False,
    pragmas: Mapping[str, object] | None = None,
) -> Connection:
    """An open, keyed, checked connection. Never creates a file unless `create`."""
    try:
        conn = sqlcipher3.connect(
            _uri(path, create),
            uri=True,
            isolation_level=None,  # we issue BEGIN/COMMIT ourselves
            check_same_thread=False,  # a connection moves between threads via the pool
            timeout=BUSY_TIMEOUT_MS / 1000,
        )
    except DbError as exc:
        raise translate(exc, path) from exc
    try:
        # SQLCipher logs decryption failures to stderr; we report them as exceptions.
        conn.execute("PRAGMA cipher_log_level = NONE")
        conn.execute(f"PRAGMA key = \"x'{key.hex()}'\"")
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except DbError as exc:
            code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
            if code in (sqlcipher3.SQLITE_NOTADB, sqlcipher3.SQLITE_CORRUPT):
                raise KeyOrFileRejected(str(exc)) from exc
            raise
        for name, value in {**CONNECTION_PRAGMAS, **(pragmas or {})}.items():
            conn.execute(f"PRAGMA {name} = {value}")
        return conn
    except BaseException:
        conn.close()
        raise


def set_wal(conn: Connection, path: Path) -> None:
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        raise VaultUnavailable(f"cannot switch the vault to WAL mode (got {mode!r})", path=path)


def check_pages(conn: Connection, path: Path) -> None:
    """`PRAGMA quick_check` at open: a page damaged anywhere (not only page 1, which the
    key check reads) is found now, with a clear message, instead of in the middle of some
    later send. Reads every page once (a few ms per MB, see `veil vault bench`)."""
    problems = [str(row[0]) for row in conn.execute("PRAGMA quick_check(3)").fetchall()]
    if problems != ["ok"]:
        raise VaultCorrupt(
            f"the vault file {path} is damaged ({'; '.join(problems)}). It was left as is: copy it "
            "somewhere safe if it matters, then `veil vault reset` moves it aside and starts a fresh vault",
            path=path,
        )


def fold_log(conn: Connection) -> None:
    """Copy what the write-ahead log holds into the database file (PASSIVE: never waits
    for other connections; what a reader still uses goes with the next one). After a
    committed turn, so that losing the -wal file (a copy of vault.db alone, a sync tool)
    loses nothing committed. The commit itself already stands if this fails."""
    try:
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    except DbError:
        pass


def translate(exc: BaseException, path: Path | None) -> VaultError:
    """A SQLite error as the vault error the user can act on."""
    if isinstance(exc, VaultError):
        return exc
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    text = str(exc)
    where = f" ({path})" if path else ""
    if code == sqlcipher3.SQLITE_FULL:
        return VaultFull(f"the disk is full or the vault reached its size limit{where}; nothing was half-written", path=path)
    if code == sqlcipher3.SQLITE_READONLY:
        return VaultReadOnly(f"the vault cannot be written: {text}{where}", path=path)
    if code in (sqlcipher3.SQLITE_BUSY, sqlcipher3.SQLITE_LOCKED):
        return VaultBusy(
            f"another process (the Veil app, `veil serve`, another `veil` command) has held the vault for too "
            f"long{where}; nothing was written. Try again when it is done, or close it", path=path)
    if code in (sqlcipher3.SQLITE_CORRUPT, sqlcipher3.SQLITE_NOTADB):
        return VaultCorrupt(
            f"the vault file is damaged ({text}){where}. It was left as is: copy it somewhere safe if it "
            "matters, then `veil vault reset` moves it aside and starts a fresh vault", path=path)
    if code in (sqlcipher3.SQLITE_CANTOPEN, sqlcipher3.SQLITE_PERM, sqlcipher3.SQLITE_AUTH):
        return VaultReadOnly(f"the vault cannot be opened: {text}{where}", path=path)
    if code == sqlcipher3.SQLITE_IOERR:
        return VaultUnavailable(f"the vault cannot be read or written: {text}{where}", path=path)
    return VaultError(f"vault error: {text}{where}", path=path)


class Pool:
    """Idle connections ready for any thread. A connection is used by one thread at a
    time (check out, use, give back). `close_all` waits for nothing: the store makes
    sure no connection is checked out before calling it."""

    def __init__(self, opener: Callable[[], Connection], max_idle: int = 6):
        self._opener = opener
        self._max_idle = max_idle
        self._idle: list[Connection] = []
        self._lock = threading.Lock()
        self.opened = 0

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        with self._lock:
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = self._opener()
            self.opened += 1
        healthy = True
        try:
            yield conn
        except (DbError, VaultError):
            healthy = False  # a damaged or rejected connection is not reused
            raise
        finally:
            if healthy and conn.in_transaction:
                healthy = False  # never hand a connection with a half-done transaction on
            if healthy:
                with self._lock:
                    if len(self._idle) < self._max_idle:
                        self._idle.append(conn)
                        conn = None
            if conn is not None:
                _close_quietly(conn)

    def close_all(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            _close_quietly(conn)


def _close_quietly(conn: Connection) -> None:
    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except DbError:
        pass
    try:
        conn.close()
    except DbError:
        pass
