"""The desktop app's widgets and flows on Qt's offscreen platform, with the real privacy
engine (helper process), a real vault in a tmp VEIL_HOME and a fake OpenAI-compatible
server on loopback."""

from __future__ import annotations

import os

import pytest
from desktop_support import (
    PROMPT,
    app_settings,
    start_app,
    stop_app,
    type_and_preview,
    wait_answer,
)
from provider_fakes import Fail, Reply, last_user_text
from timing_checks import no_runaway

pytestmark = pytest.mark.gui



def stand_in_for(draft, real: str) -> str:
    return next(e.sent for e in draft.result.entities if e.real == real)


# -- the text view -------------------------------------------------------------------------------
def test_highlight_view_marks_follow_utf16_positions(qtbot):
    from desktop.textview import HighlightView, Mark

    view = HighlightView(clickable=True)
    qtbot.addWidget(view)
    view.resize(500, 200)
    view.show()
    text = "😀 Hi Priya Sharma, 🇫🇷 mail priya@x.io"
    name = Mark(text.index("Priya Sharma"), text.index("Priya Sharma") + 12, "PERSON", "replaced", "real: Anjali")
    mail = Mark(text.index("priya@x.io"), len(text), "EMAIL", "replaced", "real: a@b.c")
    view.set_content(text, [name, mail])
    qtbot.waitUntil(lambda: not view.rendering)
    assert view.document().toPlainText() == text
    # The emoji and the flag take 2 and 4 UTF-16 units: marks are found where Qt puts them.
    doc_start = view.document().find("Priya Sharma").selectionStart()
    assert view.mark_at_position(doc_start) is name
    assert view.mark_at_position(doc_start + 11) is name
    assert view.mark_at_position(doc_start + 12) is None
    first, last = view.rect_of(mail)
    assert view.mark_at(first) is mail and view.mark_at(last) is mail
    assert view.tooltip_at(view.rect_of(name)[0]) == "real: Anjali"
    with qtbot.waitSignal(view.mark_clicked) as clicked:
        qtbot.mouseClick(view.viewport(), __import__("PySide6.QtCore").QtCore.Qt.MouseButton.LeftButton,
                         pos=view.rect_of(name)[0])
    assert clicked.args[0] is name


def test_large_text_renders_in_slices_that_keep_the_ui_responsive(qtbot):
    import time

    from desktop.textview import SLICE_BUDGET_S, HighlightView, Mark

    view = HighlightView()
    qtbot.addWidget(view)
    view.resize(700, 400)
    view.show()
    text = ("Jane Doe wrote to jane@example.org from Paris. " * 1300)[:60_000]
    marks = [Mark(i, i + 8, "PERSON", "replaced", "x") for i in range(0, len(text) - 50, 47)]
    began = time.perf_counter()
    view.set_content(text, marks)
    first_call = time.perf_counter() - began
    assert view.rendering  # not everything at once
    qtbot.waitUntil(lambda: not view.rendering, timeout=10000)
    assert view.document().toPlainText() == text
    assert len(view.marks()) == len(marks)
    # One slice (budget SLICE_BUDGET_S), not the whole text: `rendering` above says so; the
    # time is printed, and only a call that rendered far more than a slice fails.
    no_runaway(f"first call of set_content (slice budget {SLICE_BUDGET_S * 1000:.0f} ms)", first_call, 1.0)


def test_entity_colours_are_readable_in_light_and_dark_palettes(qapp):
    from PySide6.QtGui import QColor, QPalette

    from agent.entities import Label
    from desktop.colors import contrast_ratio, entity_style, is_dark

    light, dark = QPalette(QColor("#f4f4f4")), QPalette(QColor("#2b2b2b"))
    assert not is_dark(light) and is_dark(dark)
    for palette in (light, dark):
        for label in Label:
            style = entity_style(label.value, palette)
            assert contrast_ratio(style.foreground, style.background) >= 4.5, (label, is_dark(palette))


# -- preview ------------------------------------------------------------------------------------------
def test_preview_shows_exactly_what_is_sent(qtbot, veil, fake_openai):
    chat = veil.chat
    draft = type_and_preview(qtbot, chat, PROMPT)
    shown = chat.preview.text()
    assert "Sarah Mitchell" not in shown and "sarah.m@globaltech.com" not in shown
    labels = {m.label for m in chat.preview.marks()}
    assert {"PERSON", "EMAIL"} <= labels
    person = next(m for m in chat.preview.marks() if m.label == "PERSON")
    assert "Sarah Mitchell" in chat.preview.tooltip_at(chat.preview.rect_of(person)[0])
    assert shown[person.start:person.end] == stand_in_for(draft, "Sarah Mitchell")
    assert "Residual risk" in chat.risk_label.text()
    # The conversation is not touched by a preview (a dry run)...
    assert chat.conversation.entries == []
    chat.send_button.click()
    wait_answer(qtbot, chat)
    # ...and what the server got is, to the character, what the preview showed.
    assert last_user_text("openai", fake_openai.requests[-1].json) == shown
    assert "Mitchell" not in fake_openai.all_bodies() and "globaltech" not in fake_openai.all_bodies()


def test_click_keeps_the_real_value_and_the_choice_is_remembered(qtbot, veil, fake_openai):
    from PySide6.QtCore import Qt

    from agent.entities import Action

    chat = veil.chat
    type_and_preview(qtbot, chat, "What did Sarah Mitchell say about the budget?")
    person = next(m for m in chat.preview.marks() if m.label == "PERSON" and m.key.real == "Sarah Mitchell")
    chat.last_draft = None
    qtbot.mouseClick(chat.preview.viewport(), Qt.MouseButton.LeftButton, pos=chat.preview.rect_of(person)[0])
    qtbot.waitUntil(lambda: chat.last_draft is not None and not chat.preview.rendering, timeout=20000)
    assert "Sarah Mitchell" in chat.preview.text()
    kept = next(m for m in chat.preview.marks() if m.key.real == "Sarah Mitchell")
    assert kept.style == "kept" and "replace it" in kept.tooltip
    chat.send()
    wait_answer(qtbot, chat)
    assert "Sarah Mitchell" in last_user_text("openai", fake_openai.requests[-1].json)
    stored = veil.state.store.load_conversation(chat.conversation.id)
    assert stored.choice_for("Sarah Mitchell") is Action.KEEP
    # Clicking again forces a stand-in; the next message in this conversation follows it.
    type_and_preview(qtbot, chat, "Thank Sarah Mitchell again.")
    kept = next(m for m in chat.preview.marks() if m.key.real == "Sarah Mitchell")
    assert kept.style == "kept"  # remembered
    chat.last_draft = None
    chat.toggle_entity(kept)
    qtbot.waitUntil(lambda: chat.last_draft is not None and not chat.preview.rendering, timeout=20000)
    assert "Sarah Mitchell" not in chat.preview.text()
    qtbot.waitUntil(lambda: veil.state.store.load_conversation(chat.conversation.id)
                    .choice_for("Sarah Mitchell") is Action.REPLACE, timeout=5000)


def test_secrets_cannot_be_kept(qtbot, veil):
    chat = veil.chat
    type_and_preview(qtbot, chat, "My key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD, why does it fail?")
    secret = next(m for m in chat.preview.marks() if m.label == "SECRET")
    chat.toggle_entity(secret)
    assert "never sent" in chat.preview_status.text()
    assert "sk-proj-abcdefghijklmnop" not in chat.preview.text()


