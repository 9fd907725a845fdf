# ruff: noqa: F811  (pytest fixtures imported from vault_support are redefined as arguments)
"""Plaintext where it should not be: Veil's folders are 0700 and its files 0600
(config.toml included), the protection lists live in the vault (encrypted) and not in
config.toml, an export with real values is a new 0600 file that never follows a symlink,
and `veil serve` takes its token from a file or stdin instead of the command line."""

from __future__ import annotations

import argparse
import io
import json
import os
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from vault_support import FAST_N, REPO, _vault_env, vault_path  # noqa: F401

from agent.config import CustomPattern, ListSettings, default_settings, load_settings, save_settings
from agent.entities import Label
from agent.session.conversation import MapEntry, Message
from agent.vault import VaultStore, open_default_store
from agent.vault.lists import LISTS_SETTING, read_lists, write_lists

PASS = "private passphrase"
SECRET_CLIENT = "Quillfeather Biolabs"  # a made-up client no detector knows


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _veil(args: list[str], home: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "VEIL_HOME": str(home), "VEIL_PASSPHRASE": PASS, "PYTHONPATH": str(REPO)}
    code = "import sys; from agent.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], input=stdin, capture_output=True, text=True,
                          timeout=300, cwd=REPO, env=env, check=False)


def _config_file(home: Path) -> Path:
    return home / "config" / "config.toml"


# -- folders 0700, files 0600 ------------------------------------------------------------------------

def test_folders_are_0700_and_config_toml_0600_even_when_an_older_veil_made_them_open(veil_home, vault_path):
    from agent import paths

    for folder in (veil_home / "data", veil_home / "config", veil_home / "data" / "models"):
        folder.mkdir(parents=True, exist_ok=True)
        os.chmod(folder, 0o755)  # as an older Veil (or the umask) left them
    config = _config_file(veil_home)
    config.write_text('relevance = false\n')
    os.chmod(config, 0o644)

    assert load_settings().relevance is False
    assert _mode(config) == 0o600  # tightened when read
    for folder in (paths.data_dir(), paths.config_dir(), paths.models_dir()):
        assert _mode(folder) == 0o700, folder
    save_settings(load_settings())
    assert _mode(config) == 0o600
    assert not [p for p in config.parent.iterdir() if p.name.endswith(".tmp")]

    with VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N) as store:
        store.create_conversation("x")
        from agent.vault import request_lock

        request_lock(vault_path, "unlock")
    for path in vault_path.parent.iterdir():
        if path.is_file():
            assert _mode(path) == 0o600, path.name


# -- the lists in the vault ---------------------------------------------------------------------------

def test_config_lists_move_into_the_vault_on_first_unlock(veil_home, vault_path):
    config = _config_file(veil_home)
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        'relevance = false\n\n[lists]\nalways_protect = ["Quillfeather Biolabs", "PERSON: Odalys Brenn"]\n'
        'never_protect = ["Kubernetes"]\n'
        'custom_patterns = [{ label = "ID", pattern = "QB-\\\\d{5}", name = "lab codes" }]\n'
    )
    with VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N) as store:  # a vault that already has one term
        write_lists(store, ListSettings(always_protect=["Odalys Brenn", "Harwick Row"]), config=veil_home / "none.toml")
    os.environ["VEIL_PASSPHRASE"] = PASS
    try:
        settings = load_settings()
        store = open_default_store(settings=settings)
    finally:
        del os.environ["VEIL_PASSPHRASE"]
    try:
        kept = read_lists(store)
    finally:
        store.close()
    assert kept.always_protect == ["Odalys Brenn", "Harwick Row", "Quillfeather Biolabs"]  # merged, each once
    assert kept.never_protect == ["Kubernetes"]
    assert kept.custom_patterns == [CustomPattern("ID", r"QB-\d{5}", "lab codes")]
    assert settings.lists == kept  # what an engine built from these settings protects
    left = tomllib.loads(config.read_text())
    assert "lists" not in left and left["relevance"] is False  # the rest of the file is kept
    assert SECRET_CLIENT not in config.read_text() and _mode(config) == 0o600
    raw = b"".join(p.read_bytes() for p in vault_path.parent.iterdir() if p.name.startswith("vault.db"))
    assert SECRET_CLIENT.encode() not in raw and b"Odalys" not in raw  # encrypted


def test_saving_settings_never_writes_the_lists_but_keeps_an_unmoved_table(veil_home):
    config = _config_file(veil_home)
    config.parent.mkdir(parents=True, exist_ok=True)
    settings = default_settings()
    settings.lists.always_protect = [SECRET_CLIENT]
    save_settings(settings)
    assert SECRET_CLIENT not in config.read_text()
    # A table an older Veil wrote stays until the vault takes it over (nothing is lost).
    config.write_text('[lists]\nalways_protect = ["Odalys Brenn"]\n')
    save_settings(default_settings())
    assert tomllib.loads(config.read_text())["lists"]["always_protect"] == ["Odalys Brenn"]


def test_the_lists_reach_the_detectors_from_the_vault(veil_home, vault_path):
    """`veil sanitize` (a real process) protects a term that is only in the vault."""
    with VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N) as store:
        write_lists(store, ListSettings(always_protect=[f"ORG: {SECRET_CLIENT}"],
                                        custom_patterns=[CustomPattern("ID", r"QB-\d{5}", "lab codes")]))
    assert not _config_file(veil_home).exists() or "lists" not in _config_file(veil_home).read_text()
    text = f"Send the {SECRET_CLIENT} samples (batch QB-12345) to the lab on Monday."
    done = _veil(["sanitize", "--json"], veil_home, text)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert SECRET_CLIENT not in out["sanitized"] and "QB-12345" not in out["sanitized"], out["sanitized"]
    detectors = {e["real"]: e["detector"] for e in out["entities"]}
    assert detectors[SECRET_CLIENT] == "always_protect" and detectors["QB-12345"].startswith("custom")
    # Without the vault's lists the engine sends both as they are (the test can fail).
    from agent.engine.core import Engine
    from agent.session.conversation import Conversation

    assert Engine(default_settings()).sanitize(text, Conversation("x")).sanitized.count(SECRET_CLIENT) == 1


