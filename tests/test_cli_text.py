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


def test_sanitize_fast_never_loads_the_local_model(cli_env, tmp_path):
    # Settings that ask the local model for every task, with a model file that cannot be
    # loaded: --fast must not even try (no warning about it), and still protects the text.
    config = Path(cli_env["VEIL_HOME"]) / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f'[local_model]\npath = "{tmp_path / "missing.gguf"}"\ntasks = ["relevance", "detect"]\n')
    out = veil(["sanitize", "--fast", "--json"], TEXT, cli_env)
    assert out.returncode == 0, out.stderr
    assert "local model" not in out.stderr, out.stderr
    sent = json.loads(out.stdout)["sanitized"]
    for real in REALS:
        assert real not in sent


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


# -- issue 15 item 10 --------------------------------------------------------------------------------------------
def run_with_terminal(args: list[str], stdin: str, env: dict[str, str], answers: dict[str, str],
                      timeout: float = 240) -> tuple[subprocess.CompletedProcess, str]:
    """Run `veil ARGS` with stdin a pipe and a controlling terminal (a pseudo-terminal) it
    can ask on, as in `echo ... | veil sanitize` typed in a terminal. `answers`: a prompt
    fragment -> what the person types. Returns the process and what the terminal showed."""
    import fcntl
    import pty
    import termios
    import time

    master, slave = pty.openpty()

    def take_terminal() -> None:  # runs in the child after setsid(): the pty becomes its /dev/tty
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    process = subprocess.Popen(
        [sys.executable, "-m", "desktop.launcher", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, cwd=REPO, env=env, start_new_session=True, preexec_fn=take_terminal,
        pass_fds=(slave,),
    )
    os.close(slave)
    process.stdin.write(stdin.encode())
    process.stdin.close()
    process.stdin = None  # closed: communicate() must not flush it
    shown, pending = b"", dict(answers)
    deadline = time.monotonic() + timeout
    while process.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                shown += os.read(master, 4096)
            except OSError:  # the child closed the terminal
                break
        for fragment in list(pending):
            if fragment.encode() in shown:
                os.write(master, (pending.pop(fragment) + "\n").encode())
                shown += b"\n"
    out, err = process.communicate(timeout=max(1.0, deadline - time.monotonic()))
    os.close(master)
    return (subprocess.CompletedProcess(process.args, process.returncode, out.decode(), err.decode("utf-8", "replace")),
            shown.decode("utf-8", "replace"))


def test_the_passphrase_is_asked_on_the_terminal_when_stdin_is_a_pipe(cli_env):
    first = veil(["sanitize", "--conversation", "tty-1"], "Call Ines Albuquerque.", cli_env)  # creates the vault
    assert first.returncode == 0, first.stderr
    env = {k: v for k, v in cli_env.items() if k != "VEIL_PASSPHRASE"}
    done, terminal = run_with_terminal(["sanitize", "--conversation", "tty-2"], TEXT, env, {"Passphrase": PASSPHRASE})
    assert done.returncode == 0, done.stderr
    assert "Passphrase to unlock" in terminal and PASSPHRASE not in terminal  # asked, not echoed
    for real in REALS:
        assert real not in done.stdout
    assert "nothing will be kept" not in done.stderr
    # The map was kept: a later restore (asked on the terminal again) gives the text back.
    back, _ = run_with_terminal(["restore", "--conversation", "tty-2"], done.stdout, env, {"Passphrase": PASSPHRASE})
    assert back.returncode == 0, back.stderr
    assert back.stdout == TEXT


def test_no_terminal_and_no_passphrase_is_a_clear_error(cli_env):
    first = veil(["sanitize"], "Call Ines Albuquerque.", cli_env)
    assert first.returncode == 0, first.stderr
    env = {k: v for k, v in cli_env.items() if k != "VEIL_PASSPHRASE"}
    done = subprocess.run([sys.executable, "-m", "desktop.launcher", "sanitize"], input=TEXT.encode(),
                          capture_output=True, cwd=REPO, env=env, timeout=240, start_new_session=True, check=False)
    err = done.stderr.decode()
    assert done.returncode == 2 and done.stdout == b""
    assert "no terminal" in err and "VEIL_PASSPHRASE" in err and "Traceback" not in err


def test_send_accepts_the_conversation_ids_sanitize_creates_and_both_refuse_the_same_ones(cli_env):
    from provider_fakes import FakeProvider

    with FakeProvider("openai") as server:
        env = {**cli_env, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "tests")])}
        sent = veil(["send", "--provider", "openai", "--base-url", server.base_url, "--model", "model-a",
                     "--conversation", "notes-2026 week 3"], "Summarise the call with Ines Albuquerque.", env)
        assert sent.returncode == 0, sent.stderr
        assert "Albuquerque" not in server.all_bodies()
        again = veil(["sanitize", "--conversation", "notes-2026 week 3"], "Ines Albuquerque again.", env)
        assert again.returncode == 0 and "Albuquerque" not in again.stdout
        for command in (["sanitize"], ["send", "--provider", "openai", "--base-url", server.base_url]):
            bad = veil([*command, "--conversation", " padded"], "Hello.", env)
            assert bad.returncode == 2 and "conversation id ' padded'" in bad.stderr and "Traceback" not in bad.stderr


