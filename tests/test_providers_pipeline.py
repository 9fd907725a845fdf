"""The end-to-end send (agent.session.sender) with the real engine, against real HTTP servers on
127.0.0.1 speaking each provider's wire format, and with the real SQLCipher vault.

Every server records what it received; each test asserts that no real value from the
user's text reached it."""

from __future__ import annotations

import re
import threading
import time

import pytest
from provider_fakes import Fail, FakeProvider, Reply, last_user_text
from timing_checks import no_runaway

from agent.config import default_settings
from agent.entities import Action
from agent.providers import (
    Cancelled,
    CancelToken,
    GenerationParams,
    MissingApiKey,
    ProviderConfig,
    ProviderUnavailable,
    StreamInterrupted,
    create_provider,
)
from agent.session.conversation import MessageState
from agent.session.sender import MessageNotRetryable, Sender
from agent.session.stores import MemoryStore

KEY = "sk-pipeline-test-key-0123456789abcdef"
MODELS = {"openai": "gpt-test", "anthropic": "claude-test", "gemini": "gemini-test"}
FIRST = "Please draft a short reply to Anjali Gupta (anjali.gupta@globaltech.com, +1 415 555 0132) confirming her refund."
SECOND = "Also tell Anjali that the refund reached her account ending 4417 on Friday."
# Real values that must never reach a server (direct identifiers and the person's name).
NEVER_SENT = ("Anjali", "Gupta", "anjali.gupta@globaltech.com", "globaltech", "555 0132", "4155550132")


@pytest.fixture(scope="module")
def engine():
    from agent.engine.core import Engine

    engine = Engine(default_settings())
    engine.warm_up()
    return engine


@pytest.fixture(params=("openai", "anthropic", "gemini"))
def server(request):
    with FakeProvider(request.param, key=KEY) as fake:
        yield fake


def make_sender(engine, store, fake, **config):
    values = dict(kind=fake.dialect, base_url=fake.base_url, model=MODELS[fake.dialect], api_key=KEY,
                  max_attempts=2, backoff_base_s=0.01, read_timeout_s=5)
    values.update(config)
    provider = create_provider(ProviderConfig(**values))
    return Sender(engine, store, provider, params=GenerationParams(max_tokens=200, temperature=0))


def assert_nothing_real_reached(fake: FakeProvider, *reals: str):
    received = fake.all_bodies() + "".join(r.path for r in fake.requests)
    digits = re.sub(r"\D", "", received)
    for value in (*NEVER_SENT, *reals):
        assert value not in received, f"{value!r} reached the server"
    assert "4155550132" not in digits


def replaced(reply) -> list[str]:
    return [e.real for e in reply.sanitized.entities if e.action is not Action.KEEP]


def test_send_restores_the_echoed_answer_with_spans(engine, server):
    store = MemoryStore()
    conversation = store.create_conversation()
    sender = make_sender(engine, store, server)
    reply = sender.send(conversation, FIRST)
    assert reply.message.id is not None and reply.message.state is MessageState.SENDING
    assert store.list_messages(conversation.id)[0].state is MessageState.SENDING  # stored before sending
    assert "Anjali" not in reply.sent_text
    assert server.requests == []  # the request leaves when the answer is read
    chunks = list(reply)
    shown = "".join(c.text for c in chunks)
    assert len(server.requests) == 1 and last_user_text(server.dialect, server.requests[0].json) == reply.sent_text

    # The fake echoes what it got ("You wrote: <sanitized>"): restored, it is the user's text.
    assert shown == f"You wrote: {FIRST}"
    assert reply.result.text == shown and reply.result.unrestored == []
    position = 0
    for chunk in chunks:
        assert chunk.start == position
        position += len(chunk.text)
        for span in chunk.spans:
            assert shown[span.start : span.end] == span.real
    spans = [s for c in chunks for s in c.spans]
    assert {s.real for s in spans} >= {"Anjali Gupta", "anjali.gupta@globaltech.com"}
    assert_nothing_real_reached(server, *replaced(reply))

    stored = store.list_messages(conversation.id)[0]
    assert stored.state is MessageState.ANSWERED
    assert stored.typed == FIRST and stored.sent == reply.sent_text
    assert stored.received == f"You wrote: {reply.sent_text}" and stored.shown == shown
    assert reply.timings.chunks > 5


