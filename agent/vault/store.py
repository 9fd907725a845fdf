"""`VaultStore`: the encrypted vault (SQLCipher) as one object, assembled from the parts
that each own one job:

- session.py (`VaultSession`): the key and lock life cycle, connections, transactions;
  vault_file.py (`VaultFile`): the files on disk and how a key opens them;
- conversations.py (`VaultConversations`): the ConversationStore: conversations, their
  maps and choices (entity_map.py), messages, turns;
- audit.py (`VaultAudit`): the log of every request sent;
- settings.py (`VaultSettings`): settings too sensitive for config.toml;
- admin.py (`VaultAdmin`): retention, export, wipe, re-key, status.

Each write method is one transaction: a crash in the middle of a send leaves either the
whole message (and the map entries it needs) or nothing. `save_turn` stores a message
together with the conversation's new map entries, which is what a send needs.

The names other modules import from here stay here.
"""

from __future__ import annotations

from agent.vault.admin import EXPORT_FORMAT, RetentionResult, VaultAdmin, VaultStatus
from agent.vault.audit import AuditRecord, VaultAudit
from agent.vault.session import lock_request_path, request_lock
from agent.vault.settings import VaultSettings
from agent.vault.vault_file import companion_paths, default_vault_path


class VaultStore(VaultAdmin, VaultAudit, VaultSettings):
    """The encrypted vault. Implements agent.session.conversation.ConversationStore.

    Opening resolves the key (keyring, or passphrase: argument, VEIL_PASSPHRASE, prompt
    when `interactive`), creates the vault if there is none (`create`), migrates the
    schema. Raises WrongKey, PassphraseRequired/KeyUnavailable, VaultCorrupt,
    VaultUnavailable (read-only, disk full) or VaultTooNew; never replaces a file.
    """


__all__ = [
    "EXPORT_FORMAT",
    "AuditRecord",
    "RetentionResult",
    "VaultStatus",
    "VaultStore",
    "companion_paths",
    "default_vault_path",
    "lock_request_path",
    "request_lock",
]
