"""`veil --self-test` from the source tree (the frozen bundle runs it in
test_packaging_bundle.py): the real engine, vault, local model and restore."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def install_model(veil_home: Path, model: Path) -> None:
    """The cached tiny model where the store looks for it (instead of assembling 253 MB)."""
    models = veil_home / "data" / "models"
    models.mkdir(parents=True, exist_ok=True)
    (models / model.name).symlink_to(model)


@pytest.mark.slow
def test_self_test_round_trip_in_the_source_tree(veil_home, tiny_model_path):
    install_model(veil_home, tiny_model_path)
    env = {k: v for k, v in os.environ.items() if k not in ("VEIL_PASSPHRASE", "QT_QPA_PLATFORM", "DISPLAY")}
    run = subprocess.run(
        [sys.executable, "-m", "desktop.launcher", "--self-test"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert run.returncode == 0, run.stderr + run.stdout
    out = run.stdout
    assert out.startswith("veil self-test: OK (veil ")
    assert "source tree" in out
    assert "engine    helper process (pid " in out
    # What was sanitized, and that the real values did not go out.
    assert "'Anjali Gupta' -> '" in out and "PERSON" in out and "EMAIL" in out and "PHONE" in out
    sent_line = next(line for line in out.splitlines() if line.lstrip().startswith("sent "))
    assert "Anjali" not in sent_line and "anjali.gupta@acme-example.com" not in sent_line
    assert "sanitized prompt -> original prompt, 4 values restored" in out
    assert tiny_model_path.name in out
    for step in ("vault create", "model load", "engine ready", "local answer", "vault reopen"):
        assert f"{step} " in out
    # The run used its own temporary home: nothing of the user's (here: VEIL_HOME) was
    # written, apart from the model that was already there.
    assert sorted(p.name for p in (veil_home / "data").iterdir()) == ["models"]
    assert not (veil_home / "config" / "config.toml").exists()


def test_self_test_fails_clearly_without_a_model(veil_home, tmp_path):
    from agent.selftest import run_self_test

    out, err = io.StringIO(), io.StringIO()
    missing = tmp_path / "nowhere" / "model.gguf"
    code = run_self_test(model=str(missing), out=out, err=err)
    assert code == 1
    assert out.getvalue() == ""
    message = err.getvalue()
    assert message.startswith("veil self-test: FAILED at model file: ")
    assert str(missing) in message
    assert os.environ["VEIL_HOME"] == str(veil_home)  # the temporary home is undone


def test_self_test_flag_is_on_the_top_level_command(capsys):
    from agent.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["--self-test"]).self_test is True
    parser.print_help()
    assert "--self-test" in capsys.readouterr().out
