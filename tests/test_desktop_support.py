"""The agent-side pieces the desktop app calls (no Qt): the engine in its helper process
(agent.engine.host) and the clipboard logic (agent.session.clipboard), against the real engine
and a real vault."""

from __future__ import annotations

import datetime as dt

import pytest
from desktop_support import TEST_PASSPHRASE, desktop_env, shared_engine  # noqa: F401  (fixtures)

from agent.entities import Action, Label
from agent.session.conversation import Conversation, MapEntry

TEXTS = [
    "Sarah Mitchell (sarah.m@globaltech.com) met Dr. Anjali Gupta in Chicago on 12 March 2024.",
    "Tell MITCHELL and mitchell that Anjali called from +1 415 555 0134; Ms. Mitchell's card is 4111 1111 1111 1111.",
    "Sarah Mitchell wants the contract with Globex Corporation signed by Friday.",
]


def test_helper_process_gives_what_the_engine_gives_in_process(shared_engine, privacy_engine):
    """Same seed, same texts: identical sanitized texts and identical maps (variants and
    partial mentions replayed in order)."""
    assert shared_engine.isolated and shared_engine.pid is not None
    remote, local = Conversation(seed=1234), Conversation(seed=1234)
    for text in TEXTS:
        assert shared_engine.sanitize(text, remote).sanitized == privacy_engine.sanitize(text, local).sanitized
    key = lambda c: [(e.real, e.stand_in, e.label, e.action, e.parent) for e in c.entries]
    assert key(remote) == key(local) and len(remote.entries) >= 5
    answer = " ".join(e.stand_in.upper() for e in remote.entries[:3])
    assert shared_engine.restore(answer, remote).text == privacy_engine.restore(answer, local).text


def test_dry_run_leaves_the_conversation_alone_until_committed(shared_engine):
    conversation = Conversation(seed=7)
    draft = shared_engine.dry_run(TEXTS[0], conversation)
    assert conversation.entries == [] and draft.new_entries
    assert "Sarah Mitchell" not in draft.result.sanitized
    again = shared_engine.dry_run(TEXTS[0], conversation)
    assert again.result.sanitized == draft.result.sanitized  # deterministic: the preview is what is sent
    assert shared_engine.commit(conversation, draft)
    assert [e.real for e in conversation.entries] == [e.real for e in draft.new_entries]
    assert conversation.take_unsaved() == draft.new_entries  # the store will save them
    # A draft computed against an older map is refused (the caller sanitizes again).
    stale = shared_engine.dry_run(TEXTS[2], Conversation(conversation.id, seed=7))
    assert not shared_engine.commit(conversation, stale)


def test_choices_travel_with_the_conversation(shared_engine):
    conversation = Conversation(seed=3)
    conversation.set_choice("Sarah Mitchell", Label.PERSON, Action.KEEP)
    result = shared_engine.sanitize(TEXTS[2], conversation)
    assert "Sarah Mitchell" in result.sanitized


def test_streaming_restore_through_the_helper_process(shared_engine):
    conversation = Conversation(seed=99)
    result = shared_engine.sanitize(TEXTS[0], conversation)
    name = next(e.sent for e in result.entities if e.real == "Sarah Mitchell")
    answer = f"Hello {name}, and hello {name.split()[1]}'s team."
    restorer = shared_engine.streaming_restorer(conversation)
    shown = []
    for i in range(0, len(answer), 3):
        shown.append(restorer.feed(answer[i:i + 3]).text)
    shown.append(restorer.finish().text)
    assert "".join(shown) == "Hello Sarah Mitchell, and hello Mitchell's team."
    assert restorer.received == answer
    final = restorer.result()
    assert [s.real for s in final.spans] == ["Sarah Mitchell", "Mitchell"] and final.unrestored == []


def test_engine_errors_cross_the_process_boundary(shared_engine):
    from agent.engine.core import MAX_TEXT_CHARS, InputRejected

    with pytest.raises(InputRejected, match="at most"):
        shared_engine.sanitize("x" * (MAX_TEXT_CHARS + 1), Conversation())
    assert shared_engine.ping()  # and the helper is still there


def test_in_process_mode_when_no_helper_process(privacy_engine):
    from agent.config import default_settings
    from agent.engine.host import EngineHost

    host = EngineHost(default_settings(), isolated=False)
    host.warm_up()
    assert not host.isolated
    conversation = Conversation(seed=5)
    result = host.sanitize(TEXTS[0], conversation)
    assert result.sanitized == privacy_engine.sanitize(TEXTS[0], Conversation(seed=5)).sanitized
    assert conversation.entries


