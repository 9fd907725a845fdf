"""OpenAI Chat Completions, and every server that speaks it: OpenAI, OpenRouter, Groq,
Together, Mistral, Ollama (/v1), LM Studio, vLLM, the llama.cpp server.

Stream: `data: {"choices":[{"delta":{"content":"..."}}]}` events, then `data: [DONE]`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from httpx_sse import ServerSentEvent

from agent.providers.base import ChatMessage, Completion, GenerationParams
from agent.providers.errors import BadRequest, MissingApiKey, StreamInterrupted
from agent.providers.http import HttpProvider, Request, text_of
from agent.providers.worker import StreamMeta


def is_local_url(url: str) -> bool:
    """True for servers on this machine (Ollama, LM Studio, llama.cpp...): no key needed."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class OpenAICompatibleProvider(HttpProvider):
    kind = "openai"
    name = "OpenAI-compatible server"

    @property
    def display_name(self) -> str:
        host = urlsplit(self.config.endpoint).netloc
        if host == "api.openai.com":
            return "OpenAI"
        return f"{self.name} at {host}"

    def build_request(self, messages: list[ChatMessage], model: str, params: GenerationParams, *, stream: bool) -> Request:
        endpoint = self.config.endpoint
        headers = {"content-type": "application/json", **self.config.extra_headers}
        if self.config.api_key is not None:
            headers["authorization"] = f"Bearer {self.config.api_key.reveal()}"
        elif not is_local_url(endpoint):
            raise MissingApiKey(
                f"no API key for {self.display_name}: add one in Settings or set VEIL_API_KEY",
                provider=self.kind,
            )
        if not model and not is_local_url(endpoint):
            raise BadRequest(f"no model chosen for {self.display_name}: set one in Settings or pass --model", provider=self.kind)
        body: dict[str, Any] = {
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "stream": stream,
        }
        if model:
            body["model"] = model
        if params.temperature is not None:
            body["temperature"] = params.temperature
        if params.max_tokens is not None:
            # OpenAI's own API deprecated max_tokens (its reasoning models reject it);
            # the compatible servers mostly only know max_tokens.
            key = "max_completion_tokens" if urlsplit(endpoint).netloc == "api.openai.com" else "max_tokens"
            body[key] = params.max_tokens
        if params.top_p is not None:
            body["top_p"] = params.top_p
        if params.stop:
            body["stop"] = list(params.stop)
        return Request(f"{endpoint}/chat/completions", headers, body)

    def models_request(self) -> tuple[str, dict[str, str]]:
        headers = dict(self.config.extra_headers)
        if self.config.api_key is not None:
            headers["authorization"] = f"Bearer {self.config.api_key.reveal()}"
        elif not is_local_url(self.config.endpoint):
            raise MissingApiKey(f"no API key for {self.display_name}", provider=self.kind)
        return f"{self.config.endpoint}/models", headers

    def read_models(self, data: Any) -> list[str]:
        return [m["id"] for m in data.get("data") or [] if isinstance(m, dict) and isinstance(m.get("id"), str)]

    def read_stream(self, events: Iterator[ServerSentEvent]) -> Iterator[str | StreamMeta]:
        finish = ""
        done = False
        for event in events:
            data = event.data.strip()
            if not data:
                continue
            if data == "[DONE]":
                done = True
                break
            chunk = self.parse_json_event(event)
            if isinstance(chunk, dict) and chunk.get("error"):
                message, code = self.error_details(chunk)
                status = status_of(chunk.get("error"))
                raise self.error_for_status(status, self._redact(message), code)
            for choice in (chunk.get("choices") or [])[:1]:
                delta = choice.get("delta") or {}
                text = text_of(delta.get("content"))
                if text:
                    yield text
                if choice.get("finish_reason"):
                    finish = choice["finish_reason"]
            if isinstance(chunk.get("usage"), dict):
                yield StreamMeta(usage=_usage(chunk["usage"]))
        if not done and not finish:
            raise StreamInterrupted(f"the answer from {self.display_name} ended before it was complete", provider=self.kind)
        yield StreamMeta(finish_reason=finish or "stop")

    def read_completion(self, data: Any) -> Completion:
        choices = data.get("choices") or []
        if not choices:
            raise BadRequest(f"{self.display_name} returned no answer", provider=self.kind)
        choice = choices[0]
        message = choice.get("message") or {}
        return Completion(
            text=text_of(message.get("content")) or text_of(choice.get("text")),
            finish_reason=choice.get("finish_reason") or "",
            usage=_usage(data.get("usage")),
        )

    def error_details(self, data: Any) -> tuple[str, str]:
        error = data.get("error") if isinstance(data, dict) else None
        if isinstance(error, str):  # Ollama: {"error": "model 'x' not found"}
            return error, ""
        if isinstance(error, dict):
            code = error.get("code") or error.get("type") or ""
            return text_of(error.get("message")), str(code)
        if isinstance(data, dict):  # FastAPI-style servers: {"detail": ...}
            detail = data.get("detail") or data.get("message")
            if isinstance(detail, str):
                return detail, ""
            if detail:
                return str(detail)[:600], ""
        return "", ""


def status_of(error: Any) -> int:
    """The HTTP status an OpenAI-style error object carries (500 when it names none)."""
    if isinstance(error, dict):
        for key in ("status", "code"):
            value = error.get(key)
            if isinstance(value, int) and 400 <= value < 600:
                return value
    return 500


def _usage(raw: Any) -> dict[str, int]:
    if not isinstance(raw, dict):
        return {}
    return {k: v for k, v in raw.items() if isinstance(v, int)}