# -- sending ----------------------------------------------------------------------------------------------
def test_answer_streams_with_restored_values_highlighted(qtbot, veil, fake_openai):
    chat = veil.chat
    draft = type_and_preview(qtbot, chat, PROMPT)
    name, mail = stand_in_for(draft, "Sarah Mitchell"), stand_in_for(draft, "sarah.m@globaltech.com")
    fake_openai.plan(Reply(f"Dear {name}, thanks. I will write to {mail} today. Best, {name.split()[0]}",
                           chunk_size=3, chunk_delay=0.005))
    qtbot.keyClick(chat.composer, __import__("PySide6.QtCore").QtCore.Qt.Key.Key_Return,
                   __import__("PySide6.QtCore").QtCore.Qt.KeyboardModifier.ControlModifier)
    answer = wait_answer(qtbot, chat)
    text = answer.body.text()
    assert text == "Dear Sarah Mitchell, thanks. I will write to sarah.m@globaltech.com today. Best, Sarah"
    restored = {(m.key.real, m.key.stand_in) for m in answer.body.marks()}
    assert ("Sarah Mitchell", name) in restored and ("sarah.m@globaltech.com", mail) in restored
    mark = next(m for m in answer.body.marks() if m.key.real == "sarah.m@globaltech.com")
    assert mark.style == "restored" and mail in mark.tooltip
    assert chat.composer.toPlainText() == ""
    answer.copy()
    from PySide6.QtGui import QGuiApplication

    assert QGuiApplication.clipboard().text() == text
    # Stored: what was typed, sent, received and shown.
    message = veil.state.store.list_messages(chat.conversation.id)[-1]
    assert message.typed == PROMPT and message.shown == text and name in message.received
    # The list shows the new conversation, titled from the message.
    qtbot.waitUntil(lambda: chat.conversation_list.count() == 1, timeout=5000)


def test_failure_shows_a_banner_and_retry_sends_the_saved_message(qtbot, veil, fake_openai):
    from agent.session.conversation import MessageState

    chat = veil.chat
    type_and_preview(qtbot, chat, PROMPT)
    fake_openai.plan(Fail(500, "the model is on fire"))
    chat.send()
    wait_answer(qtbot, chat)
    assert chat.error_banner.isVisible() and "fire" in chat.error_banner.label.text()
    assert chat.error_banner.action_button.text() == "Retry"
    stored = veil.state.store.list_messages(chat.conversation.id)
    assert stored[-1].state is MessageState.FAILED and stored[-1].typed == PROMPT  # never lost
    fake_openai.plan(Reply("All good now."))
    chat.error_banner.action_button.click()
    answer = wait_answer(qtbot, chat)
    assert answer.body.text() == "All good now."
    stored = veil.state.store.list_messages(chat.conversation.id)
    assert len(stored) == 1 and stored[0].state is MessageState.ANSWERED


def test_unreachable_provider_keeps_the_message(qtbot, desktop_env, shared_engine):
    from desktop_support import free_port

    from agent.session.conversation import MessageState

    veil = start_app(qtbot, shared_engine, app_settings(f"http://127.0.0.1:{free_port()}/v1"))
    try:
        chat = veil.chat
        type_and_preview(qtbot, chat, PROMPT)
        chat.send()
        wait_answer(qtbot, chat)
        assert chat.error_banner.isVisible()
        assert veil.state.store.list_messages(chat.conversation.id)[-1].state is MessageState.FAILED
    finally:
        stop_app(veil)


def test_escape_cancels_the_answer(qtbot, veil, fake_openai):
    from PySide6.QtCore import Qt

    from agent.session.conversation import MessageState

    chat = veil.chat
    type_and_preview(qtbot, chat, "Tell me a long story about Paris.")
    fake_openai.plan(Reply("Once upon a time " * 200, chunk_size=5, chunk_delay=0.02))
    chat.send()
    qtbot.waitUntil(lambda: chat.reply is not None and any(v.body.text() for v in chat.views if v.role == "assistant"),
                    timeout=20000)
    qtbot.keyClick(chat.composer, Qt.Key.Key_Escape)
    answer = wait_answer(qtbot, chat)
    assert answer.message.state is MessageState.CANCELLED
    assert answer.retry_button.isVisibleTo(answer)
    assert veil.state.store.list_messages(chat.conversation.id)[-1].state is MessageState.CANCELLED


