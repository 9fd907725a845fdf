# ruff: noqa: F811  (pytest fixtures imported from vault_support are redefined as arguments)
"""Schema migrations, from the first version to the current one, on real SQLCipher files."""

from __future__ import annotations

import pytest
from vault_support import FAST_N, _vault_env, vault_path  # noqa: F401

from agent.entities import Action, Label
from agent.session.conversation import MapEntry, MessageState
from agent.vault import VaultStore, db, schema
from agent.vault.keys import SecretSource, new_header, write_header

PASS = "migration passphrase"


def _vault_at(vault_path, version: int):
    """A vault whose schema stops at `version`, as an older Veil left it."""
    vault_path.parent.mkdir(parents=True, exist_ok=True)
    header, key = new_header(SecretSource(PASS), "passphrase", scrypt_n=FAST_N)
    write_header(vault_path.with_name("vault.db.header"), header)
    conn = db.connect(vault_path, key, create=True)
    db.set_wal(conn, vault_path)
    assert schema.migrate(conn, target=version) == list(range(1, version + 1))
    return conn


def _v1_rows(conn) -> None:
    conn.execute("INSERT INTO conversations (id, seed, title, created_at, updated_at) VALUES ('c1', 12345, 'old title', 1000.0, 2000.0)")
    conn.execute(
        "INSERT INTO messages (conversation_id, typed, sent, received, shown, state, provider, model, error, "
        "created_at) VALUES ('c1', 'Hi Anjali', 'Hi Priya', 'Hello Priya', 'Hello Anjali', 'answered', "
        "'openai', 'gpt', '', 1500.0)"
    )
    conn.execute(
        "INSERT INTO entities (conversation_id, real, stand_in, label, action, first_seen, parent) "
        "VALUES ('c1', 'Anjali', 'Priya', 'PERSON', 'replace', 1400.0, NULL)"
    )
    conn.execute(
        "INSERT INTO choices VALUES ('c1', 'chicago', 'Chicago', 'LOCATION', 'keep', 1450.0)"
    )


def _check_v1_data(store: VaultStore) -> None:
    conv = store.load_conversation("c1")
    assert (conv.seed, conv.title) == (12345, "old title")
    assert conv.lookup_real("Anjali").stand_in == "Priya"
    assert conv.choice_for("Chicago") is Action.KEEP
    [message] = store.list_messages("c1")
    assert (message.typed, message.shown, message.state) == ("Hi Anjali", "Hello Anjali", MessageState.ANSWERED)


def test_migrations_are_numbered_in_order():
    versions = [m.version for m in schema.MIGRATIONS]
    assert versions == list(range(1, len(versions) + 1))
    assert schema.CURRENT_VERSION == versions[-1] >= 3


def test_from_v1_to_current(vault_path):
    conn = _vault_at(vault_path, 1)
    _v1_rows(conn)
    assert schema.schema_version(conn) == 1
    conn.close()

    with VaultStore(vault_path, passphrase=PASS) as store:
        assert store.status().schema_version == schema.CURRENT_VERSION
        _check_v1_data(store)
        # v2: the audit log works; v3: settings work and messages got updated_at.
        store.record_request("openai", "gpt", "Hi Priya", conversation_id="c1")
        store.set_setting("k", [1, 2])
        assert store.get_setting("k") == [1, 2]
        with store._read() as c:
            assert c.execute("SELECT updated_at FROM messages").fetchone()[0] == 1500.0
        assert store.list_conversations()[0].message_count == 1


def test_from_v2_to_current(vault_path):
    conn = _vault_at(vault_path, 2)
    _v1_rows(conn)
    conn.execute(
        "INSERT INTO audit_log (at, provider, model, conversation_id, message_id, sent_text, sent_chars) "
        "VALUES (1600.0, 'openai', 'gpt', 'c1', 1, 'Hi Priya', 8)"
    )
    conn.close()
    with VaultStore(vault_path, passphrase=PASS) as store:
        _check_v1_data(store)
        [record] = store.list_audit()
        assert (record.sent_text, record.conversation_id, record.message_id) == ("Hi Priya", "c1", 1)
        assert store.status().schema_version == schema.CURRENT_VERSION


def test_migrating_again_does_nothing(vault_path):
    conn = _vault_at(vault_path, schema.CURRENT_VERSION)
    assert schema.migrate(conn) == []
    conn.close()


def test_a_failing_migration_leaves_the_previous_version(vault_path, monkeypatch):
    conn = _vault_at(vault_path, schema.CURRENT_VERSION)
    conn.execute("INSERT INTO settings VALUES ('k', '1', 0)")
    broken = schema.Migration(
        schema.CURRENT_VERSION + 1,
        "half good, half broken",
        ("CREATE TABLE newer (x)", "INSERT INTO no_such_table VALUES (1)"),
    )
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS + (broken,))
    with pytest.raises(db.DbError):
        schema.migrate(conn, target=broken.version)
    assert schema.schema_version(conn) == schema.CURRENT_VERSION
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'newer'").fetchone() is None
    assert conn.execute("SELECT value FROM settings").fetchone()[0] == "1"
    conn.close()


