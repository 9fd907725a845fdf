"""Real values back into the upstream's answers, in OpenAI's shapes: a whole completion,
or a stream of chunks where each text field (a choice's content, each tool call's
arguments) has its own streaming restorer, so no chunk ever carries half a stand-in.

Tool-call arguments are JSON text: a restored value is escaped for a JSON string
(a real value with a quote in it must not break the arguments).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

from agent.session.conversation import Conversation
from agent.entities import RestoredSpan
from agent.serve.wire import iter_choices


def json_escaped(text: str, start: int, spans: Sequence[RestoredSpan]) -> str:
    """`text` (which starts at offset `start` of a restored whole) with each restored
    span escaped as inside a JSON string. Values without quotes, backslashes or control
    characters come out unchanged."""
    pieces, position = [], 0
    for span in sorted(spans, key=lambda s: s.start):
        a, b = span.start - start, span.end - start
        if a < position or b > len(text):
            continue
        pieces += [text[position:a], json.dumps(text[a:b], ensure_ascii=False)[1:-1]]
        position = b
    pieces.append(text[position:])
    return "".join(pieces)


def restore_json_text(engine, text: str, conversation: Conversation) -> tuple[str, str]:
    """(restored JSON text, the text as received). A model that wrote non-ASCII as \\u
    escapes is read as JSON first, so its stand-ins can be found."""
    source = text
    if "\\u" in text:
        try:
            source = json.dumps(json.loads(text), ensure_ascii=False)
        except ValueError:
            pass
    result = engine.restore(source, conversation)
    return json_escaped(result.text, 0, result.spans), text


class _Field:
    """One streamed text field and its restorer."""

    def __init__(self, engine, conversation: Conversation, is_json: bool):
        self.restorer = engine.streaming_restorer(conversation)
        self.is_json = is_json
        self.emitted = 0  # restored characters so far: the spans' offsets count these
        self.output: list[str] = []  # what went to the client

    def _out(self, piece) -> str:
        start = self.emitted
        self.emitted += len(piece.text)
        text = json_escaped(piece.text, start, piece.spans) if self.is_json and piece.spans else piece.text
        self.output.append(text)
        return text

    def feed(self, text: str) -> str:
        return self._out(self.restorer.feed(text))

    def finish(self) -> str:
        return self._out(self.restorer.finish())

    @property
    def received(self) -> str:
        return self.restorer.received

    @property
    def shown(self) -> str:
        return "".join(self.output)


class ChunkRestorer:
    """Restores a stream of chat.completion.chunk dicts (`feed` each, then `finish`).
    Each call returns the chunks to send on (none while everything is held back)."""

    def __init__(self, engine, conversation: Conversation):
        self.engine = engine
        self.conversation = conversation
        self._fields: dict[tuple, _Field] = {}
        self._finished: set[int] = set()
        self._envelope: dict[str, Any] = {}
        self._tool_names: dict[tuple[int, int], str] = {}

    def _field(self, key: tuple) -> _Field:
        found = self._fields.get(key)
        if found is None:
            found = self._fields[key] = _Field(self.engine, self.conversation, is_json=key[0] == "arguments")
        return found

    def feed(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        chunk = copy.deepcopy(chunk)
        self._envelope = {k: chunk[k] for k in ("id", "object", "created", "model", "system_fingerprint") if k in chunk}
        keep = not chunk.get("choices") or chunk.get("usage") is not None
        finishing: list[dict[str, Any]] = []
        for choice in iter_choices(chunk):
            delta = choice.get("delta")
            if isinstance(delta, dict):
                keep |= self._restore_delta(choice.get("index", 0), delta)
            keep |= bool(choice.get("logprobs"))
            if choice.get("finish_reason"):
                finishing.append(choice)
        if not finishing:
            return [chunk] if keep else []
        tails = [t for t in (self._flush(c.get("index", 0)) for c in finishing) if t is not None]
        if not tails:
            return [chunk]
        # What was held back belongs after this chunk's text and before the finish: the
        # chunk without its finish reasons, the held-back text, then the finish reasons.
        finishes = [{"index": c.get("index", 0), "delta": {}, "logprobs": None, "finish_reason": c["finish_reason"]}
                    for c in finishing]
        for choice in finishing:
            choice["finish_reason"] = None
        return ([chunk] if keep else []) + tails + [{**self._envelope, "choices": finishes}]

    def finish(self) -> list[dict[str, Any]]:
        """Whatever is still held back (for choices whose finish chunk never came)."""
        indexes = sorted({key[1] for key in self._fields} - self._finished)
        return [chunk for chunk in (self._flush(i) for i in indexes) if chunk is not None]

    def _restore_delta(self, index: int, delta: dict[str, Any]) -> bool:
        """Restores the delta in place; True when there is still something to send."""
        meaningful = any(k not in ("content", "tool_calls", "refusal") and v is not None for k, v in delta.items())
        for name in ("content", "refusal"):
            if isinstance(delta.get(name), str):
                delta[name] = self._field((name, index)).feed(delta[name])
                meaningful |= bool(delta[name])
        for position, call in enumerate(delta.get("tool_calls") or []):
            tool_index = call.get("index", position)
            function = call.get("function") or {}
            if function.get("name"):
                self._tool_names[(index, tool_index)] = function["name"]
            if isinstance(function.get("arguments"), str):
                function["arguments"] = self._field(("arguments", index, tool_index)).feed(function["arguments"])
            # A tool call delta always goes on: its id, name or index matters to the client.
            meaningful = True
        return meaningful

    def _flush(self, index: int) -> dict[str, Any] | None:
        self._finished.add(index)
        delta: dict[str, Any] = {}
        calls = []
        for key, field in self._fields.items():
            if key[1] != index:
                continue
            tail = field.finish()
            if not tail:
                continue
            if key[0] == "arguments":
                calls.append({"index": key[2], "function": {"arguments": tail}})
            else:
                delta[key[0]] = tail
        if calls:
            delta["tool_calls"] = calls
        if not delta:
            return None
        return {**self._envelope, "choices": [{"index": index, "delta": delta, "logprobs": None, "finish_reason": None}]}

    # -- what the vault keeps ------------------------------------------------------------------
    def texts(self, index: int = 0) -> tuple[str, str]:
        """(received, shown) for one choice: its content, then each tool call as a line."""
        received, shown = [], []
        content = self._fields.get(("content", index))
        if content is not None:
            received.append(content.received)
            shown.append(content.shown)
        for key, field in sorted(self._fields.items(), key=lambda kv: kv[0][2] if len(kv[0]) > 2 else -1):
            if key[0] == "arguments" and key[1] == index:
                name = self._tool_names.get((index, key[2]), "tool")
                received.append(f"[tool call {name}] {field.received}")
                shown.append(f"[tool call {name}] {field.shown}")
        return "\n".join(received), "\n".join(shown)

    def pairs(self) -> list[tuple[str, str]]:
        """(shown, received) of every finished field: how each restored text was sent."""
        return [(field.shown, field.received) for field in self._fields.values() if field.received]


def restore_completion(engine, completion: dict[str, Any], conversation: Conversation) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """A restored copy of a chat.completion, and the (shown, received) text pairs."""
    out = copy.deepcopy(completion)
    pairs: list[tuple[str, str]] = []

    def text(value: str) -> str:
        restored = engine.restore(value, conversation).text
        pairs.append((restored, value))
        return restored

    def arguments(value: str) -> str:
        restored, received = restore_json_text(engine, value, conversation)
        pairs.append((restored, received))
        return restored

    for choice in iter_choices(out):
        message = choice.get("message")
        if not isinstance(message, dict):
            continue
        for name in ("content", "refusal"):
            if isinstance(message.get(name), str):
                message[name] = text(message[name])
        for call in message.get("tool_calls") or []:
            function = call.get("function") if isinstance(call, dict) else None
            if isinstance(function, dict) and isinstance(function.get("arguments"), str):
                function["arguments"] = arguments(function["arguments"])
        legacy = message.get("function_call")
        if isinstance(legacy, dict) and isinstance(legacy.get("arguments"), str):
            legacy["arguments"] = arguments(legacy["arguments"])
    return out, pairs


def completion_texts(completion: dict[str, Any]) -> str:
    """The first choice's content and tool calls as one text (for the vault)."""
    for choice in iter_choices(completion):
        message = choice.get("message") or {}
        parts = [message.get("content") or ""]
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            parts.append(f"[tool call {function.get('name', 'tool')}] {function.get('arguments', '')}")
        return "\n".join(p for p in parts if p)
    return ""
