"""Settings too sensitive for config.toml, kept encrypted in the vault as JSON values by
key: the protection lists (lists.py), API keys where there is no keyring, the local
proxy's token and conversation key. `VaultSettings` owns reading and writing them.
"""

from __future__ import annotations

import json
import time
from typing import Any

from agent.vault.session import VaultSession


class VaultSettings(VaultSession):
    """The sensitive-settings part of the vault."""

    def get_setting(self, key: str, default: Any = None) -> Any:
        """A setting too sensitive for the plain config file (e.g. lists of client names)."""
        with self._read() as conn:
            row = conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def set_setting(self, key: str, value: Any) -> None:
        """`value` must be JSON-serializable."""
        encoded = json.dumps(value)
        with self._write() as conn:
            conn.execute(
                "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO "
                "UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (key, encoded, time.time()),
            )

    def delete_setting(self, key: str) -> bool:
        with self._write() as conn:
            return conn.execute("DELETE FROM settings WHERE key = ?", (key,)).rowcount > 0

    def setting_keys(self) -> list[str]:
        with self._read() as conn:
            return [row[0] for row in conn.execute("SELECT key FROM settings ORDER BY key")]