def test_a_bad_custom_pattern_is_refused_and_nothing_is_written(vault_path):
    from agent.config import ConfigError

    with VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N) as store:
        write_lists(store, ListSettings(always_protect=["Harwick Row"]), config=vault_path.parent / "none.toml")
        with pytest.raises(ConfigError, match="QB-"):
            write_lists(store, ListSettings(custom_patterns=[CustomPattern("ID", "QB-(", "")]))
        assert read_lists(store).always_protect == ["Harwick Row"]
        assert store.get_setting(LISTS_SETTING)["custom_patterns"] == []


# -- exports with real values -------------------------------------------------------------------------

def _export_args(conversation: str, output: Path) -> argparse.Namespace:
    return argparse.Namespace(conversation=conversation, all=False, include_real=True, output=str(output))


@pytest.fixture
def exported_conversation(vault_path, monkeypatch):
    with VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N) as store:
        conv = store.create_conversation("About Odalys Brenn", conversation_id="conv-x")
        conv.add_entry(MapEntry("Odalys Brenn", "Priya Sharma", Label.PERSON))
        store.save_turn(conv, Message(conv.id, typed="Hi Odalys Brenn", sent="Hi Priya Sharma"))
    monkeypatch.setenv("VEIL_PASSPHRASE", PASS)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    return "conv-x"


def test_an_export_replaces_an_open_file_with_a_private_one(exported_conversation, tmp_path):
    from agent.cli import vault as vault_cli

    target = tmp_path / "conv.json"
    target.write_text("old")
    os.chmod(target, 0o644)
    assert vault_cli._export(_export_args(exported_conversation, target)) == 0
    assert _mode(target) == 0o600
    assert json.loads(target.read_text())["entities"][0]["real"] == "Odalys Brenn"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # no temp file left


def test_an_export_never_follows_a_symlink(exported_conversation, tmp_path):
    from agent.cli import CliError
    from agent.cli import vault as vault_cli

    elsewhere = tmp_path / "public.json"
    elsewhere.write_text("untouched")
    os.chmod(elsewhere, 0o644)
    link = tmp_path / "conv.json"
    link.symlink_to(elsewhere)
    with pytest.raises(CliError, match="symbolic link"):
        vault_cli._export(_export_args(exported_conversation, link))
    assert elsewhere.read_text() == "untouched" and link.is_symlink()
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "would-be-created.json")
    with pytest.raises(CliError):
        vault_cli._export(_export_args(exported_conversation, dangling))
    assert not (tmp_path / "would-be-created.json").exists()


# -- the serve token off the command line ---------------------------------------------------------------

def _serve_args(**given) -> argparse.Namespace:
    return argparse.Namespace(**({"token": None, "token_file": None} | given))


def test_the_serve_token_comes_from_a_file_or_stdin(tmp_path, monkeypatch, capsys):
    from agent.cli import CliError
    from agent.cli.serve import _token_from

    token_file = tmp_path / "token"
    token_file.write_text("veil-token-from-a-file-0123456789\n")
    os.chmod(token_file, 0o600)
    assert _token_from(_serve_args(token_file=str(token_file))) == "veil-token-from-a-file-0123456789"
    assert capsys.readouterr().err == ""
    os.chmod(token_file, 0o644)
    _token_from(_serve_args(token_file=str(token_file)))
    assert "other users" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO("veil-token-from-stdin-0123456789\nmore\n"))
    assert _token_from(_serve_args(token="-")) == "veil-token-from-stdin-0123456789"
    assert _token_from(_serve_args(token="veil-visible-token-0123456789")) == "veil-visible-token-0123456789"
    assert "ps" in capsys.readouterr().err  # still accepted, with a warning
    with pytest.raises(CliError, match="not both"):
        _token_from(_serve_args(token="-", token_file=str(token_file)))
    with pytest.raises(CliError, match="cannot read"):
        _token_from(_serve_args(token_file=str(tmp_path / "missing")))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with pytest.raises(CliError, match="no token"):
        _token_from(_serve_args(token="-"))


def test_veil_serve_with_a_token_file_keeps_the_token_out_of_ps(tmp_path):
    import openai
    from provider_fakes import FakeProvider
    from serve_support import start_veil_serve, stop_veil_serve

    key = "sk-upstream-key-0123456789abcdef"
    token = "veil-token-in-a-file-0123456789"
    token_file = tmp_path / "token"
    token_file.write_text(token + "\n")
    os.chmod(token_file, 0o600)
    with FakeProvider("openai", key=key) as upstream:
        process, url, printed = start_veil_serve(tmp_path, upstream.base_url, "--token-file", str(token_file), key=key)
        try:
            command_line = Path(f"/proc/{process.pid}/cmdline").read_bytes().replace(b"\0", b" ")
            assert token.encode() not in command_line and b"--token-file" in command_line
            assert printed == token
            client = openai.OpenAI(base_url=url, api_key=token, max_retries=0)
            answer = client.chat.completions.create(model="up-model", messages=[{"role": "user", "content": "Hi"}])
            assert answer.choices[0].message.content == "You wrote: Hi"
        finally:
            assert stop_veil_serve(process) == 0
