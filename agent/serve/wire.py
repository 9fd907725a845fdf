"""The OpenAI Chat Completions wire format, as far as the proxy needs it: reading and
checking a client's request, the shapes of chunks, completions and error bodies.

Kept free of HTTP-server code so the rest of the proxy (and tests) can use it alone.
"""

from __future__ import annotations

import json
import math
import re
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

# Roles a Chat Completions request may carry. "developer" is OpenAI's newer name for
# "system"; "function" is the legacy form of "tool".
MESSAGE_ROLES = ("system", "developer", "user", "assistant", "tool", "function")

class WireError(Exception):
    """A request the proxy refuses, with the HTTP status and OpenAI-style error fields."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        type: str = "invalid_request_error",
        code: str | None = None,
        param: str | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(message)
        self.status = status
        self.message = message
        self.type = type
        self.code = code
        self.param = param
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return error_body(self.message, type=self.type, code=self.code, param=self.param)


def error_body(message: str, *, type: str, code: str | None = None, param: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": type, "param": param, "code": code}}


# A \uD800-\uDFFF escape: JSON may carry half a UTF-16 pair, which no UTF-8 text can.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def decode_body(raw: bytes) -> Any:
    """The request body as JSON, or WireError(400) for anything malformed: not UTF-8, not
    JSON, NaN or an infinite number, nesting Python cannot parse, half a surrogate pair."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WireError(400, f"the request body is not UTF-8 text (byte {exc.start})", code="invalid_json") from None
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise WireError(400, "the request body is nested too deep to read", code="too_deep") from None
    except ValueError as exc:
        raise WireError(400, f"the request body is not valid JSON ({exc})", code="invalid_json") from None
    if _SURROGATE_ESCAPE.search(text):
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise WireError(400, "the request holds half of a UTF-16 surrogate pair (a \\ud800-\\udfff escape "
                                 "without its other half): that is not text", code="invalid_text") from None
        except RecursionError:
            raise WireError(400, "the request body is nested too deep to read", code="too_deep") from None
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range")
    return value


@dataclass
class ChatRequest:
    """A checked client request. `body` is the client's JSON object (not modified)."""

    body: dict[str, Any]
    messages: list[dict[str, Any]]
    model: str
    stream: bool
    include_usage: bool

    @property
    def uses_tools(self) -> bool:
        return bool(self.body.get("tools") or self.body.get("functions")) or any(
            m.get("tool_calls") or m.get("function_call") or m["role"] in ("tool", "function") for m in self.messages
        )

    @property
    def choices_wanted(self) -> int:
        n = self.body.get("n")
        return n if isinstance(n, int) else 1


def parse_chat_request(data: Any) -> ChatRequest:
    """Check the parts of a request the proxy relies on; raise WireError (400) otherwise."""
    if not isinstance(data, dict):
        raise WireError(400, "the request body must be a JSON object")
    messages = data.get("messages")
    if not isinstance(messages, list) or not messages:
        raise WireError(400, "'messages' must be a non-empty array", param="messages")
    for i, message in enumerate(messages):
        param = f"messages[{i}]"
        if not isinstance(message, dict):
            raise WireError(400, f"{param} must be an object", param=param)
        role = message.get("role")
        if role not in MESSAGE_ROLES:
            raise WireError(400, f"{param}.role must be one of {', '.join(MESSAGE_ROLES)}", param=f"{param}.role")
        content = message.get("content")
        if content is None:
            if role != "assistant":
                raise WireError(400, f"{param}.content is required for role {role}", param=f"{param}.content")
        elif isinstance(content, list):
            for j, part in enumerate(content):
                if not isinstance(part, dict) or part.get("type") not in ("text", "refusal"):
                    kind = part.get("type") if isinstance(part, dict) else type(part).__name__
                    raise WireError(
                        400,
                        f"{param}.content[{j}] is of type {kind!r}: the Veil proxy forwards text only "
                        "(it cannot check images, audio or files for personal data)",
                        param=f"{param}.content[{j}]",
                        code="unsupported_content",
                    )
                if not isinstance(part.get(part["type"]), str):
                    raise WireError(400, f"{param}.content[{j}] has no text", param=f"{param}.content[{j}]")
        elif not isinstance(content, str):
            raise WireError(400, f"{param}.content must be a string or an array of text parts", param=f"{param}.content")
        calls = message.get("tool_calls") or []
        if not isinstance(calls, list):
            raise WireError(400, f"{param}.tool_calls must be an array", param=f"{param}.tool_calls")
        for call in calls:
            custom = isinstance(call, dict) and call.get("type") == "custom"
            part, name = ("custom", "input") if custom else ("function", "arguments")
            inner = call.get(part) if isinstance(call, dict) else None
            if not isinstance(inner, dict) or not isinstance(inner.get(name), str):
                raise WireError(400, f"{param}.tool_calls[].{part}.{name} must be a string", param=param)
    model = data.get("model")
    if model is not None and not isinstance(model, str):
        raise WireError(400, "'model' must be a string", param="model")
    stream = data.get("stream", False)
    if not isinstance(stream, bool) and stream is not None:
        raise WireError(400, "'stream' must be true or false", param="stream")
    n = data.get("n")
    if n is not None and (not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 16):
        raise WireError(400, "'n' must be an integer from 1 to 16", param="n")
    options = data.get("stream_options")
    include_usage = isinstance(options, dict) and options.get("include_usage") is True
    return ChatRequest(data, messages, (model or "").strip(), bool(stream), include_usage)


