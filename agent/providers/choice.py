"""Which provider answers, and where the next message goes.

The settings remember one profile per provider kind (`settings.provider.profile(kind)`:
base URL, model, generation values), so choosing another kind never touches the URL or
model of the others. `choose_provider` is the one rule for picking a kind (and, for that
kind only, a model or URL) used by the chat window's picker, the app's sender and the
CLI flags; `destination` says in words where the next message goes (host and model), for
the window to show next to Send. The kinds and their names are in kinds.py.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from agent.providers.base import DEFAULT_BASE_URLS
from agent.providers.kinds import PROVIDER_KINDS, PROVIDER_NAMES, provider_name

__all__ = ["PROVIDER_KINDS", "PROVIDER_NAMES", "Destination", "choose_provider", "destination", "provider_name"]

if TYPE_CHECKING:
    from agent.config import Settings


def choose_provider(settings: Settings, kind: str | None = None, *, model: str | None = None,
                    base_url: str | None = None) -> Settings:
    """A copy of `settings` that answers with `kind` (None: the current one) and its
    remembered profile; `model` and `base_url`, when given, change that kind's profile
    only. For the local kind the model is the local model's catalog name (an empty one
    keeps the configured model or file)."""
    chosen = copy.deepcopy(settings)
    provider = chosen.provider
    if kind is not None:
        if kind not in PROVIDER_KINDS:
            raise ValueError(f"unknown provider kind {kind!r}; expected one of {', '.join(PROVIDER_KINDS)}")
        provider.kind = kind
    profile = provider.profile()
    if provider.kind == "local":
        if model and model != chosen.local_model.name:
            chosen.local_model.name, chosen.local_model.path = model, ""
        return chosen
    if model is not None:
        profile.model = model.strip()
    if base_url is not None:
        profile.base_url = base_url.strip()
    return chosen


@dataclass(frozen=True)
class Destination:
    """Where a message sent with some settings goes."""

    kind: str
    provider: str  # display name: "OpenAI-compatible"
    host: str  # "api.openai.com", "127.0.0.1:11434"; "this computer" for the local model
    model: str  # "" when the provider picks its default

    @property
    def leaves_machine(self) -> bool:
        return self.kind != "local"

    def describe(self) -> str:
        """One line for a person: "→ 127.0.0.1:8080 · llama3.2"."""
        model = self.model or "its default model"
        return f"→ {self.host} · {model}"


def destination(settings: Settings) -> Destination:
    provider = settings.provider
    kind = provider.kind
    if kind == "local":
        local = settings.local_model
        model = local.name or (local.path.replace("\\", "/").rsplit("/", 1)[-1] if local.path else "")
        return Destination(kind, provider_name(kind), "this computer", model)
    url = provider.base_url or DEFAULT_BASE_URLS.get(kind, "")
    host = urlsplit(url).netloc or url
    return Destination(kind, provider_name(kind), host, provider.model)
