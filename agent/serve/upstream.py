"""Where the proxy sends sanitized requests. Two kinds, one interface that speaks
OpenAI chunks and completions (plain dicts), so the restoring side has one format:

- OpenAIPassthrough: for OpenAI-compatible upstreams. The client's whole request goes
  out (tools, response_format, n, seed...) as agent.serve.fields sanitized it; the
  answer comes back as the upstream sent it, tool calls included. Built on the
  OpenAI-compatible provider: same endpoint, key, retries, error mapping.
- ProviderUpstream: any other provider (Anthropic, Gemini, the local model) through the
  text interface of agent.providers: only the messages' roles and texts, the model and
  the sampling values (stop sequences included) go; its text is framed as OpenAI chunks
  here. Tools need the passthrough (they are refused with a clear message).

`outgoing(request, sanitized_body)` is exactly what will be sent (in OpenAI's field
names): the proxy audits it and passes it to `stream` / `complete`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from agent.providers.base import (
    CancelToken,
    ChatMessage,
    ChatStream,
    Completion,
    GenerationParams,
    Provider,
)
from agent.providers.errors import BadRequest, ProviderUnavailable, StreamInterrupted
from agent.providers.http import EmptyStream, Request
from agent.providers.openai_compat import OpenAICompatibleProvider, status_of
from agent.providers.worker import StreamMeta, threaded_call, threaded_stream
from agent.serve.wire import (
    ChatRequest,
    ChunkEnvelope,
    WireError,
    delta_choice,
    new_completion_id,
    openai_finish_reason,
    openai_usage,
)


class Upstream:
    """Sends one sanitized request; answers in OpenAI's shapes."""

    kind = ""
    display_name = ""
    default_model = ""  # for requests that name none

    def outgoing(self, request: ChatRequest, body: dict[str, Any]) -> dict[str, Any]:
        """What goes upstream for this sanitized request body (nothing else is sent)."""
        raise NotImplementedError

    def stream(self, request: ChatRequest, outgoing: dict[str, Any], cancel: threading.Event) -> Iterator[dict[str, Any]]:
        """Chunks (chat.completion.chunk dicts). Raises agent.providers.errors."""
        raise NotImplementedError

    def complete(self, request: ChatRequest, outgoing: dict[str, Any], cancel: threading.Event) -> dict[str, Any]:
        """A chat.completion dict. Raises agent.providers.errors."""
        raise NotImplementedError

    def models(self) -> list[str]:
        raise NotImplementedError

    def model_for(self, request: ChatRequest) -> str:
        return request.model or self.default_model

    def check(self, request: ChatRequest) -> None:
        """Raise WireError for a request this upstream cannot take (before anything is sent)."""

    def close(self) -> None:
        """Free what this upstream opened itself (a given provider stays the caller's)."""


def upstream_for(provider: Provider, params: GenerationParams | None = None) -> Upstream:
    if isinstance(provider, OpenAICompatibleProvider):
        return OpenAIPassthrough(provider.config, params)
    return ProviderUpstream(provider, params or GenerationParams())


# -- OpenAI-compatible: the whole request, passed through --------------------------------------
class _RawChunk(str):
    """The JSON text of one upstream event, with its parsed form in `data`. A str, so the
    provider machinery (retry only while nothing was delivered, partial text) works as is."""

    data: dict[str, Any]

    @classmethod
    def of(cls, data: dict[str, Any], text: str | None = None) -> _RawChunk:
        chunk = cls(text if text is not None else json.dumps(data))
        chunk.data = data
        return chunk