# -- text inside messages ------------------------------------------------------------------------
def message_text(message: dict[str, Any]) -> str:
    """All the text of a message, for identifying a conversation and for the vault."""
    content = message.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = "\n".join(part[part["type"]] for part in content)
    else:
        text = ""
    calls = [c["custom"]["input"] if c.get("type") == "custom" else c["function"]["arguments"]
             for c in message.get("tool_calls") or []]
    return "\n".join([text, *calls]) if calls else text


# -- answers ---------------------------------------------------------------------------------------
def new_completion_id() -> str:
    return "chatcmpl-veil" + secrets.token_hex(12)


@dataclass
class ChunkEnvelope:
    """The fields every chunk of one streamed answer repeats."""

    id: str
    model: str
    created: int

    @classmethod
    def new(cls, model: str) -> ChunkEnvelope:
        return cls(new_completion_id(), model, int(time.time()))

    def chunk(self, choices: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        return {"id": self.id, "object": "chat.completion.chunk", "created": self.created, "model": self.model,
                "choices": choices, **extra}


def delta_choice(index: int, delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
    return {"index": index, "delta": delta, "logprobs": None, "finish_reason": finish_reason}


def sse_event(payload: dict[str, Any]) -> bytes:
    return b"data: " + json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"


SSE_DONE = b"data: [DONE]\n\n"

# Finish reasons of the other providers, in OpenAI's words.
FINISH_REASONS = {
    "end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length", "tool_use": "tool_calls",
    "STOP": "stop", "MAX_TOKENS": "length", "SAFETY": "content_filter", "RECITATION": "content_filter",
    "BLOCKLIST": "content_filter", "PROHIBITED_CONTENT": "content_filter", "SPII": "content_filter",
}


def openai_finish_reason(reason: str) -> str:
    if reason in ("stop", "length", "tool_calls", "content_filter", "function_call"):
        return reason
    return FINISH_REASONS.get(reason, "stop")


def openai_usage(usage: dict[str, int]) -> dict[str, int] | None:
    """Token counts under OpenAI's names, from whichever names the provider used."""
    if not usage:
        return None
    prompt = usage.get("prompt_tokens", usage.get("input_tokens", usage.get("promptTokenCount")))
    completion = usage.get("completion_tokens", usage.get("output_tokens", usage.get("candidatesTokenCount")))
    if prompt is None and completion is None:
        return None
    prompt, completion = prompt or 0, completion or 0
    total = usage.get("total_tokens", usage.get("totalTokenCount", prompt + completion))
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": total}


def iter_choices(payload: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for choice in payload.get("choices") or []:
        if isinstance(choice, dict):
            yield choice
