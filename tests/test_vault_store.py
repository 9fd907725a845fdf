# ruff: noqa: F811  (pytest fixtures imported from vault_support are redefined as arguments)
"""VaultStore as a ConversationStore, plus audit log, settings, retention, export, wipe,
and persistence across processes. Real SQLCipher files under VEIL_HOME=tmp."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vault_support import FAST_N, _vault_env, memory_keyring, run_python, vault_path  # noqa: F401

from agent.entities import Action, Label
from agent.session.conversation import (
    ConversationNotFound,
    MapEntry,
    Message,
    MessageState,
)
from agent.session.stores import ConversationStore
from agent.vault import VaultStore, open_default_store


@pytest.fixture
def store(memory_keyring, vault_path):
    s = VaultStore(vault_path)
    yield s
    s.close()


def _reopen(store: VaultStore) -> VaultStore:
    store.close()
    return VaultStore(store.path)


def test_implements_the_protocol(store):
    assert isinstance(store, ConversationStore)


def test_conversation_map_and_choices_survive_reopen(store):
    conv = store.create_conversation("Contract renewal")
    conv.add_entry(MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON))
    conv.add_entry(MapEntry("Gupta", "Sharma", Label.PERSON, parent="Anjali Gupta"))
    conv.add_entry(MapEntry("Anjali Gupta", "[PERSON_1]", Label.PERSON, Action.LABEL))
    conv.set_choice("Chicago", Label.LOCATION, Action.KEEP)
    store.save_conversation(conv)
    assert conv.take_unsaved() == []

    store = _reopen(store)
    try:
        loaded = store.load_conversation(conv.id)
        assert loaded.seed == conv.seed and loaded.title == "Contract renewal"
        assert loaded.created_at == pytest.approx(conv.created_at)
        assert [(e.real, e.stand_in, e.label, e.action, e.parent) for e in loaded.entries] == [
            ("Anjali Gupta", "Priya Sharma", Label.PERSON, Action.REPLACE, None),
            ("Gupta", "Sharma", Label.PERSON, Action.REPLACE, "Anjali Gupta"),
            ("Anjali Gupta", "[PERSON_1]", Label.PERSON, Action.LABEL, None),
        ]
        assert loaded.lookup_real("anjali  GUPTA").stand_in == "Priya Sharma"
        assert loaded.lookup_stand_in("[PERSON_1]").real == "Anjali Gupta"
        assert loaded.choice_for("chicago") is Action.KEEP
        assert loaded.take_unsaved() == [] and loaded.take_unsaved_choices() == []
        assert loaded.date_shift_days == conv.date_shift_days
    finally:
        store.close()


def test_saving_twice_stores_each_entry_once_and_choice_updates(store):
    conv = store.create_conversation()
    conv.add_entry(MapEntry("sarah.m@globaltech.com", "emma.k@northwind.io", Label.EMAIL))
    conv.set_choice("Chicago", Label.LOCATION, Action.KEEP)
    store.save_conversation(conv)
    store.save_conversation(conv)
    conv.set_choice("Chicago", Label.LOCATION, Action.REPLACE)
    conv.title = "renamed by save"
    store.save_conversation(conv)
    loaded = store.load_conversation(conv.id)
    assert len(loaded.entries) == 1
    assert loaded.choice_for("Chicago") is Action.REPLACE
    assert loaded.title == "renamed by save"


def test_save_of_a_conversation_not_created_in_the_store(store):
    from agent.session.conversation import Conversation

    conv = Conversation(title="made elsewhere")
    conv.add_entry(MapEntry("Bob Stone", "Carl Reed", Label.PERSON))
    store.save_conversation(conv)
    assert store.load_conversation(conv.id).lookup_real("Bob Stone").stand_in == "Carl Reed"


def test_messages_add_update_list(store):
    conv = store.create_conversation("t")
    first = store.add_message(Message(conv.id, typed="Hi Anjali", sent="Hi Priya"))
    second = store.add_message(Message(conv.id, typed="second"))
    assert first.id is not None and second.id > first.id
    first.received, first.shown, first.state = "Hello Priya", "Hello Anjali", MessageState.ANSWERED
    first.provider, first.model = "openai", "gpt-4o-mini"
    store.update_message(first)
    messages = store.list_messages(conv.id)
    assert [m.id for m in messages] == [first.id, second.id]
    got = messages[0]
    assert (got.typed, got.sent, got.received, got.shown, got.state, got.provider, got.model) == (
        "Hi Anjali", "Hi Priya", "Hello Priya", "Hello Anjali", MessageState.ANSWERED, "openai", "gpt-4o-mini",
    )
    assert messages[1].state is MessageState.UNSENT
    summary = store.list_conversations()[0]
    assert summary.id == conv.id and summary.message_count == 2


def test_errors_match_memory_store(store):
    with pytest.raises(ConversationNotFound):
        store.load_conversation("nope")
    with pytest.raises(ConversationNotFound):
        store.list_messages("nope")
    with pytest.raises(ConversationNotFound):
        store.add_message(Message("nope", typed="x"))
    with pytest.raises(ConversationNotFound):
        store.rename_conversation("nope", "t")
    with pytest.raises(ConversationNotFound):
        store.delete_conversation("nope")
    conv = store.create_conversation(conversation_id="fixed-id")
    with pytest.raises(ValueError):
        store.create_conversation(conversation_id="fixed-id")
    with pytest.raises(KeyError):
        store.update_message(Message(conv.id, typed="x", id=999))
    with pytest.raises(KeyError):
        store.update_message(Message(conv.id, typed="x"))
    # The failed calls left the store usable.
    store.add_message(Message(conv.id, typed="still fine"))
    assert len(store.list_messages(conv.id)) == 1


def test_list_rename_delete(store):
    a = store.create_conversation("a")
    time.sleep(0.01)
    b = store.create_conversation("b")
    store.add_message(Message(a.id, typed="bump a"))
    assert [s.id for s in store.list_conversations()] == [a.id, b.id]  # most recently used first
    store.rename_conversation(b.id, "bee")
    assert {s.id: s.title for s in store.list_conversations()}[b.id] == "bee"
    a.add_entry(MapEntry("Anjali", "Priya", Label.PERSON))
    store.save_conversation(a)
    store.delete_conversation(a.id)
    assert [s.id for s in store.list_conversations()] == [b.id]
    with pytest.raises(ConversationNotFound):
        store.load_conversation(a.id)
    # The cascade removed its rows (foreign keys are on).
    with store._read() as conn:
        assert conn.execute("SELECT count(*) FROM entities").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM messages").fetchone()[0] == 0


def test_connections_have_foreign_keys_secure_delete_wal(store):
    store.create_conversation()
    with store._read() as conn:
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert conn.execute("PRAGMA secure_delete").fetchone()[0] == 1
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_save_turn_is_one_transaction(store):
    conv = store.create_conversation()
    conv.add_entry(MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON))
    msg = store.save_turn(conv, Message(conv.id, typed="Hi Anjali Gupta", sent="Hi Priya Sharma"))
    assert msg.id is not None
    msg.state = MessageState.ANSWERED
    store.save_turn(conv, msg)  # update, no new row
    assert len(store.list_messages(conv.id)) == 1
    assert store.load_conversation(conv.id).lookup_stand_in("Priya Sharma").real == "Anjali Gupta"

    # A message for a missing conversation fails the whole turn: the entries are not lost,
    # they go with the next save.
    conv.add_entry(MapEntry("Bob Stone", "Carl Reed", Label.PERSON))
    with pytest.raises(ValueError):
        store.save_turn(conv, Message("other", typed="x"))
    assert store.load_conversation(conv.id).lookup_real("Bob Stone") is None
    store.save_conversation(conv)
    assert store.load_conversation(conv.id).lookup_real("Bob Stone").stand_in == "Carl Reed"


def test_audit_log_records_sanitized_text_and_sizes(store):
    conv = store.create_conversation()
    msg = store.add_message(Message(conv.id, typed="Hi Anjali", sent="Hi Priya"))
    audit_id = store.record_request("openai", "gpt-4o-mini", "Hi Priya", conversation_id=conv.id, message_id=msg.id)
    store.finish_request(audit_id, received_chars=42)
    store.record_request("anthropic", "claude", "no conversation")
    records = store.list_audit()
    assert [r.provider for r in records] == ["anthropic", "openai"]
    first = records[1]
    assert (first.sent_text, first.sent_chars, first.received_chars, first.status) == ("Hi Priya", 8, 42, "answered")
    assert first.conversation_id == conv.id and first.message_id == msg.id
    assert [r.id for r in store.list_audit(conversation_id=conv.id)] == [audit_id]
    with pytest.raises(ConversationNotFound):
        store.record_request("openai", "m", "x", conversation_id="missing")
    # Deleting the conversation keeps the record of what left the machine, unlinked.
    store.delete_conversation(conv.id)
    kept = store.list_audit()[1]
    assert kept.sent_text == "Hi Priya" and kept.conversation_id is None and kept.message_id is None


def test_sensitive_settings(store):
    assert store.get_setting("always_protect", []) == []
    store.set_setting("always_protect", ["Acme Holdings", "Project Tiger"])
    store.set_setting("n", 3)
    store.set_setting("n", 4)
    store = _reopen(store)
    try:
        assert store.get_setting("always_protect") == ["Acme Holdings", "Project Tiger"]
        assert store.get_setting("n") == 4
        assert store.setting_keys() == ["always_protect", "n"]
        assert store.delete_setting("n") and not store.delete_setting("n")
    finally:
        store.close()


def test_retention_deletes_old_conversations_and_audit(store):
    stale = store.create_conversation("stale")
    store.add_message(Message(stale.id, typed="old message"))
    stale.add_entry(MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON))
    store.save_conversation(stale)
    keep = store.create_conversation("keep")
    with store._write() as conn:  # 'stale' was last used 40 days ago
        conn.execute("UPDATE conversations SET updated_at = ? WHERE id = ?", (time.time() - 40 * 86400, stale.id))
    store.record_request("openai", "m", "old request", at=time.time() - 40 * 86400)
    store.record_request("openai", "m", "new request")
    assert store.apply_retention(0) == store.apply_retention(-1)  # <= 0 keeps everything
    assert len(store.list_conversations()) == 2
    result = store.apply_retention(30)
    assert (result.conversations, result.audit_entries) == (1, 1)
    assert [s.id for s in store.list_conversations()] == [keep.id]
    assert [r.sent_text for r in store.list_audit()] == ["new request"]
    assert store.status().entities == 0 and store.status().messages == 0


def test_retention_applied_when_opening_the_default_store(memory_keyring, veil_home):
    from agent.config import default_settings

    store = open_default_store()
    conv = store.create_conversation("stale")
    with store._write() as conn:
        conn.execute("UPDATE conversations SET updated_at = ? WHERE id = ?", (time.time() - 10 * 86400, conv.id))
    fresh = store.create_conversation("fresh")
    store.close()
    settings = default_settings()
    settings.vault.retention_days = 7
    store = open_default_store(settings=settings)
    try:
        assert [s.id for s in store.list_conversations()] == [fresh.id]
        assert store.path == veil_home / "data" / "vault.db"
    finally:
        store.close()


def test_export_without_and_with_real_values(store):
    conv = store.create_conversation("About Anjali Gupta")
    conv.add_entry(MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON))
    conv.set_choice("Chicago", Label.LOCATION, Action.KEEP)
    store.save_turn(conv, Message(conv.id, typed="Write to Anjali Gupta", sent="Write to Priya Sharma",
                                  received="Dear Priya Sharma", shown="Dear Anjali Gupta"))
    plain = json.dumps(store.export_conversation(conv.id))
    assert "Anjali" not in plain and "Gupta" not in plain and "Chicago" not in plain
    assert "Write to Priya Sharma" in plain and "Dear Priya Sharma" in plain
    full = store.export_conversation(conv.id, include_real=True)
    assert full["includes_real_values"] is True
    assert full["messages"][0]["typed"] == "Write to Anjali Gupta"
    assert full["entities"][0]["real"] == "Anjali Gupta"
    assert full["choices"][0]["real"] == "Chicago"
    assert full["title"] == "About Anjali Gupta"
    with pytest.raises(ConversationNotFound):
        store.export_conversation("missing")


def test_wipe_empties_everything_and_stays_usable(store):
    conv = store.create_conversation("x")
    conv.add_entry(MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON))
    store.save_turn(conv, Message(conv.id, typed="Anjali Gupta"))
    store.record_request("openai", "m", "Priya Sharma")
    store.set_setting("k", "v")
    store.wipe()
    assert store.list_conversations() == [] and store.list_audit() == [] and store.setting_keys() == []
    assert store.status().entities == 0
    store.create_conversation("after wipe")
    assert len(store.list_conversations()) == 1


def test_conversation_persists_across_processes(vault_path, veil_home):
    """Sanitize in one process, restore in another: the map is in the file."""
    env = {"VEIL_HOME": str(veil_home), "VEIL_PASSPHRASE": "correct horse battery"}
    writer = f"""