class _RawOpenAIProvider(OpenAICompatibleProvider):
    """The OpenAI-compatible provider, reading whole chunks instead of only their text
    (its hooks read_stream / read_completion are the only differences)."""

    def build_raw(self, body: dict[str, Any], *, stream: bool) -> Request:
        # The provider's own builder gives the URL and headers (key, or none for a server on
        # this machine; a clear error when a remote one has no key or no model).
        base = self.build_request([ChatMessage("user", "")], body.get("model") or "", GenerationParams(), stream=stream)
        return Request(base.url, base.headers, {**body, "stream": stream})

    def stream_raw(self, body: dict[str, Any], cancel: threading.Event) -> ChatStream:
        raw = self.build_raw(body, stream=True)

        def produce(stop: CancelToken) -> Iterator[str | StreamMeta]:
            try:
                yield from self._with_retries(lambda: self._stream_once(raw, stop), stop)
            except EmptyStream:
                # llama-cpp-python reports a failure in streaming mode as an empty 200 body;
                # asking without streaming gets the answer or the reason.
                plain = self.build_raw({k: v for k, v in body.items() if k != "stream_options"}, stream=False)
                for completion in self._with_retries(lambda: self._complete_once(plain, stop), stop):
                    yield completion.text

        return threaded_stream(produce, cancel, name=self.name)

    def complete_raw(self, body: dict[str, Any], cancel: threading.Event) -> dict[str, Any]:
        raw = self.build_raw(body, stream=False)

        def call(stop: CancelToken) -> dict[str, Any]:
            for completion in self._with_retries(lambda: self._complete_once(raw, stop), stop):
                return completion.text.data
            raise ProviderUnavailable(f"{self.display_name} sent no answer", provider=self.kind)

        return threaded_call(call, cancel, name=self.name)

    def read_stream(self, events) -> Iterator[str | StreamMeta]:
        finished = done = False
        for event in events:
            text = event.data.strip()
            if not text:
                continue
            if text == "[DONE]":
                done = True
                break
            data = self.parse_json_event(event)
            if not isinstance(data, dict):
                continue
            if data.get("error"):
                message, code = self.error_details(data)
                raise self.error_for_status(status_of(data.get("error")), self._redact(message), code)
            finished = finished or any(isinstance(c, dict) and c.get("finish_reason") for c in data.get("choices") or [])
            yield _RawChunk.of(data, text)
        if not done and not finished:
            raise StreamInterrupted(f"the answer from {self.display_name} ended before it was complete", provider=self.kind)

    def read_completion(self, data: Any) -> Completion:
        if not isinstance(data, dict) or not isinstance(data.get("choices"), list):
            raise BadRequest(f"{self.display_name} returned no answer", provider=self.kind)
        data.setdefault("object", "chat.completion")
        return Completion(text=_RawChunk.of(data))


class OpenAIPassthrough(Upstream):
    """An OpenAI-compatible upstream: the client's request, sanitized."""

    kind = "openai"

    def __init__(self, config, params: GenerationParams | None = None):
        self.http = _RawOpenAIProvider(config)
        self.config = config
        self.display_name = self.http.display_name
        self.params = params or GenerationParams()  # defaults for what a request leaves out
        self.default_model = config.model

    def outgoing(self, request: ChatRequest, body: dict[str, Any]) -> dict[str, Any]:
        body = dict(body)
        if self.params.temperature is not None:
            body.setdefault("temperature", self.params.temperature)
        if self.params.max_tokens is not None and "max_tokens" not in body and "max_completion_tokens" not in body:
            # As the provider does: OpenAI's own API only takes the newer name for some models.
            official = urlsplit(self.config.endpoint).netloc == "api.openai.com"
            body["max_completion_tokens" if official else "max_tokens"] = self.params.max_tokens
        model = self.model_for(request)
        if model:
            body["model"] = model
        else:
            body.pop("model", None)
        return body

    def stream(self, request: ChatRequest, outgoing: dict[str, Any], cancel: threading.Event) -> Iterator[dict[str, Any]]:
        with self.http.stream_raw(outgoing, cancel) as answer:
            for item in answer:
                if item.data.get("object") == "chat.completion":  # a server that ignored "stream": true
                    yield from completion_as_chunks(item.data)
                else:
                    yield item.data

    def complete(self, request: ChatRequest, outgoing: dict[str, Any], cancel: threading.Event) -> dict[str, Any]:
        return self.http.complete_raw(outgoing, cancel)

    def models(self) -> list[str]:
        return self.http.list_models()

    def close(self) -> None:
        self.http.close()