def test_multi_turn_resends_earlier_turns_with_the_same_stand_ins(engine, server):
    store = MemoryStore()
    conversation = store.create_conversation()
    sender = make_sender(engine, store, server)
    first = sender.send(conversation, FIRST)
    first.text()
    second = sender.send(conversation, SECOND)
    assert second.text() == f"You wrote: {SECOND}"

    stand_in = next(e.sent for e in first.sanitized.entities if e.real == "Anjali Gupta")
    request = server.requests[-1].json
    if server.dialect == "gemini":
        turns = [(c["role"], c["parts"][0]["text"]) for c in request["contents"]]
        assert [r for r, _ in turns] == ["user", "model", "user"]
    else:
        turns = [(m["role"], m["content"]) for m in request["messages"]]
        assert [r for r, _ in turns] == ["user", "assistant", "user"]
    assert turns[0][1] == first.sent_text
    assert turns[1][1] == f"You wrote: {first.sent_text}"
    assert turns[2][1] == second.sent_text
    # "Anjali" alone in the second message got the first name of the same stand-in.
    assert stand_in.split()[0] in second.sent_text
    assert_nothing_real_reached(server, *replaced(first), *replaced(second))


def test_a_failed_request_keeps_the_message_and_can_be_retried(engine, server):
    store = MemoryStore()
    conversation = store.create_conversation()
    sender = make_sender(engine, store, server)
    server.plan(Fail(503, "down for maintenance"), Fail(503, "down for maintenance"))
    reply = sender.send(conversation, FIRST)
    with pytest.raises(ProviderUnavailable):
        reply.text()
    [stored] = store.list_messages(conversation.id)
    assert stored.state is MessageState.FAILED
    assert stored.typed == FIRST and "down for maintenance" in stored.error

    again = sender.retry(conversation, stored.id)
    assert again.message.id == stored.id
    assert again.sent_text == reply.sent_text  # same stand-ins
    assert again.text() == f"You wrote: {FIRST}"
    [stored] = store.list_messages(conversation.id)
    assert stored.state is MessageState.ANSWERED and stored.error == ""
    with pytest.raises(MessageNotRetryable):
        sender.retry(conversation, stored.id)
    assert_nothing_real_reached(server, *replaced(reply))


def test_a_cut_stream_keeps_the_partial_answer(engine, server):
    store = MemoryStore()
    conversation = store.create_conversation()
    sender = make_sender(engine, store, server)
    server.plan(Reply(chunk_size=6, cut_after=8))
    reply = sender.send(conversation, FIRST)
    shown = []
    with pytest.raises(StreamInterrupted):
        for chunk in reply:
            shown.append(chunk.text)
    [stored] = store.list_messages(conversation.id)
    assert stored.state is MessageState.FAILED and "broke off" in stored.error or "closed the connection" in stored.error
    assert stored.received == f"You wrote: {reply.sent_text}"[:48]
    assert stored.shown == "".join(shown)  # what was on screen is what is stored
    # A prefix of the restored answer; the held-back tail (maybe half a stand-in) is not shown.
    assert f"You wrote: {FIRST}".startswith(stored.shown) and len(stored.shown) >= 30
    assert len(server.requests) == 1


def test_cancel_marks_the_message_cancelled(engine, server):
    store = MemoryStore()
    conversation = store.create_conversation()
    sender = make_sender(engine, store, server)
    server.plan(Reply(chunk_size=3, chunk_delay=0.1))
    token = CancelToken()
    reply = sender.send(conversation, FIRST, cancel=token)
    with pytest.raises(Cancelled):
        for n, _ in enumerate(reply):
            if n == 1:
                threading.Timer(0.05, reply.cancel).start()
    [stored] = store.list_messages(conversation.id)
    assert stored.state is MessageState.CANCELLED and stored.typed == FIRST
    assert sender.retry(conversation, stored.id).text() == f"You wrote: {FIRST}"


def test_a_send_dropped_before_it_started_is_kept_as_cancelled(engine):
    with FakeProvider("openai", key=KEY) as fake:
        store = MemoryStore()
        conversation = store.create_conversation()
        reply = make_sender(engine, store, fake).send(conversation, FIRST)
        reply.close()
        [stored] = store.list_messages(conversation.id)
        assert stored.state is MessageState.CANCELLED and stored.typed == FIRST
        assert fake.requests == []


