"""The calls between EngineHost (agent.engine.host) and the engine in its helper process
(agent.engine.child): one frozen dataclass per operation, the conversation state they
carry, and how errors travel back. Everything here crosses a multiprocessing pipe, so it
is all picklable; which method answers each call is the table in agent.engine.child.

A call goes out as the dataclass itself; the answer comes back as ("ok", value) or
("error", exception), and the child's first message is ("ready", None) or ("error", ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.config import Settings
from agent.entities import Action
from agent.session.conversation import Conversation, EntityChoice, MapEntry


@dataclass(frozen=True, slots=True)
class ConversationState:
    """What the engine needs of a conversation: picklable, and enough to rebuild it.

    The child gets the conversation's whole state with each call and returns the new map
    entries it made; the engine is deterministic given that state, so replaying them in
    the app gives the same conversation the child saw."""

    id: str
    seed: int
    entries: tuple[MapEntry, ...]
    choices: tuple[EntityChoice, ...]

    @classmethod
    def of(cls, conversation: Conversation) -> ConversationState:
        return cls(conversation.id, conversation.seed, tuple(conversation.entries), tuple(conversation.choices))

    def build(self) -> Conversation:
        return Conversation(self.id, seed=self.seed, entries=self.entries, choices=self.choices)


# -- calls on either channel -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DryRunCall:
    """PrivacyEngine.dry_run -> DryRun."""

    state: ConversationState
    text: str
    overrides: dict[str, Action] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RestoreCall:
    """PrivacyEngine.restore -> RestoreResult."""

    state: ConversationState
    text: str


@dataclass(frozen=True, slots=True)
class DetectCall:
    """PrivacyEngine.detect -> list[Span]."""

    state: ConversationState | None
    text: str


@dataclass(frozen=True, slots=True)
class Configure:
    """Rebuild the engine for new settings (policy, lists, detectors) -> None."""

    settings: Settings


@dataclass(frozen=True, slots=True)
class Ping:
    """Is the helper alive? -> "pong"."""


@dataclass(frozen=True, slots=True)
class Stop:
    """End the channel (no answer)."""


# -- streaming restore (the restore channel only) ---------------------------------------------
@dataclass(frozen=True, slots=True)
class OpenStream:
    """Start restoring one answer -> None."""

    stream_id: int
    state: ConversationState


@dataclass(frozen=True, slots=True)
class FeedStream:
    """StreamingRestore.feed -> RestoredChunk."""

    stream_id: int
    chunk: str


@dataclass(frozen=True, slots=True)
class FinishStream:
    """StreamingRestore.finish -> RestoredChunk."""

    stream_id: int


@dataclass(frozen=True, slots=True)
class StreamResult:
    """StreamingRestore.result -> RestoreResult."""

    stream_id: int


@dataclass(frozen=True, slots=True)
class CloseStream:
    """Forget a stream -> None."""

    stream_id: int


def portable(exc: BaseException) -> BaseException:
    """The exception itself when it survives pickling, else a RuntimeError with its text."""
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
