"""One chat's state without any window: the conversation, the live preview's sequencing,
the user's keep/replace choices, and whether a message is on its way.

The chat window (desktop/chat.py) renders this and runs its slow calls in workers. Here
live the rules a window must not get wrong: a preview computed for older text is never
shown; a message is sent with the exact draft that was previewed, or sanitized again when
the text changed; one message at a time; what a click on a value means comes from
agent.decide.choices. Nothing here touches Qt, so it is tested on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agent.decide.choices import chosen_for_all, distinct_values, toggled
from agent.session.conversation import Conversation

if TYPE_CHECKING:
    from agent.config import Settings
    from agent.engine.interface import DryRun, PrivacyEngine
    from agent.entities import Label, Replacement
    from agent.session.sender import Sender, SendStream


@dataclass(frozen=True)
class PreviewTicket:
    """One preview request: shown only if it is still the latest when its result comes."""

    seq: int
    text: str
    conversation: Conversation


@dataclass(frozen=True)
class SendPlan:
    """A message about to be sent: its text, conversation, the draft previewed for exactly
    this text (or None), and whether the conversation is in the vault yet."""

    text: str
    conversation: Conversation
    draft: DryRun | None
    stored: bool

    def prepare(self, make_sender: Callable[[], Sender], store: Any, engine: PrivacyEngine) -> tuple[Sender, SendStream]:
        """In a worker: store a new conversation, then send with the previewed draft when it
        still fits the conversation (else the text is sanitized again)."""
        sender = make_sender()
        if not self.stored:
            store.save_conversation(self.conversation)
        draft = self.draft
        sanitized = draft.result if draft is not None and engine.commit(self.conversation, draft) else None
        return sender, sender.send(self.conversation, self.text, sanitized=sanitized)


class ChatSession:
    def __init__(self) -> None:
        self.conversation = Conversation()
        self.stored = False  # a new conversation exists only in memory until its first message
        self.draft: DryRun | None = None  # the preview on screen
        self.draft_text = ""  # the text it was computed for
        self._seq = 0
        self.reply: SendStream | None = None
        self.sending = False

    # -- which conversation ---------------------------------------------------------------------
    def new(self) -> None:
        self.conversation, self.stored = Conversation(), False
        self.cancel_previews()

    def opened(self, conversation: Conversation) -> None:
        """A conversation loaded from the vault."""
        self.conversation, self.stored = conversation, True
        self.cancel_previews()

    # -- preview sequencing ---------------------------------------------------------------------
    def preview_request(self, text: str) -> PreviewTicket | None:
        """A ticket for sanitizing `text` (None when there is nothing to preview)."""
        if not text.strip():
            self.cancel_previews()
            return None
        self._seq += 1
        return PreviewTicket(self._seq, text, self.conversation)

    def cancel_previews(self) -> None:
        """Previews on their way are dropped when they come; none is on screen."""
        self._seq += 1
        self.draft, self.draft_text = None, ""

    def is_current(self, ticket: PreviewTicket) -> bool:
        return ticket.seq == self._seq and ticket.conversation is self.conversation

    def preview_done(self, ticket: PreviewTicket, draft: DryRun) -> bool:
        """Keep the result if it is still wanted; True when it is to be shown."""
        if not self.is_current(ticket):
            return False  # the text changed meanwhile: a newer preview is on its way
        self.draft, self.draft_text = draft, ticket.text
        return True

    def draft_for(self, text: str) -> DryRun | None:
        """The previewed draft when it was computed for exactly this text."""
        return self.draft if self.draft is not None and self.draft_text == text else None

    # -- keep / replace -------------------------------------------------------------------------
    def choose_for_value(self, entity: Replacement, settings: Settings) -> bool:
        """Flip one value; False when it cannot be (a secret is never sent)."""
        action = toggled(entity.action, entity.label, settings)
        if action is None:
            return False
        self.conversation.set_choice(entity.real, entity.label, action)
        return True

    def choose_for_type(self, label: Label, keep: bool, values: Iterable[str], settings: Settings) -> bool:
        action = chosen_for_all(label, keep, settings)
        if action is None:
            return False
        for _, real in distinct_values((label, value) for value in values):
            self.conversation.set_choice(real, label, action)
        return True

    def reset_choices(self) -> list[str]:
        return self.conversation.forget_choices()

    # -- sending ----------------------------------------------------------------------------------
    def can_send(self, text: str) -> bool:
        return not self.sending and bool(text.strip())

    def begin(self, text: str = "") -> SendPlan:
        """One message at a time: what to send, fixed now (on the window's thread)."""
        self.sending = True
        return SendPlan(text, self.conversation, self.draft_for(text), self.stored)

    def prepare_retry(self, message_id: int, make_sender: Callable[[], Sender]) -> tuple[Sender, SendStream]:
        sender = make_sender()
        return sender, sender.retry(self.conversation, message_id)

    def sent(self, reply: SendStream) -> None:
        """The message is stored and its answer is coming."""
        self.stored = True
        self.reply = reply

    def streaming(self, reply: SendStream) -> None:
        self.reply = reply

    def ended(self) -> None:
        """Answered, stopped, failed, or refused before anything was stored."""
        self.reply, self.sending = None, False

    def cancel(self) -> bool:
        if self.reply is None:
            return False
        self.reply.cancel()
        return True
