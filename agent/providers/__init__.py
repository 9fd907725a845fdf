"""LLM providers behind one interface (see base.Provider):

    provider = provider_from_settings(settings)          # key from keyring / VEIL_API_KEY
    for chunk in provider.stream(messages, cancel=token):  # text chunks, as they come
        ...

Kinds: "openai" (any OpenAI-compatible server, by base URL), "anthropic", "gemini",
"local" (the local GGUF model). Errors: agent.providers.errors.
"""

from __future__ import annotations

from agent.providers.base import (
    DEFAULT_BASE_URLS,
    ApiKey,
    CancelToken,
    ChatMessage,
    ChatStream,
    Completion,
    GenerationParams,
    Provider,
    ProviderConfig,
)
from agent.providers.choice import (
    PROVIDER_KINDS,
    PROVIDER_NAMES,
    choose_provider,
    destination,
    provider_name,
)
from agent.providers.errors import (
    AuthenticationError,
    BadRequest,
    Cancelled,
    MissingApiKey,
    ProviderError,
    ProviderTimeout,
    ProviderUnavailable,
    QuotaExceeded,
    RateLimitError,
    StreamInterrupted,
)

__all__ = [
    "DEFAULT_BASE_URLS",
    "PROVIDER_KINDS",
    "PROVIDER_NAMES",
    "ApiKey",
    "AuthenticationError",
    "BadRequest",
    "CancelToken",
    "Cancelled",
    "ChatMessage",
    "ChatStream",
    "Completion",
    "GenerationParams",
    "MissingApiKey",
    "Provider",
    "ProviderConfig",
    "ProviderError",
    "ProviderTimeout",
    "ProviderUnavailable",
    "QuotaExceeded",
    "RateLimitError",
    "StreamInterrupted",
    "choose_provider",
    "create_provider",
    "destination",
    "params_from_settings",
    "provider_from_settings",
    "provider_name",
]


def create_provider(config: ProviderConfig, **kwargs) -> Provider:
    """The provider for config.kind (httpx is imported only for remote kinds)."""
    if config.kind == "openai":
        from agent.providers.openai_compat import OpenAICompatibleProvider

        return OpenAICompatibleProvider(config, **kwargs)
    if config.kind == "anthropic":
        from agent.providers.anthropic import AnthropicProvider

        return AnthropicProvider(config, **kwargs)
    if config.kind == "gemini":
        from agent.providers.gemini import GeminiProvider

        return GeminiProvider(config, **kwargs)
    if config.kind == "local":
        from agent.providers.local import LocalProvider

        return LocalProvider(config, **kwargs)
    raise ValueError(f"unknown provider kind {config.kind!r}; expected one of {', '.join(PROVIDER_KINDS)}")


def provider_from_settings(settings, *, api_key: ApiKey | str | None = None, vault=None, **overrides) -> Provider:
    """The provider the user configured. The key comes from VEIL_API_KEY, the keyring or
    the open `vault` (agent.providers.keys) when not given; a missing key is only an error
    for providers that need one (OpenAI-compatible servers on this machine, such as
    Ollama, take none)."""
    config = ProviderConfig.from_settings(settings, api_key=api_key, **overrides)
    if config.kind != "local" and config.api_key is None:
        from agent.providers.keys import get_api_key

        key = get_api_key(config.kind, vault)
        if key is not None:
            config = ProviderConfig.from_settings(settings, api_key=key, **overrides)
    return create_provider(config)


def params_from_settings(settings) -> GenerationParams:
    return GenerationParams(
        temperature=settings.provider.temperature,
        max_tokens=settings.provider.max_tokens,
    )
