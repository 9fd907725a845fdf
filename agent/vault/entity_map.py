"""The entity map in the vault: which rows a conversation's map is made of, and how new
rows are allocated so that, whatever number of processes write one conversation, each
real value has one stand-in and each stand-in one real value.

Every row carries its value and stand-in folded (`real_key`, `stand_in_key`: the key
lookups use, case- and space-insensitive) and a role:
- `value`: the stand-in given to a value (a full value, a partial mention like
  "Mitchell" of "Sarah Mitchell", a number as written). Unique per conversation by
  stand-in, and by value per action (a value may have a realistic stand-in and a label).
- `variant`: the same value and stand-in written another way ("MITCHELL" / "DOE"); it
  restores but allocates nothing. Vaults from before these rules also keep here a second
  stand-in two processes gave one value (it still restores to that value).
- `retired`: a stand-in two processes gave two different values before these rules
  existed. Kept (export shows it), never loaded: the first value keeps the stand-in,
  which is what restore did with it before.

`insert_entries` runs inside the caller's write transaction (BEGIN IMMEDIATE, so no other
process writes in between): it reads the rows others stored since this copy of the
conversation last looked, checks each new entry against all rows and either inserts it
or reports the clash, and the caller rolls back. The unique indexes and a trigger (schema
version 4) hold the same rules in the file itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlcipher3

from agent.entities import Action, Label
from agent.session.conversation import MapEntry, fold

VALUE, VARIANT, RETIRED = "value", "variant", "retired"


@dataclass(frozen=True, slots=True)
class Clash:
    """Why an entry cannot be stored as it is."""

    entry: MapEntry
    reason: str


class AllocationClash(Exception):
    def __init__(self, clash: Clash):
        super().__init__(clash.reason)
        self.clash = clash


def _label(value: str) -> Label:
    try:
        return Label(value)
    except ValueError:  # a label from a newer Veil: keep the value usable
        return Label.MISC


def _entry(row: tuple) -> MapEntry:
    real, stand_in, label, action, first_seen, parent = row
    return MapEntry(real, stand_in, _label(label), Action(action), first_seen, parent)


_COLUMNS = "real, stand_in, label, action, first_seen, parent"


def load_entries(conn, conversation_id: str) -> tuple[list[MapEntry], int]:
    """The conversation's map in the order it was made, and the last row id it covers."""
    entries = [
        _entry(row)
        for row in conn.execute(
            f"SELECT {_COLUMNS} FROM entities WHERE conversation_id = ? AND role != ? ORDER BY id",
            (conversation_id, RETIRED),
        )
    ]
    return entries, last_row_id(conn, conversation_id)


def last_row_id(conn, conversation_id: str) -> int:
    row = conn.execute("SELECT max(id) FROM entities WHERE conversation_id = ?", (conversation_id,)).fetchone()
    return int(row[0] or 0)


def entries_after(conn, conversation_id: str, after: int) -> tuple[list[MapEntry], int]:
    """Rows stored after row `after` (by any process), and the last row id now."""
    rows = conn.execute(
        f"SELECT id, {_COLUMNS}, role FROM entities WHERE conversation_id = ? AND id > ? ORDER BY id",
        (conversation_id, after),
    ).fetchall()
    last = max((row[0] for row in rows), default=after)
    return [_entry(row[1:7]) for row in rows if row[7] != RETIRED], last


def insert_entries(conn, conversation_id: str, entries: list[MapEntry]) -> None:
    """Store new map entries (caller holds a write transaction). Raises AllocationClash
    for the first entry that disagrees with a stored row; the caller rolls back."""
    for entry in entries:
        real_key, stand_in_key = fold(entry.real), fold(entry.stand_in)
        if conn.execute(
            "SELECT 1 FROM entities WHERE conversation_id = ? AND real = ? AND stand_in = ? AND action = ?",
            (conversation_id, entry.real, entry.stand_in, entry.action.value),
        ).fetchone():
            continue  # stored already (by this process or another one that made the same choice)
        role = _role_for(conn, conversation_id, entry, real_key, stand_in_key)
        try:
            conn.execute(
                "INSERT INTO entities (conversation_id, real, stand_in, label, action, first_seen, parent, "
                "real_key, stand_in_key, role) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (conversation_id, entry.real, entry.stand_in, entry.label.value, entry.action.value,
                 entry.first_seen, entry.parent, real_key, stand_in_key, role),
            )
        except sqlcipher3.IntegrityError as exc:  # the file's own rules (schema v4) said no
            raise AllocationClash(Clash(entry, f"the vault refused the entry: {exc}")) from exc


def _role_for(conn, conversation_id: str, entry: MapEntry, real_key: str, stand_in_key: str) -> str:
    live = (conversation_id, RETIRED)
    same_pair = conn.execute(
        "SELECT 1 FROM entities WHERE conversation_id = ? AND role != ? AND action = ? AND real_key = ? "
        "AND stand_in_key = ?",
        (*live, entry.action.value, real_key, stand_in_key),
    ).fetchone()
    if same_pair:
        return VARIANT  # the same mapping written another way
    holder = conn.execute(
        "SELECT real FROM entities WHERE conversation_id = ? AND role != ? AND stand_in_key = ? AND real_key != ? "
        "LIMIT 1",
        (*live, stand_in_key, real_key),
    ).fetchone()
    if holder:
        raise AllocationClash(Clash(entry, "the stand-in was given to another value meanwhile"))
    owner = conn.execute(
        "SELECT stand_in FROM entities WHERE conversation_id = ? AND role = ? AND action = ? AND real_key = ? LIMIT 1",
        (conversation_id, VALUE, entry.action.value, real_key),
    ).fetchone()
    if owner:
        raise AllocationClash(Clash(entry, "the value got another stand-in meanwhile"))
    if conn.execute(
        "SELECT 1 FROM entities WHERE conversation_id = ? AND role != ? AND real_key = ? LIMIT 1",
        (*live, stand_in_key),
    ).fetchone():
        raise AllocationClash(Clash(entry, "the stand-in is a real value of this conversation"))
    return VALUE


def classify_rows(conn) -> dict[str, int]:
    """Fill the folded keys and roles of rows stored before schema version 4 (in the
    migration's transaction). The first row of a stand-in keeps it; a later row giving
    the same stand-in to another value is retired; a later row giving the same value
    another stand-in becomes a variant (it still restores to that value). Returns the
    count per role; no row is deleted."""
    counts = {VALUE: 0, VARIANT: 0, RETIRED: 0}
    owner_of: dict[tuple[str, str], str] = {}  # (conversation, stand_in_key) -> real_key
    valued: set[tuple[str, str, str]] = set()  # (conversation, action, real_key)
    rows = conn.execute("SELECT id, conversation_id, real, stand_in, action FROM entities ORDER BY id").fetchall()
    for row_id, conversation_id, real, stand_in, action in rows:
        real_key, stand_in_key = fold(real), fold(stand_in)
        owner = owner_of.get((conversation_id, stand_in_key))
        if owner is not None and owner != real_key:
            role = RETIRED
        elif owner is not None or (conversation_id, action, real_key) in valued:
            role = VARIANT
        else:
            role = VALUE
            valued.add((conversation_id, action, real_key))
        if role != RETIRED:
            owner_of.setdefault((conversation_id, stand_in_key), real_key)
        counts[role] += 1
        conn.execute(
            "UPDATE entities SET real_key = ?, stand_in_key = ?, role = ? WHERE id = ?",
            (real_key, stand_in_key, role, row_id),
        )
    return counts