from agent.vault import VaultStore
from agent.session.conversation import MapEntry, Message
from agent.entities import Label
s = VaultStore(scrypt_n={FAST_N})
c = s.create_conversation("cross-process", conversation_id="conv-xp")
c.add_entry(MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON))
s.save_turn(c, Message(c.id, typed="Hi Anjali Gupta", sent="Hi Priya Sharma"))
s.close()
print(s.mode)
"""
    assert run_python(writer, env).strip() == "passphrase"
    reader = """
from agent.vault import open_default_store
s = open_default_store()
c = s.load_conversation("conv-xp")
print(c.lookup_stand_in("Priya Sharma").real, len(s.list_messages("conv-xp")))
s.close()
"""
    assert run_python(reader, env).strip() == "Anjali Gupta 1"


def test_audit_entry_for_a_missing_message(store):
    conv = store.create_conversation()
    with pytest.raises(KeyError):
        store.record_request("openai", "m", "x", conversation_id=conv.id, message_id=12345)


_odd_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200
) | st.sampled_from(["", "\x00nul\x00", "שלום Anjali", "👩🏽‍💻 Priya", "a" * 100_000])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(typed=_odd_text, real=_odd_text.filter(lambda t: t.strip() != ""))
def test_any_text_round_trips(store, typed, real):
    conv = store.create_conversation(title=typed[:50])
    stand_in = "stand-in " + str(len(real))
    if conv.is_taken(stand_in) or " ".join(real.casefold().split()) == stand_in:
        return
    conv.add_entry(MapEntry(real, stand_in, Label.MISC))
    message = store.save_turn(conv, Message(conv.id, typed=typed, sent=typed[::-1], shown=typed))
    loaded = store.load_conversation(conv.id)
    assert loaded.title == typed[:50]
    assert loaded.entries[0].real == real
    [got] = store.list_messages(conv.id)
    assert (got.id, got.typed, got.sent, got.shown) == (message.id, typed, typed[::-1], typed)
