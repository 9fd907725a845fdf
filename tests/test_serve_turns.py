"""One turn record for everything that sends (issue 13 item 2): the chat's Sender and the
proxy store and audit a turn through one TurnLog over a typed store, so any TurnStore
(the vault, MemoryStore) gets the same messages and audit entries; agent/serve uses no
private name of another package and does not probe its store."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from provider_fakes import Fail, FakeProvider, Reply

from agent.providers import GenerationParams, ProviderConfig, create_provider
from agent.providers.errors import ProviderError
from agent.session.conversation import MessageState
from agent.session.sender import Sender
from agent.session.stores import MemoryStore
from agent.session.turns import AuditLog, TurnLog, TurnStore, state_for, title_for
from agent.vault import VaultStore

REPO = Path(__file__).resolve().parents[1]
PROMPT = "Ask Orla Brennigan (orla.b@harbourmail.net) for the signed form."


@pytest.mark.parametrize("kind", ["memory", "vault"])
def test_a_sent_turn_is_stored_and_audited_the_same_way_in_any_turn_store(privacy_engine, veil_home, kind):
    store = MemoryStore() if kind == "memory" else VaultStore(
        veil_home / "vault.db", passphrase="turn tests", mode="passphrase", scrypt_n=2**12)
    assert isinstance(store, TurnStore) and isinstance(store, AuditLog)
    with FakeProvider("openai", key="sk-turns-0123456789") as upstream:
        upstream.plan(Reply(), Fail(500, "boom"))
        provider = create_provider(ProviderConfig("openai", base_url=upstream.base_url, model="m",
                                                  api_key="sk-turns-0123456789", max_attempts=1))
        sender = Sender(privacy_engine, store, provider, params=GenerationParams(max_tokens=50))
        assert isinstance(sender.turns, TurnLog)
        conversation = store.create_conversation()
        answered = sender.send(conversation, PROMPT)
        answered.text()
        failed = sender.send(conversation, "And again, please.")
        with pytest.raises(ProviderError):
            failed.text()
        provider.close()
    messages = store.list_messages(conversation.id)
    assert [m.state for m in messages] == [MessageState.ANSWERED, MessageState.FAILED]
    assert conversation.title == title_for(PROMPT)
    audit = store.audit if kind == "memory" else [
        {"sent_text": a.sent_text, "status": a.status, "message_id": a.message_id, "received_chars": a.received_chars}
        for a in reversed(store.list_audit())]
    assert [a["status"] for a in audit] == ["answered", "failed"]
    assert [a["message_id"] for a in audit] == [m.id for m in messages]
    assert audit[0]["sent_text"] == messages[0].sent and "Brennigan" not in audit[0]["sent_text"]
    assert audit[0]["received_chars"] == len(messages[0].received) > 0
    if kind == "vault":
        store.close()


def test_what_ends_a_request_decides_the_state_of_its_message():
    from agent.providers.errors import Cancelled, MissingApiKey

    assert state_for(Cancelled("stop"))[0] is MessageState.CANCELLED
    assert state_for(MissingApiKey("no key"))[0] is MessageState.UNSENT
    assert state_for(ProviderError("down"))[0] is MessageState.FAILED
    assert state_for(ValueError("bug")) == (MessageState.FAILED, "internal error: ValueError: bug")
    assert title_for("  a  b\nc ") == "a b c" and len(title_for("x " * 100)) == 60


def _modules(*folders: str) -> list[Path]:
    return [p for folder in folders for p in sorted((REPO / folder).glob("*.py"))]


def test_serve_imports_no_private_name_of_another_package_and_does_not_probe_its_store():
    offenders = []
    for path in [*_modules("agent/serve"), REPO / "agent/session/sender.py", REPO / "agent/session/turns.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = ".".join(path.relative_to(REPO).with_suffix("").parts[:-1])
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.module.startswith(package):
                offenders += [f"{path.name}: {node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
                    and "store" in ast.unparse(node.args[0])):
                offenders.append(f"{path.name}: {ast.unparse(node)}")
    assert offenders == []


def test_the_proxy_and_sender_modules_stay_small():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines())
             for p in [*_modules("agent/serve"), REPO / "agent/session/sender.py", REPO / "agent/session/turns.py"]}
    assert {name: n for name, n in sizes.items() if n > 450} == {}
