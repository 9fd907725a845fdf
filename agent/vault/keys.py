"""The vault's key: where it comes from and how it is checked.

Two modes, recorded in a small unencrypted header file next to the vault
(`vault.db.header`, JSON):

- keyring: a random 256-bit key kept in the OS keyring (service "veil", one entry per
  vault id). Used whenever a usable keyring backend exists.
- passphrase: the key is stretched from a passphrase with scrypt (stdlib
  `hashlib.scrypt`); the header holds the salt and the scrypt parameters. Used where no
  usable keyring exists (headless Linux: `keyring.backends.fail`), or when the user
  chooses it. The passphrase comes from the caller, from `VEIL_PASSPHRASE` (less safe:
  other processes of the same user may read the environment), or from a prompt.

The header (header.py; its names are re-exported here) also holds a key check: HMAC-SHA256(key, constant). It lets a wrong key be
told apart from a damaged file *before* the database is opened, so a wrong key never
touches the file. It gives an attacker nothing the encrypted file does not already
give (both allow testing a guessed passphrase; scrypt makes each guess expensive).

A key change writes the new key's check as "pending" first, re-keys the database, then
makes it current. A crash in between leaves a header from which either key can open
the vault (see `unlock_keys`).
"""

from __future__ import annotations

import getpass
import hashlib
import hmac
import os
import secrets
import time
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from agent.vault.errors import (
    KeyUnavailable,
    PassphraseRequired,
    WrongKey,
)
from agent.vault.header import (  # re-exported: other modules import them from here
    DEFAULT_SCRYPT_N,
    HEADER_FORMAT,
    SCRYPT_P,
    SCRYPT_R,
    KdfParams,
    KeyMode,
    KeySlot,
    VaultHeader,
    fsync_dir,
    header_path,
    os_error,
    read_header,
    write_header,
)

KEYRING_SERVICE = "veil"
PASSPHRASE_ENV = "VEIL_PASSPHRASE"
KEY_BYTES = 32
_CHECK_CONTEXT = b"veil vault key check v1"

Prompt = Callable[[str], str]


# -- key material ----------------------------------------------------------------------------


def key_check(key: bytes) -> str:
    return hmac.new(key, _CHECK_CONTEXT, hashlib.sha256).hexdigest()


def key_matches(key: bytes, slot: KeySlot) -> bool:
    return hmac.compare_digest(key_check(key), slot.key_check)


def normalize_passphrase(passphrase: str) -> bytes:
    """NFC, so that the same passphrase typed on another keyboard/OS gives the same key."""
    if not passphrase or not passphrase.strip():
        raise ValueError("the passphrase is empty")
    return unicodedata.normalize("NFC", passphrase).encode("utf-8")


def derive_key(passphrase: str, kdf: KdfParams) -> bytes:
    return hashlib.scrypt(
        normalize_passphrase(passphrase),
        salt=kdf.salt,
        n=kdf.n,
        r=kdf.r,
        p=kdf.p,
        maxmem=256 * kdf.n * kdf.r * kdf.p + (1 << 20),
        dklen=KEY_BYTES,
    )


def new_random_key() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


# -- keyring -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KeyringStatus:
    usable: bool
    backend: str
    reason: str = ""


# Backends that cannot keep a key safe: the "fail"/"null" ones store nothing; keyrings.alt's
# file backends keep it in clear next to the vault (Plaintext) or prompt on the terminal
# (Encrypted), which is worse than our own passphrase mode.
_UNSAFE_BACKEND_MODULES = ("keyring.backends.fail", "keyring.backends.null", "keyrings.alt.file")


def _backend_name(backend: object) -> str:
    return f"{type(backend).__module__}.{type(backend).__qualname__}"


def keyring_status() -> KeyringStatus:
    """Whether the OS keyring can hold the vault key (no side effects)."""
    try:
        import keyring
        from keyring.backends.chainer import ChainerBackend

        backend = keyring.get_keyring()
    except Exception as exc:  # a broken keyring install must not stop Veil
        return KeyringStatus(False, "unknown", f"keyring cannot be loaded: {exc}")
    name = _backend_name(backend)
    judged = backend
    if isinstance(backend, ChainerBackend):
        # set_password goes to the first backend of the chain: that one must be safe.
        chain = list(getattr(backend, "backends", []))
        if not chain:
            return KeyringStatus(False, name, "no keyring backend is available")
        judged = chain[0]
        name = f"{name}[{_backend_name(judged)}]"
    module = type(judged).__module__
    if module.startswith(_UNSAFE_BACKEND_MODULES):
        return KeyringStatus(False, name, f"the keyring backend {_backend_name(judged)} cannot keep a key safe")
    return KeyringStatus(True, name)


