"""`veil sanitize` / `veil restore` as separate processes, the way scripts and outside
harnesses use them. The map lives in the vault between processes: VEIL_HOME is a tmp
dir and VEIL_PASSPHRASE unlocks it (no keyring: the fail backend is forced)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PASSPHRASE = "cli text tests passphrase"
TEXT = "Please email Sarah Mitchell at sarah.mitchell@globaltech.com or call +1 415-555-2671 about card 4111 1111 1111 1111."
REALS = ("Sarah Mitchell", "sarah.mitchell@globaltech.com", "+1 415-555-2671", "4111 1111 1111 1111")


@pytest.fixture
def cli_env(veil_home) -> dict[str, str]:
    return {
        **os.environ,
        "VEIL_HOME": str(veil_home),
        "VEIL_PASSPHRASE": PASSPHRASE,
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",  # never the user's keyring
        "PYTHONPATH": str(REPO),
    }


def veil(args: list[str], stdin: str | bytes, env: dict[str, str]) -> subprocess.CompletedProcess:
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    process = subprocess.run(
        [sys.executable, "-m", "desktop.launcher", *args], input=data, capture_output=True, timeout=300, cwd=REPO,
        env=env, check=False,
    )
    return subprocess.CompletedProcess(
        process.args, process.returncode, process.stdout.decode("utf-8"), process.stderr.decode("utf-8", "replace")
    )


def test_sanitize_plain(cli_env):
    out = veil(["sanitize"], TEXT, cli_env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Please email ") and out.stdout.endswith(".")
    for real in REALS:
        assert real not in out.stdout
    assert "veil: conversation " in out.stderr  # the id to restore with


def test_sanitize_json_then_restore_json_in_another_process(cli_env):
    out = veil(["sanitize", "--json"], TEXT, cli_env)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) >= {"sanitized", "entities", "conversation", "risk", "warnings"}
    sanitized = data["sanitized"]
    by_real = {e["real"]: e for e in data["entities"]}
    assert set(REALS) <= set(by_real)
    for e in data["entities"]:
        assert TEXT[e["start"] : e["end"]] == e["real"]
        assert sanitized[e["sanitized_start"] : e["sanitized_end"]] == e["sent"]
        assert e["action"] in ("replace", "label", "keep") and e["label"]
    assert by_real["sarah.mitchell@globaltech.com"]["label"] == "EMAIL"

    back = veil(["restore", "--conversation", data["conversation"], "--json"], sanitized, cli_env)
    assert back.returncode == 0, back.stderr
    restored = json.loads(back.stdout)
    assert restored["restored"] == TEXT and restored["unrestored"] == []
    assert {s["real"] for s in restored["spans"]} >= set(REALS)
    for s in restored["spans"]:
        assert TEXT[s["start"] : s["end"]] == s["real"]


def test_restore_in_a_separate_process_with_a_named_conversation(cli_env, veil_home):
    first = veil(["sanitize", "--conversation", "cli-conv-1", "--json"], TEXT, cli_env)
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert data["conversation"] == "cli-conv-1"
    assert (veil_home / "data" / "vault.db").exists()
    # The LLM's answer repeats the stand-ins in its own way.
    answer = f"Sure. I wrote to them: {data['sanitized'].upper()}"
    second = veil(["restore", "--conversation", "cli-conv-1"], answer, cli_env)
    assert second.returncode == 0, second.stderr
    assert second.stdout == f"Sure. I wrote to them: {TEXT.upper()}"
    # A third process, same conversation: the same stand-in again.
    fake_name = next(e["sent"] for e in data["entities"] if e["real"] == "Sarah Mitchell")
    again = veil(["sanitize", "--conversation", "cli-conv-1"], "Remind Sarah Mitchell, please.", cli_env)
    assert again.returncode == 0, again.stderr
    assert again.stdout == f"Remind {fake_name}, please."


def test_restore_unknown_conversation_is_a_clear_error(cli_env):
    out = veil(["restore", "--conversation", "no-such-conversation"], "text", cli_env)
    assert out.returncode == 2
    assert "no conversation 'no-such-conversation'" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("command", [["sanitize"], ["restore", "--conversation", "x"]])
def test_non_utf8_stdin(cli_env, command):
    out = veil(command, b"caf\xe9 \xff\xfe binary", cli_env)
    assert out.returncode == 2
    assert "not UTF-8" in out.stderr and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_over_the_limit_is_a_clear_error(cli_env):
    from agent.engine.core import MAX_TEXT_CHARS

    out = veil(["sanitize"], "x" * (MAX_TEXT_CHARS + 1), cli_env)
    assert out.returncode == 2
    assert "Split it" in out.stderr and "Traceback" not in out.stderr


def _read_line(process: subprocess.Popen, timeout: float = 60) -> dict:
    """One line of output, which must arrive while stdin is still open (flushed per line)."""
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    assert ready, "no output line within the timeout: not flushed after each input line?"
    line = process.stdout.readline()
    assert line.endswith("\n")
    return json.loads(line)


def test_sanitize_jsonl_flushes_each_line_and_survives_bad_lines(cli_env):
    process = subprocess.Popen(
        [sys.executable, "-m", "desktop.launcher", "sanitize", "--jsonl"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, encoding="utf-8", cwd=REPO, env=cli_env,
    )
    try:
        def send(obj_or_line) -> dict:
            line = obj_or_line if isinstance(obj_or_line, str) else json.dumps(obj_or_line)
            process.stdin.write(line + "\n")
            process.stdin.flush()
            return _read_line(process)

        first = send({"id": "a", "text": "Call John Baker at +1 415-555-2671.", "conversation": "jsonl-1"})
        assert first["id"] == "a" and first["conversation"] == "jsonl-1"
        assert "John Baker" not in first["sanitized"] and "+1 415-555-2671" not in first["sanitized"]
        assert {e["real"] for e in first["entities"]} >= {"John Baker", "+1 415-555-2671"}

        bad = send("this is not json")
        assert bad["id"] is None and "line 2" in bad["error"] and "JSON" in bad["error"]
        wrong_type = send({"id": "c", "text": 5})
        assert "error" in wrong_type and "text" in wrong_type["error"]
        missing = send({"id": "d"})
        assert "error" in missing

        # The same conversation id: the same stand-in, line after line.
        second = send({"id": "e", "text": "John Baker again.", "conversation": "jsonl-1"})
        fake = next(e["sent"] for e in first["entities"] if e["real"] == "John Baker")
        assert second["sanitized"] == f"{fake} again."
        other = send({"id": 6, "text": "John Baker again."})  # no conversation: a new one
        assert other["id"] == 6 and other["conversation"] != "jsonl-1"

        unicode_line = send({"id": "u", "text": "שלום 👋 sarah@globaltech.com"})
        assert unicode_line["sanitized"].startswith("שלום 👋 ") and "sarah@globaltech.com" not in unicode_line["sanitized"]
        process.stdin.close()
        assert process.wait(timeout=60) == 0
        assert "Traceback" not in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()

    # The conversations were saved: another process restores a jsonl line.
    back = veil(["restore", "--conversation", "jsonl-1"], second["sanitized"], cli_env)
    assert back.returncode == 0, back.stderr
    assert back.stdout == "John Baker again."


def test_a_jsonl_line_with_a_conversation_that_is_not_an_id_gets_an_error_and_the_batch_goes_on(cli_env):
    lines = [{"id": 1, "text": "Mail Dana Whitcombe.", "conversation": ["a"]},
             {"id": 2, "text": "Mail Dana Whitcombe.", "conversation": {"id": "a"}},
             {"id": 3, "text": "Mail Dana Whitcombe.", "conversation": True},
             {"id": 4, "text": "Mail Dana Whitcombe.", "conversation": "jsonl-ok"}]
    out = veil(["sanitize", "--jsonl"], "".join(json.dumps(line) + "\n" for line in lines), cli_env)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2, 3, 4]
    assert all("conversation" in a["error"] for a in answers[:3])
    assert answers[3]["conversation"] == "jsonl-ok" and "Whitcombe" not in answers[3]["sanitized"]