def test_no_key_leaves_the_message_unsent(engine):
    with FakeProvider("anthropic", key=KEY) as fake:
        store = MemoryStore()
        conversation = store.create_conversation()
        sender = make_sender(engine, store, fake, api_key=None)
        with pytest.raises(MissingApiKey):
            sender.send(conversation, FIRST).text()
        [stored] = store.list_messages(conversation.id)
        assert stored.state is MessageState.UNSENT and stored.typed == FIRST
        assert fake.requests == []


def test_an_empty_message_is_refused_before_anything_is_stored(engine):
    from agent.engine.core import InputRejected

    with FakeProvider("openai", key=KEY) as fake:
        store = MemoryStore()
        conversation = store.create_conversation()
        with pytest.raises(InputRejected):
            make_sender(engine, store, fake).send(conversation, "  \n ")
        assert store.list_messages(conversation.id) == [] and fake.requests == []


def test_the_preview_is_exactly_what_is_sent(engine):
    with FakeProvider("openai", key=KEY) as fake:
        store = MemoryStore()
        conversation = store.create_conversation()
        sender = make_sender(engine, store, fake)
        preview = sender.preview(conversation, FIRST)
        reply = sender.send(conversation, FIRST, sanitized=preview)
        reply.text()
        assert reply.sent_text == preview.sanitized
        assert fake.requests[0].json["messages"][-1]["content"] == preview.sanitized


def test_with_the_vault_the_audit_log_holds_sanitized_text_only(engine, veil_home, monkeypatch):
    import keyring
    import keyring.backends.fail

    from agent.vault import VaultStore

    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())  # passphrase mode, never the real keyring
    try:
        vault = VaultStore(veil_home / "vault.db", passphrase="correct horse battery", scrypt_n=2**12)
        with FakeProvider("gemini", key=KEY) as fake, vault:
            conversation = vault.create_conversation()
            sender = make_sender(engine, vault, fake)
            reply = sender.send(conversation, FIRST)
            answer = reply.text()
            fake.plan(Fail(500), Fail(500))
            with pytest.raises(ProviderUnavailable):
                sender.send(conversation, SECOND).text()

            reopened = vault.load_conversation(conversation.id)
            assert engine.restore(f"You wrote: {reply.sent_text}", reopened).text == answer
            messages = vault.list_messages(conversation.id)
            assert [m.state for m in messages] == [MessageState.ANSWERED, MessageState.FAILED]
            audit = vault.list_audit(conversation_id=conversation.id)
            assert [a.status for a in audit] == ["failed", "answered"]
            assert audit[1].sent_text == reply.sent_text and audit[1].received_chars == len(messages[0].received)
            for entry in audit:
                for value in NEVER_SENT:
                    assert value not in entry.sent_text
            assert_nothing_real_reached(fake, *replaced(reply))
    finally:
        keyring.set_keyring(previous)


def test_pipeline_overhead(engine, capsys):
    """Measured and printed: time added before the request leaves, and streaming restore
    per chunk (veil bench has the restore figures). Fails only on a runaway."""
    with FakeProvider("openai", key=KEY) as fake:
        store = MemoryStore()
        conversation = store.create_conversation()
        sender = make_sender(engine, store, fake)
        reply = sender.send(conversation, FIRST)
        sender.send(conversation, "warm-up " + FIRST).text()
        added, per_chunk = [], []
        for _ in range(10):
            fake.plan(Reply(chunk_size=4))
            started = time.perf_counter()
            reply = sender.send(conversation, FIRST)
            chunks = list(reply)
            added.append(fake.requests[-1].at - started)
            per_chunk.append(reply.timings.restore_s / reply.timings.chunks)
            assert chunks
    added.sort()
    per_chunk.sort()
    with capsys.disabled():
        print(f"\npipeline: before the request reaches the server median {added[5] * 1000:.1f} ms; "
              f"streaming restore per chunk median {per_chunk[5] * 1e6:.0f} µs")
    no_runaway("median time before the request reaches the server", added[5], 5)
    no_runaway("median streaming restore per chunk", per_chunk[5], 0.05)