def completion_as_chunks(completion: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A whole chat.completion told as chunks (for upstreams that do not stream)."""
    envelope = ChunkEnvelope(completion.get("id") or new_completion_id(), completion.get("model") or "",
                             int(completion.get("created") or 0))
    for choice in completion.get("choices") or []:
        message = dict(choice.get("message") or {})
        message.setdefault("role", "assistant")
        tool_calls = message.get("tool_calls")
        if tool_calls:
            message["tool_calls"] = [{"index": i, **call} for i, call in enumerate(tool_calls)]
        yield envelope.chunk([delta_choice(choice.get("index", 0), message)])
        yield envelope.chunk([delta_choice(choice.get("index", 0), {}, choice.get("finish_reason") or "stop")])
    if completion.get("usage"):
        yield envelope.chunk([], usage=completion["usage"])


# -- any provider, through its text interface -------------------------------------------------
class ProviderUpstream(Upstream):
    """Anthropic, Gemini, the local model: text in, text out, framed as OpenAI here."""

    def __init__(self, provider: Provider, params: GenerationParams):
        self.provider = provider
        self.params = params
        self.kind = provider.kind
        self.display_name = provider.display_name
        self.default_model = provider.config.model

    def check(self, request: ChatRequest) -> None:
        if request.uses_tools:
            raise WireError(400, f"tools and function calls go only to OpenAI-compatible upstreams; Veil is "
                                 f"forwarding to {self.display_name}", param="tools", code="unsupported_parameter")
        if request.choices_wanted != 1:
            raise WireError(400, f"n > 1 is not supported with {self.display_name}", param="n",
                            code="unsupported_parameter")

    def outgoing(self, request: ChatRequest, body: dict[str, Any]) -> dict[str, Any]:
        """The roles and texts of the sanitized messages, the model and the sampling values:
        all this path sends."""
        out: dict[str, Any] = {"model": self.model_for(request), "messages": [
            {"role": "system" if m["role"] == "developer" else m["role"], "content": _text_of(m)}
            for m in body["messages"]
        ]}
        params = self._params(body)
        for name in ("temperature", "max_tokens", "top_p"):
            if getattr(params, name) is not None:
                out[name] = getattr(params, name)
        if params.stop:
            out["stop"] = list(params.stop)
        return out

    def _params(self, body: dict[str, Any]) -> GenerationParams:
        def number(key: str) -> float | None:
            value = body.get(key)
            return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

        max_tokens = body.get("max_completion_tokens", body.get("max_tokens"))
        stop = body.get("stop")
        stop = (stop,) if isinstance(stop, str) else tuple(s for s in stop or () if isinstance(s, str))
        temperature, top_p = number("temperature"), number("top_p")
        return GenerationParams(
            temperature=temperature if temperature is not None else self.params.temperature,
            max_tokens=max_tokens if isinstance(max_tokens, int) else self.params.max_tokens,
            top_p=top_p if top_p is not None else self.params.top_p,
            stop=stop or self.params.stop,
        )

    @staticmethod
    def _call(outgoing: dict[str, Any]) -> tuple[list[ChatMessage], GenerationParams]:
        messages = [ChatMessage(m["role"], m["content"]) for m in outgoing["messages"]]
        params = GenerationParams(temperature=outgoing.get("temperature"), max_tokens=outgoing.get("max_tokens"),
                                  top_p=outgoing.get("top_p"), stop=tuple(outgoing.get("stop", ())))
        return messages, params

    def stream(self, request: ChatRequest, outgoing: dict[str, Any], cancel: threading.Event) -> Iterator[dict[str, Any]]:
        model = outgoing["model"]
        messages, params = self._call(outgoing)
        answer = self.provider.stream(messages, model or None, params, cancel)
        envelope = ChunkEnvelope.new(model or self.provider.kind)
        try:
            first = True
            for text in answer:
                delta = {"role": "assistant", "content": text} if first else {"content": text}
                first = False
                yield envelope.chunk([delta_choice(0, delta)])
            if first:
                yield envelope.chunk([delta_choice(0, {"role": "assistant", "content": ""})])
            yield envelope.chunk([delta_choice(0, {}, openai_finish_reason(answer.finish_reason))])
            usage = openai_usage(answer.usage)
            if request.include_usage and usage:
                yield envelope.chunk([], usage=usage)
        finally:
            answer.close()

    def complete(self, request: ChatRequest, outgoing: dict[str, Any], cancel: threading.Event) -> dict[str, Any]:
        model = outgoing["model"]
        messages, params = self._call(outgoing)
        done = self.provider.complete(messages, model or None, params, cancel)
        envelope = ChunkEnvelope.new(model or self.provider.kind)
        out: dict[str, Any] = {
            "id": envelope.id, "object": "chat.completion", "created": envelope.created, "model": envelope.model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": done.text}, "logprobs": None,
                         "finish_reason": openai_finish_reason(done.finish_reason)}],
        }
        usage = openai_usage(dict(done.usage))
        if usage:
            out["usage"] = usage
        return out

    def models(self) -> list[str]:
        return self.provider.list_models()


def _text_of(message: dict[str, Any]) -> str:
    content = message.get("content")
    return content if isinstance(content, str) else "".join(p[p["type"]] for p in content or [])
