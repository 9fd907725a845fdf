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
