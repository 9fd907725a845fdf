# ruff: noqa: F811  (pytest fixtures imported from vault_support are redefined as arguments)
"""Many writers and readers at once: threads of one process, and another process."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

from vault_support import FAST_N, REPO, _vault_env, memory_keyring, vault_path  # noqa: F401

from agent.entities import Label
from agent.session.conversation import MapEntry, Message
from agent.vault import VaultStore

PASS = "concurrency passphrase"


def test_four_writer_threads_and_a_reader(vault_path):
    threads, per_thread = 4, 500
    store = VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N)
    conv = store.create_conversation("load", conversation_id="load")
    errors: list[BaseException] = []
    done = threading.Event()
    seen_counts: list[int] = []

    def writer(n: int) -> None:
        try:
            for i in range(per_thread):
                store.add_message(Message(conv.id, typed=f"w{n}-{i}", sent=f"s{n}-{i}"))
                if i % 100 == 0:  # map entries too, from a Conversation loaded by this thread
                    mine = store.load_conversation(conv.id)
                    mine.add_entry(MapEntry(f"Real {n}-{i}", f"Stand {n}-{i}", Label.PERSON))
                    store.save_conversation(mine)
        except BaseException as exc:
            errors.append(exc)

    def reader() -> None:
        try:
            while not done.is_set():
                seen_counts.append(len(store.list_messages(conv.id)))
                store.load_conversation(conv.id)
                store.list_conversations()
        except BaseException as exc:
            errors.append(exc)

    workers = [threading.Thread(target=writer, args=(n,)) for n in range(threads)]
    watcher = threading.Thread(target=reader)
    start = time.perf_counter()
    watcher.start()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - start
    done.set()
    watcher.join()
    store.close()

    assert errors == [], errors[:3]  # in particular no "database is locked"
    assert len(seen_counts) > 5, "the reader must have run while the writers wrote"
    assert seen_counts == sorted(seen_counts)  # a reader never sees messages disappear
    with VaultStore(vault_path, passphrase=PASS) as store:
        typed = [m.typed for m in store.list_messages(conv.id)]
        assert len(typed) == threads * per_thread
        assert set(typed) == {f"w{n}-{i}" for n in range(threads) for i in range(per_thread)}
        assert len(store.load_conversation(conv.id).entries) == threads * (per_thread // 100)
    print(f"\n{threads * per_thread / elapsed:.0f} messages/s with {threads} writers and a reader")


def test_another_process_writes_at_the_same_time(vault_path, veil_home):
    with VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N) as store:
        store.create_conversation("shared", conversation_id="shared")
    child_code = """
import sys
from agent.vault import VaultStore
from agent.session.conversation import Message
store = VaultStore(sys.argv[1], passphrase=sys.argv[2])
print("ready", flush=True)
sys.stdin.readline()
for i in range(300):
    store.add_message(Message("shared", typed=f"child-{i}"))
store.close()
print("done", flush=True)
"""
    child = subprocess.Popen(
        [sys.executable, "-c", child_code, str(vault_path), PASS],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        store = VaultStore(vault_path, passphrase=PASS)
        child.stdin.write("go\n")
        child.stdin.flush()
        errors: list[BaseException] = []

        def writer(n: int) -> None:
            try:
                for i in range(150):
                    store.add_message(Message("shared", typed=f"parent-{n}-{i}"))
            except BaseException as exc:
                errors.append(exc)

        workers = [threading.Thread(target=writer, args=(n,)) for n in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        assert "done" in out
        assert errors == []
        typed = [m.typed for m in store.list_messages("shared")]
        store.close()
    finally:
        if child.poll() is None:
            child.kill()
    assert len(typed) == 600
    assert sum(t.startswith("child-") for t in typed) == 300
