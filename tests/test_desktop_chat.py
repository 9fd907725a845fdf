"""The chat window's trust properties, on Qt's offscreen platform with the real engine
(helper process), a real vault in a tmp VEIL_HOME and real HTTP servers on loopback
that record every request (tests/provider_fakes.py): where the next message goes, how
answers and errors read, what a locked window shows, the side panel of detected items.
"""

from __future__ import annotations

import os

import pytest
from desktop_support import app_settings, start_app, stop_app, type_and_preview, wait_answer
from provider_fakes import last_user_text

pytestmark = pytest.mark.gui


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


def test_every_window_names_the_provider_kinds_alike(qtbot, veil):
    """The wizard and Settings had their own titles ("Local model only"): one table names them."""
    from agent.providers.kinds import KINDS
    from desktop.wizard import FirstRunWizard

    names = [each.name for each in KINDS]
    veil.open_settings()
    settings_combo = veil.settings_dialog.provider_tab.kind_combo
    for combo in (veil.chat.provider_combo, settings_combo):
        assert [combo.itemText(i) for i in range(combo.count())] == names
        assert [combo.itemData(i) for i in range(combo.count())] == [each.kind for each in KINDS]
    wizard = FirstRunWizard(veil.state.settings, veil.state.background)
    qtbot.addWidget(wizard)
    wizard.show()
    page = wizard.provider_page
    assert [page.buttons[each.kind].text() for each in KINDS] == names
    notes = {label.text() for label in page.findChildren(__import__("PySide6.QtWidgets").QtWidgets.QLabel)}
    assert {each.detail for each in KINDS} <= notes
    page.buttons["gemini"].setChecked(True)
    wizard.next()
    assert wizard.details_page.title() == "Connect to Google Gemini"


# -- answers rendered as Markdown -------------------------------------------------------------------
def markdown_answer(name: str, mail: str) -> str:
    return (f"## Reply to {name}\n\nDear **{name}**, here is the plan:\n\n"
            f"1. Call {name} on Monday\n2. Write to {mail}\n   - attach the invoice\n\n"
            f"| Who | Contact |\n|---|---|\n| {name} | {mail} |\n\n"
            f"```python\nsend(to=\"{mail}\")\n```\n\nBest regards")


def document_tables(document):
    from PySide6.QtGui import QTextTable

    frame = document.rootFrame()
    return [f for f in frame.childFrames() if isinstance(f, QTextTable)]


def test_answers_render_markdown_with_restored_values_highlighted(qtbot, veil, fake_openai):
    """Issue 15.3: headings, lists, tables and code blocks are rendered (no raw ##, ** or
    pipes), and the restored values inside them are still highlighted and hoverable."""
    from provider_fakes import Reply
    from PySide6.QtGui import QGuiApplication

    chat = veil.chat
    draft = type_and_preview(qtbot, chat, "Plan a reply to Sarah Mitchell (sarah.m@globaltech.com).")
    name = next(e.sent for e in draft.result.entities if e.real == "Sarah Mitchell")
    mail = next(e.sent for e in draft.result.entities if e.real == "sarah.m@globaltech.com")
    fake_openai.plan(Reply(markdown_answer(name, mail), chunk_size=3, chunk_delay=0.002))
    chat.send()
    answer = wait_answer(qtbot, chat)
    body = answer.body
    qtbot.waitUntil(lambda: not body.rendering, timeout=5000)
    shown = body.document().toPlainText()
    assert "##" not in shown and "**" not in shown and "|---" not in shown and "```" not in shown
    assert "Sarah Mitchell" in shown and name not in shown
    # The raw text (what Copy gives) is the restored Markdown.
    assert body.text() == markdown_answer("Sarah Mitchell", "sarah.m@globaltech.com")
    heading = body.document().firstBlock()
    assert heading.blockFormat().headingLevel() == 2 and heading.text() == "Reply to Sarah Mitchell"
    lists = {b.textList().format().style() for b in _blocks(body.document()) if b.textList() is not None}
    assert len(lists) == 2  # the numbered list and its nested bullets
    (table,) = document_tables(body.document())
    cell = table.cellAt(1, 0)
    assert cell.firstCursorPosition().block().text() == "Sarah Mitchell"
    # Every restored value is highlighted where it is drawn, with its hover.
    spans = [(s, e, m) for s, e, m in body._spans]
    drawn = [_doc_text(body.document(), s, e) for s, e, _ in spans]
    assert drawn.count("Sarah Mitchell") == 4 and drawn.count("sarah.m@globaltech.com") == 3
    in_cell = body.mark_at_position(cell.firstCursorPosition().position() + 1)
    assert in_cell is not None and in_cell.key.real == "Sarah Mitchell" and in_cell.style == "restored"
    point = body.rect_of(in_cell)[0]
    assert "restored" in body.tooltip_at(point) and name in body.tooltip_at(point)
    fmt = _char_format_at(body.document(), cell.firstCursorPosition().position() + 1)
    assert fmt.background().style() != fmt.background().style().NoBrush and fmt.fontWeight() >= 600
    # The code block's Copy link copies the code with the real values.
    assert body.code_blocks() == ['send(to="sarah.m@globaltech.com")']
    body.copy_code(0)
    assert QGuiApplication.clipboard().text() == 'send(to="sarah.m@globaltech.com")'


