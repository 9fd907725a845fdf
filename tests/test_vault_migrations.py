# ruff: noqa: F811  (pytest fixtures imported from vault_support are redefined as arguments)
"""Schema migrations, from the first version to the current one, on real SQLCipher files."""

from __future__ import annotations

import pytest
from vault_support import FAST_N, _vault_env, vault_path  # noqa: F401

from agent.session.conversation import MessageState
from agent.entities import Action, Label
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
    conn.execute("INSERT INTO conversations VALUES ('c1', 12345, 'old title', 1000.0, 2000.0)")
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
    conn.execute(
        "INSERT INTO entities (conversation_id, real, stand_in, label, action, first_seen) "
        "VALUES ('c1', 'X-42', 'Y-17', 'FUTURE_LABEL', 'replace', 1.0)"
    )
    conn.close()
    with VaultStore(vault_path, passphrase=PASS) as store:
        assert store.load_conversation("c1").lookup_real("X-42").label is Label.MISC
