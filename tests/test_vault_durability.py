# ruff: noqa: F811  (pytest fixtures imported from vault_support are redefined as arguments)
"""A vault never silently starts over, and what was committed survives: a missing or
empty vault.db next to its header is an error with a way forward (for every command), a
damaged page is found when the vault is opened, a committed turn is in the database file
itself (losing the WAL loses nothing), and a damaged or busy vault is a message, never a
traceback. Real `veil` processes on a real SQLCipher file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from vault_support import FAST_N, REPO, _vault_env, file_state, vault_path  # noqa: F401

from agent.entities import Label
from agent.session.conversation import MapEntry, Message
from agent.vault import VaultBusy, VaultCorrupt, VaultMissing, VaultStore

PASS = "durability passphrase"


def _store(vault_path, **kw) -> VaultStore:
    return VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N, **kw)


def _filled(vault_path: Path, messages: int = 3) -> None:
    with _store(vault_path) as store:
        conv = store.create_conversation("kept", conversation_id="kept")
        conv.add_entry(MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON))
        store.save_turn(conv, Message(conv.id, typed="Hi Anjali Gupta", sent="Hi Priya Sharma"))
        for i in range(messages):
            store.add_message(Message(conv.id, typed=f"message {i} " + "x" * 1500))


def _veil(args: list[str], home: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "VEIL_HOME": str(home), "VEIL_PASSPHRASE": PASS, "PYTHONPATH": str(REPO)}
    code = "import sys; from agent.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], input=stdin, capture_output=True, text=True,
                          timeout=300, cwd=REPO, env=env, check=False)


def _assert_clear_failure(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    for word in words:
        assert word in done.stderr + done.stdout, done.stderr + done.stdout


# -- a vault never starts over ---------------------------------------------------------------------

@pytest.mark.parametrize("how", ["deleted", "emptied"])
def test_a_lost_database_next_to_its_header_is_an_error_with_a_way_forward(vault_path, veil_home, how):
    _filled(vault_path)
    if how == "deleted":
        for suffix in ("", "-wal", "-shm"):
            vault_path.with_name(vault_path.name + suffix).unlink(missing_ok=True)
    else:
        vault_path.write_bytes(b"")
    before = file_state(vault_path)

    with pytest.raises(VaultMissing, match="veil vault reset"):
        _store(vault_path)
    with pytest.raises(VaultMissing):
        _store(vault_path, create=False)

    status = _veil(["vault", "status"], veil_home)
    assert status.returncode == 1 and "Traceback" not in status.stderr
    assert "missing" in status.stdout or "empty" in status.stdout, status.stdout
    assert "veil vault reset" in status.stdout
    sanitize = _veil(["sanitize", "--conversation", "kept"], veil_home, "Call Anjali Gupta at +1 415 720 3301.")
    _assert_clear_failure(sanitize, "veil vault reset")
    assert sanitize.stdout == ""  # nothing was sanitized into a fresh vault
    _assert_clear_failure(_veil(["vault", "list"], veil_home), "veil vault reset")
    assert file_state(vault_path) == before  # nothing created, nothing changed

    # The way forward: reset moves what is left aside, then a fresh vault starts.
    reset = _veil(["vault", "reset", "--yes"], veil_home)
    assert reset.returncode == 0, reset.stderr
    with _store(vault_path) as store:
        assert store.list_conversations() == []


def test_a_write_ahead_log_without_its_database_is_an_error(vault_path):
    _filled(vault_path)
    store = _store(vault_path)  # open: the WAL exists while it is in use
    store.add_message(Message("kept", typed="only in the log for now"))
    wal = vault_path.with_name("vault.db-wal").read_bytes()
    store.close()
    for suffix in ("", ".header", "-shm", "-wal"):
        vault_path.with_name(vault_path.name + suffix).unlink(missing_ok=True)
    vault_path.with_name("vault.db-wal").write_bytes(wal)
    with pytest.raises(VaultMissing, match="vault.db-wal"):
        _store(vault_path)
    assert not vault_path.exists()


def test_an_interrupted_creation_is_completed(vault_path):
    """Killed between writing the header and creating the database: the header says the
    vault was being created, so the next open finishes the job."""
    from dataclasses import replace

    from agent.vault.keys import SecretSource, new_header, read_header, write_header

    vault_path.parent.mkdir(parents=True, exist_ok=True)
    header, _key = new_header(SecretSource(PASS), "passphrase", scrypt_n=FAST_N)
    write_header(vault_path.with_name("vault.db.header"), replace(header, creating=True))
    with _store(vault_path) as store:
        assert store.list_conversations() == []
    assert read_header(vault_path.with_name("vault.db.header")).creating is False
    vault_path.unlink()
    for suffix in ("-wal", "-shm"):
        vault_path.with_name(vault_path.name + suffix).unlink(missing_ok=True)
    with pytest.raises(VaultMissing):  # once created, a missing database is never re-created
        _store(vault_path)


# -- damage is found at open --------------------------------------------------------------------------

def test_a_damaged_page_is_found_when_the_vault_is_opened(vault_path, veil_home):
    _filled(vault_path, messages=120)
    size = vault_path.stat().st_size
    with open(vault_path, "r+b") as f:  # a page in the middle: page 1 still opens with the key
        f.seek((size // 4096 // 2) * 4096 + 700)
        f.write(os.urandom(48))
    before = file_state(vault_path)
    with pytest.raises(VaultCorrupt, match="veil vault reset"):
        _store(vault_path)  # at open, before anything reads the damaged table
    assert file_state(vault_path) == before

    status = _veil(["vault", "status"], veil_home)
    assert status.returncode == 1 and "Traceback" not in status.stderr
    assert "damaged" in status.stdout
    _assert_clear_failure(_veil(["sanitize"], veil_home, "Hello Anjali Gupta"), "damaged")
    _assert_clear_failure(_veil(["restore", "--conversation", "kept"], veil_home, "Hi"), "damaged")
    assert file_state(vault_path) == before


# -- a committed turn is in the file itself ----------------------------------------------------------------

def test_a_committed_turn_survives_losing_the_write_ahead_log(vault_path):
    """A long-running process stores a turn and is killed; then the WAL is lost (a sync
    tool, a copy of vault.db alone, a disk check). The turn is in vault.db."""
    _filled(vault_path, messages=0)
    child = subprocess.Popen(
        [sys.executable, "-c", """
