"""A project: one entity map in the vault shared by every file of every run, so "Acme
Corp" gets the same stand-in in all 200 transcripts, and its policy.

The map is a conversation with the id `files-<name>` and origin "files" (hidden from
the chat list); the policy is the vault setting `files.project.<name>`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.files.policy import ProjectPolicy
from agent.session.conversation import Conversation, ConversationNotFound
from agent.session.stores import ConversationStore

CONVERSATION_PREFIX = "files-"
_SETTING_PREFIX = "files.project."
_NAME = re.compile(r"^[\w .\-]{1,80}$")


class ProjectError(ValueError):
    """A project that cannot be used (bad name, not found for restore)."""


@dataclass
class Project:
    name: str
    conversation: Conversation
    policy: ProjectPolicy

    @property
    def conversation_id(self) -> str:
        return self.conversation.id


def check_name(name: str) -> str:
    name = name.strip()
    if not _NAME.match(name):
        raise ProjectError(
            f"project name {name!r}: use 1-80 letters, digits, spaces, dots, dashes or underscores"
        )
    return name


def open_project(store: ConversationStore, name: str, *, create: bool = True,
                 policy_update: ProjectPolicy | None = None) -> Project:
    """The project's map and policy from the store; created on first use when `create`.
    `policy_update` is merged into the saved policy and saved."""
    name = check_name(name)
    conversation_id = CONVERSATION_PREFIX + name
    try:
        conversation = store.load_conversation(conversation_id)
    except ConversationNotFound:
        if not create:
            raise ProjectError(f"no project {name!r} in the vault (sanitize files with --project {name!r} first)") from None
        conversation = _create_hidden(store, conversation_id, f"Files: {name}")
    policy = load_policy(store, name)
    if policy_update is not None:
        policy = policy.merged(policy_update)
        save_policy(store, name, policy)
    return Project(name, conversation, policy)


def _create_hidden(store: ConversationStore, conversation_id: str, title: str) -> Conversation:
    """The project's map: a conversation of origin "files", which the chat list does not show."""
    return store.create_conversation(title=title, conversation_id=conversation_id, origin="files")


# A store without settings (the in-memory store) keeps policies here for the process.
_MEMORY_POLICIES: dict[tuple[int, str], dict] = {}


def load_policy(store: ConversationStore, name: str) -> ProjectPolicy:
    getter = getattr(store, "get_setting", None)
    data = getter(_SETTING_PREFIX + name) if getter else _MEMORY_POLICIES.get((id(store), name))
    return ProjectPolicy.from_json(data)


def save_policy(store: ConversationStore, name: str, policy: ProjectPolicy) -> None:
    policy.validate()
    setter = getattr(store, "set_setting", None)
    if setter:
        setter(_SETTING_PREFIX + name, policy.to_json())
    else:
        _MEMORY_POLICIES[(id(store), name)] = policy.to_json()


def list_projects(store: ConversationStore) -> list[str]:
    return sorted(s.id[len(CONVERSATION_PREFIX):] for s in store.list_conversations() if s.id.startswith(CONVERSATION_PREFIX))
