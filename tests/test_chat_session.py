"""The chat's state without a window (agent/session/chat_session.py), with the real
engine, an in-memory store and a real HTTP server on loopback: stale previews are never
shown, a message goes out exactly as previewed, one at a time, and the choices follow
agent.decide.choices."""

from __future__ import annotations

import pytest
from provider_fakes import FakeProvider, last_user_text

from agent.config import default_settings
from agent.entities import Action, Label
from agent.providers import ProviderConfig, create_provider
from agent.session.chat_session import ChatSession
from agent.session.sender import Sender
from agent.session.stores import MemoryStore


@pytest.fixture
def fake():
    with FakeProvider("openai") as server:
        yield server


def test_a_preview_for_older_text_is_never_shown(privacy_engine):
    session = ChatSession()
    old = session.preview_request("Mail Anna Berg today.")
    new = session.preview_request("Mail Anna Berg today about Lisbon.")
    old_draft = privacy_engine.dry_run(old.text, old.conversation)
    new_draft = privacy_engine.dry_run(new.text, new.conversation)
    assert not session.preview_done(old, old_draft)  # it came late: dropped
    assert session.preview_done(new, new_draft)
    assert session.draft_for(new.text) is new_draft and session.draft_for(old.text) is None
    late = session.preview_request("Mail Anna Berg.")
    session.new()  # another conversation: what was on its way is dropped too
    assert not session.preview_done(late, privacy_engine.dry_run(late.text, late.conversation))
    assert session.preview_request("   ") is None and session.draft is None


def test_a_message_goes_out_exactly_as_previewed_and_one_at_a_time(privacy_engine, fake):
    store = MemoryStore()
    session = ChatSession()
    text = "Write to Anna Berg (anna.berg@example.org) about the invoice."
    ticket = session.preview_request(text)
    draft = privacy_engine.dry_run(text, ticket.conversation)
    assert session.preview_done(ticket, draft)
    assert session.can_send(text)
    plan = session.begin(text)
    assert plan.draft is draft and not plan.stored and not session.can_send(text)
    provider = create_provider(ProviderConfig("openai", base_url=fake.base_url, model="m"))
    sender, reply = plan.prepare(lambda: Sender(privacy_engine, store, provider), store, privacy_engine)
    session.sent(reply)
    assert "".join(chunk.text for chunk in reply).startswith("You wrote:")
    session.ended()
    provider.close()
    assert last_user_text("openai", fake.requests[-1].json) == draft.result.sanitized
    assert "Anna Berg" not in fake.all_bodies()
    assert session.stored and session.can_send("next")
    # Text changed after the preview: no draft is used, the text is sanitized again.
    session.preview_request("something else")
    assert session.begin("Write to Anna Berg.").draft is None


def test_choices_follow_the_engine_rule(privacy_engine):
    settings = default_settings()
    session = ChatSession()
    draft = privacy_engine.dry_run("Call Anna Berg, key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD.",
                                   session.conversation)
    person = next(e for e in draft.result.entities if e.label is Label.PERSON)
    secret = next(e for e in draft.result.entities if e.label is Label.SECRET)
    assert session.choose_for_value(person, settings)
    assert session.conversation.choice_for(person.real) is Action.KEEP
    assert not session.choose_for_value(secret, settings)
    assert session.conversation.choice_for(secret.real) is None
    assert session.choose_for_type(Label.PERSON, False, [person.real, person.real.upper()], settings)
    assert session.conversation.choice_for(person.real) is Action.REPLACE
    assert session.reset_choices() == [person.real] and session.conversation.choices == []
