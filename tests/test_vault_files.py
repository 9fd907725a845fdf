# ruff: noqa: F811  (pytest fixtures imported from vault_support are redefined as arguments)
"""The file on disk: proof of encryption, damaged files, full disk, read-only places,
a vault from a newer Veil. Nothing is ever overwritten or half-written."""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from vault_support import FAST_N, _vault_env, file_state, memory_keyring, sha256, vault_path  # noqa: F401

from agent.entities import Action, Label
from agent.session.conversation import MapEntry, Message, MessageState
from agent.vault import (
    VaultCorrupt,
    VaultFull,
    VaultReadOnly,
    VaultStore,
    VaultTooNew,
    VaultUnavailable,
    db,
    move_vault_aside,
    request_lock,
)
from agent.vault.keys import derive_key, read_header

PASS = "file tests passphrase"
REAL_VALUES = [
    "Anjali Gupta",
    "sarah.m@globaltech.com",
    "+1 415 555 0199",
    "DE89370400440532013000",
    "sk-live-7fQ2xZ9kL3mN8pR4",
    "Zanzibar-Quokka-4471",  # a marker that appears nowhere else
]


def _store(vault_path, **kw) -> VaultStore:
    return VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N, **kw)


def _fill_real_values(store: VaultStore) -> None:
    conv = store.create_conversation(f"About {REAL_VALUES[0]}")
    stand_ins = ["Priya Sharma", "emma.k@northwind.io", "+1 212 555 0142", "GB33BUKB20201555555555",
                 "sk-live-0000aaaa1111bbbb", "Harbor-Falcon-2210"]
    for real, stand_in in zip(REAL_VALUES, stand_ins):
        conv.add_entry(MapEntry(real, stand_in, Label.MISC))
    conv.set_choice(REAL_VALUES[5], Label.MISC, Action.REPLACE)
    text = " and ".join(REAL_VALUES)
    store.save_turn(conv, Message(conv.id, typed=f"Write to {text}", shown=f"Done for {text}",
                                  state=MessageState.ANSWERED))
    store.set_setting("always_protect", REAL_VALUES)


def _vault_files(vault_path: Path) -> list[Path]:
    return [p for p in vault_path.parent.iterdir() if p.name.startswith("vault.db")]


def _assert_no_real_values(vault_path: Path) -> None:
    for path in _vault_files(vault_path):
        data = path.read_bytes()
        for value in REAL_VALUES:
            for encoding in ("utf-8", "utf-16-le", "utf-16-be"):
                assert value.encode(encoding) not in data, f"{value!r} in {path.name}"
            assert value.lower().encode() not in data.lower()
        assert b"SQLite format 3" not in data


def test_file_bytes_hold_no_real_values_while_open_and_after(vault_path):
    store = _store(vault_path)
    _fill_real_values(store)
    assert vault_path.with_name("vault.db-wal").exists()  # WAL pages are checked too
    _assert_no_real_values(vault_path)
    store.close()
    _assert_no_real_values(vault_path)
    # The values are really in there: the key reads them back.
    with _store(vault_path) as store:
        summary = store.list_conversations()[0]
        assert REAL_VALUES[0] in summary.title


def test_plain_sqlite_cannot_read_it(vault_path):
    with _store(vault_path) as store:
        _fill_real_values(store)
    conn = sqlite3.connect(vault_path)
    with pytest.raises(sqlite3.DatabaseError, match="not a database"):
        conn.execute("SELECT * FROM sqlite_master").fetchall()
    conn.close()


def test_files_are_private_to_the_user(vault_path):
    with _store(vault_path) as store:
        _fill_real_values(store)
        request_lock(vault_path, "unlock")
        for path in _vault_files(vault_path):
            assert path.stat().st_mode & 0o077 == 0, path.name
        assert vault_path.parent.stat().st_mode & 0o077 == 0


def _big_vault(vault_path: Path) -> None:
    with _store(vault_path) as store:
        conv = store.create_conversation("big", conversation_id="big")
        for i in range(120):
            store.add_message(Message(conv.id, typed=f"message {i} " + "x" * 1500))
    assert not vault_path.with_name("vault.db-wal").exists()  # checkpointed on close


def test_damaged_page_is_a_clear_error_and_the_file_is_kept(vault_path):
    _big_vault(vault_path)
    with open(vault_path, "r+b") as f:  # scribble over a page in the middle
        f.seek(4096 * 20 + 500)
        f.write(os.urandom(64))
    damaged = file_state(vault_path)
    with pytest.raises(VaultCorrupt, match="damaged"), _store(vault_path) as store:
        store.list_messages("big")
    with pytest.raises(VaultCorrupt), _store(vault_path) as store:
        store.list_messages("big")  # never silently replaced by a fresh vault
    assert file_state(vault_path) == damaged

    aside = move_vault_aside(vault_path, reason="corrupt")  # the user's explicit choice
    assert sha256(aside) == damaged["vault.db"] and aside.with_name(aside.name + ".header").exists()
    assert not vault_path.exists()
    with _store(vault_path) as store:  # a fresh, empty vault
        assert store.list_conversations() == []


