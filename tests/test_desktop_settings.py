"""The Settings dialog (desktop/settings_dialog.py and its tabs in desktop/settings_tabs/)
on Qt's offscreen platform, with the real engine (helper process), a real vault in a tmp
VEIL_HOME and the fake OpenAI-compatible server on loopback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from desktop_support import PROMPT, type_and_preview, wait_answer

pytestmark = pytest.mark.gui



def test_settings_test_connection_key_policy_and_save(qtbot, veil, fake_openai, memory_keyring, shared_engine):
    from agent.config import default_settings, load_settings

    veil.open_settings()
    dialog = veil.settings_dialog
    provider, protection = dialog.provider_tab, dialog.protection_tab
    provider.kind_combo.setCurrentIndex(provider.kind_combo.findData("openai"))
    provider.base_url_edit.setText(fake_openai.base_url)
    provider.api_key_edit.setText("sk-test-key-123456")
    provider.test_button.click()
    qtbot.waitUntil(lambda: "Connected" in provider.test_result.text() or "Failed" in provider.test_result.text(),
                    timeout=10000)
    assert "2 models" in provider.test_result.text()
    assert {provider.model_edit.itemText(i) for i in range(provider.model_edit.count())} == {"model-a", "model-b"}
    assert fake_openai.requests[-1].headers["authorization"] == "Bearer sk-test-key-123456"
    provider.model_edit.setCurrentText("model-b")
    protection.policy_combos["PERSON"].setCurrentIndex(protection.policy_combos["PERSON"].findData("label"))
    protection.always_edit.setPlainText("Project Nightjar\n")
    protection.add_pattern_row("ID", r"PRJ-\d{4}", "project codes")
    # A broken pattern is refused with the reason, nothing saved.
    protection.add_pattern_row("ID", r"BAD-(", "broken")
    dialog.apply()
    assert dialog.error_label.isVisible() and "not a valid regex" in dialog.error_label.text()
    protection.patterns_table.removeRow(1)
    dialog.model_tab.release_after.setValue(3)
    try:
        assert dialog.apply()
        qtbot.waitUntil(lambda: memory_keyring.entries.get(("veil", "openai")) == "sk-test-key-123456", timeout=5000)
        saved = load_settings()
        assert saved.provider.kind == "openai" and saved.provider.model == "model-b"
        assert saved.policy["PERSON"] == "label" and saved.lists.always_protect == []  # not in config.toml
        from agent.vault.lists import read_lists

        lists = read_lists(veil.state.store)  # the protection lists live in the vault
        assert lists.always_protect == ["Project Nightjar"] and lists.custom_patterns[0].pattern == r"PRJ-\d{4}"
        assert saved.local_model.release_after_minutes == 3
        from models import runtime

        assert runtime.idle_release_seconds() == 180  # applied to the local model at once
        config_file = Path(os.environ["VEIL_HOME"]) / "config" / "config.toml"
        assert "sk-test" not in config_file.read_text()
        # The engine follows: persons become labels, the custom pattern and list apply.
        qtbot.waitUntil(lambda: veil.state.engine_phase == "ready", timeout=60000)
        draft = type_and_preview(qtbot, veil.chat, "Sarah Mitchell leads Project Nightjar, code PRJ-1234.")
        sent = draft.result.sanitized
        assert "[PERSON_1]" in sent and "Nightjar" not in sent and "PRJ-1234" not in sent
    finally:
        shared_engine.reconfigure(default_settings())
        from models.runtime import set_idle_release

        set_idle_release(0)  # this test process's other models stay loaded


def test_settings_vault_lock_wipe_and_passphrase(qtbot, veil, fake_openai):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from desktop.state import VaultPhase

    chat = veil.chat
    type_and_preview(qtbot, chat, PROMPT)
    chat.send()
    wait_answer(qtbot, chat)
    veil.open_settings()
    vault = veil.settings_dialog.vault_tab
    qtbot.waitUntil(lambda: "1 conversations" in vault.vault_status.text(), timeout=5000)

    def press(text: str) -> None:
        box = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible())
        next(b for b in box.buttons() if b.text().replace("&", "") == text).click()

    QTimer.singleShot(200, lambda: press("Wipe everything"))
    vault.wipe()
    qtbot.waitUntil(lambda: "Wiped" in vault.vault_message.text(), timeout=10000)
    assert veil.state.store.list_conversations() == []
    qtbot.waitUntil(lambda: chat.conversation_list.count() == 0, timeout=5000)
    vault.change_passphrase("a brand new passphrase")
    qtbot.waitUntil(lambda: "new passphrase" in vault.vault_message.text(), timeout=15000)
    vault.lock_button.click()
    qtbot.waitUntil(lambda: veil.state.vault_phase == VaultPhase.LOCKED, timeout=5000)
    assert "Vault: locked" in veil.state.describe()
    assert "locked" in chat.info_banner.label.text()


def test_settings_model_download_progress_cancel_and_file_info(qtbot, veil, tiny_model_path):
    from model_http_server import FileServer

    from models.catalog import CatalogEntry, ModelSource

    veil.open_settings()
    dialog = veil.settings_dialog
    tab = dialog.model_tab
    dialog.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.catalog_tree.topLevelItemCount() > 0, timeout=5000)
    with FileServer(size=6 * 1024 * 1024) as server:
        entry = CatalogEntry(
            name="test-model", title="Test model", file="test-model.gguf", size=len(server.blob),
            sha256=server.sha256, source=ModelSource("url"), url=server.url("/file"), licence="MIT",
            licence_url="", parameters="1M", quantization="Q4_K_M", context_length=512, chat_template=False, tasks=(),
        )
        seen = []
        original = tab._show_progress
        tab._show_progress = lambda name, p: (seen.append(p.downloaded), original(name, p))
        tab.download_selected(entry)
        assert tab.progress.isVisible() and tab.cancel_download_button.isEnabled()
        qtbot.waitUntil(lambda: "Downloaded and verified" in tab.model_info.text(), timeout=20000)
        assert seen and seen[-1] == len(server.blob)
        assert (os.path.getsize(os.path.join(os.environ["VEIL_HOME"], "data", "models", "test-model.gguf"))
                == len(server.blob))
        # Cancelled at once: stopped, the partial file kept for a resume, nothing final.
        cancelled = CatalogEntry(**{**entry.__dict__, "name": "other", "file": "other.gguf"})
        tab.download_selected(cancelled)
        tab.cancel_download()
        qtbot.waitUntil(lambda: "Download stopped" in tab.model_info.text(), timeout=20000)
        assert "cancel" in tab.model_info.text().lower()
        assert not os.path.exists(os.path.join(os.environ["VEIL_HOME"], "data", "models", "other.gguf"))
        assert not tab.progress.isVisible()
    tab.choose_file(str(tiny_model_path))
    qtbot.waitUntil(lambda: "parameters" in tab.model_info.text(), timeout=10000)
    assert "gemma" in tab.model_info.text().lower() and "Q4_K_M" in tab.model_info.text()
    assert dialog.settings.local_model.path == str(tiny_model_path)


# -- issue 15 item 9 ------------------------------------------------------------------------------------------
def wheel(widget, steps: int = -1) -> None:
    """A real wheel event, as the mouse sends it, over the middle of `widget`."""
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(widget.rect().center())), QPoint(0, 0),
                        QPoint(0, 120 * steps), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


@pytest.fixture
def dialog(qtbot, veil):
    veil.open_settings()
    dialog = veil.settings_dialog
    qtbot.waitExposed(dialog)
    return dialog


def test_the_mouse_wheel_does_not_change_an_unfocused_dropdown_or_number(qtbot, dialog):
    protection = dialog.protection_tab
    dialog.tabs.setCurrentWidget(protection)
    person = protection.policy_combos["PERSON"]
    before = person.currentData()
    assert before == "auto"
    for steps in (-1, -1, 1, -1):
        wheel(person, steps)
    assert person.currentData() == before  # scrolling past it changed nothing
    dialog.tabs.setCurrentWidget(dialog.vault_tab)
    retention = dialog.vault_tab.retention
    wheel(retention, 1)
    assert retention.value() == 0
    # Focused (clicked or tabbed into), the wheel does change it, as people expect.
    dialog.tabs.setCurrentWidget(protection)
    dialog.activateWindow()
    person.setFocus()
    qtbot.waitUntil(person.hasFocus, timeout=2000)
    wheel(person, -1)
    assert person.currentData() != before


def test_hotkeys_are_set_by_pressing_the_keys(qtbot, dialog, veil):
    from PySide6.QtCore import Qt

    from agent.config import load_settings

    tab = dialog.hotkeys_tab
    dialog.tabs.setCurrentWidget(tab)
    recorder = tab.sanitize_hotkey
    assert recorder.text() == "Ctrl+Alt+S" and recorder.value() == "<ctrl>+<alt>+s"
    qtbot.mouseClick(recorder, Qt.MouseButton.LeftButton)
    assert recorder.is_recording() and veil.hotkeys.suspended  # pressing Ctrl+Alt+S now sanitizes nothing
    qtbot.keyClick(recorder, Qt.Key.Key_X)  # no modifier: refused, would fire while typing
    assert recorder.is_recording() and recorder.value() == "<ctrl>+<alt>+s"
    qtbot.keyClick(recorder, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    assert recorder.value() == "<ctrl>+<alt>+d" and recorder.text() == "Ctrl+Alt+D"
    assert not recorder.is_recording() and not veil.hotkeys.suspended
    undo = tab.undo_hotkey
    qtbot.mouseClick(undo, Qt.MouseButton.LeftButton)
    qtbot.keyClick(undo, Qt.Key.Key_F8, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert undo.value() == "<ctrl>+<shift>+<f8>" and undo.text() == "Ctrl+Shift+F8"
    qtbot.mouseClick(undo, Qt.MouseButton.LeftButton)
    qtbot.keyClick(undo, Qt.Key.Key_Escape)  # cancels: the value stays
    assert undo.value() == "<ctrl>+<shift>+<f8>"
    assert dialog.apply()
    saved = load_settings().hotkeys
    assert (saved.sanitize, saved.restore, saved.undo) == ("<ctrl>+<alt>+d", "<ctrl>+<alt>+r", "<ctrl>+<shift>+<f8>")
    # Two actions on one hotkey are refused with the reason.
    qtbot.mouseClick(tab.restore_hotkey, Qt.MouseButton.LeftButton)
    qtbot.keyClick(tab.restore_hotkey, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    assert not dialog.apply() and "different" in dialog.error_label.text()


def test_auto_is_explained_where_it_is_chosen(dialog):
    from PySide6.QtWidgets import QLabel

    protection = dialog.protection_tab
    dialog.tabs.setCurrentWidget(protection)
    help_text = protection.findChild(QLabel, "policy-help")
    assert help_text is not None and help_text.isVisible()
    text = help_text.text()
    assert "<b>auto</b>" in text and "asks <i>about</i> it" in text and "always replaced" in text
    assert protection.policy_combos["PERSON"].currentText() == "auto (keep if asked about)"


def test_the_local_proxy_has_its_own_tab(dialog):
    from PySide6.QtWidgets import QSpinBox

    titles = [dialog.tabs.tabText(i).replace("&", "") for i in range(dialog.tabs.count())]
    assert titles == ["Provider", "Protection", "Hotkeys", "Local model", "Vault", "Local proxy"]
    assert dialog.vault_tab.findChild(QSpinBox, "proxy_port") is None
    assert dialog.proxy_tab.findChild(QSpinBox, "proxy_port") is not None


def press_when_asked(qtbot, button: str) -> list[str]:
    """Answer the next message box by its button; returns the box's text."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    seen: list[str] = []

    def press() -> None:
        boxes = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]
        if not boxes:
            QTimer.singleShot(50, press)
            return
        seen.append(boxes[0].text())
        next(b for b in boxes[0].buttons() if b.text().replace("&", "") == button).click()

    QTimer.singleShot(50, press)
    return seen