def spans_of(text: str, value: str) -> list[tuple[int, int]]:
    """Where `value` stands in `text` (start, end), in order."""
    spans, start = [], text.find(value)
    while start >= 0:
        spans.append((start, start + len(value)))
        start = text.find(value, start + 1)
    return spans


def rendered_at_once(qtbot, text: str, marks, timeout: int = 10000):
    from desktop.markdown_view import MarkdownView

    view = MarkdownView()
    qtbot.addWidget(view)
    view.set_content(text, marks)
    qtbot.waitUntil(lambda: not view.rendering, timeout=timeout)
    return view


def rendered_streaming(qtbot, text: str, spans, mark, *, seed: int, sizes: tuple[int, int], timeout: int = 10000,
                       watch=None):
    """`text` appended in random chunks (sizes: shortest and longest), every chunk rendered
    at once (as if the rate limit let each one through: the worst case). `mark(s, e, offset)`
    makes a span's Mark for a chunk starting at `offset`; `watch(view)` runs before the first."""
    import random

    from desktop.markdown_view import MarkdownView

    view = MarkdownView()
    qtbot.addWidget(view)
    if watch is not None:
        watch(view)
    rng, position = random.Random(seed), 0
    while position < len(text):
        end = min(len(text), position + rng.randint(*sizes))
        for s, e in spans:  # the restorer never splits a restored value across chunks
            if s < end < e:
                end = e
        view.append_content(text[position:end], [mark(s, e, position) for s, e in spans
                                                  if s >= position and e <= end])
        position = end
        view._timer.stop()
        view._tick()
    view.finish()
    qtbot.waitUntil(lambda: not view.rendering, timeout=timeout)
    return view


def test_streamed_markdown_matches_the_whole_answer_and_keeps_finished_blocks(qtbot):
    """Streaming re-renders only the last open block; the result is the same document as
    rendering the whole answer at once."""

    from desktop.textview import Mark

    text = "\n\n".join(
        f"### Part {i}\n\nAnna Berg wrote *item {i}*:\n\n- one\n- two with `x{i}`\n\n| a | b |\n|--|--|\n| Anna Berg | {i} |"
        for i in range(40)) + "\n\n```\nlast Anna Berg\n```\n"
    spans = spans_of(text, "Anna Berg")

    def mark(s, e, offset=0):
        return Mark(s - offset, e - offset, "PERSON", "restored", "restored: Anna Berg", ("Anna Berg", s))

    whole = rendered_at_once(qtbot, text, [mark(s, e) for s, e in spans])
    removals = []
    streamed = rendered_streaming(qtbot, text, spans, mark, seed=7, sizes=(1, 40), watch=lambda view: (
        view.document().contentsChange.connect(lambda position, removed, added: removals.append(removed))))
    assert streamed.document().toHtml() == whole.document().toHtml()
    assert [(s, e) for s, e, _ in streamed._spans] == [(s, e) for s, e, _ in whole._spans]
    assert len(streamed._spans) == len(spans)
    # Finished blocks were never rebuilt: no removal larger than one open block (~60 chars).
    assert max(removals) < 120, max(removals)