def test_restore_jsonl_pairs_with_sanitize_jsonl(cli_env):
    texts = [{"id": "a", "text": "Email Ines Albuquerque at ines@tagus-labs.pt.", "conversation": "batch-1"},
             {"id": "b", "text": "Ines Albuquerque signs the lease.", "conversation": "batch-1"},
             {"id": "c", "text": "Call Tomasz Wrobel on +48 22 123 45 67.", "conversation": "batch-2"}]
    out = veil(["sanitize", "--jsonl"], "".join(json.dumps(t) + "\n" for t in texts), cli_env)
    assert out.returncode == 0, out.stderr
    sanitized = [json.loads(line) for line in out.stdout.splitlines()]
    answers = [json.dumps({"id": s["id"], "conversation": s["conversation"], "text": "Sure: " + s["sanitized"]})
               for s in sanitized]
    answers.insert(1, "not json at all")
    answers.insert(3, json.dumps({"id": "x", "conversation": "no-such-batch", "text": "hello"}))
    answers.append(json.dumps({"id": "y", "text": "no conversation given"}))
    back = veil(["restore", "--jsonl"], "\n".join(answers) + "\n", cli_env)
    assert back.returncode == 0 and "Traceback" not in back.stderr, back.stderr
    lines = [json.loads(line) for line in back.stdout.splitlines()]
    assert [line.get("id") for line in lines] == ["a", None, "b", "x", "c", "y"]
    good = {line["id"]: line for line in lines if "restored" in line}
    assert set(good) == {"a", "b", "c"} and set(good["a"]) == {"id", "restored"}
    for item in texts:
        assert good[item["id"]]["restored"] == "Sure: " + item["text"]
    errors = [line["error"] for line in lines if "error" in line]
    assert "line 2" in errors[0] and "no conversation 'no-such-batch'" in errors[1] and "no conversation" in errors[2]
    # --conversation names the conversation for lines that do not.
    single = veil(["restore", "--jsonl", "--conversation", "batch-2"],
                  json.dumps({"id": 9, "text": sanitized[2]["sanitized"]}) + "\n", cli_env)
    assert json.loads(single.stdout) == {"id": 9, "restored": texts[2]["text"]}


def test_help_lists_the_desktop_options(cli_env):
    out = subprocess.run([sys.executable, "-m", "desktop.launcher", "--help"], capture_output=True, text=True,
                         cwd=REPO, env=cli_env, timeout=120, check=False)
    assert out.returncode == 0
    assert "--chat" in out.stdout and "--tray" in out.stdout and "desktop app" in out.stdout


def test_vault_list_has_a_header_and_counts_in_words_and_status_fails_when_locked(cli_env):
    veil(["sanitize", "--conversation", "one-message"], "Call Ines Albuquerque.", cli_env)
    listed = veil(["vault", "list"], "", cli_env)
    assert listed.returncode == 0, listed.stderr
    header, *rows = listed.stdout.splitlines()
    assert header.split() == ["ID", "UPDATED", "MESSAGES", "TITLE"]
    row = next(r for r in rows if r.startswith("one-message"))
    assert " 0 messages " in row  # sanitize stores a map, no message
    env = {k: v for k, v in cli_env.items() if k != "VEIL_PASSPHRASE"}
    locked = subprocess.run([sys.executable, "-m", "desktop.launcher", "vault", "status"], capture_output=True,
                            text=True, cwd=REPO, env=env, timeout=120, start_new_session=True, check=False)
    assert "state:    locked" in locked.stdout and locked.returncode == 3
    unlocked = veil(["vault", "status"], "", cli_env)
    assert "state:    unlocked" in unlocked.stdout and unlocked.returncode == 0


def test_conversations_of_veil_commands_are_marked_as_such(cli_env):
    """The chat window lists only conversations started there (origin "chat"); the ones a
    `veil` command made stay out of it until the user opens them."""
    for args in (["sanitize"], ["sanitize", "--conversation", "marked-1"]):
        assert veil(args, "Call Ines Albuquerque.", cli_env).returncode == 0
    code = ("import json, os; from agent.vault import open_default_store; s = open_default_store(); "
            "print(json.dumps({c.id: c.origin for c in s.list_conversations()})); s.close()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=cli_env,
                          timeout=120, check=False)
    origins = json.loads(done.stdout)
    assert len(origins) == 2 and set(origins.values()) == {"cli"} and "marked-1" in origins