def test_a_url_whose_test_just_failed_is_not_saved_without_a_word(qtbot, dialog, fake_openai):
    from desktop_support import free_port

    from agent.config import load_settings

    provider = dialog.provider_tab
    dead = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    provider.base_url_edit.setText(dead)
    provider.test_button.click()
    qtbot.waitUntil(lambda: provider.test.last is not None, timeout=15000)
    assert not provider.test.last.ok
    asked = press_when_asked(qtbot, "Cancel")
    assert not dialog.apply()
    assert asked and dead in asked[0] and "failed" in asked[0]
    assert load_settings().provider.base_url != dead  # not saved
    assert "Not saved" in dialog.error_label.text()
    asked = press_when_asked(qtbot, "Save anyway")
    assert dialog.apply() and asked
    assert load_settings().provider.base_url == dead
    # A URL that was not the one tested (or whose test passed) saves without a question.
    provider.base_url_edit.setText(fake_openai.base_url)
    assert dialog.apply() and load_settings().provider.base_url == fake_openai.base_url


def test_the_unlock_dialog_shows_its_whole_text_after_a_wrong_passphrase(qtbot):
    from PySide6.QtWidgets import QApplication, QLabel

    from desktop.dialogs import PassphraseDialog

    dialog = PassphraseDialog(None, keep_open=True)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)

    def clipped() -> list[str]:
        QApplication.processEvents()
        return [label.text() for label in dialog.findChildren(QLabel)
                if label.isVisible() and label.wordWrap() and label.height() < label.heightForWidth(label.width())]

    assert clipped() == []
    dialog.show_error("Wrong passphrase. Try again.")
    qtbot.wait(50)
    assert clipped() == []
    dialog.show_error("The vault could not be opened: the key in the keyring does not match this vault's "
                      "header, which happens after restoring a backup of one without the other.")
    qtbot.wait(50)
    assert clipped() == []


def test_without_a_keyring_settings_keeps_the_key_in_the_vault_and_says_so(qtbot, dialog, veil, fake_openai):
    from agent.config import load_settings

    provider = dialog.provider_tab
    assert "encrypted vault" in provider.key_note.text()  # desktop_env: the "fail" keyring
    provider.api_key_edit.setText("sk-settings-vault-key-42")
    assert dialog.apply()
    qtbot.waitUntil(lambda: provider.key_status.text() == "key kept in the vault", timeout=10000)
    assert veil.state.store.get_setting("api_key.openai") == "sk-settings-vault-key-42"
    assert provider.api_key_edit.text() == ""
    config = (Path(os.environ["VEIL_HOME"]) / "config" / "config.toml").read_text()
    assert "sk-settings" not in config and load_settings().provider.kind == "openai"
