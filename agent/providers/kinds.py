"""The provider kinds Veil knows and what a person calls each: one table that the config
checks a kind against, the CLI offers as choices, and every window shows (the chat's
picker, Settings › Provider, the first-run wizard), so a kind is named the same way
everywhere.

It imports nothing of Veil: agent/config.py reads it without importing the providers'
code (which itself needs the settings).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ProviderKind:
    kind: str  # the value of [provider] kind
    name: str  # what a person calls it: "OpenAI-compatible"
    detail: str  # one or two sentences for choosing it: what it covers, what it needs


KINDS = (
    ProviderKind("local", "Local model",
                 "No account, nothing leaves this computer. A small model answers (the tiny one ships "
                 "with Veil; larger ones can be downloaded in Settings)."),
    ProviderKind("openai", "OpenAI-compatible",
                 "OpenAI, OpenRouter, Groq, Together, Mistral, or a server on this computer (Ollama, "
                 "LM Studio, llama.cpp) — any Chat Completions API."),
    ProviderKind("anthropic", "Anthropic", "Claude, through the Messages API."),
    ProviderKind("gemini", "Google Gemini", "Gemini, through the Generative Language API."),
)
PROVIDER_KINDS = tuple(each.kind for each in KINDS)
PROVIDER_NAMES = {each.kind: each.name for each in KINDS}
_DETAILS = {each.kind: each.detail for each in KINDS}


def provider_name(kind: str) -> str:
    """What a person calls this kind of provider ("OpenAI-compatible")."""
    return PROVIDER_NAMES.get(kind, kind)


def provider_detail(kind: str) -> str:
    """The longer text shown where a kind is chosen (empty for an unknown kind)."""
    return _DETAILS.get(kind, "")
