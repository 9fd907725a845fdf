"""Generation with the local model: `LocalModel` (a ModelLoader) renders prompts (the
model's chat template, or a plain transcript for base models), completes them within a
token and a time budget, constrains the output to a JSON schema when asked, picks one of
a few options from the next token's logits (`choose`), and streams answers for the
"local" provider. `get_model` hands out the process-wide instance for a file.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from models.runtime.constrained import JsonGeneration, json_grammar, parsed
from models.runtime.llama import (
    first_tokens,
    next_token_logits,
    prefill,
    prompt_tokens,
    stopping_criteria,
    token_count,
)
from models.runtime.loader import ModelLoader, ModelLoadError, shared
from models.runtime.results import Choice, Generation

log = logging.getLogger("models.runtime")


class LocalModel(ModelLoader):
    """A GGUF model run by llama.cpp: prompts in, Generation/Choice/text out."""

    _timed_out = False  # set by the stopping criterion of the running call

    # -- prompts ---------------------------------------------------------------------------
    def render_chat(self, messages: Sequence[Mapping[str, str]]) -> tuple[str, list[str]]:
        """The prompt text for a chat, and its stop strings. Uses the model's own chat
        template; a base model (no template) gets a plain transcript."""
        if self._formatter is not None:
            try:
                rendered = self._formatter(messages=[dict(m) for m in messages])
                return rendered.prompt, [s for s in (rendered.stop or []) if s]
            except Exception as exc:  # noqa: BLE001 - a template that rejects e.g. a system role
                log.debug("chat template failed (%s); merging the system message", exc)
                merged = _merge_system(messages)
                rendered = self._formatter(messages=merged)
                return rendered.prompt, [s for s in (rendered.stop or []) if s]
        lines = []
        for m in messages:
            role = {"system": "Instructions", "user": "User", "assistant": "Assistant"}.get(
                m["role"], m["role"].title()
            )
            lines.append(f"{role}: {m['content'].strip()}")
        lines.append("Assistant:")
        return "\n\n".join(lines), ["\nUser:", "\n\nUser:"]

    def _tokens(self, text: str, *, templated: bool) -> list[int]:
        return prompt_tokens(self._llm, text, templated=templated)

    def count_tokens(self, text: str) -> int:
        """Tokens in `text` (loads the model)."""
        with self._infer_lock:  # not released by the idle timer meanwhile
            self.load()
            count = token_count(self._llm, text)
        self._used()
        return count

    # -- inference -------------------------------------------------------------------------
    def complete(
        self,
        prompt: str,
        *,
        max_tokens: int = 64,
        time_budget_s: float | None = None,
        stop: Sequence[str] = (),
        temperature: float = 0.0,
        json_schema: Mapping[str, Any] | None = None,
        _templated: bool = False,
    ) -> Generation:
        """Complete `prompt` (raw text: few-shot prompts for base models)."""
        return self._generate(lambda: (prompt, list(stop), _templated), max_tokens, time_budget_s, temperature,
                              json_schema)

    def chat(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        max_tokens: int = 256,
        time_budget_s: float | None = None,
        temperature: float = 0.0,
        json_schema: Mapping[str, Any] | None = None,
        stop: Sequence[str] = (),
    ) -> Generation:
        """Answer a chat (list of {"role", "content"}) using the model's chat template."""

        def render() -> tuple[str, list[str], bool]:  # once loaded: the template comes with the weights
            prompt, template_stops = self.render_chat(messages)
            return prompt, [*template_stops, *stop], self._formatter is not None

        return self._generate(render, max_tokens, time_budget_s, temperature, json_schema)

    def complete_json(
        self,
        prompt: str | Sequence[Mapping[str, str]],
        schema: Mapping[str, Any],
        *,
        max_tokens: int = 128,
        time_budget_s: float | None = None,
    ) -> JsonGeneration:
        """Schema-constrained output, parsed. `prompt` is raw text or chat messages."""
        if isinstance(prompt, str):
            gen = self.complete(
                prompt, max_tokens=max_tokens, time_budget_s=time_budget_s, json_schema=schema
            )
        else:
            gen = self.chat(
                prompt, max_tokens=max_tokens, time_budget_s=time_budget_s, json_schema=schema
            )
        return parsed(gen)

    def choose(
        self,
        prompt: str | Sequence[Mapping[str, str]],
        options: Sequence[str],
        *,
        time_budget_s: float | None = None,
    ) -> Choice:
        """Which option the model would write next after `prompt` (raw text), or as the
        start of its answer to `prompt` given as chat messages.

        Options are compared by the logit of their first token, so their first tokens must
        differ (e.g. " keep" / " swap"; include the leading space as it would be written)."""
        started = time.monotonic()
        deadline = None if time_budget_s is None else started + time_budget_s
        with self._session(deadline) as failure:
            if failure:
                return Choice(None, finish=failure[0], elapsed_s=time.monotonic() - started)
            first = first_tokens(self._llm, options)
            if isinstance(prompt, str):
                tokens = self._tokens(prompt, templated=False)
            else:
                text, _ = self.render_chat(prompt)
                tokens = self._tokens(text, templated=self._formatter is not None)
            if len(tokens) + 1 > self.n_ctx:
                return Choice(None, finish="too_long", elapsed_s=time.monotonic() - started)
            if not prefill(self._llm, tokens, deadline):
                return Choice(None, finish="time", elapsed_s=time.monotonic() - started)
            try:
                seen = next_token_logits(self._llm, tokens, first)
            except Exception as exc:  # noqa: BLE001 - llama.cpp decode failure: no choice
                log.warning("choose() failed: %s", exc)
                return Choice(None, finish="error", elapsed_s=time.monotonic() - started)
            best = max(seen, key=seen.__getitem__) if seen else None
            return Choice(best, seen, "stop", time.monotonic() - started)

    def stream(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        max_tokens: int = 512,
        time_budget_s: float | None = None,
        temperature: float = 0.7,
        cancel: threading.Event | None = None,
    ) -> Iterator[str]:
        """Stream an answer to a chat, piece by piece (for a "local model" provider).
        Ends early on cancel or when the time budget is used up. Holds the model until
        the iterator is exhausted or closed."""
        started = time.monotonic()
        deadline = None if time_budget_s is None else started + time_budget_s
        with self._session(deadline) as failure:
            if failure:
                raise ModelLoadError(failure[1] or f"local model unavailable ({failure[0]})")
            prompt, stops = self.render_chat(messages)
            tokens = self._tokens(prompt, templated=self._formatter is not None)
            max_tokens = min(max_tokens, self.n_ctx - len(tokens))
            if max_tokens <= 0:
                raise ModelLoadError("the conversation is longer than the model's context")
            if not prefill(self._llm, tokens, deadline):
                return
            criteria = self._stopping(deadline, cancel)
            for chunk in self._llm.create_completion(
                tokens,
                max_tokens=max_tokens,
                temperature=temperature,
                stop=stops,
                stream=True,
                stopping_criteria=criteria,
            ):
                text = chunk["choices"][0]["text"]
                if text:
                    yield text

    # -- internals -------------------------------------------------------------------------
    def _stopping(self, deadline: float | None, cancel: threading.Event | None = None) -> Any:
        self._timed_out = False

        def timed_out() -> None:
            self._timed_out = True

        return stopping_criteria(deadline, cancel, timed_out)

    def _generate(
        self,
        render: Callable[[], tuple[str, list[str], bool]],
        max_tokens: int,
        time_budget_s: float | None,
        temperature: float,
        json_schema: Mapping[str, Any] | None,
    ) -> Generation:
        """One completion of the prompt `render` gives (text, stop strings, templated),
        within the budgets; a model that cannot run in time gives an empty Generation
        saying why."""
        started = time.monotonic()
        deadline = None if time_budget_s is None else started + time_budget_s
        with self._session(deadline) as failure:
            if failure:
                return Generation("", failure[0], error=failure[1], elapsed_s=time.monotonic() - started)
            prompt, stop, templated = render()
            return self._complete_locked(prompt, max_tokens, deadline, stop, temperature, json_schema, templated, started)

    def _complete_locked(
        self,
        prompt: str,
        max_tokens: int,
        deadline: float | None,
        stop: Sequence[str],
        temperature: float,
        json_schema: Mapping[str, Any] | None,
        templated: bool,
        started: float,
    ) -> Generation:
        llm = self._llm
        tokens = self._tokens(prompt, templated=templated)
        room = self.n_ctx - len(tokens)
        if room <= 0:
            return Generation("", "too_long", len(tokens), 0, time.monotonic() - started)
        max_tokens = max(1, min(max_tokens, room))
        if not prefill(llm, tokens, deadline):
            return Generation("", "time", len(tokens), 0, time.monotonic() - started)
        criteria = self._stopping(deadline)
        try:
            result = llm.create_completion(
                tokens,
                max_tokens=max_tokens,
                temperature=temperature,
                stop=list(stop) or None,
                stopping_criteria=criteria,
                grammar=json_grammar(json_schema) if json_schema is not None else None,
            )
        except Exception as exc:  # noqa: BLE001 - llama.cpp decode failure, grammar error
            log.warning("generation failed: %s", exc)
            return Generation("", "error", len(tokens), 0, time.monotonic() - started, str(exc))
        choice = result["choices"][0]
        usage = result.get("usage") or {}
        finish = "time" if self._timed_out else (choice.get("finish_reason") or "stop")
        return Generation(
            choice["text"],
            finish,
            int(usage.get("prompt_tokens", len(tokens))),
            int(usage.get("completion_tokens", 0)),
            time.monotonic() - started,
        )


def _merge_system(messages: Sequence[Mapping[str, str]]) -> list[dict[str, str]]:
    """For templates that refuse a system role: prepend it to the first user message."""
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    out = [dict(m) for m in messages if m["role"] != "system"]
    if system and out and out[0]["role"] == "user":
        out[0]["content"] = f"{system}\n\n{out[0]['content']}"
    return out


def get_model(
    path: str | Path, *, n_ctx: int = 0, n_threads: int = 0, n_gpu_layers: int = -1
) -> LocalModel:
    """The process-wide LocalModel for this file and configuration (the engine, the local
    provider and the CLI share one copy of the weights). Not loaded yet: see load()."""
    key = (str(Path(path).resolve()), n_ctx, n_threads, n_gpu_layers)
    return shared(key, lambda: LocalModel(path, n_ctx=n_ctx, n_threads=n_threads, n_gpu_layers=n_gpu_layers))