def test_keyboard_tab_order_and_shortcuts(qtbot, veil):
    from PySide6.QtCore import Qt

    chat = veil.chat
    chat.composer.setFocus()
    qtbot.waitUntil(chat.composer.hasFocus, timeout=2000) if chat.isActiveWindow() else None
    assert chat.composer.nextInFocusChain() is not None
    chain = []
    widget = chat.composer
    for _ in range(6):
        widget = widget.nextInFocusChain()
        chain.append(widget)
    assert chat.preview in chain and chat.send_button in chain
    assert chain.index(chat.preview) < chain.index(chat.send_button)
    assert chat.composer.tabChangesFocus()
    # Esc with nothing running does nothing.
    qtbot.keyClick(chat.composer, Qt.Key.Key_Escape)
    assert not chat.sending and chat.views == []
    # Ctrl+Enter in the composer sends what is in it (whatever the window manager says
    # about focus), and the answer comes back.
    type_and_preview(qtbot, chat, "A shortcut test for Sarah Mitchell.")
    qtbot.keyClick(chat.composer, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    wait_answer(qtbot, chat)
    assert [v.role for v in chat.views] == ["user", "assistant"]
    first = chat.conversation.id
    # The window's own shortcuts: Ctrl+N a new, empty conversation; Ctrl+L back to the composer.
    chat.activateWindow()
    qtbot.waitUntil(chat.isActiveWindow, timeout=5000)
    qtbot.keyClick(chat, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: chat.conversation.id != first and chat.views == [], timeout=5000)
    chat.send_button.setFocus()
    qtbot.keyClick(chat, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(chat.composer.hasFocus, timeout=5000)


# -- conversations ------------------------------------------------------------------------------------------
def test_conversation_list_open_rename_delete(qtbot, veil, fake_openai):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    chat = veil.chat
    type_and_preview(qtbot, chat, "First: ask Sarah Mitchell about Lisbon.")
    chat.send()
    wait_answer(qtbot, chat)
    first_id = chat.conversation.id
    chat.new_conversation()
    type_and_preview(qtbot, chat, "Second conversation, about Bob Stone.")
    chat.send()
    wait_answer(qtbot, chat)
    qtbot.waitUntil(lambda: chat.conversation_list.count() == 2, timeout=5000)
    # Open the first one: its messages come back from the vault, highlights recomputed.
    item = next(chat.conversation_list.item(i) for i in range(2)
                if chat.conversation_list.item(i).data(0x0100) == first_id)
    chat._conversation_chosen(item)
    qtbot.waitUntil(lambda: chat.conversation.id == first_id and len(chat.views) == 2, timeout=10000)
    assert "Sarah Mitchell" in chat.views[0].body.text()
    chat.rename_conversation(first_id, "Lisbon trip")
    qtbot.waitUntil(lambda: any(chat.conversation_list.item(i).text() == "Lisbon trip"
                                for i in range(chat.conversation_list.count())), timeout=5000)
    assert any(s.title == "Lisbon trip" for s in veil.state.store.list_conversations())
    # Delete asks first; "Cancel" keeps it, "Delete" removes it from the vault.
    def answer(button_text: str) -> None:
        box = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible())
        next(b for b in box.buttons() if b.text().replace("&", "") == button_text).click()

    QTimer.singleShot(200, lambda: answer("Cancel"))
    chat.delete_conversation(first_id, current="Lisbon trip")
    assert any(s.id == first_id for s in veil.state.store.list_conversations())
    QTimer.singleShot(200, lambda: answer("Delete"))
    chat.delete_conversation(first_id, current="Lisbon trip")
    qtbot.waitUntil(lambda: chat.conversation_list.count() == 1, timeout=5000)
    assert all(s.id != first_id for s in veil.state.store.list_conversations())
    assert chat.conversation.id != first_id  # a fresh draft replaced the deleted one


# -- vault unlock -------------------------------------------------------------------------------------------
def test_wrong_passphrase_is_said_clearly_then_the_right_one_unlocks(qtbot, desktop_env, shared_engine, monkeypatch):
    from agent.vault import open_default_store
    from desktop.state import VaultPhase

    store = open_default_store(settings=app_settings(), passphrase="the right passphrase")
    store.create_conversation(title="kept safe")
    store.close()
    monkeypatch.delenv("VEIL_PASSPHRASE")
    veil = start_app(qtbot, shared_engine, app_settings(), wait_vault=False)
    try:
        qtbot.waitUntil(lambda: veil.unlock_dialog is not None and veil.unlock_dialog.isVisible(), timeout=10000)
        dialog = veil.unlock_dialog
        assert not dialog.new
        dialog.passphrase.setText("not it")
        dialog._accept()
        qtbot.waitUntil(lambda: dialog.isEnabled() and "Wrong passphrase" in dialog.error.text(), timeout=15000)
        assert veil.state.vault_phase == VaultPhase.NEEDS_PASSPHRASE
        dialog.passphrase.setText("the right passphrase")
        dialog._accept()
        qtbot.waitUntil(veil.state.vault_is_open, timeout=15000)
        qtbot.waitUntil(lambda: veil.unlock_dialog is None and not dialog.isVisible(), timeout=5000)
        qtbot.waitUntil(lambda: veil.chat.conversation_list.count() == 1, timeout=5000)
        assert veil.chat.conversation_list.item(0).text() == "kept safe"
    finally:
        stop_app(veil)


def test_new_vault_in_passphrase_mode_asks_twice(qtbot, desktop_env, shared_engine, monkeypatch):
    monkeypatch.delenv("VEIL_PASSPHRASE")
    veil = start_app(qtbot, shared_engine, app_settings(), wait_vault=False)
    try:
        qtbot.waitUntil(lambda: veil.unlock_dialog is not None, timeout=10000)
        dialog = veil.unlock_dialog
        assert dialog.new and dialog.confirm.isVisible()
        dialog.passphrase.setText("long enough one")
        dialog.confirm.setText("long enough two")
        dialog._accept()
        assert "differ" in dialog.error.text()
        dialog.confirm.setText("long enough one")
        dialog._accept()
        qtbot.waitUntil(veil.state.vault_is_open, timeout=15000)
        assert veil.state.store.mode == "passphrase"
    finally:
        stop_app(veil)


# -- tray-less desktops, hotkeys, clipboard ------------------------------------------------------------------------
def test_without_a_tray_the_chat_window_opens_and_says_why_once(qtbot, veil):
    assert veil.tray is None  # offscreen has no system tray
    assert veil.chat.isVisible()
    assert "No system tray" in veil.chat.info_banner.label.text()
    veil.chat.info_banner.hide()
    veil.open_chat()
    qtbot.wait(50)
    assert not veil.chat.info_banner.isVisible()  # once


def test_wayland_hotkeys_message_and_the_actions_still_work(qtbot, veil, monkeypatch):
    from PySide6.QtGui import QGuiApplication

    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    assert veil.hotkeys.start("<ctrl>+<alt>+s", "<ctrl>+<alt>+r") is False
    qtbot.waitUntil(lambda: "Wayland" in veil.hotkey_message, timeout=2000)
    assert "Wayland" in veil.chat.info_banner.label.text()
    QGuiApplication.clipboard().setText("Call Sarah Mitchell on +44 20 7946 0958.")
    with qtbot.waitSignal(veil.clipboard_done, timeout=20000) as done:
        veil.sanitize_clipboard()
    assert "Sarah Mitchell" not in QGuiApplication.clipboard().text()
    assert "person" in done.args[0].summary()


def test_bad_hotkeys_are_refused_with_a_reason():
    from desktop.hotkeys import check_hotkey

    assert check_hotkey("<ctrl>+<alt>+s") == ""
    assert check_hotkey("s") and check_hotkey("<ctrl>+<alt>") and check_hotkey("ctrl+alt+s")


def test_clipboard_sanitize_and_restore_through_the_app(qtbot, veil):
    from PySide6.QtGui import QGuiApplication

    clipboard = QGuiApplication.clipboard()
    original = "Please reply to Anjali Gupta at anjali.gupta@example.com about order 5521."
    clipboard.setText(original)
    with qtbot.waitSignal(veil.clipboard_done, timeout=20000) as done:
        veil.sanitize_clipboard(from_hotkey=True)
    sanitized = clipboard.text()
    assert "Anjali" not in sanitized and "anjali.gupta@example.com" not in sanitized
    assert done.args[0].counts.get("PERSON") == 1 and done.args[0].counts.get("EMAIL") == 1
    assert veil.notifications[-1][0] == "Clipboard sanitized"
    stand_in = sanitized.split("reply to ")[1].split(" at ")[0]
    clipboard.setText(f"Dear {stand_in}, your order ships today.")
    with qtbot.waitSignal(veil.clipboard_done, timeout=20000):
        veil.restore_clipboard(from_hotkey=True)
    assert clipboard.text() == "Dear Anjali Gupta, your order ships today."
    assert "Restored 1 person" in veil.notifications[-1][1]
    # Paused: the hotkeys leave the clipboard alone and say so.
    veil.state.set_paused(True)
    clipboard.setText(original)
    veil.sanitize_clipboard(from_hotkey=True)
    qtbot.wait(100)
    assert clipboard.text() == original and "paused" in veil.notifications[-1][1]
    veil.state.set_paused(False)
    assert "protection on" in veil.state.describe()


def test_ui_process_never_loads_the_nlp_models(tmp_path):
    """spaCy and the NER model live in the engine's helper process only."""
    from vault_support import run_python

    out = run_python(
        "import os, sys\n"
        "os.environ['QT_QPA_PLATFORM']='offscreen'\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app=QApplication([])\n"
        "from desktop.state import AppState\n"
        "from agent.config import default_settings\n"
        "from agent.session.conversation import Conversation\n"
        "s=AppState(default_settings()); s.start_engine(); s.engine.warm_up()\n"
        "r=s.engine.sanitize('Mail Jane Doe at jane@example.org', Conversation())\n"
        "print(s.engine.isolated, 'jane@example.org' not in r.sanitized, 'spacy' in sys.modules, 'thinc' in sys.modules)\n"
        "s.shutdown()\n",
        env_extra={"VEIL_HOME": str(tmp_path)},
    )
    assert out.split()[-4:] == ["True", "True", "False", "False"]


def test_agent_package_never_imports_qt():
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parent.parent / "agent"
    offenders = [str(p) for p in root.rglob("*.py") if re.search(r"^\s*(from|import)\s+PySide6", p.read_text(), re.MULTILINE)]
    assert offenders == []


def test_qt_binding_keeps_none_and_bools_alive(qapp):
    """PySide6 6.12.0 on Python 3.11 drops a reference to None (and True/False) on every
    call that returns them: the app then dies with "none_dealloc" after a few thousand
    calls. pyproject pins below it; this catches a binding with that bug."""
    import sys

    from PySide6.QtWidgets import QPushButton

    button = QPushButton()
    before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(2000):
        button.setText("x")  # returns None
        button.isEnabled()  # returns True
    after = sys.getrefcount(None), sys.getrefcount(True)
    assert abs(after[0] - before[0]) < 50 and abs(after[1] - before[1]) < 50, (before, after)


def dark_palette():
    from PySide6.QtGui import QColor, QPalette

    palette = QPalette()
    for role, color in ((QPalette.ColorRole.Window, "#2b2b2b"), (QPalette.ColorRole.WindowText, "#e6e6e6"),
                        (QPalette.ColorRole.Base, "#1e1e1e"), (QPalette.ColorRole.AlternateBase, "#333333"),
                        (QPalette.ColorRole.Text, "#e6e6e6"), (QPalette.ColorRole.Button, "#3a3a3a"),
                        (QPalette.ColorRole.ButtonText, "#e6e6e6"), (QPalette.ColorRole.Highlight, "#3d6fb4"),
                        (QPalette.ColorRole.HighlightedText, "#ffffff"), (QPalette.ColorRole.Mid, "#555555")):
        palette.setColor(role, QColor(color))
    return palette


def test_highlights_follow_a_dark_system_palette(qtbot, qapp, veil, fake_openai):
    """Answers sit on a transparent background: the colours must still come out for the
    dark palette, and every highlight stays readable (WCAG AA contrast) where it is drawn."""
    from PySide6.QtGui import QTextCursor

    from desktop.colors import contrast_ratio

    previous = qapp.palette()
    qapp.setPalette(dark_palette())
    try:
        chat = veil.chat
        draft = type_and_preview(qtbot, chat, "Write a short reply to Sarah Mitchell (sarah.m@globaltech.com).")
        name = next(e.sent for e in draft.result.entities if e.real == "Sarah Mitchell")
        fake_openai.plan(Reply(f"Dear {name}, noted."))
        chat.send()
        answer = wait_answer(qtbot, chat)
        type_and_preview(qtbot, chat, "And call Sarah Mitchell at +1 415 555 0134 tomorrow.")
        for view in (chat.preview, answer.body):
            base = view.palette().color(view.palette().ColorRole.Base)
            for start, end, mark in view._spans:
                cursor = QTextCursor(view.document())
                cursor.setPosition(start + 1)
                fmt = cursor.charFormat()
                if mark.style == "kept":  # no fill: drawn in the palette's text colour
                    assert fmt.foreground().style() == fmt.foreground().style().NoBrush
                    assert contrast_ratio(view.palette().color(view.palette().ColorRole.Text), base) >= 4.5
                    continue
                background = fmt.background().color()
                assert background.lightness() < 128, (mark, background.name())  # dark fill in a dark theme
                assert contrast_ratio(fmt.foreground().color(), background) >= 4.5
        if os.environ.get("VEIL_UPDATE_SCREENSHOTS") == "1":
            from desktop_support import REPO

            chat.resize(1100, 640)
            chat.info_banner.hide()
            qtbot.wait(200)
            chat.grab().save(str(REPO / "docs" / "screenshots" / "dark.png"))
    finally:
        qapp.setPalette(previous)


# -- the local proxy from the tray ----------------------------------------------------------------------------------
def test_proxy_toggle_serves_openai_clients_with_the_token_from_settings(qtbot, veil, fake_openai):
    """The tray's "Local proxy (veil serve)": on, an OpenAI client with the token shown in
    Settings gets a restored answer, and the upstream never sees the real name; off again
    frees the port."""
    import httpx

    from desktop.settings_dialog import SettingsDialog

    qtbot.waitUntil(veil.state.vault_is_open, timeout=30000)
    veil.state.settings.server.port = 0  # a free port: other tests may be listening
    with qtbot.waitSignal(veil.state.proxy_changed, timeout=60000):
        veil._toggle_proxy(True)
    proxy = veil.state.proxy
    assert proxy is not None and proxy.url.startswith("http://127.0.0.1:")
    dialog = SettingsDialog(veil.state)
    qtbot.addWidget(dialog)
    token = dialog.proxy_tab.proxy_token_field.text()
    assert token.startswith("veil-") and proxy.url in dialog.proxy_tab.proxy_status.text()
    body = {"model": "model-a", "messages": [{"role": "user", "content": "Say hi to Anjali Gupta."}]}
    refused = httpx.post(proxy.url + "/chat/completions", json=body, timeout=30)
    assert refused.status_code == 401
    answer = httpx.post(proxy.url + "/chat/completions", json=body, timeout=60,
                        headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    assert "Anjali Gupta" not in fake_openai.all_bodies()
    with qtbot.waitSignal(veil.state.proxy_changed, timeout=30000):
        veil._toggle_proxy(False)
    assert veil.state.proxy is None
    try:
        httpx.get(proxy.url + "/models", timeout=2)
        raise AssertionError("the proxy still answers after it was turned off")
    except httpx.TransportError:
        pass
