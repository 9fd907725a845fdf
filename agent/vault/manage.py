"""Operations on the vault's files that need no key: describe it, move it aside (start a
fresh vault after damage or a forgotten passphrase), destroy it (wipe).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from agent.vault.errors import VaultError
from agent.vault.keys import KeyringStatus, VaultHeader, keyring_delete, keyring_status, read_header
from agent.vault.session import request_lock
from agent.vault.vault_file import companion_paths, default_vault_path


@dataclass(frozen=True, slots=True)
class VaultInfo:
    path: Path
    exists: bool
    size_bytes: int
    header: VaultHeader | None
    header_problem: str  # "" or why the header cannot be read
    keyring: KeyringStatus


def describe_vault(path: Path | None = None) -> VaultInfo:
    path = path or default_vault_path()
    header: VaultHeader | None = None
    problem = ""
    try:
        header = read_header(companion_paths(path)[3])
    except VaultError as exc:
        problem = str(exc)
    size = sum(p.stat().st_size for p in companion_paths(path)[:3] if p.exists())
    return VaultInfo(path, path.exists(), size, header, problem, keyring_status())


def move_vault_aside(path: Path | None = None, reason: str = "old") -> Path:
    """Rename the vault and its companion files to `<name>.<reason>-<time>` (never
    deleted, keyring entry kept so it can still be opened); the next open starts a fresh
    vault. Returns the new path of the database file."""
    path = path or default_vault_path()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.{reason}-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.{reason}-{stamp}-{n}")
    request_lock(path, "wipe")  # processes holding it open must not keep writing to it
    for source in companion_paths(path):
        if source.exists():
            suffix = source.name[len(path.name):]  # "", "-wal", "-shm", ".header"
            source.rename(aside.with_name(aside.name + suffix))
    return aside


def destroy_vault(path: Path | None = None) -> list[Path]:
    """Delete the vault's files and its key (crypto-shredding: what the file system may
    keep of the deleted files stays encrypted under a key that no longer exists). Works
    without the key. Returns the files removed."""
    path = path or default_vault_path()
    header: VaultHeader | None
    try:
        header = read_header(companion_paths(path)[3])
    except VaultError:
        header = None
    request_lock(path, "wipe")
    removed: list[Path] = []
    for p in companion_paths(path):
        if p.exists():
            p.unlink()
            removed.append(p)
    if header is not None and keyring_status().usable:
        keyring_delete(header.vault_id)
        keyring_delete(header.vault_id, pending=True)
    return removed


__all__ = ["VaultInfo", "describe_vault", "destroy_vault", "move_vault_aside"]
