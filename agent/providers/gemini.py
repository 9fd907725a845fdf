"""Google Gemini API: models/{model}:generateContent and :streamGenerateContent?alt=sse,
key in the x-goog-api-key header (never in the URL, where proxies and logs would see it).

Stream: each event is a whole GenerateContentResponse with the next piece of text in
candidates[0].content.parts; the last one carries finishReason.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

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

# google.rpc status names -> exception type (Gemini answers a bad key with 400 + API_KEY_INVALID).
_STATUS_TYPES: dict[str, type[ProviderError]] = {
    "UNAUTHENTICATED": AuthenticationError,
    "PERMISSION_DENIED": AuthenticationError,
    "API_KEY_INVALID": AuthenticationError,
    "RESOURCE_EXHAUSTED": RateLimitError,
    "UNAVAILABLE": ProviderUnavailable,
    "INTERNAL": ProviderUnavailable,
    "DEADLINE_EXCEEDED": ProviderUnavailable,
    "INVALID_ARGUMENT": BadRequest,
    "FAILED_PRECONDITION": BadRequest,
    "NOT_FOUND": BadRequest,
}


class GeminiProvider(HttpProvider):
    kind = "gemini"
    name = "Gemini"

    @property
    def display_name(self) -> str:
        default = self.config.endpoint.startswith("https://generativelanguage.googleapis.com")
        return "Gemini" if default else f"Gemini-compatible server at {self.config.endpoint}"

    def resolve_model(self, model: str | None) -> str:
        model = super().resolve_model(model)
        return model.removeprefix("models/")

    def build_request(self, messages: list[ChatMessage], model: str, params: GenerationParams, *, stream: bool) -> Request:
        if self.config.api_key is None:
            raise MissingApiKey("no API key for Gemini: add one in Settings or set VEIL_API_KEY", provider=self.kind)
        if not model:
            raise BadRequest("no model chosen for Gemini: set one in Settings or pass --model", provider=self.kind)
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        contents = [
            {"role": "model" if m.role == "assistant" else "user", "parts": [{"text": m.content}]}
            for m in messages
            if m.role != "system"
        ]
        if not contents:
            raise BadRequest("Gemini needs at least one user message", provider=self.kind)
        body: dict[str, Any] = {"contents": contents}
        if system:
            body["systemInstruction"] = {"parts": [{"text": system}]}
        generation: dict[str, Any] = {}
        if params.temperature is not None:
            generation["temperature"] = params.temperature
        if params.max_tokens is not None:
            generation["maxOutputTokens"] = params.max_tokens
        if params.top_p is not None:
            generation["topP"] = params.top_p
        if params.stop:
            generation["stopSequences"] = list(params.stop)
        if generation:
            body["generationConfig"] = generation
        method = "streamGenerateContent?alt=sse" if stream else "generateContent"
        url = f"{self.config.endpoint}/models/{quote(model, safe='-._')}:{method}"
        headers = {
            "content-type": "application/json",
            "x-goog-api-key": self.config.api_key.reveal(),
            **self.config.extra_headers,
        }
        return Request(url, headers, body)

    def models_request(self) -> tuple[str, dict[str, str]]:
        if self.config.api_key is None:
            raise MissingApiKey("no API key for Gemini: add one in Settings or set VEIL_API_KEY", provider=self.kind)
        headers = {"x-goog-api-key": self.config.api_key.reveal(), **self.config.extra_headers}
        return f"{self.config.endpoint}/models?pageSize=1000", headers

    def read_models(self, data: Any) -> list[str]:
        out = []
        for m in data.get("models") or []:
            if not isinstance(m, dict) or not isinstance(m.get("name"), str):
                continue
            methods = m.get("supportedGenerationMethods")
            if methods is None or "generateContent" in methods:  # skip embedding-only models
                out.append(m["name"].removeprefix("models/"))
        return out

    def read_stream(self, events: Iterator[ServerSentEvent]) -> Iterator[str | StreamMeta]:
        for event in events:
            if not event.data.strip():
                continue
            data = self.parse_json_event(event)
            if isinstance(data, dict) and data.get("error"):
                message, code = self.error_details(data)
                status = data["error"].get("code") if isinstance(data["error"], dict) else None
                raise self.error_for_status(status if isinstance(status, int) else 500, self._redact(message), code)
            self._check_blocked(data)
            text, finish = _candidate_text(data)
            if text:
                yield text
            if isinstance(data.get("usageMetadata"), dict):
                yield StreamMeta(usage=_ints(data["usageMetadata"]))
            if finish:
                yield StreamMeta(finish_reason=finish)
                return
        raise StreamInterrupted("the answer from Gemini ended before it was complete", provider=self.kind)

    def read_completion(self, data: Any) -> Completion:
        self._check_blocked(data)
        text, finish = _candidate_text(data)
        return Completion(text=text, finish_reason=finish, usage=_ints(data.get("usageMetadata") or {}))

    def _check_blocked(self, data: Any) -> None:
        feedback = data.get("promptFeedback") if isinstance(data, dict) else None
        reason = feedback.get("blockReason") if isinstance(feedback, dict) else None
        if reason:
            raise BadRequest(f"Gemini blocked the prompt ({reason})", provider=self.kind, provider_message=str(reason))

    def error_details(self, data: Any) -> tuple[str, str]:
        error = data.get("error") if isinstance(data, dict) else None
        if isinstance(data, list) and data and isinstance(data[0], dict):
            error = data[0].get("error")  # the stream endpoint without alt=sse wraps it in a list
        if not isinstance(error, dict):
            return "", ""
        code = text_of(error.get("status"))
        for detail in error.get("details") or []:
            if isinstance(detail, dict) and detail.get("reason") == "API_KEY_INVALID":
                code = "API_KEY_INVALID"
        return text_of(error.get("message")), code

    def classify(self, status: int, code: str, message: str) -> type[ProviderError] | None:
        return _STATUS_TYPES.get(code)


def _candidate_text(data: dict) -> tuple[str, str]:
    candidates = data.get("candidates") or []
    if not candidates:
        return "", ""
    candidate = candidates[0]
    parts = (candidate.get("content") or {}).get("parts") or []
    # Parts marked "thought" are the model's reasoning, not its answer.
    text = "".join(text_of(p.get("text")) for p in parts if isinstance(p, dict) and not p.get("thought"))
    return text, candidate.get("finishReason") or ""


def _ints(raw: dict) -> dict[str, int]:
    return {k: v for k, v in raw.items() if isinstance(v, int)}
