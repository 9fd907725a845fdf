"""API keys: only in the OS keyring (service "veil", one entry per provider kind), or in
the environment variable VEIL_API_KEY for headless use (scripts, CI, servers).

Never in config files, logs, the vault or exception messages: keys travel as ApiKey
objects, which print as "ApiKey('***')", and provider errors are redacted.
"""

from __future__ import annotations

import os

from agent.providers.base import ApiKey
from agent.providers.errors import MissingApiKey

KEYRING_SERVICE = "veil"
ENV_VAR = "VEIL_API_KEY"
# Provider kinds that take a key ("local" runs on this machine and needs none).
KEYED_KINDS = ("openai", "anthropic", "gemini")


class KeyStoreError(RuntimeError):
    """The keyring cannot be used (no backend on this system, locked, refused)."""


def _keyring():
    import keyring

    return keyring


def _check_kind(kind: str) -> None:
    if kind not in KEYED_KINDS:
        raise ValueError(f"provider kind {kind!r} takes no API key; expected one of {', '.join(KEYED_KINDS)}")


def get_api_key(kind: str) -> ApiKey | None:
    """The key for a provider kind: VEIL_API_KEY when set (it wins, so a script can use
    another key than the desktop app), else the keyring entry, else None."""
    _check_kind(kind)
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return ApiKey(env)
    keyring = _keyring()
    try:
        value = keyring.get_password(KEYRING_SERVICE, kind)
    except keyring.errors.NoKeyringError:
        return None  # headless system without a keyring: nothing stored, VEIL_API_KEY it is
    except Exception as exc:  # a locked or broken keyring: say so rather than "no key"
        raise KeyStoreError(
            f"cannot read the {kind} API key from the keyring ({type(exc).__name__}); set {ENV_VAR} instead"
        ) from None
    return ApiKey(value) if value and value.strip() else None


def require_api_key(kind: str) -> ApiKey:
    key = get_api_key(kind)
    if key is None:
        raise MissingApiKey(
            f"no API key for {kind}: add one in Settings (it is kept in the system keyring) "
            f"or set {ENV_VAR}",
            provider=kind,
        )
    return key


def set_api_key(kind: str, key: str | ApiKey) -> None:
    """Store the key in the keyring. Raises KeyStoreError where there is no keyring: the
    caller should then suggest VEIL_API_KEY rather than a file."""
    _check_kind(kind)
    value = key.reveal() if isinstance(key, ApiKey) else ApiKey(key).reveal()
    # A keyring backend that writes keys in clear to a file (keyrings.alt) would be a
    # config file by another name: refuse it, as the vault does for its own key.
    from agent.vault.keys import keyring_status

    status = keyring_status()
    if not status.usable:
        raise KeyStoreError(f"cannot store the {kind} API key safely ({status.reason}); set {ENV_VAR} instead")
    try:
        _keyring().set_password(KEYRING_SERVICE, kind, value)
    except Exception as exc:
        raise KeyStoreError(
            f"cannot store the {kind} API key in the keyring ({type(exc).__name__}); "
            f"set {ENV_VAR} instead"
        ) from None


def delete_api_key(kind: str) -> bool:
    """Remove the stored key; False when there was none."""
    _check_kind(kind)
    keyring = _keyring()
    try:
        keyring.delete_password(KEYRING_SERVICE, kind)
    except keyring.errors.PasswordDeleteError:
        return False
    except Exception as exc:
        raise KeyStoreError(f"cannot delete the {kind} API key: {type(exc).__name__}") from None
    return True


def has_api_key(kind: str) -> bool:
    try:
        return get_api_key(kind) is not None
    except KeyStoreError:
        return False