def test_damaged_first_page_fails_at_open(vault_path):
    _big_vault(vault_path)
    with open(vault_path, "r+b") as f:
        f.seek(100)
        f.write(os.urandom(200))
    before = file_state(vault_path)
    with pytest.raises(VaultCorrupt, match="key is right"):
        _store(vault_path)
    assert file_state(vault_path) == before


def test_missing_or_damaged_header(vault_path):
    _big_vault(vault_path)
    header = vault_path.with_name("vault.db.header")
    saved = header.read_bytes()
    header.write_text("{ not json")
    with pytest.raises(VaultCorrupt, match="header"):
        _store(vault_path)
    header.unlink()
    before = sha256(vault_path)
    with pytest.raises(VaultCorrupt, match="header file"):
        _store(vault_path)  # never a new vault over the old file
    assert sha256(vault_path) == before
    header.write_bytes(saved)
    with _store(vault_path) as store:
        assert len(store.list_messages("big")) == 120


def test_full_disk_writes_nothing_and_loses_nothing(vault_path):
    # max_page_count = 1 caps the file at its current size: SQLite then fails with
    # SQLITE_FULL, the very error a full disk gives.
    with _store(vault_path) as store:
        conv = store.create_conversation("c", conversation_id="c")
        store.add_message(Message(conv.id, typed="fits"))
    store = _store(vault_path, pragmas={"max_page_count": 1})
    try:
        conv = store.load_conversation("c")
        conv.add_entry(MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON))
        with pytest.raises(VaultFull, match="full"):
            store.save_turn(conv, Message(conv.id, typed="y" * 300_000))
        # Nothing half-written: neither the message nor the entry.
        assert [m.typed for m in store.list_messages("c")] == ["fits"]
        assert store.load_conversation("c").entries == []
        # The entry was kept and goes with the next save that fits.
        store.save_conversation(conv)
        assert store.load_conversation("c").lookup_real("Anjali Gupta").stand_in == "Priya Sharma"
    finally:
        store.close()


@contextmanager
def _unwritable(directory: Path):
    """Make `directory` unwritable for this process. As root (which ignores permission
    bits) the process drops to the 'nobody' user for the duration."""
    os.chmod(directory, 0o555)
    for p in directory.iterdir():
        os.chmod(p, 0o444)
    root = os.geteuid() == 0
    if root:
        os.setegid(65534)
        os.seteuid(65534)
    try:
        yield
    finally:
        if root:
            os.seteuid(0)
            os.setegid(0)
        os.chmod(directory, 0o755)


@pytest.fixture
def public_dir():
    """A folder 'nobody' can traverse (pytest's tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="veil-vault-ro-"))
    os.chmod(path, 0o755)
    yield path
    os.chmod(path, 0o755)
    shutil.rmtree(path, ignore_errors=True)


def test_read_only_folder_existing_vault(public_dir):
    path = public_dir / "vault.db"
    with VaultStore(path, passphrase=PASS, scrypt_n=FAST_N) as store:
        store.create_conversation("c")
    before = file_state(path)
    with _unwritable(public_dir), pytest.raises(VaultUnavailable):
        with VaultStore(path, passphrase=PASS) as store:
            store.create_conversation("d")
    assert file_state(path) == before
    assert sorted(p.name for p in public_dir.iterdir()) == ["vault.db", "vault.db.header"]


def test_read_only_folder_new_vault(public_dir):
    path = public_dir / "vault.db"
    with _unwritable(public_dir), pytest.raises(VaultReadOnly, match="not writable"):
        VaultStore(path, passphrase=PASS, scrypt_n=FAST_N)
    assert list(public_dir.iterdir()) == []  # nothing half-created


def test_read_only_folder_new_vault_leaves_no_key_in_the_keyring(public_dir, memory_keyring):
    with _unwritable(public_dir), pytest.raises(VaultReadOnly):
        VaultStore(public_dir / "vault.db")
    assert memory_keyring.entries == {} and list(public_dir.iterdir()) == []


def test_vault_from_a_newer_veil(vault_path):
    with _store(vault_path) as store:
        store.create_conversation("c")
    key = derive_key(PASS, read_header(vault_path.with_name("vault.db.header")).current.kdf)
    conn = db.connect(vault_path, key)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(VaultTooNew, match="update Veil"):
        _store(vault_path)


def test_odd_characters_in_the_path(tmp_path):
    path = tmp_path / "my vault %20 #1 ?x" / "vault.db"
    with VaultStore(path, passphrase=PASS, scrypt_n=FAST_N) as store:
        store.create_conversation("c")
    with VaultStore(path, passphrase=PASS) as store:
        assert len(store.list_conversations()) == 1
    assert sorted(p.name for p in path.parent.iterdir()) == ["vault.db", "vault.db.header"]


def test_file_systems_without_hard_links(vault_path, monkeypatch):
    def no_links(src, dst):
        raise OSError(errno.EPERM, "Operation not permitted")  # what FAT/exFAT answer

    monkeypatch.setattr(os, "link", no_links)
    with VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N) as store:
        store.create_conversation("c")
    assert sorted(p.name for p in vault_path.parent.iterdir()) == ["vault.db", "vault.db.header"]
    with VaultStore(vault_path, passphrase=PASS) as store:
        assert len(store.list_conversations()) == 1