def test_a_killed_helper_is_replaced_by_the_in_process_engine():
    from agent.config import default_settings
    from agent.engine.host import EngineHost

    host = EngineHost(default_settings())
    host.warm_up()
    host._process.kill()
    host._process.join(5)
    conversation = Conversation(seed=11)
    result = host.sanitize(TEXTS[0], conversation)  # not lost: done in this process
    assert "Sarah Mitchell" not in result.sanitized and not host.isolated
    assert "helper process stopped" in host.fallback_reason
    host.close()


def test_apply_entries_replays_variants_and_partials():
    from agent.engine.interface import apply_entries

    original = Conversation(seed=1)
    full = original.add_entry(MapEntry("Sarah Mitchell", "Jessica Rosario", Label.PERSON))
    original.add_entry(MapEntry("Mitchell", "Rosario", Label.PERSON, parent="Sarah Mitchell"))
    original.add_variant(full, "SARAH MITCHELL", "JESSICA ROSARIO")
    copy = Conversation(original.id, seed=1)
    apply_entries(copy, original.take_unsaved())
    assert [(e.real, e.stand_in, e.parent) for e in copy.entries] == [(e.real, e.stand_in, e.parent) for e in original.entries]


# -- clipboard ------------------------------------------------------------------------------------------
@pytest.fixture
def vault(desktop_env):
    from agent.config import default_settings
    from agent.vault import open_default_store

    store = open_default_store(settings=default_settings(), passphrase=TEST_PASSPHRASE)
    yield store
    store.close()


def test_clipboard_round_trip_kept_in_the_days_conversation(shared_engine, vault):
    from agent.session.clipboard import ClipboardGuard, conversation_id_for

    day = dt.date(2025, 3, 14)
    guard = ClipboardGuard(shared_engine, vault, today=lambda: day)
    text = "Hi, I'm Priya Raman (priya.raman@acme-corp.com, +44 20 7946 0958). Please fix my order."
    outcome = guard.sanitize(text)
    assert outcome.changed and outcome.conversation_id == conversation_id_for(day)
    for real in ("Priya Raman", "priya.raman@acme-corp.com", "7946 0958"):
        assert real not in outcome.text
    assert outcome.counts == {"PERSON": 1, "EMAIL": 1, "PHONE": 1}
    assert outcome.summary().startswith("Replaced 1 email, 1 person, 1 phone number")
    # The map is in the vault: another guard (another process, later) restores with it.
    stand_in = next(e.stand_in for e in vault.load_conversation(outcome.conversation_id).entries
                    if e.real == "Priya Raman")
    later = ClipboardGuard(shared_engine, vault, today=lambda: day + dt.timedelta(days=1))
    restored = later.restore(f"Dear {stand_in}, your order is on its way.")
    assert restored.text == "Dear Priya Raman, your order is on its way."
    assert restored.counts == {"PERSON": 1} and restored.summary() == "Restored 1 person."
    # Same day, same person: same stand-in (answers about several snippets restore whole).
    again = guard.sanitize("Priya Raman called again.")
    assert stand_in in again.text


def test_clipboard_with_nothing_to_do_says_so(shared_engine, vault):
    from agent.session.clipboard import ClipboardGuard

    guard = ClipboardGuard(shared_engine, vault)
    nothing = guard.sanitize("the weather is nice today")
    assert not nothing.changed and nothing.summary() == "Clipboard unchanged: nothing to replace."
    none_back = guard.restore("no stand-ins in here")
    assert not none_back.changed and "no stand-ins" in none_back.summary()


def test_a_preview_made_before_the_settings_changed_is_not_committed():
    """An always-protect term added (or the vault's lists loaded at unlock) after a preview
    was computed: the preview must not be sent as it is; commit refuses and the caller
    sanitizes again with the new settings."""
    import copy

    from agent.config import default_settings
    from agent.engine.host import EngineHost

    text = "Please send the kestrelwing report today."
    host = EngineHost(default_settings(), isolated=False)
    host.warm_up()
    conversation = Conversation(seed=3)
    draft = host.dry_run(text, conversation)
    assert "kestrelwing" in draft.result.sanitized  # nothing says it is personal yet

    protected = copy.deepcopy(host.settings)
    protected.lists.always_protect = ["kestrelwing"]
    host.reconfigure(protected)
    assert host.commit(conversation, draft) is False and not conversation.entries
    assert "kestrelwing" not in host.sanitize(text, conversation).sanitized
    host.close()
