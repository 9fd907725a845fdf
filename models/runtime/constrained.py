"""Constrained output: a JSON schema turned into a llama.cpp grammar, so the model can
only write JSON of that shape, and the parsed answer (`JsonGeneration`). An answer cut
by the token or time budget is incomplete JSON and counts as no answer."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from models.runtime.results import Generation

_grammars: dict[str, Any] = {}
_grammars_lock = threading.Lock()


@dataclass(frozen=True)
class JsonGeneration:
    """A schema-constrained completion; `value` is None when the output is not valid JSON
    (cut by the time or token budget, or the model failed)."""

    value: Any
    generation: Generation


def json_grammar(schema: Mapping[str, Any]) -> Any:
    """The llama.cpp grammar for a JSON schema (built once per schema: ~ms each)."""
    key = json.dumps(schema, sort_keys=True)
    with _grammars_lock:
        grammar = _grammars.get(key)
        if grammar is None:
            from llama_cpp import LlamaGrammar

            grammar = LlamaGrammar.from_json_schema(key, verbose=False)
            _grammars[key] = grammar
        return grammar


def parsed(generation: Generation) -> JsonGeneration:
    """The completion's JSON value, or None when it is not complete, valid JSON."""
    value = None
    if generation.finish in ("stop", "length") and generation.text.strip():
        try:
            value = json.loads(generation.text)
        except ValueError:
            value = None  # cut by the token budget: incomplete JSON is no answer
    return JsonGeneration(value, generation)
