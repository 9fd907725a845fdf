"""API keys: keyring (service "veil", one entry per provider kind) or VEIL_API_KEY, and
never in config files, reprs or error messages."""

from __future__ import annotations

import keyring
import pytest
from keyring.backend import KeyringBackend

from agent.config import default_settings, load_settings, save_settings
from agent.providers import ApiKey, ProviderConfig, provider_from_settings
from agent.providers.errors import MissingApiKey, redact
from agent.providers.keys import (
    ENV_VAR,
    KEYRING_SERVICE,
    KeyStoreError,
    delete_api_key,
    get_api_key,
    has_api_key,
    require_api_key,
    set_api_key,
)

KEY = "sk-ant-api03-THISISASECRET0123456789abcdef"


class MemoryKeyring(KeyringBackend):
    """A real keyring backend that keeps passwords in this process (an OS keyring stand-in)."""

    priority = 1

    def __init__(self):
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.passwords.get((service, username))

    def set_password(self, service, username, password):
        self.passwords[(service, username)] = password

    def delete_password(self, service, username):
        if (service, username) not in self.passwords:
            raise keyring.errors.PasswordDeleteError(username)
        del self.passwords[(service, username)]


@pytest.fixture
def memory_keyring(monkeypatch, veil_home):
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    monkeypatch.delenv(ENV_VAR, raising=False)
    yield backend
    keyring.set_keyring(previous)


def test_keyring_round_trip(memory_keyring):
    assert get_api_key("anthropic") is None and not has_api_key("anthropic")
    set_api_key("anthropic", KEY)
    assert memory_keyring.passwords == {(KEYRING_SERVICE, "anthropic"): KEY}
    assert get_api_key("anthropic").reveal() == KEY
    assert get_api_key("openai") is None  # one entry per provider kind
    assert delete_api_key("anthropic") is True
    assert delete_api_key("anthropic") is False
    with pytest.raises(MissingApiKey) as info:
        require_api_key("anthropic")
    assert ENV_VAR in str(info.value)


def test_environment_variable_wins_for_headless_use(memory_keyring, monkeypatch):
    set_api_key("gemini", "stored-key-123456")
    monkeypatch.setenv(ENV_VAR, "  env-key-abcdef  ")
    assert get_api_key("gemini").reveal() == "env-key-abcdef"


def test_local_kind_takes_no_key(memory_keyring):
    with pytest.raises(ValueError):
        set_api_key("local", KEY)


def test_plaintext_keyring_files_are_refused(veil_home, monkeypatch, tmp_path):
    from keyrings.alt.file import PlaintextKeyring

    previous = keyring.get_keyring()
    plaintext = PlaintextKeyring()
    plaintext.file_path = str(tmp_path / "keyring.cfg")
    keyring.set_keyring(plaintext)
    try:
        with pytest.raises(KeyStoreError) as info:
            set_api_key("openai", KEY)
    finally:
        keyring.set_keyring(previous)
    assert ENV_VAR in str(info.value)
    assert not (tmp_path / "keyring.cfg").exists()
    assert KEY not in str(info.value)


def test_keys_never_reach_config_files_or_reprs(memory_keyring, veil_home):
    set_api_key("openai", KEY)
    settings = default_settings()
    settings.provider.kind = "openai"
    settings.provider.model = "gpt-test"
    provider = provider_from_settings(settings)
    assert provider.config.api_key.reveal() == KEY
    path = save_settings(settings)
    assert KEY not in path.read_text()
    assert load_settings().provider.kind == "openai"
    for text in (repr(provider.config), str(provider.config.api_key), repr(ApiKey(KEY)), f"{provider.config}"):
        assert KEY not in text
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(ApiKey(KEY))
    assert ProviderConfig("openai", api_key=KEY) == ProviderConfig("openai", api_key="other-key-000")


def test_redact_masks_whole_keys_and_fragments():
    text = f"Incorrect API key provided: {KEY}. You sent sk-ant***cdef and {KEY[5:20]}!"
    out = redact(text, [KEY])
    assert KEY not in out and KEY[5:20] not in out
    assert out.startswith("Incorrect API key provided: [redacted]")
    assert redact("nothing secret here", [KEY]) == "nothing secret here"


# -- no keyring: the encrypted vault keeps the key (issue 15, item 2) ------------------------------
@pytest.fixture
def no_keyring_vault(veil_home, monkeypatch):
    """The "fail" keyring (a headless Linux without Secret Service) and a real vault in
    passphrase mode."""
    import keyring.backends.fail

    from agent.vault import VaultStore, default_vault_path

    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    monkeypatch.delenv(ENV_VAR, raising=False)
    store = VaultStore(default_vault_path(), passphrase="keys test passphrase", scrypt_n=2**12)
    yield store
    store.close()
    keyring.set_keyring(previous)


def test_without_a_keyring_the_key_is_kept_in_the_vault(no_keyring_vault, veil_home, monkeypatch):
    from agent.providers.keys import VAULT, key_home

    store = no_keyring_vault
    assert key_home().place == VAULT and "vault" in key_home().describe()
    assert set_api_key("openai", KEY, vault=store) == VAULT
    assert get_api_key("openai", vault=store).reveal() == KEY
    assert get_api_key("openai") is None  # without the vault there is nowhere else to look
    assert get_api_key("anthropic", vault=store) is None  # one entry per kind
    # The provider the app builds finds it there.
    settings = default_settings()
    settings.provider.kind = "openai"
    assert provider_from_settings(settings, vault=store).config.api_key.reveal() == KEY
    # The environment still wins (a script with another key).
    monkeypatch.setenv(ENV_VAR, "env-key-abcdef")
    assert get_api_key("openai", vault=store).reveal() == "env-key-abcdef"
    monkeypatch.delenv(ENV_VAR)
    # Encrypted on disk, and never in the config file.
    store.close()
    for name in ("vault.db", "vault.db-wal", "vault.db.header"):
        path = veil_home / "data" / name
        if path.exists():
            assert KEY.encode() not in path.read_bytes(), name
    save_settings(settings)
    assert KEY not in (veil_home / "config" / "config.toml").read_text()


def test_a_locked_vault_says_so_instead_of_no_key(no_keyring_vault):
    store = no_keyring_vault
    set_api_key("gemini", KEY, vault=store)
    store.lock()
    with pytest.raises(KeyStoreError) as info:
        get_api_key("gemini", vault=store)
    assert "vault" in str(info.value) and KEY not in str(info.value)
    store.unlock(passphrase="keys test passphrase")
    assert delete_api_key("gemini", vault=store) is True
    assert get_api_key("gemini", vault=store) is None


def test_no_keyring_and_no_vault_is_a_clear_error(no_keyring_vault):
    with pytest.raises(KeyStoreError) as info:
        set_api_key("openai", KEY)
    assert "vault is not open" in str(info.value) and KEY not in str(info.value)


def test_the_keyring_wins_over_the_vault_when_there_is_one(memory_keyring, veil_home):
    from agent.providers.keys import KEYRING
    from agent.vault import VaultStore, default_vault_path

    with VaultStore(default_vault_path(), passphrase="keys test passphrase", scrypt_n=2**12) as store:
        store.set_setting("api_key.openai", "an-older-vault-key-0000")
        assert set_api_key("openai", KEY, vault=store) == KEYRING
        assert memory_keyring.passwords[(KEYRING_SERVICE, "openai")] == KEY
        assert get_api_key("openai", vault=store).reveal() == KEY
        assert store.get_setting("api_key.openai") is None  # one place only: the older copy is gone
