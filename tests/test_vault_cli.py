# ruff: noqa: F811  (pytest fixtures imported from vault_support are redefined as arguments)
"""`veil vault ...` commands, run through argparse like the real entry point."""

from __future__ import annotations

import argparse
import io
import json
import sys

import pytest
from vault_support import FAST_N, _vault_env, memory_keyring, vault_path  # noqa: F401

from agent.cli import CliError
from agent.cli import vault as vault_cli
from agent.entities import Label
from agent.session.conversation import MapEntry, Message
from agent.vault import KEYRING_SERVICE, VaultStore, WrongKey
from agent.vault.store import lock_request_path

PASS = "cli passphrase"


def veil(*argv: str) -> int:
    """Like agent.cli.main, with only the vault commands registered."""
    parser = argparse.ArgumentParser(prog="veil")
    vault_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(list(argv))
    try:
        return int(args.func(args) or 0)
    except CliError as exc:
        print(f"veil: {exc}", file=sys.stderr)
        return 2


@pytest.fixture
def filled(vault_path):
    with VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N) as store:
        conv = store.create_conversation("About Anjali Gupta", conversation_id="conv-1")
        conv.add_entry(MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON))
        store.save_turn(conv, Message(conv.id, typed="Hi Anjali Gupta", sent="Hi Priya Sharma"))
    return vault_path


def test_module_is_registered():
    from agent.cli import COMMAND_MODULES

    assert "agent.cli.vault" in COMMAND_MODULES


def test_status_without_a_vault(capsys, vault_path):
    assert veil("vault", "status", "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["state"] == "absent" and out["path"] == str(vault_path)
    assert out["keyring_usable"] is False
    assert not vault_path.exists()  # status never creates a vault


def test_status_locked_then_unlocked(filled, capsys, monkeypatch):
    assert veil("vault", "status") == 3  # locked: scripts see it in the exit status
    out = capsys.readouterr().out
    assert "state:    locked" in out and "passphrase (scrypt)" in out
    monkeypatch.setenv("VEIL_PASSPHRASE", PASS)
    assert veil("vault", "status", "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["state"], out["conversations"], out["messages"], out["entities"]) == ("unlocked", 1, 1, 1)
    monkeypatch.setenv("VEIL_PASSPHRASE", "wrong")
    assert veil("vault", "status", "--json") == 1
    assert json.loads(capsys.readouterr().out)["state"] == "wrong key"


def test_list_and_export(filled, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("VEIL_PASSPHRASE", PASS)
    assert veil("vault", "list") == 0
    assert "conv-1" in capsys.readouterr().out
    assert veil("vault", "export", "conv-1") == 0
    plain = capsys.readouterr().out
    assert "Hi Priya Sharma" in plain and "Anjali" not in plain
    target = tmp_path / "export.json"
    assert veil("vault", "export", "--all", "--include-real", "-o", str(target)) == 0
    data = json.loads(target.read_text())
    assert data[0]["messages"][0]["typed"] == "Hi Anjali Gupta"
    assert target.stat().st_mode & 0o077 == 0
    assert veil("vault", "export", "missing") == 2
    assert "no conversation" in capsys.readouterr().err
    assert veil("vault", "export") == 2


def test_locked_vault_gives_a_clear_cli_error(filled, capsys, monkeypatch):
    monkeypatch.setattr(vault_cli, "_interactive", lambda: False)
    assert veil("vault", "list") == 2
    assert "VEIL_PASSPHRASE" in capsys.readouterr().err


def test_change_passphrase_from_stdin(filled, capsys, monkeypatch):
    monkeypatch.setenv("VEIL_PASSPHRASE", PASS)
    monkeypatch.setattr(vault_cli, "_interactive", lambda: False)
    monkeypatch.setattr(sys, "stdin", io.StringIO("brand new passphrase\n"))
    assert veil("vault", "passphrase", "--stdin") == 0
    assert "new passphrase" in capsys.readouterr().out
    with pytest.raises(WrongKey):
        VaultStore(filled, passphrase=PASS)
    with VaultStore(filled, passphrase="brand new passphrase") as store:
        assert store.load_conversation("conv-1").lookup_real("Anjali Gupta").stand_in == "Priya Sharma"
    monkeypatch.setenv("VEIL_PASSPHRASE", "brand new passphrase")
    assert veil("vault", "passphrase") == 2  # no terminal and no --stdin
    assert "--stdin" in capsys.readouterr().err


def test_move_key_to_keyring(filled, memory_keyring, monkeypatch, capsys):
    monkeypatch.setenv("VEIL_PASSPHRASE", PASS)
    assert veil("vault", "passphrase", "--keyring") == 0
    assert "keyring" in capsys.readouterr().out
    monkeypatch.delenv("VEIL_PASSPHRASE")
    with VaultStore(filled) as store:
        assert store.mode == "keyring"
        assert (KEYRING_SERVICE, f"vault-key:{store.vault_id}") in memory_keyring.entries


def test_wipe_needs_confirmation(filled, capsys, monkeypatch):
    monkeypatch.setattr(vault_cli, "_interactive", lambda: False)
    assert veil("vault", "wipe") == 2
    assert "--yes" in capsys.readouterr().err and filled.exists()
    monkeypatch.setattr(vault_cli, "_interactive", lambda: True)
    monkeypatch.setattr("builtins.input", lambda _: "no")
    assert veil("vault", "wipe") == 2 and filled.exists()
    monkeypatch.setattr("builtins.input", lambda _: "wipe")
    assert veil("vault", "wipe") == 0
    assert not filled.exists() and not filled.with_name("vault.db.header").exists()
    assert "wiped" in capsys.readouterr().out


def test_wipe_yes_removes_the_keyring_key(memory_keyring, vault_path, capsys):
    with VaultStore(vault_path) as store:
        store.create_conversation("c")
    assert memory_keyring.entries
    assert veil("vault", "wipe", "--yes") == 0
    assert memory_keyring.entries == {} and not vault_path.exists()
    assert veil("vault", "wipe", "--yes") == 0
    assert "nothing to wipe" in capsys.readouterr().out


def test_reset_moves_the_vault_aside(filled, capsys):
    assert veil("vault", "reset", "--yes") == 0
    assert not filled.exists()
    aside = [p.name for p in filled.parent.iterdir() if ".reset-" in p.name]
    assert any(n.endswith(".header") for n in aside) and any("-" in n and not n.endswith(".header") for n in aside)
    with VaultStore(filled, passphrase="a fresh one", scrypt_n=FAST_N) as store:
        assert store.list_conversations() == []


def test_lock_and_unlock_commands(filled, capsys, monkeypatch):
    assert veil("vault", "lock") == 0
    assert lock_request_path(filled).read_text().startswith("lock ")
    monkeypatch.setenv("VEIL_PASSPHRASE", PASS)
    assert veil("vault", "unlock") == 0
    assert "opens the vault (1 conversations)" in capsys.readouterr().out
    assert lock_request_path(filled).read_text().startswith("unlock ")


def test_bench_command(capsys):
    assert veil("vault", "bench", "--messages", "60", "--threads", "2", "--json") == 0
    result = json.loads(capsys.readouterr().out)
    for key in ("write_one_thread_per_s", "write_turns_per_s", "write_concurrent_per_s", "read_messages_per_s"):
        assert result[key] > 0
