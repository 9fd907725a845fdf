"""Real values back into the upstream's answers, in OpenAI's shapes: a whole completion,
or a stream of chunks. Every string of an answer is restored except its structure
(roles, ids, types, tool names, finish reasons, logprob tokens):

- streamed text fields (content, refusal, reasoning_content, any other string of a
  delta, each tool call's arguments or custom input, function_call arguments, an audio
  transcript) have a streaming restorer each, so no chunk ever carries half a stand-in;
- other strings in a delta (annotations, extensions) are restored where they stand.

Tool-call arguments are JSON text. A model may write a stand-in's letters as escapes
("Nann\\u00fd"): those escapes are read as the characters first (streaming too, an
escape cut between two chunks included), so the stand-in is found; a restored value is
escaped for a JSON string (a real value with a quote in it must not break the arguments).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from typing import Any

from agent.engine.interface import PrivacyEngine
from agent.entities import RestoredSpan
from agent.serve.wire import iter_choices
from agent.session.conversation import Conversation

# Keys whose strings are protocol, not language: never restored.
STRUCTURE_KEYS = frozenset({"role", "id", "type", "index", "name", "finish_reason", "object", "logprobs",
                            "tool_call_id", "data", "expires_at", "format", "signature"})


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


class JsonEscapes:
    """JSON text, fed in pieces, with the escapes that only hide a character (\\u00fd,
    a surrogate pair, \\/) written as that character. The result is the same JSON: escapes
    that matter (quotes, backslashes, control characters, lone surrogates) are kept. An
    escape cut at the end of a piece waits for the next one (at most 11 characters)."""

    def __init__(self) -> None:
        self._pending = ""

    def feed(self, text: str) -> str:
        text, self._pending = self._pending + text, ""
        out: list[str] = []
        i, n = 0, len(text)
        while True:
            j = text.find("\\", i)
            if j < 0:
                out.append(text[i:])
                break
            out.append(text[i:j])
            if j + 1 >= n:
                self._pending = text[j:]
                break
            if text[j + 1] != "u":
                out.append("/" if text[j + 1] == "/" else text[j : j + 2])
                i = j + 2
                continue
            code = _hex4(text, j + 2)
            if code is None:
                if j + 6 > n and _could_be_hex(text[j + 2 :]):
                    self._pending = text[j:]
                    break
                out.append(text[j : j + 2])
                i = j + 2
                continue
            if 0xD800 <= code < 0xDC00:  # the high half of a pair: the low half must follow
                if j + 12 > n and ("\\u" + "0" * 4).startswith(text[j + 6 : j + 8]) and _could_be_hex(text[j + 8 :]):
                    self._pending = text[j:]
                    break
                low = _hex4(text, j + 8) if text[j + 6 : j + 8] == "\\u" else None
                if low is not None and 0xDC00 <= low < 0xE000:
                    out.append(chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)))
                    i = j + 12
                    continue
                out.append(text[j : j + 6])
            elif code < 0x20 or code in (0x22, 0x5C) or 0xDC00 <= code < 0xE000:
                out.append(text[j : j + 6])
            else:
                out.append(chr(code))
            i = j + 6
        return "".join(out)

    def finish(self) -> str:
        rest, self._pending = self._pending, ""
        return rest


def _hex4(text: str, at: int) -> int | None:
    digits = text[at : at + 4]
    if len(digits) == 4 and all(c in "0123456789abcdefABCDEF" for c in digits):
        return int(digits, 16)
    return None


def _could_be_hex(partial: str) -> bool:
    return len(partial) < 4 and all(c in "0123456789abcdefABCDEF" for c in partial)


def unescaped(text: str) -> str:
    escapes = JsonEscapes()
    return escapes.feed(text) + escapes.finish()


# Longer texts are restored in pieces by a streaming restorer: no size limit, bounded
# memory (the engine's whole-text restore refuses texts over its sanitize limit).
WHOLE_RESTORE_CHARS = 100_000
RESTORE_PIECE_CHARS = 64 * 1024


def restore_text(engine: PrivacyEngine, text: str, conversation: Conversation) -> tuple[str, list[RestoredSpan]]:
    """A whole text restored (restored text, spans), whatever its size."""
    if len(text) <= WHOLE_RESTORE_CHARS:
        result = engine.restore(text, conversation)
        return result.text, list(result.spans)
    restorer = engine.streaming_restorer(conversation)
    pieces = [restorer.feed(text[i : i + RESTORE_PIECE_CHARS]) for i in range(0, len(text), RESTORE_PIECE_CHARS)]
    pieces.append(restorer.finish())
    return "".join(p.text for p in pieces), [span for p in pieces for span in p.spans]


def restore_json_text(engine: PrivacyEngine, text: str, conversation: Conversation) -> tuple[str, str]:
    """(restored JSON text, the text as received)."""
    restored, spans = restore_text(engine, unescaped(text), conversation)
    return json_escaped(restored, 0, spans), text


def restore_strings(value: Any, restore: Callable[[str], str]) -> Any:
    """Every string in a JSON value restored in place (structure keys left alone)."""
    if isinstance(value, str):
        return restore(value)
    if isinstance(value, list):
        return [restore_strings(v, restore) for v in value]
    if isinstance(value, dict):
        return {k: v if k in STRUCTURE_KEYS else restore_strings(v, restore) for k, v in value.items()}
    return value


class _Field:
    """One streamed text field and its restorer."""

    def __init__(self, engine: PrivacyEngine, conversation: Conversation, is_json: bool):
        self.restorer = engine.streaming_restorer(conversation)
        self.escapes = JsonEscapes() if is_json else None
        self.raw: list[str] = []  # as the upstream wrote it
        self.emitted = 0  # restored characters so far: the spans' offsets count these
        self.output: list[str] = []  # what went to the client

    def _out(self, piece) -> str:
        start = self.emitted
        self.emitted += len(piece.text)
        text = json_escaped(piece.text, start, piece.spans) if self.escapes and piece.spans else piece.text
        self.output.append(text)
        return text

    def feed(self, text: str) -> str:
        self.raw.append(text)
        return self._out(self.restorer.feed(self.escapes.feed(text) if self.escapes else text))

    def finish(self) -> str:
        tail = self.escapes.finish() if self.escapes else ""
        return (self._out(self.restorer.feed(tail)) if tail else "") + self._out(self.restorer.finish())

    @property
    def received(self) -> str:
        return "".join(self.raw)

    @property
    def shown(self) -> str:
        return "".join(self.output)


# Paths (inside a choice's delta) of the fields whose text arrives in pieces.
_CALL_FIELDS = {("function", "arguments"): True, ("custom", "input"): False}  # -> is JSON


class ChunkRestorer:
    """Restores a stream of chat.completion.chunk dicts (`feed` each, then `finish`).
    Each call returns the chunks to send on (none while everything is held back)."""

    def __init__(self, engine: PrivacyEngine, conversation: Conversation):
        self.engine = engine
        self.conversation = conversation
        self._fields: dict[tuple[int, tuple], _Field] = {}
        self._finished: set[int] = set()
        self._envelope: dict[str, Any] = {}
        self._tool_names: dict[tuple[int, int], str] = {}

    def _field(self, index: int, path: tuple, is_json: bool = False) -> _Field:
        found = self._fields.get((index, path))
        if found is None:
            found = self._fields[(index, path)] = _Field(self.engine, self.conversation, is_json)
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
        indexes = sorted({key[0] for key in self._fields} - self._finished)
        return [chunk for chunk in (self._flush(i) for i in indexes) if chunk is not None]

    def _restore_delta(self, index: int, delta: dict[str, Any]) -> bool:
        """Restores the delta in place; True when there is still something to send."""
        meaningful = False
        for key, value in list(delta.items()):
            if key == "tool_calls" and isinstance(value, list):
                for position, call in enumerate(value):
                    if isinstance(call, dict):
                        self._restore_call(index, call.get("index", position), call)
                meaningful = True  # a tool call delta always goes on: its id, name or index matters
            elif key == "function_call" and isinstance(value, dict):
                self._restore_call(index, None, value)
                meaningful = True
            elif key == "audio" and isinstance(value, dict):
                if isinstance(value.get("transcript"), str):
                    value["transcript"] = self._field(index, ("audio", "transcript")).feed(value["transcript"])
                meaningful = True
            elif key in STRUCTURE_KEYS or value is None:
                meaningful |= value is not None
            elif isinstance(value, str):
                delta[key] = self._field(index, (key,)).feed(value)
                meaningful |= bool(delta[key])
            else:  # annotations, extensions: restored where they stand
                delta[key] = restore_strings(value, self._restore_whole)
                meaningful = True
        return meaningful

    def _restore_call(self, index: int, tool_index: int | None, call: dict[str, Any]) -> None:
        if tool_index is None:  # the legacy function_call: {"name", "arguments"}
            if isinstance(call.get("arguments"), str):
                call["arguments"] = self._field(index, ("function_call", "arguments"), True).feed(call["arguments"])
            return
        for (part, name), is_json in _CALL_FIELDS.items():
            inner = call.get(part)
            if isinstance(inner, dict):
                if inner.get("name"):
                    self._tool_names[(index, tool_index)] = inner["name"]
                if isinstance(inner.get(name), str):
                    inner[name] = self._field(index, ("tool_calls", tool_index, part, name), is_json).feed(inner[name])

    def _restore_whole(self, text: str) -> str:
        return restore_text(self.engine, text, self.conversation)[0]

    def _flush(self, index: int) -> dict[str, Any] | None:
        self._finished.add(index)
        delta: dict[str, Any] = {}
        for (choice, path), field in self._fields.items():
            if choice != index:
                continue
            tail = field.finish()
            if tail:
                _put(delta, path, tail)
        if not delta:
            return None
        return {**self._envelope, "choices": [{"index": index, "delta": delta, "logprobs": None, "finish_reason": None}]}

    # -- what the vault keeps ------------------------------------------------------------------
    def texts(self, index: int = 0) -> tuple[str, str]:
        """(received, shown) for one choice: its content, then each tool call as a line."""
        received, shown = [], []
        content = self._fields.get((index, ("content",)))
        if content is not None:
            received.append(content.received)
            shown.append(content.shown)
        calls = sorted((path[1], field) for (choice, path), field in self._fields.items()
                       if choice == index and path[0] == "tool_calls")
        for tool_index, field in calls:
            name = self._tool_names.get((index, tool_index), "tool")
            received.append(f"[tool call {name}] {field.received}")
            shown.append(f"[tool call {name}] {field.shown}")
        return "\n".join(received), "\n".join(shown)

    def answers(self) -> list[dict[str, Any]]:
        """Each choice's answer as the client put it together (content and tool calls),
        in the shape of an assistant message."""
        messages: dict[int, dict[str, Any]] = {}
        def order(item) -> tuple[int, int]:
            (index, path), _ = item
            return index, path[1] if path[0] == "tool_calls" else -1

        for (index, path), field in sorted(self._fields.items(), key=order):
            message = messages.setdefault(index, {"role": "assistant", "content": None})
            if path == ("content",):
                message["content"] = field.shown
            elif path[0] == "tool_calls":
                kind = path[2] if path[2] == "custom" else "function"
                message.setdefault("tool_calls", []).append({"type": kind, path[2]: {path[3]: field.shown}})
        return list(messages.values())

    def pairs(self) -> list[tuple[str, str]]:
        """(shown, received) of every finished field: how each restored text was sent."""
        return [(field.shown, field.received) for field in self._fields.values() if field.received]


def _put(delta: dict[str, Any], path: tuple, text: str) -> None:
    """The delta that carries `text` at `path` (a tool call's field goes in a tool_calls entry)."""
    if path[0] == "tool_calls":
        _, tool_index, part, name = path
        delta.setdefault("tool_calls", []).append({"index": tool_index, part: {name: text}})
    elif len(path) == 2:
        delta.setdefault(path[0], {})[path[1]] = text
    else:
        delta[path[0]] = text


def restore_completion(engine: PrivacyEngine, completion: dict[str, Any], conversation: Conversation) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """A restored copy of a chat.completion, and the (shown, received) text pairs."""
    out = copy.deepcopy(completion)
    pairs: list[tuple[str, str]] = []

    def text(value: str) -> str:
        restored = restore_text(engine, value, conversation)[0]
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
        for key, value in list(message.items()):
            if key == "tool_calls" and isinstance(value, list):
                for call in value:
                    if not isinstance(call, dict):
                        continue
                    for (part, name), is_json in _CALL_FIELDS.items():
                        inner = call.get(part)
                        if isinstance(inner, dict) and isinstance(inner.get(name), str):
                            inner[name] = (arguments if is_json else text)(inner[name])
            elif key == "function_call" and isinstance(value, dict) and isinstance(value.get("arguments"), str):
                value["arguments"] = arguments(value["arguments"])
            elif key not in STRUCTURE_KEYS:
                message[key] = restore_strings(value, text)
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