def _blocks(document):
    block = document.firstBlock()
    while block.isValid():
        yield block
        block = block.next()


def _doc_text(document, start, end):
    from PySide6.QtGui import QTextCursor

    cursor = QTextCursor(document)
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    return cursor.selectedText()


def _char_format_at(document, position):
    from PySide6.QtGui import QTextCursor

    cursor = QTextCursor(document)
    cursor.setPosition(position)
    return cursor.charFormat()


def test_an_oversize_block_is_drawn_line_by_line_with_its_highlights(qtbot):
    """A paragraph or code block longer than LARGE_BLOCK is not parsed again at every chunk
    (that would freeze the window): it is drawn line by line, highlights included, and
    streamed or shown at once it comes out the same."""

    from desktop.markdown_view import LARGE_BLOCK
    from desktop.textview import Mark

    lines = [f"Ticket {i}: Anna Berg asked about invoice {i} again" for i in range(300)]
    code = "\n".join(f"notify('Anna Berg', {i})" for i in range(300))
    text = "# Intro\n\n" + "\n".join(lines) + "\n\nmiddle *part*\n\n```py\n" + code + "\n```\n\nend **bold**"
    assert len("\n".join(lines)) > LARGE_BLOCK and len(code) > LARGE_BLOCK
    spans = spans_of(text, "Anna Berg")

    def mark(s, e, offset=0):
        return Mark(s - offset, e - offset, "PERSON", "restored", "restored", s)

    whole = rendered_at_once(qtbot, text, [mark(s, e) for s, e in spans], timeout=20000)
    streamed = rendered_streaming(qtbot, text, spans, mark, seed=5, sizes=(10, 80), timeout=20000)
    for view in (whole, streamed):
        shown = view.document().toPlainText().split("\n")
        assert shown[0] == "Intro" and shown[1] == lines[0] and lines[-1] in shown
        assert "middle part" in shown and shown[-1] == "end bold"  # Markdown again after the big blocks
        assert view.code_blocks() == [code]
        drawn = [_doc_text(view.document(), s, e) for s, e, _ in view._spans]
        assert drawn == ["Anna Berg"] * len(spans)
    assert streamed.document().toPlainText() == whole.document().toPlainText()


# -- errors in words --------------------------------------------------------------------------------
def banner_buttons(chat) -> list[str]:
    banner = chat.error_banner
    return [b.text() for b in (banner.action_button, banner.second_button) if b.isVisibleTo(banner)]


def test_an_html_error_page_reads_as_words_with_retry(qtbot, veil, fake_openai):
    """Issue 15.5: a proxy's HTML page in the red banner."""
    from provider_fakes import Fail
    from test_providers_errors import NGINX_502

    chat = veil.chat
    type_and_preview(qtbot, chat, "Summarise the call with Sarah Mitchell.")
    fake_openai.plan(Fail(502, raw=NGINX_502))
    chat.send()
    wait_answer(qtbot, chat)
    text = chat.error_banner.label.text()
    assert chat.error_banner.isVisible() and "502 Bad Gateway" in text
    assert "<" not in text and "nginx" not in text and "Your message is saved" in text
    assert banner_buttons(chat) == ["Retry"]  # a server's trouble: no setting to change


def test_connection_refused_offers_settings_and_retry_in_plain_words(qtbot, desktop_env, shared_engine):
    from desktop_support import free_port

    port = free_port()
    veil = start_app(qtbot, shared_engine, app_settings(f"http://127.0.0.1:{port}/v1"))
    try:
        chat = veil.chat
        type_and_preview(qtbot, chat, "Summarise the call with Sarah Mitchell.")
        chat.send()
        wait_answer(qtbot, chat)
        text = chat.error_banner.label.text()
        assert "Errno" not in text and f"127.0.0.1:{port}" in text and "server running" in text
        assert banner_buttons(chat) == ["Retry", "Open Settings"]
        chat.error_banner.second_button.click()
        qtbot.waitUntil(lambda: veil.settings_dialog is not None and veil.settings_dialog.isVisible(), timeout=5000)
    finally:
        stop_app(veil)