def test_labels_unknown_to_this_version_still_load(vault_path):
    conn = _vault_at(vault_path, schema.CURRENT_VERSION)
    _v1_rows(conn)
    # As a newer Veil writes rows: with their folded keys (schema v4).
    conn.execute("UPDATE entities SET real_key = lower(real), stand_in_key = lower(stand_in)")
    conn.execute(
        "INSERT INTO entities (conversation_id, real, stand_in, label, action, first_seen, real_key, stand_in_key) "
        "VALUES ('c1', 'X-42', 'Y-17', 'FUTURE_LABEL', 'replace', 1.0, 'x-42', 'y-17')"
    )
    conn.close()
    with VaultStore(vault_path, passphrase=PASS) as store:
        assert store.load_conversation("c1").lookup_real("X-42").label is Label.MISC


def test_v3_maps_with_racing_duplicates_migrate_without_losing_a_row(vault_path):
    """Before v4 two processes could give one stand-in two values, or one value two
    stand-ins. The first row of a stand-in keeps it (what restore used); a later one for
    another value is retired (kept, not used); a second stand-in of a value restores to it."""
    conn = _vault_at(vault_path, 3)
    conn.execute("INSERT INTO conversations VALUES ('c1', 1, 't', 1000.0, 2000.0)")
    conn.execute("INSERT INTO conversations VALUES ('c2', 2, 't', 1000.0, 2000.0)")
    rows = [
        ("c1", "+1 415-720-3301", "+1 415-555-0101", "PHONE", "replace"),
        ("c1", "+1 628-720-3302", "+1 415-555-0101", "PHONE", "replace"),  # same stand-in, other value
        ("c1", "+1 628-720-3302", "+1 628-555-0102", "PHONE", "replace"),  # that value, its own stand-in
        ("c1", "Sarah Mitchell", "Jane Doe", "PERSON", "replace"),
        ("c1", "Sarah Mitchell", "Kim Park", "PERSON", "replace"),  # one value, a second stand-in
        ("c1", "SARAH MITCHELL", "JANE DOE", "PERSON", "replace"),  # a case variant
        ("c1", "+1 212-720-3303", "[PHONE_1]", "PHONE", "label"),
        ("c1", "+1 212-720-3304", "[PHONE_1]", "PHONE", "label"),  # same label, other value
        ("c2", "+1 628-720-3302", "+1 415-555-0101", "PHONE", "replace"),  # another conversation: its own map
    ]
    for n, row in enumerate(rows):
        conn.execute(
            "INSERT INTO entities (conversation_id, real, stand_in, label, action, first_seen) VALUES (?, ?, ?, ?, ?, ?)",
            (*row, 1000.0 + n),
        )
    conn.close()

    with VaultStore(vault_path, passphrase=PASS) as store:
        assert store.status().schema_version == schema.CURRENT_VERSION
        assert store.status().entities == len(rows)  # nothing deleted
        export = store.export_conversation("c1", include_real=True)
        assert [e["role"] for e in export["entities"]] == [
            "value", "retired", "value", "value", "variant", "variant", "value", "retired",
        ]
        conv = store.load_conversation("c1")
        assert conv.lookup_stand_in("+1 415-555-0101").real == "+1 415-720-3301"
        assert conv.lookup_real("+1 628-720-3302").stand_in == "+1 628-555-0102"
        assert conv.lookup_real("Sarah Mitchell").stand_in == "Jane Doe"
        from agent.restore.restorer import Restorer

        restored = Restorer().restore(
            "Ring +1 415-555-0101 or +1 628-555-0102; Jane Doe (Kim Park) and [PHONE_1].", conv
        ).text
        assert restored == (
            "Ring +1 415-720-3301 or +1 628-720-3302; Sarah Mitchell (Sarah Mitchell) and +1 212-720-3303."
        )
        assert store.load_conversation("c2").lookup_stand_in("+1 415-555-0101").real == "+1 628-720-3302"
        # A value whose only row was retired gets a fresh stand-in when it comes again.
        assert conv.lookup_real("+1 212-720-3304") is None
        conv.add_entry(MapEntry("+1 212-720-3304", "[PHONE_2]", Label.PHONE, Action.LABEL))
        store.save_conversation(conv)
        assert store.load_conversation("c1").lookup_stand_in("[PHONE_2]").real == "+1 212-720-3304"


def test_v4_conversations_get_their_origin(vault_path):
    conn = _vault_at(vault_path, 4)
    for conversation_id in ("abc123", "clipboard-2026-11-24", "px-0f3a", "files-contracts"):
        conn.execute("INSERT INTO conversations VALUES (?, 1, 't', 1000.0, 2000.0)", (conversation_id,))
    conn.close()
    with VaultStore(vault_path, passphrase=PASS) as store:
        origins = {s.id: s.origin for s in store.list_conversations()}
        assert origins == {"abc123": "chat", "clipboard-2026-11-24": "clipboard", "px-0f3a": "proxy",
                           "files-contracts": "files"}
        store.create_conversation("from veil sanitize", conversation_id="cli-1", origin="cli")
        store.set_conversation_origin("clipboard-2026-11-24", "chat")  # opened in the chat list
        origins = {s.id: s.origin for s in store.list_conversations()}
        assert origins["cli-1"] == "cli" and origins["clipboard-2026-11-24"] == "chat"
        with pytest.raises(ValueError, match="origin"):
            store.create_conversation(origin="somewhere")
