"""Fixtures and helpers for the vault tests (imported by tests/test_vault_*.py).

The keyring used in tests is real keyring machinery (keyring.set_keyring with a
KeyringBackend subclass) that keeps its entries in memory, so tests never touch the
user's keyring, and every test starts with an empty one.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import keyring
import keyring.backend
import keyring.backends.fail
import pytest
from keyring.errors import PasswordDeleteError

FAST_N = 2**12  # scrypt cost for tests (the product default is 2^17)
REPO = Path(__file__).resolve().parent.parent


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A working keyring backend that forgets everything when the test ends."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        try:
            del self.entries[(service, username)]
        except KeyError:
            raise PasswordDeleteError(username) from None


@pytest.fixture(autouse=True)
def _vault_env(veil_home, monkeypatch):
    """Every vault test: VEIL_HOME in tmp, no VEIL_PASSPHRASE unless the test sets it,
    and the "fail" keyring unless the test asks for a working one (never the real one)."""
    monkeypatch.delenv("VEIL_PASSPHRASE", raising=False)
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    yield
    keyring.set_keyring(previous)


@pytest.fixture
def memory_keyring() -> MemoryKeyring:
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    return backend


@pytest.fixture
def vault_path(veil_home) -> Path:
    return veil_home / "data" / "vault.db"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def file_state(path: Path) -> dict[str, str]:
    """Hashes of the vault and its companion files (to prove nothing was touched)."""
    names = [path.name, path.name + "-wal", path.name + "-shm", path.name + ".header"]
    return {n: sha256(path.with_name(n)) for n in names if path.with_name(n).exists()}


def run_python(code: str, env_extra: dict[str, str] | None = None, timeout: float = 120) -> str:
    """Run code in a fresh Python process (the repo on sys.path); returns stdout."""
    env = {**os.environ, **(env_extra or {})}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-c", code], check=False, env=env, capture_output=True, text=True, timeout=timeout, cwd=REPO
    )
    if done.returncode != 0:
        raise AssertionError(f"child failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout
