"""Every string of a Chat Completions request, sorted into text and structure, so the
proxy sanitizes all that a provider reads as language and nothing it reads as protocol.

    walker = RequestWalker(sanitize_text, unknown="sanitize", memo=slot)
    body = walker.walk(request_body)      # a sanitized copy; raises WireError (400)

The request is read against the OpenAI Chat Completions schema (`REQUEST` below):
- text (sanitized): message content and text parts, refusals, reasoning an assistant turn
  carries, tool-call arguments (each JSON string value), tool and function descriptions,
  stop sequences, JSON-schema text (description, title, $comment, examples, default, enum,
  const, pattern), custom tool grammars;
- structure (kept as written): model, roles, types, ids, tool and function names,
  tool_choice, enum-like options, numbers and booleans, JSON-schema keywords and property
  names. A structure string must look like an identifier (no spaces or control
  characters, at most MAX_TOKEN_CHARS): free text in such a slot is refused, since
  changing it would break the request and keeping it could leak;
- dropped (never forwarded): `user`, `metadata`, `safety_identifier`, `prompt_cache_key`
  (identifiers of the person), `prediction` (a copy of the expected answer),
  `web_search_options.user_location`, a message's participant `name`;
- unknown fields, anywhere (an `instructions` field, extra keys on a text part, a
  provider's extensions): every string in them is sanitized as text, or the request is
  refused when the setting says "refuse". Their keys stay keys, but must look like names.

Whatever cannot be read this way (nesting deeper than MAX_DEPTH, a free-text key) is
refused with a 400 that names the field: the proxy fails closed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NoReturn, Protocol

from agent.serve.wire import WireError

UnknownFields = Literal["sanitize", "refuse"]
UNKNOWN_FIELD_POLICIES = ("sanitize", "refuse")
MAX_DEPTH = 48  # OpenAI's structured outputs allow 10 levels of schema nesting
MAX_TOKEN_CHARS = 256
_TOKEN = re.compile(rf"[^\s\x00-\x1f\x7f]{{1,{MAX_TOKEN_CHARS}}}")
_HAS_WORD = re.compile(r"\w")


# -- the schema vocabulary -------------------------------------------------------------------------
class Kind:
    """A leaf kind: TEXT, JSON_TEXT, TOKEN, DROP, SCHEMA, TOKEN_MAP."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


TEXT = Kind("TEXT")  # language: every string in it sanitized
JSON_TEXT = Kind("JSON_TEXT")  # a string holding JSON: its string values sanitized
TOKEN = Kind("TOKEN")  # protocol: an identifier-like string, a number, a boolean (or a list of them)
DROP = Kind("DROP")  # not forwarded
SCHEMA = Kind("SCHEMA")  # a JSON schema
TOKEN_MAP = Kind("TOKEN_MAP")  # identifier keys -> numbers (logit_bias)

Spec = Any  # Kind | Obj | Arr | Either


@dataclass(frozen=True)
class Obj:
    fields: Mapping[str, Spec]


@dataclass(frozen=True)
class Arr:
    item: Spec


@dataclass(frozen=True)
class Either:
    """By the JSON type of the value; `obj` may be a dict of Obj by the object's "type"."""

    string: Spec = None
    array: Spec = None
    obj: Spec = None
    by_type: Mapping[str, Spec] = field(default_factory=dict)


TEXT_PART = Obj({"type": TOKEN, "text": TEXT, "refusal": TEXT})
CONTENT = Either(string=TEXT, array=Arr(TEXT_PART))
TOOL_CALL = Obj({
    "id": TOKEN, "type": TOKEN, "index": TOKEN,
    "function": Obj({"name": TOKEN, "arguments": JSON_TEXT}),
    "custom": Obj({"name": TOKEN, "input": TEXT}),
})
MESSAGE = Obj({
    "role": TOKEN, "content": CONTENT, "refusal": TEXT, "name": DROP,
    # Reasoning some servers return and their clients send back with each turn.
    "reasoning_content": TEXT, "reasoning": TEXT,
    "tool_calls": Arr(TOOL_CALL), "tool_call_id": TOKEN,
    "function_call": Obj({"name": TOKEN, "arguments": JSON_TEXT}),
    "audio": Obj({"id": TOKEN}),
})
FUNCTION_MESSAGE = Obj({**MESSAGE.fields, "name": TOKEN})  # the legacy role: `name` is the function's
FUNCTION = Obj({"name": TOKEN, "description": TEXT, "parameters": SCHEMA, "strict": TOKEN})
TOOL = Either(obj=Obj({}), by_type={
    "function": Obj({"type": TOKEN, "function": FUNCTION}),
    "custom": Obj({"type": TOKEN, "custom": Obj({
        "name": TOKEN, "description": TEXT,
        "format": Obj({"type": TOKEN, "grammar": Obj({"definition": TEXT, "syntax": TOKEN})}),
    })}),
})
NAMED = Obj({"name": TOKEN})
TOOL_CHOICE = Either(string=TOKEN, obj=Obj({
    "type": TOKEN, "function": NAMED, "custom": NAMED,
    "allowed_tools": Obj({"mode": TOKEN, "tools": Arr(Obj({"type": TOKEN, "function": NAMED, "custom": NAMED}))}),
}))
REQUEST = Obj({
    "model": TOKEN, "messages": Arr(MESSAGE),
    "stream": TOKEN, "stream_options": Obj({"include_usage": TOKEN, "include_obfuscation": TOKEN}),
    "n": TOKEN, "seed": TOKEN, "temperature": TOKEN, "top_p": TOKEN, "frequency_penalty": TOKEN,
    "presence_penalty": TOKEN, "max_tokens": TOKEN, "max_completion_tokens": TOKEN, "logprobs": TOKEN,
    "top_logprobs": TOKEN, "parallel_tool_calls": TOKEN, "store": TOKEN, "reasoning_effort": TOKEN,
    "service_tier": TOKEN, "verbosity": TOKEN, "modalities": TOKEN,
    "audio": Obj({"voice": TOKEN, "format": TOKEN}),
    "logit_bias": TOKEN_MAP,
    "stop": Either(string=TEXT, array=Arr(TEXT)),
    "response_format": Obj({"type": TOKEN, "json_schema": Obj({
        "name": TOKEN, "description": TEXT, "schema": SCHEMA, "strict": TOKEN})}),
    "tools": Arr(TOOL), "tool_choice": TOOL_CHOICE,
    "functions": Arr(FUNCTION), "function_call": Either(string=TOKEN, obj=NAMED),
    "web_search_options": Obj({"search_context_size": TOKEN, "user_location": DROP}),
    "user": DROP, "metadata": DROP, "safety_identifier": DROP, "prompt_cache_key": DROP, "prediction": DROP,
})

# JSON-schema keywords (draft 2020-12 and what OpenAI/Gemini add) by what their value is.
SCHEMA_TEXT = frozenset({"description", "title", "$comment", "examples", "default", "enum", "const", "pattern"})
SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
SCHEMA_ONE = frozenset({"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
                        "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema"})
SCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
SCHEMA_NAMES = frozenset({"required", "propertyOrdering"})  # lists of property names: keys
SCHEMA_TOKENS = frozenset({
    "type", "format", "$ref", "$id", "$schema", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
    "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "minContains", "maxContains",
    "contentEncoding", "contentMediaType", "nullable", "readOnly", "writeOnly", "deprecated", "strict",
    "dependentRequired",
})


# -- the walk ------------------------------------------------------------------------------------
class TextMemo(Protocol):
    """Texts sanitized before, as the client has them -> as they were sent."""

    def recall(self, client_text: str) -> str | None: ...

    def remember(self, client_text: str, upstream_text: str) -> None: ...


class _NoMemo:
    def recall(self, client_text: str) -> str | None:
        return None

    def remember(self, client_text: str, upstream_text: str) -> None:
        pass


class RequestWalker:
    """Sanitized copies of request bodies. `sanitize` is called for every string that is
    language and not in the memo (strings without a letter or digit are left as they are)."""

    def __init__(self, sanitize: Callable[[str], str], *, unknown: UnknownFields = "sanitize",
                 memo: TextMemo | None = None):
        if unknown not in UNKNOWN_FIELD_POLICIES:
            raise ValueError(f"unknown_fields must be one of {', '.join(UNKNOWN_FIELD_POLICIES)}, not {unknown!r}")
        self._sanitize = sanitize
        self.unknown = unknown
        self.memo = memo or _NoMemo()

    def walk(self, body: dict[str, Any]) -> dict[str, Any]:
        return self._value(body, REQUEST, "", 0)

    # -- texts ------------------------------------------------------------------------------------
    def text(self, value: str) -> str:
        if not _HAS_WORD.search(value):
            return value
        known = self.memo.recall(value)
        if known is not None:
            return known
        sent = self._sanitize(value)
        self.memo.remember(value, sent)
        return sent

    def json_text(self, value: str, path: str = "", depth: int = 0) -> str:
        """JSON text with every string value (not the keys) sanitized; text that is not
        JSON is sanitized as a whole."""
        known = self.memo.recall(value)
        if known is not None:
            return known
        try:
            data = json.loads(value)
        except RecursionError:
            _too_deep(path)
        except ValueError:
            return self.text(value)
        sent = json.dumps(self._free(data, path, depth, names_only=False), ensure_ascii=False)
        self.memo.remember(value, sent)
        return sent

    # -- by spec ----------------------------------------------------------------------------------
    def _value(self, value: Any, spec: Spec, path: str, depth: int) -> Any:
        if depth > MAX_DEPTH:
            _too_deep(path)
        if spec is TEXT:
            return self._free(value, path, depth)
        if spec is JSON_TEXT:
            return self.json_text(value, path, depth) if isinstance(value, str) else self._free(value, path, depth)
        if spec is TOKEN:
            return self._token(value, path, depth)
        if spec is SCHEMA:
            return self._schema(value, path, depth)
        if spec is TOKEN_MAP:
            if not isinstance(value, dict):
                return self._token(value, path, depth)
            for key in value:
                self._key(key, path)
            return {k: self._token(v, _join(path, k), depth + 1) for k, v in value.items()}
        if isinstance(spec, Either):
            if isinstance(value, str) and spec.string is not None:
                return self._value(value, spec.string, path, depth)
            if isinstance(value, list) and spec.array is not None:
                return self._value(value, spec.array, path, depth)
            if isinstance(value, dict) and (spec.obj is not None or spec.by_type):
                chosen = spec.by_type.get(value.get("type")) if spec.by_type else None
                return self._value(value, chosen or spec.obj, path, depth)
            return self._free(value, path, depth)
        if isinstance(spec, Arr):
            if not isinstance(value, list):
                return self._free(value, path, depth)
            return [self._value(v, spec.item, f"{path}[{i}]", depth + 1) for i, v in enumerate(value)]
        if isinstance(spec, Obj):
            if not isinstance(value, dict):
                return self._free(value, path, depth)
            fields = spec.fields
            if fields is MESSAGE.fields and value.get("role") == "function":
                fields = FUNCTION_MESSAGE.fields
            out = {}
            for key, item in value.items():
                where = _join(path, key)
                known = fields.get(key)
                if known is DROP:
                    continue
                if known is None:
                    out[key] = self._unknown(item, where, depth + 1)
                else:
                    out[key] = self._value(item, known, where, depth + 1)
            return out
        raise TypeError(f"unknown spec {spec!r}")

    def _unknown(self, value: Any, path: str, depth: int) -> Any:
        if self.unknown == "refuse":
            raise WireError(400, f"{path} is not a Chat Completions field Veil knows, and the proxy is set to refuse "
                                 "unknown fields ([server] unknown_fields = \"refuse\")", param=path, code="unknown_field")
        return self._free(value, path, depth)

    def _free(self, value: Any, path: str, depth: int, *, names_only: bool = True) -> Any:
        """Any JSON value read as language: every string sanitized, keys kept. Keys of
        fields Veil does not know must look like names (`names_only`); keys inside JSON
        data (tool-call arguments, schema examples) are the tool's property names."""
        if depth > MAX_DEPTH:
            _too_deep(path)
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self._free(v, f"{path}[{i}]", depth + 1, names_only=names_only) for i, v in enumerate(value)]
        if isinstance(value, dict):
            if names_only:
                for key in value:
                    self._key(key, path)
            return {k: self._free(v, _join(path, k), depth + 1, names_only=names_only) for k, v in value.items()}
        return value

    def _token(self, value: Any, path: str, depth: int) -> Any:
        if depth > MAX_DEPTH:
            _too_deep(path)
        if isinstance(value, list):
            return [self._token(v, f"{path}[{i}]", depth + 1) for i, v in enumerate(value)]
        if isinstance(value, dict):
            return self._free(value, path, depth)
        if isinstance(value, str) and value and not _TOKEN.fullmatch(value):
            raise WireError(400, f"{path} must be an identifier (no spaces, at most {MAX_TOKEN_CHARS} characters): "
                                 "Veil forwards it as written, so it cannot hold text", param=path,
                            code="invalid_identifier")
        return value

    def _key(self, key: str, path: str) -> None:
        if not _TOKEN.fullmatch(key):
            raise WireError(400, f"{path or 'the request'} has a key that is text, not a name ({len(key)} characters, "
                                 "with spaces or control characters): Veil does not change keys, so it cannot "
                                 "forward it", param=path or None, code="invalid_key")

    def _schema(self, value: Any, path: str, depth: int) -> Any:
        if depth > MAX_DEPTH:
            _too_deep(path)
        if isinstance(value, bool):
            return value
        if not isinstance(value, dict):
            return self._free(value, path, depth, names_only=False)
        out = {}
        for key, item in value.items():
            where = _join(path, key)
            if key in SCHEMA_TEXT:
                out[key] = self._free(item, where, depth + 1, names_only=False)
            elif key in SCHEMA_MAPS and isinstance(item, dict):
                out[key] = {name: self._schema(sub, _join(where, name), depth + 2) for name, sub in item.items()}
            elif key in SCHEMA_ONE or key in SCHEMA_LISTS:  # one schema, or a list of them
                out[key] = ([self._schema(s, f"{where}[{i}]", depth + 2) for i, s in enumerate(item)]
                            if isinstance(item, list) else self._schema(item, where, depth + 1))
            elif key in SCHEMA_NAMES and isinstance(item, list) and all(isinstance(n, str) for n in item):
                out[key] = item  # property names: keys, like the keys of `properties`
            elif key in SCHEMA_TOKENS:
                out[key] = self._token(item, where, depth + 1)
            else:
                out[key] = self._unknown(item, where, depth + 1)
        return out


def _too_deep(path: str) -> NoReturn:
    raise WireError(400, f"{path or 'the request'} is nested too deep (over {MAX_DEPTH} levels) for Veil to check",
                    param=path or None, code="too_deep")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


# -- what left, field by field --------------------------------------------------------------------
def leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """(path, value) of every string, number, boolean and null in a JSON value, in order:
    `messages[1].content[0].text`, `tools[0].function.description`..."""
    if isinstance(value, dict):
        if not value and path:
            yield path, {}
        for key, item in value.items():
            yield from leaves(item, _join(path, key))
    elif isinstance(value, list):
        if not value:
            yield path, []
        for i, item in enumerate(value):
            yield from leaves(item, f"{path}[{i}]")
    else:
        yield path, value


def field_listing(outgoing: dict[str, Any]) -> str:
    """One line per field that left, `path: value` with the value as JSON (for the audit
    log: everything the upstream was sent, and where)."""
    return "\n".join(f"{path}: {json.dumps(value, ensure_ascii=False)}" for path, value in leaves(outgoing))
