"""Handles in text split into tokens (corpora, copied feeds): "@ name" opening a line or
after "RT", a handle-shaped one anywhere, and "u / name"; "meet @ home" and "@ the Quarry"
are the word "at". Lines written for these tests."""

from __future__ import annotations

import pytest

from agent.entities import Label


def usernames(engine, text: str) -> set[str]:
    return {s.text for s in engine.detect(text) if s.label is Label.USERNAME}


@pytest.mark.parametrize(
    "text, handle",
    [
        ("@ Quillmonger : that is not what the docs say", "Quillmonger"),
        ("RT @ LenaBirdwatch : the heron is back at the pond", "LenaBirdwatch"),
        ("watching the match with my buddy @ kestrelfm tonight", "kestrelfm"),
        ("shout out to @ marta_dev for the fix", "marta_dev"),
        ("Hey u / thimblewick - someone reposted your photo", "thimblewick"),
    ],
)
def test_a_handle_written_with_spaces_is_a_user_name(privacy_engine, text, handle):
    assert handle in usernames(privacy_engine, text), usernames(privacy_engine, text)


@pytest.mark.parametrize("text", ["see you @ home after work", "Lap @ the Quarry 10 K", "me and u / them"])
def test_at_as_a_word_is_no_handle(privacy_engine, text):
    assert not usernames(privacy_engine, text), usernames(privacy_engine, text)


@pytest.mark.parametrize("handle", ["youknowwhatimean", "thimblewickandfriends"])
def test_a_handle_longer_than_any_word_gets_a_stand_in_of_words_not_a_letter(privacy_engine, handle):
    from agent.session.conversation import Conversation

    conversation = Conversation("long-handle")
    text = f"RT @{handle}: write honestly to yourself"
    result = privacy_engine.sanitize(text, conversation)
    stand_in = next(e.sent for e in result.entities if e.real.lstrip("@") == handle).lstrip("@")
    assert len(stand_in) >= 8 and stand_in.isalpha(), stand_in
    echoed = result.sanitized.replace(stand_in, stand_in.upper())
    assert privacy_engine.restore(echoed, conversation).text == text.replace(handle, handle.upper())



@pytest.mark.parametrize("handle", ["SoWhatIfItRains", "MarlowQuist", "TheRealMaraDoe"])
def test_a_camel_case_handle_gets_a_camel_case_stand_in_that_restores(privacy_engine, handle):
    from agent.session.conversation import Conversation

    conversation = Conversation("camel-handle")
    text = f"Reply to @{handle} about the refund, politely."
    result = privacy_engine.sanitize(text, conversation)
    stand_in = next(e.sent for e in result.entities if e.real.lstrip("@") == handle).lstrip("@")
    capitals = sum(c.isupper() for c in stand_in)
    assert stand_in != handle and capitals == sum(c.isupper() for c in handle), stand_in
    assert privacy_engine.restore(result.sanitized, conversation).text == text
