"""`veil send` and `veil chat`, run as real processes against wire-format servers on
127.0.0.1 (and the local model)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from provider_fakes import Fail, FakeProvider

REPO = Path(__file__).resolve().parent.parent
KEY = "sk-cli-test-key-abcdefghijklmnop0123"
PROMPT = "Write to Anjali Gupta at anjali.gupta@globaltech.com about her refund."
REALS = ("Anjali", "Gupta", "anjali.gupta@globaltech.com", "globaltech")


def veil(args, *, stdin: str, home: Path, key: str | None = KEY, passphrase: str | None = None, timeout=120):
    env = {k: v for k, v in os.environ.items() if not k.startswith("VEIL_")}
    env["VEIL_HOME"] = str(home)
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"  # never the user's keyring
    if key is not None:
        env["VEIL_API_KEY"] = key
    if passphrase is not None:
        env["VEIL_PASSPHRASE"] = passphrase
    command = [sys.executable, "-c", "import sys; from agent.cli import main; sys.exit(main(sys.argv[1:]))", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=REPO, env=env, timeout=timeout)


def assert_clean(server: FakeProvider, *outputs: str):
    for value in REALS:
        assert value not in server.all_bodies()
    for output in outputs:
        assert KEY not in output


def test_send_streams_the_restored_answer_and_shows_what_was_sent(tmp_path):
    with FakeProvider("anthropic", key=KEY) as server:
        run = veil(["send", "--provider", "anthropic", "--base-url", server.base_url, "--model", "claude-test",
                    "--show-sent"], stdin=PROMPT, home=tmp_path)
        assert run.returncode == 0, run.stderr
        assert run.stdout == f"You wrote: {PROMPT}"
        sent = server.requests[0].json["messages"][-1]["content"]
        assert f"[user] {sent}" in run.stderr and "--- sent to Anjali" not in run.stderr
        assert "Anjali" not in run.stderr.split("--- sent to", 1)[1].split("\n---", 1)[0]
        assert re.search(r"veil: conversation \w+", run.stderr)
        assert_clean(server, run.stdout, run.stderr)


def test_send_continues_a_conversation_and_retries_a_failed_message(tmp_path):
    with FakeProvider("openai", key=KEY) as server:
        common = ["send", "--provider", "openai", "--base-url", server.base_url, "--model", "gpt-test"]
        first = veil(common, stdin=PROMPT, home=tmp_path, passphrase="pass phrase for tests")
        assert first.returncode == 0, first.stderr
        conversation = re.search(r"veil: conversation (\w+)", first.stderr).group(1)

        # A wrong key: clear error, no key in it, the message is kept for --retry.
        wrong = veil([*common, "--conversation", conversation], stdin="And tell Anjali thanks.", home=tmp_path,
                     key="sk-wrong-key-zzzzzzzzzzzz", passphrase="pass phrase for tests")
        assert wrong.returncode == 2
        assert "rejected the API key" in wrong.stderr and "--retry" in wrong.stderr
        assert "sk-wrong-key-zzzzzzzzzzzz" not in wrong.stderr

        again = veil([*common, "--conversation", conversation, "--retry"], stdin="", home=tmp_path,
                     passphrase="pass phrase for tests")
        assert again.returncode == 0, again.stderr
        assert again.stdout == "You wrote: And tell Anjali thanks."
        last = server.requests[-1].json["messages"]
        assert [m["role"] for m in last] == ["user", "assistant", "user"]  # the first turn, sanitized
        assert_clean(server, first.stderr, wrong.stderr, again.stderr)


def test_send_reports_an_unavailable_provider(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text("[provider]\nmax_attempts = 2\n")
    with FakeProvider("gemini", key=KEY) as server:
        server.plan(*[Fail(503, "try later")] * 2)
        run = veil(["send", "--provider", "gemini", "--base-url", server.base_url, "--model", "gemini-test"],
                   stdin=PROMPT, home=tmp_path)
    assert run.returncode == 2
    assert "unavailable" in run.stderr and "try later" in run.stderr and "after 2 attempts" in run.stderr
    assert run.stdout == ""


def test_send_needs_a_key_for_remote_providers(tmp_path):
    run = veil(["send", "--provider", "anthropic", "--model", "claude-test"], stdin=PROMPT, home=tmp_path, key=None)
    assert run.returncode == 2
    assert "VEIL_API_KEY" in run.stderr


def test_chat_streams_answers_and_shows_what_was_sent(tmp_path):
    with FakeProvider("openai", key=KEY) as server:
        script = f"{PROMPT}\n/sent\n/new\nHello again\n/quit\n"
        run = veil(["chat", "--provider", "openai", "--base-url", server.base_url, "--model", "gpt-test"],
                   stdin=script, home=tmp_path)
        assert run.returncode == 0, run.stderr
        assert f"veil> You wrote: {PROMPT}\n" in run.stdout
        assert "veil> You wrote: Hello again\n" in run.stdout
        sent = server.requests[0].json["messages"][-1]["content"]
        assert f"[user] {sent}" in run.stderr
        assert "new conversation" in run.stderr
        # /new: the second message went without the first turn.
        assert len(server.requests[1].json["messages"]) == 1
        assert_clean(server, run.stdout, run.stderr)


@pytest.mark.slow
def test_send_with_the_local_model(tmp_path, tiny_model_path):
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text(f'[local_model]\npath = "{tiny_model_path}"\nn_threads = 2\n')
    run = veil(["send", "--provider", "local", "--max-tokens", "8", "--temperature", "0"], stdin="Say hello.",
               home=tmp_path, key=None)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip()