def test_a_malformed_base_url_is_said_not_a_missing_key(qtbot, desktop_env, shared_engine):
    veil = start_app(qtbot, shared_engine, app_settings("localhost:8080/v1"))
    try:
        chat = veil.chat
        type_and_preview(qtbot, chat, "Summarise the call with Sarah Mitchell.")
        chat.send()
        qtbot.waitUntil(lambda: chat.error_banner.isVisible() and not chat.sending, timeout=10000)
        text = chat.error_banner.label.text()
        assert text.startswith("Not sent:") and "localhost:8080/v1" in text and "http://" in text
        assert "API key" not in text
        assert banner_buttons(chat) == ["Open Settings"]
        assert chat.composer.toPlainText() == "Summarise the call with Sarah Mitchell."  # nothing lost
    finally:
        stop_app(veil)


def test_retries_are_shown_and_a_501_is_asked_once(qtbot, desktop_env, shared_engine, fake_openai):
    from provider_fakes import Fail, Reply

    veil = start_app(qtbot, shared_engine, app_settings(fake_openai.base_url, max_attempts=3))
    try:
        chat = veil.chat
        type_and_preview(qtbot, chat, "Summarise the call with Sarah Mitchell.")
        fake_openai.plan(Fail(503, "overloaded"), Fail(503, "overloaded"), Reply("Done at last."))
        before = len(fake_openai.requests)
        seen = []
        chat.send()
        qtbot.waitUntil(lambda: (seen.append(chat.views[-1].note.text()) if len(chat.views) >= 2 else None)
                        or not chat.sending and len(chat.views) >= 2, timeout=30000)
        assert any("attempt 2 of 3" in note for note in seen), seen
        answer = chat.views[-1]
        assert answer.body.text() == "Done at last." and not answer.note.isVisible()
        assert len(fake_openai.requests) - before == 3
        # A 501 cannot get better by asking again: one request, said plainly.
        before = len(fake_openai.requests)
        type_and_preview(qtbot, chat, "And the follow-up for Sarah Mitchell?")
        fake_openai.plan(Fail(501), Fail(501), Fail(501))
        chat.send()
        wait_answer(qtbot, chat)
        assert len(fake_openai.requests) - before == 1
        assert "501 Not Implemented" in chat.error_banner.label.text()
    finally:
        stop_app(veil)


def test_a_stream_cut_mid_answer_keeps_the_part_that_arrived(qtbot, veil, fake_openai):
    from provider_fakes import Reply

    from agent.session.conversation import MessageState

    chat = veil.chat
    type_and_preview(qtbot, chat, "Tell me about Lisbon.")
    fake_openai.plan(Reply("Lisbon is the capital of Portugal and it is known for its trams.", chunk_size=8,
                           chunk_delay=0.01, cut_after=3))
    chat.send()
    answer = wait_answer(qtbot, chat)
    assert answer.body.text().startswith("Lisbon is the cap")
    text = chat.error_banner.label.text()
    assert not text.startswith("No answer") and "broke off" in text and "kept" in text
    assert banner_buttons(chat)[0] == "Retry"
    assert veil.state.store.list_messages(chat.conversation.id)[-1].state is MessageState.FAILED


# -- locked: nothing real on screen ------------------------------------------------------------------
REAL_VALUES = ("Sarah Mitchell", "Mitchell", "DE89 3704 0044 0532 0130 00", "DE89370400440532013000")


def every_text(window) -> str:
    """All the text a person or a screen reader can get from the window: widget texts,
    list and combo items, tooltips, accessible names and values, the title."""
    from PySide6.QtGui import QAccessible
    from PySide6.QtWidgets import (
        QAbstractButton,
        QComboBox,
        QLabel,
        QLineEdit,
        QListWidget,
        QPlainTextEdit,
        QTextEdit,
    )
    from PySide6.QtWidgets import QWidget as Widget

    texts = [window.windowTitle()]
    for widget in [window, *window.findChildren(Widget)]:
        texts += [widget.toolTip(), widget.accessibleName(), widget.accessibleDescription(), widget.windowTitle()]
        if isinstance(widget, (QLabel, QAbstractButton, QLineEdit)):
            texts.append(widget.text())
        elif isinstance(widget, (QTextEdit, QPlainTextEdit)):
            texts.append(widget.toPlainText())
        elif isinstance(widget, QListWidget):
            texts += [widget.item(i).text() + " " + widget.item(i).toolTip() for i in range(widget.count())]
        elif isinstance(widget, QComboBox):
            texts += [widget.itemText(i) for i in range(widget.count())]

    def walk(interface, depth=0):
        if interface is None or depth > 40:
            return
        for kind in (QAccessible.Text.Name, QAccessible.Text.Value, QAccessible.Text.Description):
            texts.append(interface.text(kind))
        for i in range(interface.childCount()):
            walk(interface.child(i), depth + 1)

    walk(QAccessible.queryAccessibleInterface(window))
    return "\n".join(t for t in texts if t)


