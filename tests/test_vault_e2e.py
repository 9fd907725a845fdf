"""The vault's "done when": sanitize in one `veil` process, restore in another with the
same conversation id; the map lives only in the encrypted file between the two."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from vault_support import REPO, _vault_env  # noqa: F401

PASS = "end to end passphrase"


def _veil(args: list[str], stdin: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    code = "import sys; from agent.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args], check=False, input=stdin, capture_output=True, text=True, timeout=300,
        cwd=REPO, env=env,
    )


@pytest.mark.slow
def test_sanitize_then_restore_in_another_process(veil_home):
    env = {**os.environ, "VEIL_HOME": str(veil_home), "VEIL_PASSPHRASE": PASS, "PYTHONPATH": str(REPO)}
    text = "Please email sarah.m@globaltech.com, card 4111 1111 1111 1111, about the renewal."
    first = _veil(["sanitize", "--conversation", "e2e-1"], text, env)
    assert first.returncode == 0, first.stderr
    sanitized = first.stdout
    assert "sarah.m@globaltech.com" not in sanitized and "4111 1111 1111 1111" not in sanitized

    vault_file = veil_home / "data" / "vault.db"
    assert vault_file.exists()
    raw = b"".join(p.read_bytes() for p in vault_file.parent.iterdir() if p.name.startswith("vault.db"))
    assert b"sarah.m@globaltech.com" not in raw and b"globaltech" not in raw

    second = _veil(["restore", "--conversation", "e2e-1"], sanitized, env)
    assert second.returncode == 0, second.stderr
    assert second.stdout == text

    # Without the passphrase the map cannot be read: a clear error, not a silent empty store.
    locked_env = {k: v for k, v in env.items() if k != "VEIL_PASSPHRASE"}
    third = _veil(["vault", "status", "--json"], "", locked_env)
    assert '"state": "locked"' in third.stdout
    wrong = _veil(["restore", "--conversation", "e2e-1"], sanitized, {**env, "VEIL_PASSPHRASE": "wrong"})
    assert wrong.returncode == 2 and "wrong passphrase" in wrong.stderr
