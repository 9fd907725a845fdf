"""API keys: in the OS keyring when one is usable (service "veil", one entry per provider
kind), otherwise in Veil's encrypted vault (a vault setting, "api_key.<kind>"); the
environment variable VEIL_API_KEY, when set, wins over both (scripts, CI, servers).

    get_api_key(kind, vault=store)      # VEIL_API_KEY > keyring > vault > None
    set_api_key(kind, key, vault=store) # keyring if usable, else the vault: says where

Never in config files, logs or exception messages: keys travel as ApiKey objects, which
print as "ApiKey('***')", and provider errors are redacted. A keyring backend that keeps
keys in clear in a file (keyrings.alt) is not used for storing: the vault is safer.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Protocol

from agent.providers.base import ApiKey
from agent.providers.errors import MissingApiKey

KEYRING_SERVICE = "veil"
ENV_VAR = "VEIL_API_KEY"
# Provider kinds that take a key ("local" runs on this machine and needs none).
KEYED_KINDS = ("openai", "anthropic", "gemini")
KEYRING, VAULT = "keyring", "vault"


class KeyVault(Protocol):
    """The part of the vault (agent.vault.VaultStore) that keeps keys: its settings."""

    def get_setting(self, key: str, default: Any = None) -> Any: ...

    def set_setting(self, key: str, value: Any) -> None: ...

    def delete_setting(self, key: str) -> bool: ...


class KeyStoreError(RuntimeError):
    """No safe place can give or take the key (no keyring and the vault is not open, a
    locked or refusing keyring, a locked vault)."""


@dataclass(frozen=True, slots=True)
class KeyHome:
    """Where a key typed now would be kept, in words for the wizard and Settings."""

    place: str  # KEYRING | VAULT
    reason: str = ""  # why not the keyring, when VAULT

    def describe(self) -> str:
        if self.place == KEYRING:
            return "Your API key is kept in the system keyring, never in a file."
        return ("This computer has no usable system keyring, so your API key is kept in Veil's encrypted "
                "vault (with your conversations), never in a plain file.")


def vault_setting(kind: str) -> str:
    return f"api_key.{kind}"


def _key_vault(store: object) -> KeyVault | None:
    """`store` when it can keep settings (the vault), else None (an in-memory store of a
    one-off command keeps no keys)."""
    has = all(callable(getattr(store, name, None)) for name in ("get_setting", "set_setting", "delete_setting"))
    return store if has else None  # type: ignore[return-value]


def _keyring():
    import keyring

    return keyring


def _check_kind(kind: str) -> None:
    if kind not in KEYED_KINDS:
        raise ValueError(f"provider kind {kind!r} takes no API key; expected one of {', '.join(KEYED_KINDS)}")


def key_home() -> KeyHome:
    """The keyring when it can keep a key safely, else the vault."""
    from agent.vault.keys import keyring_status

    status = keyring_status()
    return KeyHome(KEYRING) if status.usable else KeyHome(VAULT, status.reason)


def get_api_key(kind: str, vault: KeyVault | None = None) -> ApiKey | None:
    """The key for a provider kind: VEIL_API_KEY when set (it wins, so a script can use
    another key than the desktop app), else the keyring entry, else the vault's (when
    an open vault is given), else None."""
    _check_kind(kind)
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return ApiKey(env)
    keyring = _keyring()
    try:
        value = keyring.get_password(KEYRING_SERVICE, kind)
    except keyring.errors.NoKeyringError:
        value = None  # headless system without a keyring: the vault, if any
    except Exception as exc:  # a locked or broken keyring: say so rather than "no key"
        raise KeyStoreError(
            f"cannot read the {kind} API key from the keyring ({type(exc).__name__}); set {ENV_VAR} instead"
        ) from None
    if value and value.strip():
        return ApiKey(value.strip())
    vault = _key_vault(vault)
    if vault is None:
        return None
    value = _vault_call(kind, "read", lambda: vault.get_setting(vault_setting(kind)))
    return ApiKey(value) if isinstance(value, str) and value.strip() else None


def require_api_key(kind: str, vault: KeyVault | None = None) -> ApiKey:
    key = get_api_key(kind, vault)
    if key is None:
        raise MissingApiKey(
            f"no API key for {kind}: add one in Settings (kept in the system keyring, or in Veil's vault "
            f"where there is no keyring) or set {ENV_VAR}",
            provider=kind,
        )
    return key


def set_api_key(kind: str, key: str | ApiKey, vault: KeyVault | None = None) -> str:
    """Keep the key: in the keyring when it is usable, else in the vault. Returns where
    (KEYRING or VAULT). KeyStoreError when neither can take it (no keyring and no open
    vault given), with what to do instead."""
    _check_kind(kind)
    value = (key.reveal() if isinstance(key, ApiKey) else ApiKey(key).reveal()).strip()
    if not value:
        raise ValueError("the API key is empty")
    home = key_home()
    if home.place == KEYRING:
        try:
            _keyring().set_password(KEYRING_SERVICE, kind, value)
        except Exception as exc:
            raise KeyStoreError(
                f"cannot store the {kind} API key in the keyring ({type(exc).__name__}); "
                f"set {ENV_VAR} instead"
            ) from None
        vault = _key_vault(vault)
        if vault is not None:  # an older copy kept while there was no keyring: one place only
            _vault_call(kind, "delete", lambda: vault.delete_setting(vault_setting(kind)))
        return KEYRING
    vault = _key_vault(vault)
    if vault is None:
        raise KeyStoreError(
            f"cannot store the {kind} API key: no safe keyring here ({home.reason}) and the vault is not "
            f"open; unlock it and try again, or set {ENV_VAR}"
        )
    _vault_call(kind, "store", lambda: vault.set_setting(vault_setting(kind), value))
    return VAULT


def delete_api_key(kind: str, vault: KeyVault | None = None) -> bool:
    """Remove the stored key from the keyring and (when given) the vault; False when
    there was none."""
    _check_kind(kind)
    keyring = _keyring()
    removed = False
    try:
        keyring.delete_password(KEYRING_SERVICE, kind)
        removed = True
    except (keyring.errors.PasswordDeleteError, keyring.errors.NoKeyringError):
        pass
    except Exception as exc:
        raise KeyStoreError(f"cannot delete the {kind} API key: {type(exc).__name__}") from None
    vault = _key_vault(vault)
    if vault is not None:
        removed = _vault_call(kind, "delete", lambda: vault.delete_setting(vault_setting(kind))) or removed
    return removed


def has_api_key(kind: str, vault: KeyVault | None = None) -> bool:
    try:
        return get_api_key(kind, vault) is not None
    except KeyStoreError:
        return False


def _vault_call(kind: str, what: str, call):
    from agent.vault.errors import VaultError

    try:
        return call()
    except VaultError as exc:
        raise KeyStoreError(f"cannot {what} the {kind} API key in the vault: {exc}") from None
