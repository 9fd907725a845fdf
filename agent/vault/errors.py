"""Exception types of the vault. Every failure the user can meet has its own type and a
message that says what happened and what to do; none of them ever leads to data being
overwritten.
"""

from __future__ import annotations

from pathlib import Path


class VaultError(Exception):
    """Base class: anything the vault cannot do."""

    def __init__(self, message: str, *, path: Path | None = None):
        super().__init__(message)
        self.path = path


class WrongKey(VaultError):
    """The key or passphrase does not open this vault. The file was not touched."""


class VaultLocked(VaultError):
    """The vault is locked (by the user, by idle time, or because no key is at hand)."""


class KeyUnavailable(VaultLocked):
    """No key could be obtained: the keyring has none or cannot be used, or a passphrase
    is needed and there is no way to ask for one (non-interactive, no VEIL_PASSPHRASE)."""


class PassphraseRequired(KeyUnavailable):
    """The vault uses a passphrase and none was given."""


class VaultCorrupt(VaultError):
    """The file is damaged (the key is right but the contents do not check out). The file
    is kept as is; a fresh vault is only started on the user's explicit choice
    (`start_fresh_vault`, `veil vault reset`), and the old file is then renamed aside."""


class VaultMissing(VaultCorrupt):
    """The vault's database is gone or empty (0 bytes) while its header (or its write-ahead
    log) is still there: it was moved, deleted or truncated. Never answered with a new
    empty vault; the message says how to put it back or start over (`veil vault reset`)."""


class VaultUnavailable(VaultError):
    """The file cannot be read or written right now: read-only location, permissions,
    full disk, or another process holding it too long. Nothing was half-written."""


class VaultReadOnly(VaultUnavailable):
    pass


class VaultFull(VaultUnavailable):
    pass


class VaultBusy(VaultUnavailable):
    pass


class VaultTooNew(VaultError):
    """The vault was written by a newer Veil (schema version above what this one knows)."""
