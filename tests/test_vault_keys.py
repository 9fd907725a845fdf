# ruff: noqa: F811  (pytest fixtures imported from vault_support are redefined as arguments)
"""Key management: keyring mode, passphrase mode (scrypt + header), VEIL_PASSPHRASE,
wrong keys (file untouched), key changes and interrupted key changes."""

from __future__ import annotations

import json

import keyring
import pytest
from vault_support import FAST_N, _vault_env, file_state, memory_keyring, vault_path  # noqa: F401

from agent.entities import Label
from agent.session.conversation import MapEntry
from agent.vault import (
    KEYRING_SERVICE,
    KeyUnavailable,
    PassphraseRequired,
    VaultStore,
    WrongKey,
    db,
    keyring_status,
    keys,
    open_default_store,
)
from agent.vault.keys import read_header


def _fill(store: VaultStore) -> str:
    conv = store.create_conversation("t", conversation_id="c1")
    conv.add_entry(MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON))
    store.save_conversation(conv)
    return conv.id


def _real_of(store: VaultStore) -> str:
    return store.load_conversation("c1").lookup_stand_in("Priya Sharma").real


def test_keyring_mode_stores_a_random_256_bit_key(memory_keyring, vault_path):
    with VaultStore(vault_path) as store:
        assert store.mode == "keyring"
        _fill(store)
        vault_id = store.vault_id
    stored = memory_keyring.entries[(KEYRING_SERVICE, f"vault-key:{vault_id}")]
    assert len(bytes.fromhex(stored)) == 32
    header = json.loads(vault_path.with_name("vault.db.header").read_text())
    assert header["current"]["mode"] == "keyring" and header["current"]["kdf"] is None
    assert stored not in vault_path.with_name("vault.db.header").read_text()  # only a check value
    with VaultStore(vault_path) as store:
        assert _real_of(store) == "Anjali Gupta"


def test_fail_backend_means_passphrase_mode(vault_path, monkeypatch):
    assert not keyring_status().usable  # the tests' default: keyring.backends.fail
    with pytest.raises(PassphraseRequired, match="VEIL_PASSPHRASE"):
        VaultStore(vault_path)
    assert not vault_path.exists() and not vault_path.with_name("vault.db.header").exists()
    monkeypatch.setenv("VEIL_PASSPHRASE", "correct horse battery staple")
    with VaultStore(vault_path, scrypt_n=FAST_N) as store:
        assert store.mode == "passphrase"
        _fill(store)
    with VaultStore(vault_path) as store:
        assert _real_of(store) == "Anjali Gupta"


def test_plaintext_file_keyring_is_not_trusted(vault_path):
    from keyrings.alt.file import PlaintextKeyring

    keyring.set_keyring(PlaintextKeyring())
    status = keyring_status()
    assert not status.usable and "PlaintextKeyring" in status.backend
    with VaultStore(vault_path, passphrase="a passphrase", scrypt_n=FAST_N) as store:
        assert store.mode == "passphrase"


def test_default_scrypt_parameters_are_in_the_header(vault_path):
    with VaultStore(vault_path, passphrase="a passphrase") as store:
        assert store.mode == "passphrase"
    kdf = read_header(vault_path.with_name("vault.db.header")).current.kdf
    assert (kdf.n, kdf.r, kdf.p, len(kdf.salt)) == (2**17, 8, 1, 16)


def test_interactive_prompt_asks_twice_on_creation_then_once(vault_path):
    answers = iter(["first try", "typo", "s3cret phrase", "s3cret phrase"])
    asked: list[str] = []

    def prompt(text: str) -> str:
        asked.append(text)
        return next(answers)

    with VaultStore(vault_path, interactive=True, prompt=prompt, scrypt_n=FAST_N) as store:
        _fill(store)
    assert len(asked) == 4
    with VaultStore(vault_path, interactive=True, prompt=lambda _: "s3cret phrase") as store:
        assert _real_of(store) == "Anjali Gupta"
    with pytest.raises(PassphraseRequired):
        VaultStore(vault_path)  # not interactive, no env: a clear error, no prompt


def test_wrong_passphrase_leaves_the_file_untouched(vault_path, monkeypatch):
    with VaultStore(vault_path, passphrase="right passphrase", scrypt_n=FAST_N) as store:
        _fill(store)
    before = file_state(vault_path)
    with pytest.raises(WrongKey, match="wrong passphrase"):
        VaultStore(vault_path, passphrase="wrong passphrase")
    monkeypatch.setenv("VEIL_PASSPHRASE", "also wrong")
    with pytest.raises(WrongKey):
        open_default_store()
    assert file_state(vault_path) == before  # same bytes, no new -wal/-shm
    with VaultStore(vault_path, passphrase="right passphrase") as store:
        assert _real_of(store) == "Anjali Gupta"


def test_sqlcipher_itself_rejects_a_wrong_key_without_writing(vault_path):
    """Below the header check: SQLCipher refuses the key and writes nothing."""
    with VaultStore(vault_path, passphrase="right passphrase", scrypt_n=FAST_N) as store:
        _fill(store)
    before = file_state(vault_path)
    with pytest.raises(db.KeyOrFileRejected):
        db.connect(vault_path, b"\x01" * 32)
    assert file_state(vault_path) == before


