"""`veil vault bench`: write and read throughput of the vault, on a throw-away vault in a
temporary folder (never the user's). Each written message is its own transaction, as in
real use, so the write numbers include one fsync per message (synchronous=FULL) and the
fold of the write-ahead log into the file that follows every committed write."""

from __future__ import annotations

import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from agent.entities import Label
from agent.session.conversation import MapEntry, Message, MessageState
from agent.vault import db
from agent.vault.store import VaultStore

_TEXT = (
    "Please draft a reply to Priya Sharma (emma.k@northwind.io, +1 555 0142) about the "
    "renewal of contract 7731 and the meeting in Lisbon next Tuesday. "
)


@dataclass(frozen=True, slots=True)
class BenchResult:
    messages: int
    threads: int
    message_chars: int
    write_one_thread_per_s: float  # add_message, one transaction each
    write_turns_per_s: float  # save_turn: message + 2 map entries, one transaction
    write_concurrent_per_s: float  # `threads` writers at once
    read_messages_per_s: float  # list_messages, messages returned per second
    load_conversation_ms: float  # a conversation with `messages` map entries
    open_ms: float  # open: scrypt at N=2^14 (the default N=2^17 adds ~0.4 s), key check, schema check, quick_check
    quick_check_ms: float  # the page check at open alone, on the bench's vault (`file_mb`)
    file_mb: float
    synchronous: str

    def as_dict(self) -> dict:
        return asdict(self)


def run_bench(
    messages: int = 1000,
    threads: int = 4,
    *,
    message_chars: int = 400,
    directory: Path | None = None,
    synchronous: str = "FULL",
) -> BenchResult:
    text = (_TEXT * (message_chars // len(_TEXT) + 1))[:message_chars]
    with tempfile.TemporaryDirectory(prefix="veil-vault-bench-", dir=directory) as tmp:
        path = Path(tmp) / "vault.db"
        pragmas = {"synchronous": synchronous}
        store = VaultStore(path, passphrase="bench passphrase", mode="passphrase", scrypt_n=2**14, pragmas=pragmas)
        try:
            conversation = store.create_conversation("bench")

            def message(i: int) -> Message:
                return Message(conversation.id, typed=f"{i} {text}", sent=text, received=text, shown=text,
                               state=MessageState.ANSWERED)

            start = time.perf_counter()
            for i in range(messages):
                store.add_message(message(i))
            write_one = messages / (time.perf_counter() - start)

            start = time.perf_counter()
            turns = max(1, messages // 2)
            for i in range(turns):
                conversation.add_entry(MapEntry(f"Real Person {i}", f"Stand In {i}", Label.PERSON))
                conversation.add_entry(MapEntry(f"real{i}@example.org", f"stand{i}@example.net", Label.EMAIL))
                store.save_turn(conversation, message(i))
            write_turns = turns / (time.perf_counter() - start)

            other = store.create_conversation("bench concurrent")
            per_thread = max(1, messages // threads)
            errors: list[BaseException] = []

            def writer(n: int) -> None:
                try:
                    for i in range(per_thread):
                        store.add_message(Message(other.id, typed=f"{n}-{i} {text}", sent=text))
                except BaseException as exc:  # reported below
                    errors.append(exc)

            workers = [threading.Thread(target=writer, args=(n,)) for n in range(threads)]
            start = time.perf_counter()
            for w in workers:
                w.start()
            for w in workers:
                w.join()
            write_concurrent = per_thread * threads / (time.perf_counter() - start)
            if errors:
                raise errors[0]

            total = 0
            start = time.perf_counter()
            rounds = 5
            for _ in range(rounds):
                total += len(store.list_messages(conversation.id))
            read_rate = total / (time.perf_counter() - start)

            start = time.perf_counter()
            store.load_conversation(conversation.id)
            load_ms = (time.perf_counter() - start) * 1000

            with store._session() as conn:
                start = time.perf_counter()
                db.check_pages(conn, path)
                check_ms = (time.perf_counter() - start) * 1000
        finally:
            store.close()

        start = time.perf_counter()
        VaultStore(path, passphrase="bench passphrase", pragmas=pragmas).close()
        open_ms = (time.perf_counter() - start) * 1000
        file_mb = path.stat().st_size / 1e6

    return BenchResult(
        messages=messages,
        threads=threads,
        message_chars=message_chars,
        write_one_thread_per_s=round(write_one, 1),
        write_turns_per_s=round(write_turns, 1),
        write_concurrent_per_s=round(write_concurrent, 1),
        read_messages_per_s=round(read_rate, 1),
        load_conversation_ms=round(load_ms, 2),
        open_ms=round(open_ms, 1),
        quick_check_ms=round(check_ms, 1),
        file_mb=round(file_mb, 2),
        synchronous=synchronous,
    )