import sys, time
from agent.session.conversation import MapEntry, Message
from agent.entities import Label
from agent.vault import VaultStore
store = VaultStore(sys.argv[1], passphrase=sys.argv[2])
conv = store.load_conversation("kept")
for i in range(3):
    conv.add_entry(MapEntry(f"+1 415 720 330{i}", f"+1 415 555 010{i}", Label.PHONE))
    store.save_turn(conv, Message(conv.id, typed=f"turn {i}", sent=f"sent {i}"))
print("stored", flush=True)
time.sleep(600)
""", str(vault_path), PASS],
        stdout=subprocess.PIPE, text=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        assert child.stdout.readline().strip() == "stored"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    for suffix in ("-wal", "-shm"):
        vault_path.with_name(vault_path.name + suffix).unlink(missing_ok=True)
    with _store(vault_path) as store:
        typed = [m.typed for m in store.list_messages("kept")]
        conv = store.load_conversation("kept")
    assert typed[-3:] == ["turn 0", "turn 1", "turn 2"]
    assert conv.lookup_stand_in("+1 415 555 0102").real == "+1 415 720 3302"


# -- a busy vault ------------------------------------------------------------------------------------------

def _hold_write_lock(vault_path: Path) -> subprocess.Popen:
    child = subprocess.Popen(
        [sys.executable, "-c", """
import sys, time
from agent.vault import VaultStore
store = VaultStore(sys.argv[1], passphrase=sys.argv[2])
with store._write():
    print("holding", flush=True)
    time.sleep(600)
""", str(vault_path), PASS],
        stdout=subprocess.PIPE, text=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert child.stdout.readline().strip() == "holding"
    return child


def test_a_vault_held_by_another_process_is_a_clear_busy_error(vault_path, veil_home):
    _filled(vault_path, messages=0)
    child = _hold_write_lock(vault_path)
    try:
        with _store(vault_path, pragmas={"busy_timeout": 300}) as store:
            with pytest.raises(VaultBusy, match="another"):
                store.add_message(Message("kept", typed="waits, then gives up"))
            assert [m.typed for m in store.list_messages("kept")] == ["Hi Anjali Gupta"]  # reading still works
        started = time.monotonic()
        done = _veil(["sanitize", "--conversation", "kept"], veil_home, "Call Anjali Gupta.")
        print(f"\nveil sanitize gave up after {time.monotonic() - started:.1f} s")
        _assert_clear_failure(done, "another")
    finally:
        child.kill()
        child.wait(timeout=30)