def test_locking_hides_every_real_value_and_unlocking_brings_the_conversation_back(qtbot, veil, fake_openai):
    """Issue 15.6: after Lock, real names and an IBAN stayed on screen."""
    from desktop.state import VaultPhase

    chat = veil.chat
    prompt = "Pay Sarah Mitchell from IBAN DE89 3704 0044 0532 0130 00 today."
    type_and_preview(qtbot, chat, prompt)
    chat.send()
    wait_answer(qtbot, chat)
    qtbot.waitUntil(lambda: chat.conversation_list.count() == 1, timeout=5000)
    chat.composer.setPlainText("And thank Sarah Mitchell.")  # a draft being typed
    conversation_id = chat.conversation.id
    shown = every_text(chat)
    assert all(value in shown for value in ("Sarah Mitchell", "DE89 3704 0044 0532 0130 00"))  # the check can fail
    veil.state.lock_vault()
    qtbot.waitUntil(lambda: veil.state.vault_phase == VaultPhase.LOCKED and chat.locked_view, timeout=5000)
    qtbot.wait(200)  # late callbacks (list refresh, preview) must not fill it again
    shown = every_text(chat)
    assert not [value for value in REAL_VALUES if value in shown], shown
    assert "The vault is locked" in shown and chat.windowTitle() == "Veil — locked"
    assert chat.unlock_button.isVisible()
    # Unlock (the passphrase comes from VEIL_PASSPHRASE here): everything is back.
    chat.unlock_button.click()
    qtbot.waitUntil(lambda: veil.state.vault_is_open() and not chat.locked_view, timeout=15000)
    qtbot.waitUntil(lambda: chat.conversation is not None and chat.conversation.id == conversation_id
                    and len(chat.views) == 2 and chat.conversation_list.count() == 1, timeout=10000)
    assert "Sarah Mitchell" in chat.views[0].body.text()
    assert chat.composer.toPlainText() == "And thank Sarah Mitchell."


def test_an_idle_lock_hides_the_window_too_and_auto_lock_is_on_by_default(qtbot, veil, fake_openai):
    from agent.config import default_settings

    assert default_settings().vault.auto_lock_minutes == 15
    chat = veil.chat
    type_and_preview(qtbot, chat, "Call Sarah Mitchell tomorrow.")
    veil.state.store.lock("idle")  # what the vault's idle watcher does, in its own thread
    qtbot.waitUntil(lambda: chat.locked_view, timeout=5000)
    assert "Sarah Mitchell" not in every_text(chat)


