"""The vault's header file (`vault.db.header`, JSON, not secret): which key mode the vault
uses, the scrypt salt and parameters of passphrase mode, the key check that tells a
wrong key from a damaged file before the database is opened, a key change in progress
(`pending`) and whether the vault is still being created. This module owns its format
and writing it atomically (and exclusively for a new vault), and turning file-system
errors into the vault's error types. keys.py says where the key itself comes from.
"""

from __future__ import annotations

import base64
import errno
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from agent.paths import fsync_dir
from agent.vault.errors import VaultCorrupt, VaultError, VaultFull, VaultReadOnly, VaultUnavailable

HEADER_FORMAT = 1
# scrypt cost: N=2^17, r=8 (128 MiB, about half a second on one core), as OWASP advises.
DEFAULT_SCRYPT_N = 2**17
SCRYPT_R = 8
SCRYPT_P = 1

KeyMode = Literal["keyring", "passphrase"]


@dataclass(frozen=True, slots=True)
class KdfParams:
    salt: bytes
    n: int = DEFAULT_SCRYPT_N
    r: int = SCRYPT_R
    p: int = SCRYPT_P

    @classmethod
    def new(cls, n: int = DEFAULT_SCRYPT_N) -> KdfParams:
        return cls(salt=secrets.token_bytes(16), n=n)

    def to_json(self) -> dict:
        return {
            "name": "scrypt",
            "salt": base64.b64encode(self.salt).decode("ascii"),
            "n": self.n,
            "r": self.r,
            "p": self.p,
        }

    @classmethod
    def from_json(cls, data: dict) -> KdfParams:
        if data.get("name") != "scrypt":
            raise ValueError(f"unknown key derivation {data.get('name')!r}")
        return cls(
            salt=base64.b64decode(data["salt"], validate=True),
            n=int(data["n"]),
            r=int(data["r"]),
            p=int(data["p"]),
        )


@dataclass(frozen=True, slots=True)
class KeySlot:
    """One way to obtain the key: the mode, scrypt parameters (passphrase mode) and the check."""

    mode: KeyMode
    key_check: str
    kdf: KdfParams | None = None

    def to_json(self) -> dict:
        return {
            "mode": self.mode,
            "key_check": self.key_check,
            "kdf": self.kdf.to_json() if self.kdf else None,
        }

    @classmethod
    def from_json(cls, data: dict) -> KeySlot:
        mode = data["mode"]
        if mode not in ("keyring", "passphrase"):
            raise ValueError(f"unknown key mode {mode!r}")
        kdf = KdfParams.from_json(data["kdf"]) if data.get("kdf") else None
        if mode == "passphrase" and kdf is None:
            raise ValueError("passphrase mode without scrypt parameters")
        return cls(mode=mode, key_check=str(data["key_check"]), kdf=kdf)


@dataclass(frozen=True, slots=True)
class VaultHeader:
    vault_id: str
    current: KeySlot
    created_at: float
    pending: KeySlot | None = None  # a key change in progress
    format: int = HEADER_FORMAT
    # True from the header's first write until the new database is ready: only then may
    # a missing or empty database file be (re)created. Once False, a missing database
    # means it was lost, never that it is yet to be made.
    creating: bool = False

    @property
    def mode(self) -> KeyMode:
        return self.current.mode

    def to_json(self) -> dict:
        return {
            "format": self.format,
            "vault_id": self.vault_id,
            "created_at": self.created_at,
            "current": self.current.to_json(),
            "pending": self.pending.to_json() if self.pending else None,
        } | ({"creating": True} if self.creating else {})

    @classmethod
    def from_json(cls, data: dict) -> VaultHeader:
        if int(data.get("format", 0)) > HEADER_FORMAT:
            raise ValueError(f"header format {data.get('format')} is newer than this Veil")
        return cls(
            vault_id=str(data["vault_id"]),
            current=KeySlot.from_json(data["current"]),
            created_at=float(data["created_at"]),
            pending=KeySlot.from_json(data["pending"]) if data.get("pending") else None,
            format=int(data["format"]),
            creating=bool(data.get("creating", False)),
        )


def header_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".header")


def read_header(path: Path) -> VaultHeader | None:
    """The header at `path`, None when there is none. A damaged header is VaultCorrupt."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except PermissionError as exc:
        raise VaultUnavailable(f"cannot read the vault header {path}: {exc.strerror}", path=path) from exc
    try:
        return VaultHeader.from_json(json.loads(raw.decode("utf-8")))
    except (ValueError, KeyError, TypeError) as exc:
        raise VaultCorrupt(
            f"the vault header {path} is damaged ({exc}); the vault cannot be unlocked without it",
            path=path,
        ) from exc


def write_header(path: Path, header: VaultHeader, *, exclusive: bool = False) -> None:
    """Atomic: a crash leaves the old header or the new one, never half of one.
    `exclusive` (a new vault): raises FileExistsError if another process created a header
    first, so two processes starting at once never give one vault two keys."""
    data = json.dumps(header.to_json(), indent=2).encode("utf-8")
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        _write_new(tmp, data)
        if exclusive:
            _link_exclusive(tmp, path, data)
        else:
            os.replace(tmp, path)
        fsync_dir(path.parent)
    except FileExistsError:
        _unlink_quietly(tmp)
        raise
    except OSError as exc:
        _unlink_quietly(tmp)
        raise os_error(exc, path, "write the vault header") from exc


def _write_new(path: Path, data: bytes) -> None:
    """Create `path` (never an existing file, mode 0600) holding data, flushed to disk."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _link_exclusive(tmp: Path, path: Path, data: bytes) -> None:
    """Publish `tmp` as `path` only if `path` does not exist yet."""
    try:
        os.link(tmp, path)  # atomic, and fails if the header exists: the first creator wins
    except FileExistsError:
        raise
    except OSError:
        # No hard links (FAT/exFAT USB sticks for portable use): an exclusive create
        # still lets only one process win; the header is a few hundred bytes.
        _write_new(path, data)
    tmp.unlink()


def _unlink_quietly(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass




def os_error(exc: OSError, path: Path, doing: str) -> VaultError:
    """An OSError as the vault error the user can act on."""
    reason = exc.strerror or str(exc)
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        return VaultFull(f"cannot {doing}: the disk is full ({path})", path=path)
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return VaultReadOnly(f"cannot {doing}: {path} is not writable ({reason})", path=path)
    return VaultUnavailable(f"cannot {doing} at {path}: {reason}", path=path)
