"""The encrypted vault (SQLCipher): conversations, messages, entity maps, choices, the
audit log of requests sent and sensitive settings. See store.py for the store, keys.py
for where the key comes from.

Other code opens "the" vault with `open_default_store(interactive=...)`.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from agent.vault.errors import (
    KeyUnavailable,
    PassphraseRequired,
    VaultBusy,
    VaultCorrupt,
    VaultError,
    VaultFull,
    VaultLocked,
    VaultMissing,
    VaultReadOnly,
    VaultTooNew,
    VaultUnavailable,
    WrongKey,
)
from agent.vault.keys import KEYRING_SERVICE, PASSPHRASE_ENV, keyring_status
from agent.vault.manage import VaultInfo, describe_vault, destroy_vault, move_vault_aside
from agent.vault.store import (
    AuditRecord,
    RetentionResult,
    VaultStatus,
    VaultStore,
    default_vault_path,
    request_lock,
)

if TYPE_CHECKING:
    from agent.config import Settings
    from agent.session.stores import ConversationStore

log = logging.getLogger("veil.vault")


def open_default_store(
    interactive: bool = False,
    *,
    settings: Settings | None = None,
    passphrase: str | None = None,
    prompt: Callable[[str], str] | None = None,
) -> VaultStore:
    """The user's vault at data_dir()/vault.db (VEIL_HOME moves it), created on first use.

    The key comes from the OS keyring, or in passphrase mode from `passphrase`,
    VEIL_PASSPHRASE, or a prompt on the terminal when `interactive`. Applies the
    retention setting and the auto-lock time from the settings. The protection lists live
    in the vault: a [lists] table left in config.toml is moved in (first unlock), and
    `settings.lists` of the settings given here are filled from the vault, so an engine
    built from them protects what the user listed.
    Raises PassphraseRequired/KeyUnavailable (no key without asking), WrongKey,
    VaultCorrupt, VaultUnavailable, VaultTooNew: all VaultError, all with a message for
    the user.
    """
    if settings is None:
        from agent.config import load_settings

        settings = load_settings()
    store = VaultStore(
        default_vault_path(),
        passphrase=passphrase,
        interactive=interactive,
        prompt=prompt,
        auto_lock_seconds=max(0, settings.vault.auto_lock_minutes) * 60,
    )
    try:
        if settings.vault.retention_days > 0:
            store.apply_retention(settings.vault.retention_days)
        _take_over_lists(store, settings)
    except BaseException:
        store.close()
        raise
    return store


def _take_over_lists(store: VaultStore, settings: Settings) -> None:
    from agent.config import ConfigError
    from agent.vault.lists import load_lists_into, move_config_lists_into_vault

    try:
        moved = move_config_lists_into_vault(store)
    except (ConfigError, OSError) as exc:  # config.toml unreadable: it says so where it is loaded
        log.warning("the protection lists of config.toml were not moved into the vault: %s", exc)
    else:
        if moved:
            log.info("moved %d protection list entries from config.toml into the vault", moved)
    load_lists_into(settings, store)


def open_default_store_or_memory(
    interactive: bool = False,
    *,
    warn: Callable[[str], None] | None = None,
    settings: Settings | None = None,
) -> ConversationStore:
    """For one-shot CLI use: the vault, or, only when no key can be had without asking
    (no usable keyring, no VEIL_PASSPHRASE, not interactive), an in-memory store with a
    warning (nothing will persist). A wrong key, a damaged or unwritable vault are
    errors, never silently replaced."""
    try:
        return open_default_store(interactive, settings=settings)
    except KeyUnavailable as exc:
        from agent.session.stores import MemoryStore

        message = (f"veil: warning: the vault is not available ({exc}); nothing will be kept after this "
                   "command, and the protection lists kept in the vault are not applied")
        (warn or (lambda text: print(text, file=sys.stderr)))(message)
        return MemoryStore()


__all__ = [
    "KEYRING_SERVICE",
    "PASSPHRASE_ENV",
    "AuditRecord",
    "KeyUnavailable",
    "PassphraseRequired",
    "RetentionResult",
    "VaultBusy",
    "VaultCorrupt",
    "VaultError",
    "VaultFull",
    "VaultInfo",
    "VaultLocked",
    "VaultMissing",
    "VaultReadOnly",
    "VaultStatus",
    "VaultStore",
    "VaultTooNew",
    "VaultUnavailable",
    "WrongKey",
    "default_vault_path",
    "describe_vault",
    "destroy_vault",
    "keyring_status",
    "move_vault_aside",
    "open_default_store",
    "open_default_store_or_memory",
    "request_lock",
]
