"""What a front end may ask of the privacy engine, whichever engine it holds: `Engine`
(agent.engine.core, in this process) and `EngineHost` (agent.engine.host, in a helper
process) are both a `PrivacyEngine`. Front ends (the chat, the clipboard, the CLI, veil
serve, the files runner) take a `PrivacyEngine` and never care which one it is.

A preview is a dry run: `dry_run` sanitizes on a copy of the conversation and returns a
`DryRun` (the result and the map entries it would add); `commit` adds those entries when
the text is sent, unless the conversation changed meanwhile. `sanitize` is both at once.

Light on purpose (no spaCy, no detectors): the desktop app imports it in its UI process.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from agent.entities import Action, RestoreResult, SanitizeResult, Span
from agent.session.conversation import Conversation, MapEntry

if TYPE_CHECKING:  # the restorer's module builds the name lexicon's tables: not needed here
    from agent.restore.restorer import RestoredChunk


@runtime_checkable
class StreamingRestore(Protocol):
    """Restores an answer as it streams in, never showing half a stand-in."""

    def feed(self, chunk: str) -> RestoredChunk: ...

    def finish(self) -> RestoredChunk: ...

    def result(self) -> RestoreResult: ...

    @property
    def received(self) -> str: ...


@dataclass(slots=True)
class DryRun:
    """A sanitize that has not touched the conversation yet: the result to show, and the
    map entries to add if it is sent (`PrivacyEngine.commit`)."""

    result: SanitizeResult
    new_entries: list[MapEntry]
    conversation_id: str
    base_entries: int  # the conversation's map size it was computed against
    overrides: dict[str, Action] = field(default_factory=dict)
    seconds: float = 0.0
    # The conversation's map revision it was computed against: the map may change without
    # growing (entries another process stored replace ones that could not be stored).
    base_revision: int | None = None
    # The engine's settings generation it was computed with: a preview made before the
    # settings changed (an always-protect term added, lists loaded at unlock) must not be
    # sent as it is.
    engine_generation: int = 0


@runtime_checkable
class PrivacyEngine(Protocol):
    """The engine's interface: sanitize a text in a conversation, restore an answer."""

    def warm_up(self) -> None:
        """Load the slow parts now (spaCy, name lists) rather than on the first message."""
        ...

    def detect(self, text: str, conversation: Conversation | None = None) -> list[Span]:
        """The entities found in the text, before any decision."""
        ...

    def sanitize(
        self, text: str, conversation: Conversation, overrides: Mapping[str, Action] | None = None
    ) -> SanitizeResult:
        """The text to send; the map entries it made are added to the conversation."""
        ...

    def dry_run(
        self, text: str, conversation: Conversation, overrides: Mapping[str, Action] | None = None
    ) -> DryRun:
        """What sanitize would give, without changing the conversation (for previews)."""
        ...

    def commit(self, conversation: Conversation, draft: DryRun) -> bool:
        """Add a dry run's map entries to the conversation; False (nothing added) when the
        conversation changed since, so the caller sanitizes again."""
        ...

    def restore(self, text: str, conversation: Conversation) -> RestoreResult:
        """The answer with every stand-in of the conversation put back."""
        ...

    def streaming_restorer(self, conversation: Conversation) -> StreamingRestore:
        """A restorer for one answer that arrives in pieces."""
        ...


def conversation_copy(conversation: Conversation) -> Conversation:
    """A copy with the same seed, map and choices, to sanitize on without changing the
    original (the engine is deterministic given these, so the copy decides alike)."""
    return Conversation(
        conversation.id, seed=conversation.seed, entries=conversation.entries, choices=conversation.choices
    )


def dry_run_with(
    sanitize: Callable[[str, Conversation, Mapping[str, Action] | None], SanitizeResult],
    text: str,
    conversation: Conversation,
    overrides: Mapping[str, Action] | None,
) -> DryRun:
    """`sanitize` on a copy of the conversation, as a DryRun of the original."""
    revision = conversation.revision  # read first: a change after it only makes commit refuse
    copy = conversation_copy(conversation)
    base_entries = len(copy.entries)
    began = time.perf_counter()
    result = sanitize(text, copy, overrides)
    return DryRun(
        result, copy.take_unsaved(), conversation.id, base_entries, dict(overrides or {}),
        time.perf_counter() - began, revision,
    )


def commit_dry_run(conversation: Conversation, draft: DryRun) -> bool:
    """PrivacyEngine.commit, the same for every engine: the entries are replayed here."""
    if draft.conversation_id != conversation.id or len(conversation.entries) != draft.base_entries:
        return False
    if draft.base_revision is not None and conversation.revision != draft.base_revision:
        return False
    apply_entries(conversation, draft.new_entries)
    return True


def apply_entries(conversation: Conversation, entries: list[MapEntry]) -> None:
    """Replay map entries made on a copy of this conversation, in order.

    An entry whose real value is already mapped with the same action is a spelling
    variant of it (Conversation.add_variant: "MITCHELL" next to "Mitchell"); anything else
    is a new mapping (add_entry)."""
    for entry in entries:
        existing = conversation.lookup_real(entry.real, entry.action)
        if existing is None:
            conversation.add_entry(entry)
            continue
        if existing.real == entry.real and existing.stand_in == entry.stand_in:
            continue  # already there
        base = MapEntry(entry.parent or existing.real, existing.stand_in, entry.label, entry.action)
        conversation.add_variant(base, entry.real, entry.stand_in)
