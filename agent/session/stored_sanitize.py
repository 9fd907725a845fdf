"""Sanitizing a text into a stored conversation (the clipboard, `veil sanitize`): the
engine's result and the map entries it added are stored as one step that other processes
cannot split, so the stand-ins printed or pasted are the ones in the store."""

from __future__ import annotations

from collections.abc import Mapping

from agent.engine.interface import PrivacyEngine
from agent.entities import Action, SanitizeResult
from agent.session.conversation import Conversation
from agent.session.stores import ConversationStore, render_and_store


def sanitize_and_save(
    engine: PrivacyEngine,
    store: ConversationStore,
    conversation: Conversation,
    text: str,
    overrides: Mapping[str, Action] | None = None,
) -> SanitizeResult:
    """`engine.sanitize` and `store.save_conversation` as one step (render_and_store):
    sanitized again when another process stored a clashing map entry meanwhile."""
    return render_and_store(
        store,
        conversation,
        lambda: engine.sanitize(text, conversation, overrides),
        lambda _result: store.save_conversation(conversation),
    )
