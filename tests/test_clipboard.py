"""Clipboard pitfalls (issue 15 item 7): pressing sanitize twice, layered stand-ins, "card
ending 1234", counts of entities rather than mentions, and undo. The real engine (helper
process), a real vault in a tmp VEIL_HOME; the app-level undo on Qt's offscreen platform."""

from __future__ import annotations

import datetime as dt
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any QApplication exists

import pytest
from desktop_support import (  # noqa: F401  (fixtures)
    TEST_PASSPHRASE,
    app_settings,
    desktop_env,
    shared_engine,
    start_app,
    stop_app,
)

DAY = dt.date(2026, 5, 4)
TICKET = ("Hi, this is Marta Kowalczyk (marta.kowalczyk@northfield-labs.com). Ms. Kowalczyk's refund "
          "is late; Marta is tired of waiting. MARTA KOWALCZYK")


@pytest.fixture
def vault(desktop_env):
    from agent.config import default_settings
    from agent.vault import open_default_store

    store = open_default_store(settings=default_settings(), passphrase=TEST_PASSPHRASE)
    yield store
    store.close()


@pytest.fixture
def guard(shared_engine, vault):
    from agent.session.clipboard import ClipboardGuard

    return ClipboardGuard(shared_engine, vault, today=lambda: DAY)


def stand_in(vault, outcome, real: str) -> str:
    return next(e.stand_in for e in vault.load_conversation(outcome.conversation_id).entries if e.real == real)


def test_sanitizing_twice_leaves_the_stand_ins_and_says_so(guard, vault):
    first = guard.sanitize(TICKET)
    assert first.changed and "Kowalczyk" not in first.text
    second = guard.sanitize(first.text)  # the hotkey pressed again
    assert second.text == first.text and not second.changed
    assert second.already_sanitized and second.already == {"PERSON": 1, "EMAIL": 1}
    assert second.summary().startswith("Already sanitized: the clipboard holds Veil's stand-ins for 1 email, 1 person")
    # So the answer restores to the real values, not to first-round stand-ins.
    back = guard.restore(second.text)
    assert back.text == TICKET
    # New personal data next to the stand-ins is still replaced; the stand-ins stay.
    mixed = guard.sanitize(first.text + " Please copy Tomasz Wrobel.")
    assert mixed.text.startswith(first.text) and "Tomasz Wrobel" not in mixed.text
    assert mixed.counts == {"PERSON": 1} and not mixed.already_sanitized
    assert "were left as they are" in mixed.summary()


def test_restore_peels_stand_ins_of_stand_ins(guard, vault, shared_engine):
    """A text sanitized twice by an older Veil (the map holds stand-in -> stand-in) is
    restored to the real values in one go."""
    conversation = guard.conversation()
    once = shared_engine.sanitize(TICKET, conversation)
    twice = shared_engine.sanitize(once.sanitized, conversation)  # what the second hotkey press did
    vault.save_conversation(conversation)
    assert "Kowalczyk" not in twice.sanitized and twice.sanitized != once.sanitized
    back = guard.restore(twice.sanitized)
    assert back.text == TICKET, back.text
    assert back.counts["PERSON"] == 1


def test_card_ending_in_the_stand_ins_last_digits_is_restored(guard, vault):
    sanitized = guard.sanitize("My card 4111 1111 1111 1111 was charged twice, says Olu Bankole.")
    card = stand_in(vault, sanitized, "4111 1111 1111 1111")
    tail = "".join(ch for ch in card if ch.isdigit())[-4:]
    assert tail != "1111"
    answer = (f"I am sorry, Mr. Bankole: the card ending {tail} was charged twice. The second charge on "
              f"**** **** **** {tail} will be refunded. Your order {tail}7 ships today.")
    answer = answer.replace("Bankole", stand_in(vault, sanitized, "Olu Bankole").split()[-1])
    back = guard.restore(answer)
    assert "the card ending 1111 was charged twice" in back.text
    assert "**** **** **** 1111 will" in back.text
    assert f"order {tail}7" in back.text  # a longer number without a cue is not touched
    assert back.counts["CREDIT_CARD"] == 1 and back.mentions["CREDIT_CARD"] == 2


def test_notifications_count_entities_not_mentions(guard, vault):
    sanitized = guard.sanitize(TICKET)
    assert sanitized.counts == {"PERSON": 1, "EMAIL": 1}
    assert sanitized.summary().startswith("Replaced 1 person (4 mentions), 1 email.")
    back = guard.restore(sanitized.text)
    assert back.text == TICKET
    assert back.counts == {"PERSON": 1, "EMAIL": 1} and back.mentions["PERSON"] == 4
    assert back.summary() == "Restored 1 person (4 mentions), 1 email."


# -- undo in the app -------------------------------------------------------------------------------------------
def test_undo_puts_back_what_was_copied_before_sanitizing(qtbot, desktop_env, shared_engine):
    from PySide6.QtGui import QGuiApplication

    veil = start_app(qtbot, shared_engine, app_settings())
    try:
        clipboard = QGuiApplication.clipboard()
        clipboard.setText(TICKET)
        with qtbot.waitSignal(veil.clipboard_done, timeout=20000):
            veil.sanitize_clipboard(from_hotkey=True)
        assert "Kowalczyk" not in clipboard.text()
        sanitized = clipboard.text()
        with qtbot.waitSignal(veil.clipboard_done, timeout=20000) as again:
            veil.sanitize_clipboard(from_hotkey=True)
        assert clipboard.text() == sanitized and veil.notifications[-1][0] == "Clipboard already sanitized"
        assert again.args[0].already_sanitized
        veil.undo_clipboard()
        assert clipboard.text() == TICKET
        assert veil.notifications[-1][0] == "Clipboard: sanitize undone"
        veil.undo_clipboard()  # once only
        assert clipboard.text() == TICKET and "Nothing to undo" in veil.notifications[-1][1]
        # Kept in memory only, and not past a lock.
        with qtbot.waitSignal(veil.clipboard_done, timeout=20000):
            veil.sanitize_clipboard(from_hotkey=True)
        assert veil.clipboard.undo_text is not None
        veil.state.lock_vault()
        qtbot.waitUntil(lambda: veil.clipboard.undo_text is None, timeout=5000)
        raw = b"".join(p.read_bytes() for p in (desktop_env / "data").glob("vault.db*"))
        assert b"Kowalczyk" not in raw
    finally:
        stop_app(veil)


def test_the_clipboard_conversation_is_not_a_chat(guard, vault):
    outcome = guard.sanitize(TICKET)
    origins = {s.id: s.origin for s in vault.list_conversations()}
    assert origins[outcome.conversation_id] == "clipboard"