# -- the conversation list: chats only, the others on demand -----------------------------------------
def veil_sanitize(text: str) -> dict:
    """`veil sanitize --json` in its own process, on the test's vault (VEIL_HOME, VEIL_PASSPHRASE)."""
    import json
    import subprocess
    import sys

    from desktop_support import REPO

    env = {**os.environ, "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring", "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "desktop.launcher", "sanitize", "--json"], input=text,
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def listed(chat) -> dict[str, str]:
    items = [chat.conversation_list.item(i) for i in range(chat.conversation_list.count())]
    return {item.data(0x0100): item.text() for item in items}


def test_conversations_of_veil_commands_are_listed_only_on_demand_and_stay_once_opened(
        qtbot, desktop_env, shared_engine, fake_openai):
    """Issue 15.10: every `veil sanitize` added an "(untitled)" conversation to the chat list."""
    from agent.vault import open_default_store

    sanitized = veil_sanitize("Call Ines Albuquerque about the lease.")
    cli_id = sanitized["conversation"]
    stand_in = next(e["sent"] for e in sanitized["entities"] if e["real"] == "Ines Albuquerque")
    veil = start_app(qtbot, shared_engine, app_settings(fake_openai.base_url))
    try:
        chat, store = veil.chat, veil.state.store
        chat_id = store.create_conversation(title="Lisbon trip").id
        chat.refresh_conversations()
        qtbot.waitUntil(lambda: listed(chat) == {chat_id: "Lisbon trip"}, timeout=5000)
        assert chat.conversations.show_others.text() == "Show others (1)"
        # The box lists the command's conversation too, marked with where it comes from.
        chat.conversations.show_others.setChecked(True)
        assert listed(chat) == {chat_id: "Lisbon trip", cli_id: "(untitled) · veil command"}
        item = next(chat.conversation_list.item(i) for i in range(2)
                    if chat.conversation_list.item(i).data(0x0100) == cli_id)
        chat._conversation_chosen(item)
        qtbot.waitUntil(lambda: chat.conversation.id == cli_id, timeout=10000)
        qtbot.waitUntil(lambda: listed(chat).get(cli_id) == "(untitled)", timeout=5000)
        # Opened, it is a chat: listed without the box, also for the next process.
        chat.conversations.show_others.setChecked(False)
        assert listed(chat) == {chat_id: "Lisbon trip", cli_id: "(untitled)"}
        assert chat.conversations.show_others.text() == "Show others"
        other = open_default_store()
        try:
            assert {c.id: c.origin for c in other.list_conversations()} == {chat_id: "chat", cli_id: "chat"}
        finally:
            other.close()
        # Its map is the command's: the same person gets the same stand-in in the chat.
        draft = type_and_preview(qtbot, chat, "Thank Ines Albuquerque for the call.")
        assert next(e.sent for e in draft.result.entities if e.real == "Ines Albuquerque") == stand_in
    finally:
        stop_app(veil)


# -- the side panel of detected items ------------------------------------------------------------------
PANEL_PROMPT = ("Ask Sarah Mitchell and Tom Baker (tom.baker@northwind.io) whether the Lisbon "
                "office can pay Sarah Mitchell's invoice.")


def panel_rows(chat):
    from desktop.details_panel import ROLE_ENTITY

    return {(r.data(0, ROLE_ENTITY).label.value, r.text(0)): r for r in chat.details.rows()}


def test_side_panel_lists_every_detected_value_with_stand_in_and_why(qtbot, veil):
    from PySide6.QtCore import Qt

    chat = veil.chat
    draft = type_and_preview(qtbot, chat, PANEL_PROMPT)
    rows = panel_rows(chat)
    expected = {(e.label.value, e.real) for e in draft.result.entities}
    assert set(rows) == expected  # each value once, "Sarah Mitchell" mentioned twice
    assert ("PERSON", "Sarah Mitchell") in rows and ("EMAIL", "tom.baker@northwind.io") in rows
    for entity in draft.result.entities:
        row = rows[(entity.label.value, entity.real)]
        assert row.text(2) == entity.reason
        kept = entity.action.value == "keep"
        assert row.text(1) == ("(the real value)" if kept else entity.sent)
        assert row.checkState(0) == (Qt.CheckState.Checked if kept else Qt.CheckState.Unchecked)
    assert chat.details.group(draft.result.entities[0].label).text(0).endswith(")")


def test_panel_boxes_keep_a_value_or_a_whole_type_and_reset_hands_back_to_the_engine(qtbot, veil, fake_openai):
    from PySide6.QtCore import Qt

    from agent.entities import Action, Label

    chat = veil.chat
    type_and_preview(qtbot, chat, PANEL_PROMPT)
    row = panel_rows(chat)[("PERSON", "Sarah Mitchell")]
    assert row.checkState(0) == Qt.CheckState.Unchecked
    chat.last_draft = None
    row.setCheckState(0, Qt.CheckState.Checked)  # what a click on the box does
    qtbot.waitUntil(lambda: chat.last_draft is not None and not chat.preview.rendering, timeout=20000)
    assert chat.conversation.choice_for("Sarah Mitchell") is Action.KEEP
    assert chat.preview.text().count("Sarah Mitchell") == 2 and "Tom Baker" not in chat.preview.text()
    assert panel_rows(chat)[("PERSON", "Sarah Mitchell")].checkState(0) == Qt.CheckState.Checked
    assert chat.details.group(Label.PERSON).checkState(0) == Qt.CheckState.PartiallyChecked
    # The type's box: every person kept.
    chat.last_draft = None
    chat.details.group(Label.PERSON).setCheckState(0, Qt.CheckState.Checked)
    qtbot.waitUntil(lambda: chat.last_draft is not None and not chat.preview.rendering, timeout=20000)
    assert "Tom Baker" in chat.preview.text() and chat.conversation.choice_for("Tom Baker") is Action.KEEP
    assert chat.details.reset_button.isEnabled()
    # Sent as shown; the choices are stored with the conversation.
    chat.send()
    wait_answer(qtbot, chat)
    assert "Tom Baker" in fake_openai.requests[-1].text
    assert veil.state.store.load_conversation(chat.conversation.id).choice_for("Tom Baker") is Action.KEEP
    # Reset: the engine decides again, in memory and in the vault.
    type_and_preview(qtbot, chat, PANEL_PROMPT)
    chat.last_draft = None
    chat.details.reset_button.click()
    qtbot.waitUntil(lambda: chat.last_draft is not None and not chat.preview.rendering, timeout=20000)
    assert "Tom Baker" not in chat.preview.text() and "Sarah Mitchell" not in chat.preview.text()
    assert chat.conversation.choices == [] and not chat.details.reset_button.isEnabled()
    qtbot.waitUntil(lambda: veil.state.store.load_conversation(chat.conversation.id).choices == [], timeout=5000)


def test_secrets_have_no_keep_box(qtbot, veil):
    chat = veil.chat
    type_and_preview(qtbot, chat, "My key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD, why does it fail?")
    row = next(r for (label, _), r in panel_rows(chat).items() if label == "SECRET")
    from PySide6.QtCore import Qt

    assert not row.flags() & Qt.ItemFlag.ItemIsUserCheckable and "never sent" in row.toolTip(0)


def test_show_what_was_sent_is_highlighted_like_the_preview(qtbot, veil, fake_openai):
    chat = veil.chat
    draft = type_and_preview(qtbot, chat, PANEL_PROMPT)
    preview_marks = [(m.label, chat.preview.text()[m.start:m.end]) for m in chat.preview.marks() if m.style != "kept"]
    chat.send()
    wait_answer(qtbot, chat)
    user = chat.views[-2]
    user.toggle_sent.click()
    qtbot.waitUntil(lambda: bool(user.body.marks()) and not user.body.rendering, timeout=10000)
    assert user.body.text() == draft.result.sanitized
    shown = [(m.label, user.body.text()[m.start:m.end]) for m in user.body.marks()]
    assert shown == preview_marks
    mark = next(m for m in user.body.marks() if m.label == "PERSON")
    assert mark.key.real in ("Sarah Mitchell", "Tom Baker")
    assert mark.key.real in user.body.tooltip_at(user.body.rect_of(mark)[0])


# -- README screenshots (docs/screenshots with VEIL_UPDATE_SCREENSHOTS=1), checked ------------------
@pytest.fixture
def shot_dir(tmp_path):
    from desktop_support import REPO

    return REPO / "docs" / "screenshots" if os.environ.get("VEIL_UPDATE_SCREENSHOTS") == "1" else tmp_path


def screenshot(qtbot, window, path):
    """The window as drawn (offscreen), saved and read back."""
    from PySide6.QtGui import QImage

    window.resize(1320, 800)
    window.info_banner.hide()  # "No system tray": true offscreen, not what a user sees
    qtbot.wait(300)  # layout and the last render slices
    assert window.grab().save(str(path))
    image = QImage(str(path))
    assert image.width() >= 1300 and image.height() >= 780
    return image


def pixels_like(image, color, rect=None, tolerance=6) -> int:
    """How many pixels (every 2nd in each direction) are this colour, in a rect of the image."""
    from PySide6.QtCore import QRect

    rect = rect or QRect(0, 0, image.width(), image.height())
    count = 0
    for y in range(max(rect.top(), 0), min(rect.bottom(), image.height() - 1), 2):
        for x in range(max(rect.left(), 0), min(rect.right(), image.width() - 1), 2):
            c = image.pixelColor(x, y)
            if abs(c.red() - color.red()) + abs(c.green() - color.green()) + abs(c.blue() - color.blue()) <= tolerance:
                count += 1
    return count


def rect_in(window, widget):
    from PySide6.QtCore import QRect

    return QRect(widget.mapTo(window, widget.rect().topLeft()), widget.size())


def test_screenshot_preview_with_the_side_panel(qtbot, veil, shot_dir):
    from desktop.colors import entity_style

    chat = veil.chat
    type_and_preview(qtbot, chat, PANEL_PROMPT)
    image = screenshot(qtbot, chat, shot_dir / "preview-panel.png")
    person = entity_style("PERSON", chat.preview.palette()).background
    # Stand-ins are highlighted in the preview, and the panel lists the values by type.
    assert pixels_like(image, person, rect_in(chat, chat.preview)) > 40
    assert pixels_like(image, person, rect_in(chat, chat.details)) > 40
    assert len(chat.details.rows()) >= 4 and chat.details.isVisible()


def test_screenshot_markdown_answer_with_highlights(qtbot, veil, fake_openai, shot_dir):
    from provider_fakes import Reply

    from desktop.colors import entity_style

    chat = veil.chat
    draft = type_and_preview(qtbot, chat, "Plan a reply to Sarah Mitchell (sarah.m@globaltech.com).")
    name = next(e.sent for e in draft.result.entities if e.real == "Sarah Mitchell")
    mail = next(e.sent for e in draft.result.entities if e.real == "sarah.m@globaltech.com")
    fake_openai.plan(Reply(markdown_answer(name, mail), chunk_size=5))
    chat.send()
    answer = wait_answer(qtbot, chat)
    chat.details_button.setChecked(False)  # room for the answer
    image = screenshot(qtbot, chat, shot_dir / "answer-markdown.png")
    body = rect_in(chat, answer.body)
    assert body.height() > 200  # the whole answer is in the picture
    palette = answer.body.palette()
    assert pixels_like(image, entity_style("PERSON", palette).background, body) > 60
    assert pixels_like(image, entity_style("EMAIL", palette).background, body) > 30
    assert "##" not in answer.body.document().toPlainText()


def test_screenshot_error_banner(qtbot, veil, fake_openai, shot_dir):
    from provider_fakes import Fail
    from PySide6.QtGui import QColor
    from test_providers_errors import NGINX_502

    chat = veil.chat
    type_and_preview(qtbot, chat, "Summarise the call with Sarah Mitchell.")
    fake_openai.plan(Fail(502, raw=NGINX_502))
    chat.send()
    wait_answer(qtbot, chat)
    image = screenshot(qtbot, chat, shot_dir / "error-banner.png")
    assert pixels_like(image, QColor("#b3261e"), rect_in(chat, chat.error_banner)) > 200
    assert "502 Bad Gateway" in chat.error_banner.label.text() and "<" not in chat.error_banner.label.text()


def test_screenshot_locked_window(qtbot, veil, fake_openai, shot_dir):
    from desktop.colors import HUES, entity_style

    chat = veil.chat
    type_and_preview(qtbot, chat, "Pay Sarah Mitchell from IBAN DE89 3704 0044 0532 0130 00 today.")
    chat.send()
    wait_answer(qtbot, chat)
    veil.state.lock_vault()
    qtbot.waitUntil(lambda: chat.locked_view, timeout=5000)
    image = screenshot(qtbot, chat, shot_dir / "locked.png")
    shown = every_text(chat)
    assert not [value for value in REAL_VALUES if value in shown]
    # Not one highlighted value in the picture, and it is not blank: the lock page is drawn.
    palette = chat.palette()
    assert all(pixels_like(image, entity_style(label, palette).background, tolerance=2) == 0 for label in HUES)
    assert chat.unlock_button.isVisible() and pixels_like(image, palette.color(palette.ColorRole.Button)) > 100
