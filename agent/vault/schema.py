"""The vault's tables and how they evolved. `PRAGMA user_version` is the schema version;
each migration runs in its own transaction together with the version bump, so a vault is
always at exactly one version. Never edit a released migration: add a new one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agent.vault.entity_map import RETIRED, VALUE, classify_rows
from agent.vault.errors import VaultTooNew


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    what: str
    # SQL, or a function of the connection for what SQL cannot do (folding text the
    # way Python does); run in order, in the migration's transaction.
    statements: tuple[str | Callable[..., object], ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "conversations, messages, entity map, keep/replace choices",
        (
            """CREATE TABLE conversations (
                id TEXT PRIMARY KEY,
                seed INTEGER NOT NULL,
                title TEXT NOT NULL DEFAULT '',
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL
            )""",
            # AUTOINCREMENT: an id is never reused, so a stale id never names another message.
            """CREATE TABLE messages (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                typed TEXT NOT NULL DEFAULT '',
                sent TEXT NOT NULL DEFAULT '',
                received TEXT NOT NULL DEFAULT '',
                shown TEXT NOT NULL DEFAULT '',
                state TEXT NOT NULL DEFAULT 'unsent',
                provider TEXT NOT NULL DEFAULT '',
                model TEXT NOT NULL DEFAULT '',
                error TEXT NOT NULL DEFAULT '',
                created_at REAL NOT NULL
            )""",
            "CREATE INDEX messages_by_conversation ON messages(conversation_id, id)",
            # Insertion order (id) matters: the first entry for a value wins on load.
            """CREATE TABLE entities (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                real TEXT NOT NULL,
                stand_in TEXT NOT NULL,
                label TEXT NOT NULL,
                action TEXT NOT NULL,
                first_seen REAL NOT NULL,
                parent TEXT,
                UNIQUE (conversation_id, real, stand_in, action)
            )""",
            """CREATE TABLE choices (
                conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                real_key TEXT NOT NULL,
                real TEXT NOT NULL,
                label TEXT NOT NULL,
                action TEXT NOT NULL,
                chosen_at REAL NOT NULL,
                PRIMARY KEY (conversation_id, real_key)
            )""",
        ),
    ),
    Migration(
        2,
        "audit log of every request sent (sanitized text only)",
        (
            # Kept when its conversation is deleted (it is the record of what left the
            # machine, and holds no real values); retention and wipe remove it.
            """CREATE TABLE audit_log (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                at REAL NOT NULL,
                provider TEXT NOT NULL,
                model TEXT NOT NULL,
                conversation_id TEXT REFERENCES conversations(id) ON DELETE SET NULL,
                message_id INTEGER REFERENCES messages(id) ON DELETE SET NULL,
                sent_text TEXT NOT NULL,
                sent_chars INTEGER NOT NULL,
                received_chars INTEGER,
                status TEXT NOT NULL DEFAULT 'sent'
            )""",
            "CREATE INDEX audit_by_time ON audit_log(at)",
            "CREATE INDEX audit_by_conversation ON audit_log(conversation_id)",
            "CREATE INDEX audit_by_message ON audit_log(message_id)",
        ),
    ),
    Migration(
        3,
        "sensitive settings; messages.updated_at; conversations by update time",
        (
            """CREATE TABLE settings (
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL,
                updated_at REAL NOT NULL
            )""",
            "ALTER TABLE messages ADD COLUMN updated_at REAL",
            "UPDATE messages SET updated_at = created_at WHERE updated_at IS NULL",
            "CREATE INDEX conversations_by_update ON conversations(updated_at)",
        ),
    ),
    Migration(
        4,
        "one stand-in per value and one value per stand-in in each conversation (entity roles, keys, unique indexes)",
        (
            "ALTER TABLE entities ADD COLUMN real_key TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE entities ADD COLUMN stand_in_key TEXT NOT NULL DEFAULT ''",
            f"ALTER TABLE entities ADD COLUMN role TEXT NOT NULL DEFAULT '{VALUE}'",
            classify_rows,  # rows from racing processes become variants or are retired, none deleted
            f"CREATE UNIQUE INDEX entities_one_stand_in ON entities(conversation_id, stand_in_key) WHERE role = '{VALUE}'",
            f"CREATE UNIQUE INDEX entities_one_per_value ON entities(conversation_id, action, real_key) WHERE role = '{VALUE}'",
            "CREATE INDEX entities_by_real_key ON entities(conversation_id, real_key)",
            "CREATE INDEX entities_by_stand_in_key ON entities(conversation_id, stand_in_key)",
            # Whatever the role, a stand-in in use stands for one value.
            f"""CREATE TRIGGER entities_stand_in_means_one_value BEFORE INSERT ON entities
                WHEN NEW.role != '{RETIRED}' AND EXISTS (
                    SELECT 1 FROM entities WHERE conversation_id = NEW.conversation_id
                    AND stand_in_key = NEW.stand_in_key AND real_key != NEW.real_key AND role != '{RETIRED}')
                BEGIN SELECT RAISE(ABORT, 'this stand-in already stands for another value'); END""",
        ),
    ),
    Migration(
        5,
        "where each conversation was started (chat, cli, clipboard, proxy, files)",
        (
            "ALTER TABLE conversations ADD COLUMN origin TEXT NOT NULL DEFAULT 'chat'",
            # Older conversations of the clipboard, the proxy and veil files by their ids;
            # those of veil commands cannot be told from chats and stay visible.
            "UPDATE conversations SET origin = 'clipboard' WHERE id LIKE 'clipboard-%'",
            "UPDATE conversations SET origin = 'proxy' WHERE id LIKE 'px-%'",
            "UPDATE conversations SET origin = 'files' WHERE id LIKE 'files-%'",
        ),
    ),
)

CURRENT_VERSION = MIGRATIONS[-1].version


def schema_version(conn) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn, target: int = CURRENT_VERSION) -> list[int]:
    """Bring the database to `target`; returns the versions applied. `conn` must be in
    autocommit mode (isolation_level=None). Safe against other processes migrating at
    the same time: the version is re-read inside the write transaction."""
    applied: list[int] = []
    for migration in MIGRATIONS:
        if migration.version > target:
            break
        version = schema_version(conn)
        if version > CURRENT_VERSION:
            raise VaultTooNew(
                f"this vault has schema version {version}; this Veil knows up to "
                f"{CURRENT_VERSION}: update Veil"
            )
        if version >= migration.version:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            if schema_version(conn) >= migration.version:  # another process got there first
                conn.execute("COMMIT")
                continue
            for statement in migration.statements:
                if callable(statement):
                    statement(conn)
                else:
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {int(migration.version)}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        applied.append(migration.version)
    if schema_version(conn) > CURRENT_VERSION:
        raise VaultTooNew(
            f"this vault has schema version {schema_version(conn)}; this Veil knows up to "
            f"{CURRENT_VERSION}: update Veil"
        )
    return applied
