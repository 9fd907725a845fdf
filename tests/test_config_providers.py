"""Provider settings: one remembered profile per provider kind, the one rule for choosing
a kind (agent.providers.choice), and configs written before profiles existed."""

from __future__ import annotations

import argparse

import pytest

OLD_CONFIG = """\
first_run_done = true
[provider]
kind = "openai"
base_url = "http://127.0.0.1:11434/v1"
model = "llama3.2"
temperature = 0.2
max_tokens = 300
max_attempts = 2
[policy]
PERSON = "replace"
"""


def test_a_flat_provider_table_is_read_into_profiles_without_losing_a_value(veil_home):
    from agent.config import config_path, load_settings, save_settings

    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text(OLD_CONFIG)
    settings = load_settings()
    p = settings.provider
    assert (p.kind, p.base_url, p.model) == ("openai", "http://127.0.0.1:11434/v1", "llama3.2")
    assert (p.temperature, p.max_tokens, p.max_attempts, p.timeout_s) == (0.2, 300, 2, 60.0)
    # The endpoint belonged to the OpenAI-compatible kind only; the generation values
    # applied to whichever kind answered, so every kind keeps them.
    for kind in ("local", "anthropic", "gemini"):
        other = p.profile(kind)
        assert (other.base_url, other.model) == ("", "")
        assert (other.temperature, other.max_tokens, other.max_attempts) == (0.2, 300, 2)
    assert settings.policy["PERSON"] == "replace" and settings.first_run_done
    # Saved in the new form, read back the same.
    save_settings(settings)
    text = config_path().read_text()
    assert "[provider.openai]" in text and 'kind = "openai"' in text
    assert load_settings() == settings


def test_a_flat_table_without_a_kind_belongs_to_the_default_kind(veil_home):
    from agent.config import config_path, load_settings

    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text('[provider]\nmodel = "x"\nmax_attempts = 3\n')
    p = load_settings().provider
    assert p.kind == "local" and p.profile("local").model == "x"
    assert p.profile("openai").model == "" and p.profile("openai").max_attempts == 3


def test_profiles_in_the_file_win_over_flat_leftovers():
    from agent.config import migrate_provider_table

    data = {"provider": {"kind": "openai", "model": "old", "temperature": 0.1,
                         "openai": {"model": "new"}, "gemini": {"temperature": 0.9}}}
    migrated = migrate_provider_table(data)["provider"]
    assert migrated["openai"]["model"] == "new" and migrated["openai"]["temperature"] == 0.1
    assert migrated["gemini"]["temperature"] == 0.9
    assert "model" not in migrated and data["provider"]["model"] == "old"  # the input is left alone


def test_an_unknown_kind_or_key_is_refused_with_its_name(veil_home):
    from agent.config import ConfigError, config_path, load_settings

    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text('[provider]\nkind = "openia"\n')
    with pytest.raises(ConfigError, match="openia"):
        load_settings()
    config_path().write_text('[provider.openai]\nbase_ur = "x"\n')
    with pytest.raises(ConfigError, match="provider.openai.base_ur"):
        load_settings()


def test_choosing_a_kind_keeps_every_other_kinds_url_and_model():
    from agent.config import default_settings
    from agent.providers.choice import choose_provider, destination

    settings = default_settings()
    settings.provider.kind = "openai"
    settings.provider.base_url, settings.provider.model = "http://127.0.0.1:8080/v1", "qwen"
    local = choose_provider(settings, "local")
    assert local.provider.kind == "local" and settings.provider.kind == "openai"  # a copy
    assert destination(local).host == "this computer" and destination(local).model == "gemma3-270m-q4"
    back = choose_provider(local, "openai")
    assert destination(back) == destination(settings)
    assert destination(back).host == "127.0.0.1:8080" and destination(back).model == "qwen"
    # A model or URL given with a kind changes that kind's profile only.
    other = choose_provider(back, "anthropic", model="claude-x")
    assert destination(other).host == "api.anthropic.com" and destination(other).model == "claude-x"
    assert other.provider.profile("openai").model == "qwen"
    # For the local kind, the model is the local model's name.
    tiny = choose_provider(back, "local", model="qwen2.5-1.5b")
    assert tiny.local_model.name == "qwen2.5-1.5b" and tiny.provider.profile("openai").model == "qwen"
    with pytest.raises(ValueError, match="openia"):
        choose_provider(settings, "openia")


def test_cli_flags_pick_the_kinds_remembered_profile():
    from agent.cli.send import apply_overrides
    from agent.config import default_settings

    settings = default_settings()
    settings.provider.kind = "openai"
    settings.provider.base_url, settings.provider.model = "http://127.0.0.1:8080/v1", "qwen"
    settings.provider.profile("gemini").model = "gemini-2.5-flash"
    args = argparse.Namespace(provider="gemini", base_url=None, model=None, max_tokens=50, temperature=None)
    apply_overrides(settings, args)
    p = settings.provider
    assert (p.kind, p.base_url, p.model, p.max_tokens) == ("gemini", "", "gemini-2.5-flash", 50)
    assert p.profile("openai").base_url == "http://127.0.0.1:8080/v1"
    args = argparse.Namespace(provider="openai", base_url=None, model="llama", max_tokens=None, temperature=None)
    apply_overrides(settings, args)
    p = settings.provider
    assert (p.kind, p.base_url, p.model) == ("openai", "http://127.0.0.1:8080/v1", "llama")


def test_display_names_live_in_one_place():
    from agent.providers.choice import PROVIDER_KINDS, PROVIDER_NAMES

    assert set(PROVIDER_NAMES) == set(PROVIDER_KINDS)
