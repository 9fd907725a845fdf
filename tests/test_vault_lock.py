# ruff: noqa: F811  (pytest fixtures imported from vault_support are redefined as arguments)
"""Lock, unlock, auto-lock after idle time, and locks asked for by other processes
(`veil vault lock`, a key change, a wipe)."""

from __future__ import annotations

import threading
import time

import pytest
from vault_support import FAST_N, _vault_env, memory_keyring, run_python, vault_path  # noqa: F401

from agent.session.conversation import Message
from agent.vault import (
    PassphraseRequired,
    VaultLocked,
    VaultStore,
    WrongKey,
    destroy_vault,
    request_lock,
)

PASS = "lock test passphrase"


def _passphrase_store(vault_path, **kw) -> VaultStore:
    return VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N, **kw)


def test_lock_and_unlock(vault_path):
    store = _passphrase_store(vault_path)
    conv = store.create_conversation("c")
    store.lock()
    assert store.locked and store.lock_reason == "user"
    with pytest.raises(VaultLocked):
        store.list_conversations()
    with pytest.raises(PassphraseRequired):
        store.unlock()
    with pytest.raises(WrongKey):
        store.unlock("not it")
    store.unlock(PASS)
    assert [s.id for s in store.list_conversations()] == [conv.id]
    store.close()
    with pytest.raises(VaultLocked, match="closed"):
        store.list_conversations()


def test_lock_waits_for_a_call_in_progress(vault_path):
    store = _passphrase_store(vault_path)
    conv = store.create_conversation("c")
    entered, release = threading.Event(), threading.Event()
    result: list[object] = []

    def slow_reader() -> None:
        with store._read() as conn:  # holds a connection like a long query would
            entered.set()
            release.wait(5)
            result.append(conn.execute("SELECT count(*) FROM conversations").fetchone()[0])

    t = threading.Thread(target=slow_reader)
    t.start()
    entered.wait(5)
    locker = threading.Thread(target=store.lock)
    locker.start()
    time.sleep(0.1)
    assert locker.is_alive()  # waiting for the reader
    release.set()
    t.join(5)
    locker.join(5)
    assert result == [1] and store.locked
    store.unlock(PASS)
    assert store.load_conversation(conv.id).title == "c"
    store.close()


def test_auto_lock_after_idle_time_passphrase_mode(vault_path):
    store = _passphrase_store(vault_path, auto_lock_seconds=0.3)
    store.create_conversation("c")
    deadline = time.monotonic() + 5
    while not store.locked and time.monotonic() < deadline:
        time.sleep(0.05)
    assert store.locked and store.lock_reason == "idle"
    with pytest.raises(VaultLocked, match="idle"):
        store.list_conversations()
    store.unlock(PASS)
    assert len(store.list_conversations()) == 1
    store.close()


def test_activity_keeps_the_vault_open(vault_path):
    store = _passphrase_store(vault_path, auto_lock_seconds=0.5)
    conv = store.create_conversation("c")
    for _ in range(12):  # 1.2 s of use, never 0.5 s idle
        store.add_message(Message(conv.id, typed="x"))
        time.sleep(0.1)
        assert not store.locked
    store.close()


def test_auto_lock_keyring_mode_reopens_by_itself(memory_keyring, vault_path):
    store = VaultStore(vault_path, auto_lock_seconds=0.2)
    store.create_conversation("c")
    deadline = time.monotonic() + 5
    while not store.locked and time.monotonic() < deadline:
        time.sleep(0.05)
    assert store.locked
    assert len(store.list_conversations()) == 1  # the keyring gives the key again
    store.close()


def test_lock_requested_by_another_process(memory_keyring, vault_path, veil_home):
    store = VaultStore(vault_path)
    store.create_conversation("c")
    run_python("from agent.vault import request_lock; request_lock()", {"VEIL_HOME": str(veil_home)})
    with pytest.raises(VaultLocked, match="veil vault lock"):
        store.list_conversations()  # even in keyring mode: the user asked for it
    assert store.lock_reason == "requested"
    store.unlock()
    assert len(store.list_conversations()) == 1
    # `veil vault unlock` elsewhere lets a store that needs no typing reopen by itself.
    request_lock(vault_path, "lock")
    with pytest.raises(VaultLocked):
        store.list_conversations()
    request_lock(vault_path, "unlock")
    assert len(store.list_conversations()) == 1
    store.close()


def test_key_changed_by_another_process(vault_path, veil_home):
    store = _passphrase_store(vault_path)
    conv = store.create_conversation("c")
    run_python(
        f"""
from agent.vault import VaultStore
s = VaultStore(passphrase={PASS!r})
s.change_key("passphrase", passphrase="the new one", scrypt_n={FAST_N})
s.close()
""",
        {"VEIL_HOME": str(veil_home)},
    )
    with pytest.raises(VaultLocked, match="changed"):
        store.list_conversations()
    with pytest.raises(WrongKey):
        store.unlock(PASS)
    store.unlock("the new one")
    assert store.load_conversation(conv.id).title == "c"
    store.close()


def test_key_changed_elsewhere_env_passphrase_reopens(vault_path, monkeypatch):
    monkeypatch.setenv("VEIL_PASSPHRASE", PASS)
    store = VaultStore(vault_path, scrypt_n=FAST_N)
    store.create_conversation("c")
    other = VaultStore(vault_path)
    other.change_key("passphrase", passphrase="rotated passphrase", scrypt_n=FAST_N)
    other.close()
    monkeypatch.setenv("VEIL_PASSPHRASE", "rotated passphrase")
    assert len(store.list_conversations()) == 1
    store.close()


def test_wiped_by_another_process(memory_keyring, vault_path):
    store = VaultStore(vault_path)
    store.create_conversation("c")
    destroy_vault(vault_path)
    with pytest.raises(VaultLocked, match="wiped"):
        store.list_conversations()
    with pytest.raises(VaultLocked, match="wiped or replaced"):
        store.unlock()
    store.close()
    with VaultStore(vault_path) as fresh:  # opening again starts a new, empty vault
        assert fresh.list_conversations() == []