def keyring_user(vault_id: str, pending: bool = False) -> str:
    return f"vault-key:{vault_id}" + (":pending" if pending else "")


def keyring_get(vault_id: str, pending: bool = False) -> bytes | None:
    import keyring
    from keyring.errors import KeyringError

    try:
        value = keyring.get_password(KEYRING_SERVICE, keyring_user(vault_id, pending))
    except KeyringError as exc:
        raise KeyUnavailable(f"the keyring refused to give the vault key: {exc}") from exc
    if value is None:
        return None
    try:
        key = bytes.fromhex(value)
    except ValueError:
        return b""  # present but not ours: fails the key check -> WrongKey
    return key


def keyring_set(vault_id: str, key: bytes, pending: bool = False) -> None:
    import keyring
    from keyring.errors import KeyringError

    user = keyring_user(vault_id, pending)
    try:
        keyring.set_password(KEYRING_SERVICE, user, key.hex())
        stored = keyring.get_password(KEYRING_SERVICE, user)
    except KeyringError as exc:
        raise KeyUnavailable(f"the keyring refused to store the vault key: {exc}") from exc
    if stored != key.hex():  # some backends drop writes silently
        raise KeyUnavailable("the keyring did not keep the vault key (read-back differs)")


def keyring_delete(vault_id: str, pending: bool = False) -> bool:
    import keyring
    from keyring.errors import KeyringError, PasswordDeleteError

    try:
        keyring.delete_password(KEYRING_SERVICE, keyring_user(vault_id, pending))
        return True
    except PasswordDeleteError:
        return False
    except KeyringError:
        return False


# -- where passphrases come from ---------------------------------------------------------------


class SecretSource:
    """Gives the passphrase when one is needed: the caller's, then VEIL_PASSPHRASE, then a
    prompt (only when interactive). Asked lazily, so keyring-mode vaults never prompt."""

    def __init__(
        self,
        passphrase: str | None = None,
        *,
        interactive: bool = False,
        prompt: Prompt | None = None,
        use_env: bool = True,
    ):
        self._given = passphrase
        self._use_env = use_env
        self.interactive = interactive
        self._prompt = prompt or getpass.getpass
        self._cached: str | None = None
        self.origin = ""  # "argument", "environment", "prompt"

    @property
    def has_noninteractive(self) -> bool:
        return bool(self._given) or self._env() is not None

    def _env(self) -> str | None:
        return (os.environ.get(PASSPHRASE_ENV) or None) if self._use_env else None

    def passphrase(self, *, confirm: bool = False, why: str = "unlock the Veil vault") -> str:
        if self._cached is not None:
            return self._cached
        if self._given:
            self._cached, self.origin = self._given, "argument"
        elif self._env() is not None:
            self._cached, self.origin = self._env(), "environment"
        elif self.interactive:
            self._cached, self.origin = ask_passphrase(self._prompt, why=why, confirm=confirm), "prompt"
        elif self._use_env:
            raise PassphraseRequired(
                f"a passphrase is needed to {why}: run interactively, or set {PASSPHRASE_ENV} "
                "(less safe: the environment can be read by other programs of this user)"
            )
        else:
            raise PassphraseRequired(f"a new passphrase is needed to {why}: run interactively")
        return self._cached


def ask_passphrase(prompt: Prompt, *, why: str, confirm: bool) -> str:
    for _ in range(3):
        first = prompt(f"Passphrase to {why}: ")
        if not first or not first.strip():
            print("The passphrase cannot be empty.")
            continue
        if not confirm:
            return first
        if prompt("Repeat the passphrase: ") == first:
            return first
        print("The passphrases differ; try again.")
    raise PassphraseRequired("no passphrase was entered")


# -- creating and finding keys ---------------------------------------------------------------


def choose_mode(secrets_source: SecretSource) -> KeyMode:
    """For a new vault: a passphrase if the user supplied one, else the keyring when it
    is usable, else a passphrase (prompted, or PassphraseRequired)."""
    if secrets_source.has_noninteractive:
        return "passphrase"
    return "keyring" if keyring_status().usable else "passphrase"


