"""`veil files` on the command line: sanitize a folder into a project, list it, restore
the outputs in a later command (the map comes back from the vault file)."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.slow


@pytest.fixture
def cli_env(veil_home, monkeypatch):
    import keyring
    import keyring.backends.fail

    monkeypatch.setenv("VEIL_PASSPHRASE", "files cli passphrase")
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())  # never the user's keyring
    yield veil_home
    keyring.set_keyring(previous)


def test_sanitize_list_restore(cli_env, tmp_path, capsys):
    from agent.cli import main

    source = tmp_path / "in"
    source.mkdir()
    original = ("Agent: thanks for calling\nCaller: it's Philippa Ashdown, account number "
                "seven seven one, four oh two, nine\nAgent: and e-mail?\nCaller: p dot ashdown at gmail dot com\n")
    (source / "call.txt").write_text(original, encoding="utf-8")
    (source / "notes.md").write_text("# Notes\n\nPhilippa Ashdown prefers Veil Pro.\n", encoding="utf-8")
    (source / "image.png").write_bytes(b"\x89PNG")  # not a document: skipped inside a folder
    out = tmp_path / "out"
    code = main(["files", "sanitize", str(source), "--out", str(out), "--project", "cli-case",
                 "--exclude", "Veil Pro", "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    summary = json.loads(captured.out)
    assert summary["totals"]["sanitized"] == 2 and summary["policy"]["exclusions"] == ["Veil Pro"]
    assert "files" in captured.err and "report:" in captured.err  # progress and the report's path on stderr
    call = (out / "call.txt").read_text(encoding="utf-8")
    assert "Ashdown" not in call and "seven seven one, four oh two, nine" not in call and "ashdown at gmail" not in call
    assert "Veil Pro" in (out / "notes.md").read_text(encoding="utf-8")
    assert (out / "veil-report.html").exists()

    assert main(["files", "projects", "--json"]) == 0
    projects = json.loads(capsys.readouterr().out)
    assert projects["cli-case"]["exclusions"] == ["Veil Pro"]

    code = main(["files", "restore", str(out), "--project", "cli-case", "--out", str(tmp_path / "back")])
    capsys.readouterr()
    assert code == 0
    assert (tmp_path / "back" / "call.txt").read_text(encoding="utf-8") == original
    assert not (tmp_path / "back" / "veil-report.json").exists()  # the report is not an input


def test_clear_errors(cli_env, tmp_path, capsys):
    from agent.cli import main

    assert main(["files", "restore", str(tmp_path), "--project", "never-made"]) == 2
    assert "no project 'never-made'" in capsys.readouterr().err
    (tmp_path / "a.txt").write_text("hello", encoding="utf-8")
    assert main(["files", "sanitize", str(tmp_path), "--out", str(tmp_path / "o"), "--type", "DATE=sometimes"]) == 2
    assert "expected one of replace, label, keep" in capsys.readouterr().err
    assert main(["files", "sanitize", str(tmp_path), "--out", str(tmp_path)]) == 2
    assert "holds input" in capsys.readouterr().err
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "x.json").write_text("{not json", encoding="utf-8")
    assert main(["files", "sanitize", str(bad), "--out", str(tmp_path / "o2")]) == 1
    assert "x.json: not valid JSON" in capsys.readouterr().err


def test_workers_auto_takes_the_cores_for_enough_text(cli_env, tmp_path, capsys):
    """`--workers auto` (the default): one process for a little text (the workers' start-up
    would not pay back), one per core for a big folder, never where workers could not open
    the vault or corpus swapping needs one process; an explicit number is taken as asked."""
    import dataclasses
    import os

    from agent.cli.files import AUTO_MAX_WORKERS, AUTO_WORKERS_FROM_BYTES, _usable_workers
    from agent.files.project import open_project
    from agent.session.stores import MemoryStore
    from agent.vault import open_default_store

    small, big = tmp_path / "small", tmp_path / "big"
    small.mkdir()
    big.mkdir()
    (small / "a.txt").write_text("Call Philippa Ashdown.\n", encoding="utf-8")
    for i in range(3):
        (big / f"part{i}.txt").write_text("x" * (AUTO_WORKERS_FROM_BYTES // 3 + 1), encoding="utf-8")
    store = open_default_store(interactive=False)
    try:
        project = open_project(store, "auto", create=True)
        cores = min(os.cpu_count() or 1, AUTO_MAX_WORKERS)
        assert _usable_workers("auto", store, project, [small]) == 1
        assert _usable_workers("auto", store, project, [big]) == (cores if cores >= 2 else 1)
        assert _usable_workers(1, store, project, [big]) == 1
        swapping = dataclasses.replace(project, policy=dataclasses.replace(project.policy, corpus_swap=True))
        assert _usable_workers("auto", store, swapping, [big]) == 1
        assert _usable_workers("auto", MemoryStore(), project, [big]) == 1
    finally:
        store.close()
    assert "one worker" not in capsys.readouterr().err  # auto falls back without a word
