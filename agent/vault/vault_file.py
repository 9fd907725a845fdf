"""The vault's files on disk and how a key opens them. `VaultFile` owns: where the files
are (vault.db, its -wal/-shm and the header), creating a new vault (header first, marked
`creating` until the database is ready), refusing to start over when the database was
lost, finishing an interrupted creation or key change, and what every open does to the
database (WAL on, schema migrated, every page checked). It keeps no key: the session
(session.py) holds the key and asks for connections.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from agent.vault import db
from agent.vault.errors import VaultCorrupt, VaultError, VaultLocked, VaultMissing, WrongKey
from agent.vault.keys import (
    DEFAULT_SCRYPT_N,
    KeyMode,
    SecretSource,
    VaultHeader,
    header_path,
    key_matches,
    keyring_delete,
    keyring_set,
    new_header,
    os_error,
    read_header,
    unlock_keys,
    write_header,
)
from agent.vault.schema import migrate


def default_vault_path() -> Path:
    from agent import paths

    return paths.data_dir() / "vault.db"


def companion_paths(path: Path) -> list[Path]:
    """The vault file and every file that belongs to it."""
    return [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"), header_path(path)]


@dataclass
class VaultFile:
    path: Path
    pragmas: dict[str, object] = field(default_factory=dict)
    scrypt_n: int = DEFAULT_SCRYPT_N

    @property
    def header_path(self) -> Path:
        return header_path(self.path)

    def open(
        self, source: SecretSource, *, create: bool, mode: KeyMode | None, known_id: str | None = None
    ) -> tuple[bytes, VaultHeader]:
        """The key and header that open the vault (created first when there is none and
        `create`). `known_id`: the vault this process had open before (a re-unlock): a
        different one means it was wiped or replaced meanwhile."""
        header = read_header(self.header_path)
        if known_id is not None and (header is None or header.vault_id != known_id):
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
        return key, header

    def _create(self, source: SecretSource, mode: KeyMode | None) -> tuple[VaultHeader, bytes]:
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # readable by the user only
        except OSError as exc:
            raise os_error(exc, self.path.parent, "create the vault folder") from exc
        header, key = new_header(source, mode, scrypt_n=self.scrypt_n)
        created: list[Path] = []
        try:
            write_header(self.header_path, replace(header, creating=True), exclusive=True)
            created.append(self.header_path)
            self._create_db_file()
            created.append(self.path)
            self.prepare(key)
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

    def prepare(self, key: bytes) -> None:
        """WAL on, schema migrated to the current version, every page checked."""
        try:
            conn = db.connect(self.path, key, pragmas=self.pragmas)
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
                self.prepare(key)
            except db.KeyOrFileRejected:
                continue
            if header.creating:  # an interrupted creation, finished now
                header = replace(header, creating=False)
                write_header(self.header_path, header)
            return key, self.settle_key_change(header, is_pending, key)
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

    def settle_key_change(self, header: VaultHeader, is_pending: bool, key: bytes) -> VaultHeader:
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

    def connect(self, key: bytes) -> db.Connection:
        """A connection with this key; VaultLocked/VaultCorrupt when the key stopped
        opening the file (see `rejected`)."""
        try:
            return db.connect(self.path, key, pragmas=self.pragmas)
        except db.KeyOrFileRejected as exc:
            raise self.rejected(key) from exc
        except db.DbError as exc:
            raise db.translate(exc, self.path) from exc

    def rejected(self, key: bytes | None) -> VaultError:
        """Our key stopped working while open: re-keyed by another process, or damage."""
        try:
            header = read_header(self.header_path)
        except VaultError:
            header = None
        if header is None or key is None or not key_matches(key, header.current):
            return VaultLocked(
                "the vault was re-keyed or replaced by another Veil process; unlock it again",
                path=self.path,
            )
        return VaultCorrupt(f"the vault file {self.path} is damaged; it was left as is", path=self.path)
