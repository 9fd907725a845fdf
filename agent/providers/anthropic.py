"""Anthropic Messages API (POST /v1/messages, x-api-key and anthropic-version headers).

Stream: named events message_start, content_block_start, content_block_delta
(text_delta), content_block_stop, message_delta (stop_reason, usage), message_stop,
ping, and error (e.g. overloaded_error) which can arrive after a 200.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from httpx_sse import ServerSentEvent

from agent.providers.base import ChatMessage, Completion, GenerationParams
from agent.providers.errors import (
    AuthenticationError,
    BadRequest,
    MissingApiKey,
    ProviderError,
    ProviderUnavailable,
    RateLimitError,
    StreamInterrupted,
)
from agent.providers.http import HttpProvider, Request, text_of
from agent.providers.worker import StreamMeta

# The Messages API requires max_tokens; used when neither params nor settings give one.
DEFAULT_MAX_TOKENS = 1024

# Anthropic error types -> (exception, the HTTP status they come with).
_ERROR_TYPES: dict[str, tuple[type[ProviderError], int]] = {
    "authentication_error": (AuthenticationError, 401),
    "permission_error": (AuthenticationError, 403),
    "rate_limit_error": (RateLimitError, 429),
    "overloaded_error": (ProviderUnavailable, 529),
    "api_error": (ProviderUnavailable, 500),
    "invalid_request_error": (BadRequest, 400),
    "not_found_error": (BadRequest, 404),
    "request_too_large": (BadRequest, 413),
}


class AnthropicProvider(HttpProvider):
    kind = "anthropic"
    name = "Anthropic"

    @property
    def display_name(self) -> str:
        default = self.config.endpoint == "https://api.anthropic.com"
        return "Anthropic" if default else f"Anthropic-compatible server at {self.config.endpoint}"

    def build_request(self, messages: list[ChatMessage], model: str, params: GenerationParams, *, stream: bool) -> Request:
        if self.config.api_key is None:
            raise MissingApiKey("no API key for Anthropic: add one in Settings or set VEIL_API_KEY", provider=self.kind)
        if not model:
            raise BadRequest("no model chosen for Anthropic: set one in Settings or pass --model", provider=self.kind)
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        turns = [{"role": m.role, "content": m.content} for m in messages if m.role != "system"]
        if not turns:
            raise BadRequest("Anthropic needs at least one user message", provider=self.kind)
        body: dict[str, Any] = {
            "model": model,
            "max_tokens": params.max_tokens or DEFAULT_MAX_TOKENS,
            "messages": turns,
            "stream": stream,
        }
        if system:
            body["system"] = system
        if params.temperature is not None:
            body["temperature"] = params.temperature
        if params.top_p is not None:
            body["top_p"] = params.top_p
        if params.stop:
            body["stop_sequences"] = list(params.stop)
        headers = {
            "content-type": "application/json",
            "x-api-key": self.config.api_key.reveal(),
            "anthropic-version": self.config.anthropic_version,
            **self.config.extra_headers,
        }
        return Request(f"{self.config.endpoint}/v1/messages", headers, body)

    def models_request(self) -> tuple[str, dict[str, str]]:
        if self.config.api_key is None:
            raise MissingApiKey("no API key for Anthropic: add one in Settings or set VEIL_API_KEY", provider=self.kind)
        headers = {
            "x-api-key": self.config.api_key.reveal(),
            "anthropic-version": self.config.anthropic_version,
            **self.config.extra_headers,
        }
        return f"{self.config.endpoint}/v1/models?limit=1000", headers

    def read_models(self, data: Any) -> list[str]:
        return [m["id"] for m in data.get("data") or [] if isinstance(m, dict) and isinstance(m.get("id"), str)]

    def read_stream(self, events: Iterator[ServerSentEvent]) -> Iterator[str | StreamMeta]:
        finish = ""
        for event in events:
            kind = event.event
            if kind == "ping" or not event.data.strip():
                continue
            data = self.parse_json_event(event)
            kind = data.get("type", kind) if isinstance(data, dict) else kind
            if kind == "content_block_delta":
                delta = data.get("delta") or {}
                if delta.get("type") == "text_delta":  # thinking deltas are not part of the answer
                    text = text_of(delta.get("text"))
                    if text:
                        yield text
            elif kind == "message_start":
                usage = (data.get("message") or {}).get("usage") or {}
                yield StreamMeta(usage=_ints(usage))
            elif kind == "message_delta":
                finish = (data.get("delta") or {}).get("stop_reason") or finish
                yield StreamMeta(usage=_ints(data.get("usage") or {}))
            elif kind == "message_stop":
                yield StreamMeta(finish_reason=finish or "end_turn")
                return
            elif kind == "error":
                message, code = self.error_details(data)
                status = _ERROR_TYPES.get(code, (ProviderUnavailable, 500))[1]
                raise self.error_for_status(status, self._redact(message), code)
        raise StreamInterrupted("the answer from Anthropic ended before it was complete", provider=self.kind)

    def read_completion(self, data: Any) -> Completion:
        text = "".join(
            text_of(block.get("text")) for block in data.get("content") or [] if block.get("type") == "text"
        )
        return Completion(text=text, finish_reason=data.get("stop_reason") or "", usage=_ints(data.get("usage") or {}))

    def error_details(self, data: Any) -> tuple[str, str]:
        error = data.get("error") if isinstance(data, dict) else None
        if isinstance(error, dict):
            return text_of(error.get("message")), text_of(error.get("type"))
        return "", ""

    def classify(self, status: int, code: str, message: str) -> type[ProviderError] | None:
        known = _ERROR_TYPES.get(code)
        return known[0] if known else None


def _ints(raw: dict) -> dict[str, int]:
    return {k: v for k, v in raw.items() if isinstance(v, int)}