def new_slot(
    vault_id: str,
    mode: KeyMode,
    secrets_source: SecretSource,
    *,
    pending: bool = False,
    scrypt_n: int = DEFAULT_SCRYPT_N,
    why: str = "protect the new Veil vault",
) -> tuple[KeySlot, bytes]:
    """A fresh key in `mode`; in keyring mode it is stored in the keyring (under the
    pending name during a key change)."""
    if mode == "keyring":
        status = keyring_status()
        if not status.usable:
            raise KeyUnavailable(f"cannot keep the key in the keyring: {status.reason}")
        key = new_random_key()
        keyring_set(vault_id, key, pending=pending)
        return KeySlot("keyring", key_check(key)), key
    kdf = KdfParams.new(scrypt_n)
    passphrase = secrets_source.passphrase(confirm=True, why=why)
    try:
        key = derive_key(passphrase, kdf)
    except ValueError as exc:
        raise PassphraseRequired(str(exc)) from exc
    return KeySlot("passphrase", key_check(key), kdf), key


def new_header(
    secrets_source: SecretSource, mode: KeyMode | None = None, *, scrypt_n: int = DEFAULT_SCRYPT_N
) -> tuple[VaultHeader, bytes]:
    vault_id = secrets.token_hex(8)
    slot, key = new_slot(vault_id, mode or choose_mode(secrets_source), secrets_source, scrypt_n=scrypt_n)
    return VaultHeader(vault_id=vault_id, current=slot, created_at=time.time()), key


def _slot_key(header: VaultHeader, slot: KeySlot, pending: bool, secrets_source: SecretSource) -> bytes | None:
    if slot.mode == "keyring":
        key = keyring_get(header.vault_id, pending=pending)
        if key is None and not pending:
            raise KeyUnavailable(
                f"the vault key is not in the keyring ({keyring_status().backend}); "
                "was the vault copied from another account or machine?"
            )
        return key
    assert slot.kdf is not None
    try:
        return derive_key(secrets_source.passphrase(), slot.kdf)
    except ValueError as exc:
        raise PassphraseRequired(str(exc)) from exc


def unlock_keys(header: VaultHeader, secrets_source: SecretSource) -> Iterator[tuple[bytes, bool]]:
    """Keys that pass the header's check, as (key, is_pending): the current slot first,
    then a pending one (an interrupted key change). Raises WrongKey when a key was
    obtained but none matches, KeyUnavailable/PassphraseRequired when none could be had."""
    slots = [(header.current, False)] + ([(header.pending, True)] if header.pending else [])
    unavailable: KeyUnavailable | None = None
    mismatched = False
    yielded = False
    for slot, pending in slots:
        try:
            key = _slot_key(header, slot, pending, secrets_source)
        except KeyUnavailable as exc:
            unavailable = unavailable or exc
            continue
        if key is None:
            continue
        if key_matches(key, slot):
            yielded = True
            yield key, pending
        else:
            mismatched = True
    if yielded:
        return
    if mismatched:
        if header.current.mode == "passphrase":
            raise WrongKey("wrong passphrase for the Veil vault (the vault was not touched)")
        raise WrongKey("the key in the keyring does not open this vault (the vault was not touched)")
    raise unavailable or KeyUnavailable("no key for the vault")


def with_pending(header: VaultHeader, slot: KeySlot | None) -> VaultHeader:
    return replace(header, pending=slot)


__all__ = [
    "DEFAULT_SCRYPT_N",
    "HEADER_FORMAT",
    "KEYRING_SERVICE",
    "KEY_BYTES",
    "PASSPHRASE_ENV",
    "SCRYPT_P",
    "SCRYPT_R",
    "KdfParams",
    "KeyMode",
    "KeySlot",
    "KeyringStatus",
    "Prompt",
    "SecretSource",
    "VaultHeader",
    "ask_passphrase",
    "choose_mode",
    "derive_key",
    "fsync_dir",
    "header_path",
    "key_check",
    "key_matches",
    "keyring_delete",
    "keyring_get",
    "keyring_set",
    "keyring_status",
    "keyring_user",
    "new_header",
    "new_random_key",
    "new_slot",
    "normalize_passphrase",
    "os_error",
    "read_header",
    "unlock_keys",
    "with_pending",
    "write_header",
]
