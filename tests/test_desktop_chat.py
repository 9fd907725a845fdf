"""The chat window's trust properties, on Qt's offscreen platform with the real engine
(helper process), a real vault in a tmp VEIL_HOME and real HTTP servers on loopback
that record every request (tests/provider_fakes.py): where the next message goes, how
answers and errors read, what a locked window shows, the side panel of detected items.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any QApplication exists

import pytest
from desktop_support import (  # noqa: F401  (fixtures)
    app_settings,
    desktop_env,
    fake_openai,
    shared_engine,
    start_app,
    stop_app,
    type_and_preview,
    wait_answer,
)
from provider_fakes import last_user_text

pytestmark = pytest.mark.gui


@pytest.fixture
def veil(qtbot, desktop_env, shared_engine, fake_openai):
    app = start_app(qtbot, shared_engine, app_settings(fake_openai.base_url))
    yield app
    stop_app(app)


def pick_with_keys(qtbot, combo, kind: str) -> None:
    """Choose an entry of a closed combo box with the arrow keys, as a keyboard user does
    (Qt emits `activated` for it, like a mouse pick)."""
    from PySide6.QtCore import Qt

    target = combo.findData(kind)
    assert target >= 0, kind
    combo.setFocus()
    for _ in range(combo.count()):
        if combo.currentIndex() == target:
            return
        qtbot.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < target else Qt.Key.Key_Up)
    assert combo.currentIndex() == target


# -- where the next message goes ----------------------------------------------------------------
def test_switching_to_local_and_back_still_sends_to_the_users_server(qtbot, veil, fake_openai):
    """Issue 15.1: the picker once erased the OpenAI-compatible base URL and model when the
    user tried "Local model" and came back: the next message went to api.openai.com."""
    from agent.config import load_settings

    chat = veil.chat
    pick_with_keys(qtbot, chat.provider_combo, "local")
    qtbot.waitUntil(lambda: load_settings().provider.kind == "local", timeout=5000)
    pick_with_keys(qtbot, chat.provider_combo, "openai")
    qtbot.waitUntil(lambda: load_settings().provider.kind == "openai", timeout=5000)
    before = len(fake_openai.requests)
    type_and_preview(qtbot, chat, "Ask Sarah Mitchell whether the invoice is paid.")
    chat.send_button.click()
    wait_answer(qtbot, chat)
    # The request reached the user's own server on loopback, with the user's model.
    assert len(fake_openai.requests) == before + 1, chat.error_banner.label.text()
    request = fake_openai.requests[-1]
    assert request.path == "/v1/chat/completions"
    assert request.json["model"] == "test-model"
    assert "Mitchell" not in last_user_text("openai", request.json)
    saved = load_settings().provider
    assert (saved.kind, saved.base_url, saved.model) == ("openai", fake_openai.base_url, "test-model")
    # And the window says so next to Send.
    host = fake_openai.base_url.split("//")[1].split("/")[0]
    assert host in chat.destination_label.text() and "test-model" in chat.destination_label.text()


def test_destination_label_follows_the_picker(qtbot, veil, fake_openai):
    chat = veil.chat
    pick_with_keys(qtbot, chat.provider_combo, "local")
    qtbot.waitUntil(lambda: "this computer" in chat.destination_label.text(), timeout=5000)
    assert veil.state.settings.local_model.name in chat.destination_label.text()
    pick_with_keys(qtbot, chat.provider_combo, "anthropic")
    qtbot.waitUntil(lambda: "api.anthropic.com" in chat.destination_label.text(), timeout=5000)
    pick_with_keys(qtbot, chat.provider_combo, "openai")
    qtbot.waitUntil(lambda: "127.0.0.1" in chat.destination_label.text(), timeout=5000)
    # A model typed for one kind stays with that kind.
    chat.model_combo.setCurrentText("model-b")
    chat.model_combo.lineEdit().editingFinished.emit()
    qtbot.waitUntil(lambda: veil.state.settings.provider.model == "model-b", timeout=5000)
    pick_with_keys(qtbot, chat.provider_combo, "anthropic")
    qtbot.waitUntil(lambda: veil.state.settings.provider.kind == "anthropic", timeout=5000)
    assert chat.model_combo.currentText() != "model-b"
    assert veil.state.settings.provider.profile("openai").model == "model-b"


def test_settings_dialog_shows_each_kinds_remembered_endpoint(qtbot, veil, fake_openai):
    """Settings › Provider: trying another kind and coming back neither blanks nor moves the
    OpenAI-compatible URL (a small edit in the shell's provider tab follows the profiles)."""
    from agent.config import load_settings

    veil.open_settings()
    tab = veil.settings_dialog.provider_tab
    assert tab.base_url_edit.text() == fake_openai.base_url
    tab.kind_combo.setCurrentIndex(tab.kind_combo.findData("anthropic"))
    assert tab.base_url_edit.text() == "" and tab.model_edit.currentText() == ""
    tab.model_edit.setCurrentText("claude-test")
    tab.kind_combo.setCurrentIndex(tab.kind_combo.findData("openai"))
    assert tab.base_url_edit.text() == fake_openai.base_url and tab.model_edit.currentText() == "test-model"
    assert veil.settings_dialog.apply()
    saved = load_settings().provider
    assert (saved.kind, saved.base_url, saved.model) == ("openai", fake_openai.base_url, "test-model")
