"""The vault's key and lock life cycle. `VaultSession` owns: unlocking (the key comes
from the keyring or a passphrase, vault_file.py opens the file with it), locking (by the
user, after idle time, or when another process asks through the lock-request file),
the pool of connections every call borrows from, and the transactions the rest of the
store is written in: `_read` (one snapshot), `_write` (one BEGIN IMMEDIATE transaction,
then the WAL folded into the file).

Threads: any number of threads may use one session at once (connections come from a
pool; writes in this process are serialized by a lock). Other processes may use the
same file at the same time (WAL; SQLite's busy timeout covers their writes).

Lock: `lock()` closes every connection and drops the key. Afterwards every call raises
VaultLocked until `unlock()`. Locks also come from idle time (`auto_lock_seconds`) and
from other processes (`request_lock`, used by `veil vault lock`, re-key and wipe).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Self

from agent.vault import db
from agent.vault.errors import KeyUnavailable, VaultCorrupt, VaultError, VaultLocked
from agent.vault.keys import DEFAULT_SCRYPT_N, KeyMode, Prompt, SecretSource, VaultHeader, os_error
from agent.vault.vault_file import VaultFile, default_vault_path


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


def lock_stamp(path: Path) -> tuple[int, int, int] | None:
    """Identity of the current lock request (a new file each time), None when there is none."""
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


class VaultSession:
    """Opening resolves the key (keyring, or passphrase: argument, VEIL_PASSPHRASE, prompt
    when `interactive`), creates the vault if there is none (`create`), migrates the
    schema. Raises WrongKey, PassphraseRequired/KeyUnavailable, VaultCorrupt,
    VaultUnavailable (read-only, disk full) or VaultTooNew; never replaces a file."""

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
        self._file = VaultFile(self.path, dict(pragmas or {}), scrypt_n)
        self.header_path = self._file.header_path
        self.auto_lock_seconds = float(auto_lock_seconds)
        self._cond = threading.Condition()  # guards key/pool/active/locking
        self._write_lock = threading.Lock()  # one writer at a time in this process
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
        known_id = self._header.vault_id if self._header is not None else None
        key, header = self._file.open(source, create=create, mode=mode, known_id=known_id)
        self._start(key, header)

    def _start(self, key: bytes, header: VaultHeader) -> None:
        """Use this key from now on (after unlocking or a key change)."""
        self._key, self._header = key, header
        self._pool = db.Pool(self._open_connection)
        self._stamp = lock_stamp(self.path)
        self._lock_reason = ""
        self._last_used = time.monotonic()

    def _open_connection(self) -> db.Connection:
        key = self._key
        if key is None:
            raise VaultLocked("the vault is locked", path=self.path)
        return self._file.connect(key)

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

    def __enter__(self) -> Self:
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
            stamp = lock_stamp(self.path)
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
            return self._file.rejected(self._key)
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
