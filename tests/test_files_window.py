"""The Files window: a folder through the real engine into a real vault file, with the
progress shown and the report at the end (offscreen Qt)."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from desktop_support import desktop_env, fake_openai, shared_engine  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.gui, pytest.mark.slow]


@pytest.fixture
def store(tmp_path, monkeypatch):
    from agent.vault import VaultStore

    monkeypatch.setenv("VEIL_PASSPHRASE", "files window passphrase")
    s = VaultStore(tmp_path / "vault.db", scrypt_n=2**12)
    yield s
    s.close()


def test_folder_run_shows_progress_results_and_report(qtbot, store, tmp_path):
    from agent.config import default_settings
    from desktop.files_window import FilesWindow

    source = tmp_path / "calls"
    source.mkdir()
    (source / "one.txt").write_text("Agent: hello\nCustomer: this is Rosalind Featherstone, "
                                    "my number is six four six, double two one, nine oh eight four.\n", encoding="utf-8")
    (source / "two.json").write_text('{"note": "Rosalind Featherstone called twice."}', encoding="utf-8")
    (source / "bad.docx").write_bytes(b"not a document")
    window = FilesWindow(store, default_settings())
    qtbot.addWidget(window)
    window.add_paths([source, source])
    assert window.inputs.count() == 1  # the same folder once
    window.out_dir.setText(str(tmp_path / "out"))
    window.project.setText("window-test")
    progressed = []
    assert window.start()
    window.run_thread.progressed.connect(lambda state: progressed.append(state.files_done))
    with qtbot.waitSignal(window.run_thread.finished, timeout=180_000):
        pass
    assert progressed and max(progressed) == 3
    assert window.open_report.isEnabled()
    assert window.report_path is not None and window.report_path.exists()
    rows = [window.results.item(i).text() for i in range(window.results.count())]
    assert any(row.startswith("FAILED") and "bad.docx" in row for row in rows)
    assert sum("risk" in row for row in rows) == 2
    out = (tmp_path / "out" / "one.txt").read_text(encoding="utf-8")
    assert "Featherstone" not in out and "double two one, nine oh eight four" not in out
    assert out.startswith("Agent: hello\nCustomer: this is ")
    assert window.run_button.text() == "Sanitize"


def test_nothing_to_do_is_said_not_run(qtbot, store):
    from agent.config import default_settings
    from desktop.files_window import FilesWindow

    window = FilesWindow(store, default_settings())
    qtbot.addWidget(window)
    assert not window.start()
    assert "Add at least one" in window.status.text()
    locked = FilesWindow(None, default_settings())
    qtbot.addWidget(locked)
    locked.add_paths([__import__("pathlib").Path(__file__)])
    locked.out_dir.setText("/tmp/x")
    assert not locked.start() and "vault is not open" in locked.status.text()


def test_app_opens_the_files_window_on_the_open_vault(qtbot, desktop_env, shared_engine, fake_openai):  # noqa: F811
    from desktop_support import app_settings, start_app, stop_app

    veil = start_app(qtbot, shared_engine, app_settings(fake_openai.base_url), open_chat=False)
    try:
        veil.open_files()
        assert veil.files_window is not None and veil.files_window.isVisible()
        assert veil.files_window.store is veil.state.store
    finally:
        if veil.files_window is not None:
            veil.files_window.close()
        stop_app(veil)
