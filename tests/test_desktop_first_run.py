"""First run (desktop/wizard.py, desktop/app.py): one dialog at a time, Cancel creates
nothing, Test connection lists the provider's models, and the API key is kept in the
keyring or, where there is none, in the encrypted vault. Offscreen Qt, the real engine,
a real vault in a tmp VEIL_HOME, the fake OpenAI-compatible server on loopback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from desktop_support import PROMPT, app_settings, start_app, stop_app, type_and_preview, wait_answer

pytestmark = pytest.mark.gui

KEY = "sk-wizard-key-000111"


def first_run_settings():
    settings = app_settings()
    settings.first_run_done = False
    return settings


def home() -> Path:
    return Path(os.environ["VEIL_HOME"])


def wait_wizard(qtbot, veil):
    qtbot.waitUntil(lambda: veil.wizard is not None and veil.wizard.isVisible(), timeout=5000)
    return veil.wizard


def fill_openai(wizard, url: str, key: str = "", model: str = "model-a") -> None:
    wizard.provider_page.buttons["openai"].setChecked(True)
    wizard.next()
    wizard.details_page.base_url.setText(url)
    wizard.details_page.model.setCurrentText(model)
    wizard.details_page.api_key.setText(key)


def test_first_run_wizard_defaults_to_the_local_model(qtbot, desktop_env, shared_engine):
    from agent.config import load_settings

    veil = start_app(qtbot, shared_engine, first_run_settings(), wait_vault=False, open_chat=False)
    try:
        wizard = wait_wizard(qtbot, veil)
        assert wizard.provider_page.kind() == "local"
        wizard.next()
        assert not wizard.details_page.form_box.isVisibleTo(wizard.details_page)
        wizard.next()
        wizard.accept()
        qtbot.waitUntil(lambda: veil.chat is not None and veil.chat.isVisible(), timeout=15000)
        saved = load_settings()
        assert saved.first_run_done and saved.provider.kind == "local"
    finally:
        stop_app(veil)


def test_first_run_wizard_stores_the_api_key_in_the_keyring(qtbot, desktop_env, shared_engine, fake_openai,
                                                            memory_keyring):
    from agent.config import load_settings

    fake_openai.key = KEY
    veil = start_app(qtbot, shared_engine, first_run_settings(), wait_vault=False, open_chat=False)
    try:
        wizard = wait_wizard(qtbot, veil)
        fill_openai(wizard, fake_openai.base_url, KEY)
        assert "system keyring" in wizard.details_page.key_note.text()
        wizard.next()
        wizard.accept()
        qtbot.waitUntil(lambda: memory_keyring.entries.get(("veil", "openai")) == KEY, timeout=5000)
        saved = load_settings()
        assert saved.provider.kind == "openai" and saved.provider.base_url == fake_openai.base_url
        assert "sk-wizard" not in (home() / "config" / "config.toml").read_text()
        # The key from the keyring is what the next send uses (the server demands it).
        qtbot.waitUntil(lambda: veil.chat is not None, timeout=15000)
        type_and_preview(qtbot, veil.chat, PROMPT)
        veil.chat.send()
        answer = wait_answer(qtbot, veil.chat)
        assert answer.body.text().startswith("You wrote:")
    finally:
        stop_app(veil)


def test_wizard_test_connection_lists_the_providers_models(qtbot, desktop_env, shared_engine, fake_openai):
    fake_openai.key = KEY
    veil = start_app(qtbot, shared_engine, first_run_settings(), wait_vault=False, open_chat=False)
    try:
        wizard = wait_wizard(qtbot, veil)
        fill_openai(wizard, fake_openai.base_url, "sk-wrong-key-999", model="")
        page = wizard.details_page
        page.test.button.click()
        qtbot.waitUntil(lambda: page.test.last is not None, timeout=10000)
        assert not page.test.last.ok and "Failed" in page.test.result.text()
        assert "sk-wrong-key-999" not in page.test.result.text()
        page.api_key.setText(KEY)
        page.test.button.click()
        qtbot.waitUntil(lambda: page.test.last is not None and page.test.last.ok, timeout=10000)
        assert "2 models" in page.test.result.text()
        assert [page.model.itemText(i) for i in range(page.model.count())] == ["model-a", "model-b"]
        assert page.model.currentText() == "model-a"
        assert fake_openai.requests[-1].headers["authorization"] == f"Bearer {KEY}"
        # Testing saved nothing and created no vault.
        assert not (home() / "config" / "config.toml").exists()
        assert not (home() / "data" / "vault.db").exists()
    finally:
        stop_app(veil)


def test_cancelling_the_wizard_saves_nothing_and_creates_no_vault(qtbot, desktop_env, shared_engine, monkeypatch):
    monkeypatch.delenv("VEIL_PASSPHRASE")  # passphrase mode: a vault would need a dialog
    veil = start_app(qtbot, shared_engine, first_run_settings(), wait_vault=False, open_chat=False)
    try:
        veil._make_tray()  # the tray a desktop would have (offscreen has none to dock in)
        wizard = wait_wizard(qtbot, veil)
        wizard.reject()
        qtbot.wait(300)
        assert veil.wizard is None and veil.unlock_dialog is None
        assert not (home() / "config" / "config.toml").exists()
        assert not (home() / "data" / "vault.db").exists()
        assert veil.notifications[-1][0] == "Veil is not set up yet"
        # Anything that would need the vault brings the wizard back instead of creating it.
        veil.open_chat()
        assert veil.wizard is not None and veil.chat is None
        veil.sanitize_clipboard(from_hotkey=True)
        qtbot.wait(300)
        assert veil.unlock_dialog is None and not (home() / "data" / "vault.db").exists()
    finally:
        stop_app(veil)


def test_cancelling_the_wizard_without_a_tray_quits_having_created_nothing(qtbot, desktop_env, shared_engine):
    class ExitRecorder:  # QApplication.exit() would stop every later event loop of this test process
        def __init__(self) -> None:
            self.codes: list[int] = []

        def exit(self, code: int) -> None:
            self.codes.append(code)

    veil = start_app(qtbot, shared_engine, first_run_settings(), wait_vault=False, open_chat=False)
    veil.app = ExitRecorder()
    try:
        wait_wizard(qtbot, veil).reject()
        qtbot.waitUntil(lambda: veil.is_shut_down, timeout=5000)
        assert veil.app.codes == [0]
        assert not (home() / "config" / "config.toml").exists()
        assert not (home() / "data" / "vault.db").exists()
    finally:
        stop_app(veil)


def test_first_run_without_a_keyring_one_dialog_at_a_time_and_the_key_in_the_vault(
        qtbot, desktop_env, shared_engine, fake_openai, monkeypatch):
    """No keyring, no VEIL_PASSPHRASE, no vault yet: the wizard alone first (it says the key
    goes to the vault and a passphrase comes next), then the new-passphrase dialog alone,
    then the chat; the key is in the vault and the next message is sent with it."""
    from PySide6.QtWidgets import QApplication, QDialog

    from agent.providers.keys import get_api_key

    monkeypatch.delenv("VEIL_PASSPHRASE")
    fake_openai.key = KEY
    veil = start_app(qtbot, shared_engine, first_run_settings(), wait_vault=False, open_chat=False)
    try:
        wizard = wait_wizard(qtbot, veil)
        qtbot.wait(500)  # the engine is ready; nothing else may pop up meanwhile
        visible = [w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible()]
        assert visible == [wizard] and veil.unlock_dialog is None
        assert not (home() / "data" / "vault.db").exists()
        fill_openai(wizard, fake_openai.base_url, KEY)
        assert "encrypted vault" in wizard.details_page.key_note.text()
        wizard.next()
        assert "passphrase" in wizard.currentPage().findChild(type(wizard.details_page.info), "done-text").text()
        wizard.accept()
        qtbot.waitUntil(lambda: veil.unlock_dialog is not None and veil.unlock_dialog.isVisible(), timeout=10000)
        dialog = veil.unlock_dialog
        assert dialog.new and veil.wizard is None and veil.chat is None
        dialog.passphrase.setText("first run passphrase")
        dialog.confirm.setText("first run passphrase")
        dialog._accept()
        qtbot.waitUntil(lambda: veil.chat is not None and veil.chat.isVisible(), timeout=20000)
        store = veil.state.store
        qtbot.waitUntil(lambda: store.get_setting("api_key.openai") == KEY, timeout=5000)
        assert get_api_key("openai") is None  # not in any keyring
        assert KEY not in (home() / "config" / "config.toml").read_text()
        assert not any("VEIL_API_KEY" in text for _, text in veil.notifications)
        type_and_preview(qtbot, veil.chat, PROMPT)
        veil.chat.send()
        answer = wait_answer(qtbot, veil.chat)
        assert answer.body.text().startswith("You wrote:")  # the server demanded the key
    finally:
        stop_app(veil)