def test_wrong_or_missing_keyring_key(memory_keyring, vault_path):
    with VaultStore(vault_path) as store:
        _fill(store)
        user = f"vault-key:{store.vault_id}"
    before = file_state(vault_path)
    good = memory_keyring.entries[(KEYRING_SERVICE, user)]
    memory_keyring.entries[(KEYRING_SERVICE, user)] = "00" * 32
    with pytest.raises(WrongKey, match="keyring"):
        VaultStore(vault_path)
    del memory_keyring.entries[(KEYRING_SERVICE, user)]
    with pytest.raises(KeyUnavailable, match="not in the keyring"):
        VaultStore(vault_path)
    assert file_state(vault_path) == before
    memory_keyring.entries[(KEYRING_SERVICE, user)] = good
    with VaultStore(vault_path) as store:
        assert _real_of(store) == "Anjali Gupta"


def test_change_passphrase_keeps_data(vault_path, monkeypatch):
    with VaultStore(vault_path, passphrase="old passphrase", scrypt_n=FAST_N) as store:
        _fill(store)
        monkeypatch.setenv("VEIL_PASSPHRASE", "old passphrase")  # must not be taken as the new one
        store.change_key("passphrase", passphrase="new passphrase")
        assert _real_of(store) == "Anjali Gupta"  # the open store goes on working
        with pytest.raises(PassphraseRequired):
            store.change_key("passphrase")  # no new passphrase and no terminal
    monkeypatch.delenv("VEIL_PASSPHRASE")
    before = file_state(vault_path)
    with pytest.raises(WrongKey):
        VaultStore(vault_path, passphrase="old passphrase")
    assert file_state(vault_path) == before
    with VaultStore(vault_path, passphrase="new passphrase") as store:
        assert _real_of(store) == "Anjali Gupta"
    assert read_header(vault_path.with_name("vault.db.header")).pending is None


def test_move_between_keyring_and_passphrase(memory_keyring, vault_path):
    with VaultStore(vault_path) as store:
        _fill(store)
        vault_id = store.vault_id
        store.change_key("passphrase", passphrase="now a passphrase", scrypt_n=FAST_N)
        assert store.mode == "passphrase"
    assert memory_keyring.entries == {}  # the old key left the keyring
    with VaultStore(vault_path, passphrase="now a passphrase") as store:
        assert _real_of(store) == "Anjali Gupta"
        store.change_key("keyring")
    assert list(memory_keyring.entries) == [(KEYRING_SERVICE, f"vault-key:{vault_id}")]
    with VaultStore(vault_path) as store:
        assert store.mode == "keyring" and _real_of(store) == "Anjali Gupta"
        store.change_key("keyring")  # rotate the random key
    assert list(memory_keyring.entries) == [(KEYRING_SERVICE, f"vault-key:{vault_id}")]
    with VaultStore(vault_path) as store:
        assert _real_of(store) == "Anjali Gupta"


def _interrupted_change(vault_path, *, rekeyed: bool) -> None:
    """Do the first steps of a passphrase change by hand and stop, as a crash would."""
    header_file = vault_path.with_name("vault.db.header")
    header = read_header(header_file)
    old_key = keys.derive_key("old passphrase", header.current.kdf)
    slot, new_key = keys.new_slot(header.vault_id, "passphrase", keys.SecretSource("new passphrase"), scrypt_n=FAST_N)
    keys.write_header(header_file, keys.with_pending(header, slot))
    if rekeyed:
        conn = db.connect(vault_path, old_key)
        conn.execute(f"PRAGMA rekey = \"x'{new_key.hex()}'\"")
        conn.close()


@pytest.mark.parametrize("rekeyed", [False, True])
def test_interrupted_passphrase_change_recovers(vault_path, rekeyed):
    with VaultStore(vault_path, passphrase="old passphrase", scrypt_n=FAST_N) as store:
        _fill(store)
    _interrupted_change(vault_path, rekeyed=rekeyed)
    works, fails = ("new passphrase", "old passphrase") if rekeyed else ("old passphrase", "new passphrase")
    with pytest.raises(WrongKey):
        VaultStore(vault_path, passphrase=fails)
    with VaultStore(vault_path, passphrase=works) as store:
        assert _real_of(store) == "Anjali Gupta"
    assert read_header(vault_path.with_name("vault.db.header")).pending is None  # settled
    with pytest.raises(WrongKey):
        VaultStore(vault_path, passphrase=fails)


def test_passphrase_is_unicode_normalized(vault_path):
    composed, decomposed = "caf\u00e9 au lait", "cafe\u0301 au lait"
    with VaultStore(vault_path, passphrase=composed, scrypt_n=FAST_N) as store:
        _fill(store)
    with VaultStore(vault_path, passphrase=decomposed) as store:
        assert _real_of(store) == "Anjali Gupta"
