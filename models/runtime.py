"""The one wrapper over `llama_cpp.Llama` that the rest of Veil uses.

What it adds to llama.cpp:
- lazy loading (first use or `start_loading()` from a worker thread, never the UI thread),
- one inference at a time (llama.cpp contexts are not thread-safe) behind a lock,
- threads and GPU layers chosen for the machine,
- a time budget per call (prompt evaluation in chunks and a stopping criterion check the
  clock) and a token budget, so a slow model can never stall the engine,
- JSON-schema-constrained output (a llama.cpp grammar built from the schema),
- the chat template from the GGUF metadata when there is one; base models get plain text
  completion (the tasks then use few-shot prompts),
- `choose()`: pick one of a few answers from the next-token logits: one forward pass,
  and the answer is one of the options by construction (good for tiny base models),
- llama.cpp's log output routed to Python logging instead of stderr.

Every call returns a result object (never raises for a model that is slow or says junk);
callers validate what the model wrote before using it.
"""

from __future__ import annotations

import atexit
import ctypes
import json
import logging
import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.engine.local_tasks import LocalModelUnavailable
from models.gguf_info import GgufInfo, read_gguf_info

log = logging.getLogger(__name__)
_llama_log = logging.getLogger("veil.llama_cpp")

_idle_release_s = 0.0  # see set_idle_release()
DEFAULT_CONTEXT = 2048  # enough for prompts + answers of the tiny model; 4096 costs ~30 MB more
# Prompt evaluation is done in chunks of this many tokens so the time budget is checked
# between them (a single llama_decode call cannot be interrupted).
PREFILL_CHUNK = 128


class ModelLoadError(LocalModelUnavailable):
    """The model file is missing, not a GGUF, or llama.cpp refused to load it."""


@dataclass(frozen=True)
class Generation:
    """What one completion produced, and why it ended."""

    text: str
    # stop: natural end or a stop string; length: token budget used up; time: time budget
    # used up; busy: another inference held the model for the whole budget; too_long: the
    # prompt does not fit the context; error: llama.cpp failed (see `error`).
    finish: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    elapsed_s: float = 0.0
    error: str = ""

    @property
    def ok(self) -> bool:
        """True when the text is complete (not cut by the clock or an error)."""
        return self.finish in ("stop", "length")


@dataclass(frozen=True)
class JsonGeneration:
    """A schema-constrained completion; `value` is None when the output is not valid JSON
    (cut by the time or token budget, or the model failed)."""

    value: Any
    generation: Generation


@dataclass(frozen=True)
class Choice:
    """The model's pick among a few options, from the logits of the next token."""

    best: str | None  # None when the call did not run (time budget, busy, error)
    logits: Mapping[str, float] = field(default_factory=dict)
    finish: str = "stop"
    elapsed_s: float = 0.0

    def margin(self, option: str, other: str) -> float:
        """logit(option) - logit(other); positive when the model prefers `option`."""
        return self.logits.get(option, float("-inf")) - self.logits.get(other, float("-inf"))


def default_threads() -> int:
    """Threads for llama.cpp: one CPU is left to the UI and everything else.

    llama.cpp's worker threads spin at barriers, so when another process wants a core the
    whole computation waits for the descheduled thread: measured on 2 busy cores, the tiny
    model took 1.3 s with 1 thread and 4-8 s with 2 for the same 30-token completion.
    Past 4 CPUs, half of them (hyper-threads add little to matrix work)."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, n - 1 if n <= 4 else n // 2)


def gpu_offload_supported() -> bool:
    import llama_cpp

    try:
        return bool(llama_cpp.llama_supports_gpu_offload())
    except Exception:  # noqa: BLE001 - an old or odd build: assume CPU only
        return False


_log_callback_ref: Any = None
_log_lock = threading.Lock()


def _route_llama_logs() -> None:
    """Send llama.cpp's own log lines to Python logging (DEBUG) instead of stderr.

    llama_cpp installs a callback that prints to stderr at import time; ours replaces it.
    The ctypes callback object must stay referenced for as long as llama.cpp may call it."""
    global _log_callback_ref
    with _log_lock:
        if _log_callback_ref is not None:
            return
        import llama_cpp

        @llama_cpp.llama_log_callback
        def _callback(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
            if _llama_log.isEnabledFor(logging.DEBUG):
                _llama_log.debug("%s", text.decode("utf-8", errors="replace").rstrip())

        llama_cpp.llama_log_set(_callback, ctypes.c_void_p(0))
        _log_callback_ref = _callback


class LocalModel:
    """A GGUF model run by llama.cpp. Cheap to create (reads only the metadata); the
    weights are loaded on first use or by `load()` / `start_loading()`."""

    def __init__(
        self,
        path: str | Path,
        *,
        n_ctx: int = 0,
        n_threads: int = 0,
        n_gpu_layers: int = -1,
        seed: int = 1234,
    ):
        self.path = Path(path)
        try:
            self.info: GgufInfo = read_gguf_info(self.path)
        except FileNotFoundError as exc:
            raise ModelLoadError(f"model file not found: {self.path}") from exc
        except ValueError as exc:  # GgufError
            raise ModelLoadError(f"{self.path.name}: {exc}") from exc
        trained = self.info.context_length or DEFAULT_CONTEXT
        self.n_ctx = min(n_ctx or DEFAULT_CONTEXT, trained)
        self.n_threads = n_threads or default_threads()
        self.n_gpu_layers = n_gpu_layers
        self.seed = seed
        self._llm: Any = None
        self._load_error: str = ""
        self._load_lock = threading.Lock()
        self._loaded = threading.Event()
        self._infer_lock = threading.Lock()
        self._grammars: dict[str, Any] = {}
        self._formatter: Any = None
        self._loader: threading.Thread | None = None
        self._timed_out = False  # set by the stopping criterion of the running call
        # Weights are freed after this many seconds unused (0: kept until close()); the
        # next call loads them again (~0.5 s for the tiny model, its file is in the page
        # cache). See set_idle_release().
        self.idle_release_s = _idle_release_s
        self._last_used = time.monotonic()
        self._release_timer: threading.Timer | None = None
        self._timer_lock = threading.Lock()

    # -- loading ---------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.info.name

    @property
    def has_chat_template(self) -> bool:
        return self.info.has_chat_template

    @property
    def is_loaded(self) -> bool:
        return self._llm is not None

    @property
    def load_error(self) -> str:
        return self._load_error

    def load(self) -> None:
        """Load the weights (blocking, idempotent, thread-safe). Raises ModelLoadError."""
        with self._load_lock:
            if self._llm is not None:
                return
            if self._load_error:
                raise ModelLoadError(self._load_error)
            _route_llama_logs()
            import llama_cpp

            gpu_layers = self.n_gpu_layers
            if gpu_layers < 0:
                gpu_layers = -1 if gpu_offload_supported() else 0
            started = time.monotonic()
            try:
                self._llm = llama_cpp.Llama(
                    str(self.path),
                    n_ctx=self.n_ctx,
                    n_threads=self.n_threads,
                    n_threads_batch=self.n_threads,
                    n_gpu_layers=gpu_layers,
                    seed=self.seed,
                    verbose=False,
                )
            except Exception as exc:  # llama.cpp raises ValueError/RuntimeError on bad files
                self._load_error = f"llama.cpp could not load {self.path.name}: {exc}"
                self._loaded.set()
                raise ModelLoadError(self._load_error) from exc
            if self.has_chat_template:
                self._formatter = self._make_formatter()
            log.info(
                "loaded %s in %.2fs (ctx %d, threads %d, gpu layers %d)",
                self.path.name,
                time.monotonic() - started,
                self.n_ctx,
                self.n_threads,
                gpu_layers,
            )
            self._loaded.set()

    def start_loading(self) -> threading.Thread:
        """Load in a daemon thread (for the UI); calls made meanwhile wait, within budget."""
        with self._load_lock:
            if self._loader is None:
                self._loader = threading.Thread(
                    target=self._load_quietly, name="veil-model-load", daemon=True
                )
                self._loader.start()
            return self._loader

    def _load_quietly(self) -> None:
        try:
            self.load()
        except ModelLoadError as exc:
            log.warning("%s", exc)

    def _ensure_loaded(self, deadline: float | None) -> str:
        """'' when loaded, else why not ('time' or an error message)."""
        if self._llm is not None:
            return ""
        if self._loader is not None:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not self._loaded.wait(timeout):
                return "time"
        try:
            self.load()
        except ModelLoadError as exc:
            return str(exc)
        return ""

    def close(self) -> None:
        with self._timer_lock:
            if self._release_timer is not None:
                self._release_timer.cancel()
                self._release_timer = None
        with self._infer_lock, self._load_lock:
            if self._llm is not None:
                self._llm.close()
                self._llm = None
                self._loaded.clear()
                self._loader = None

    # -- prompts ---------------------------------------------------------------------------
    def _make_formatter(self) -> Any:
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        llm = self._llm
        eos_id, bos_id = llm.token_eos(), llm.token_bos()
        eos = llm._model.token_get_text(eos_id) if eos_id != -1 else ""
        bos = llm._model.token_get_text(bos_id) if bos_id != -1 else ""
        return Jinja2ChatFormatter(
            template=self.info.chat_template or "", eos_token=eos, bos_token=bos
        )

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
        llm = self._llm
        if templated:
            # The template writes special tokens (and usually BOS) as text.
            tokens = llm.tokenize(text.encode("utf-8"), add_bos=False, special=True)
            bos = llm.token_bos()
            if bos != -1 and (not tokens or tokens[0] != bos) and llm._model.add_bos_token():
                tokens.insert(0, bos)
            return tokens
        # Plain prompts carry user text: never let it spell control tokens.
        return llm.tokenize(text.encode("utf-8"), add_bos=True, special=False)

    def count_tokens(self, text: str) -> int:
        """Tokens in `text` (loads the model)."""
        with self._infer_lock:  # not released by the idle timer meanwhile
            self.load()
            count = len(self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))
        self._used()
        return count

    # -- releasing the weights when idle ---------------------------------------------------
    def _used(self) -> None:
        self._last_used = time.monotonic()
        self._schedule_release()

    def _schedule_release(self) -> None:
        if self.idle_release_s <= 0:
            return
        with self._timer_lock:
            if self._release_timer is not None:
                self._release_timer.cancel()
            timer = threading.Timer(self.idle_release_s, self._release_if_idle)
            timer.daemon = True
            timer.start()
            self._release_timer = timer

    def _release_if_idle(self) -> None:
        if self._llm is None or time.monotonic() - self._last_used < self.idle_release_s * 0.99:
            return  # freed already, or used since (that use scheduled its own timer)
        if not self._infer_lock.acquire(blocking=False):
            return  # in use: the end of that call schedules the next check
        try:
            with self._load_lock:
                if self._llm is not None:
                    self._llm.close()
                    self._llm = None
                    self._loaded.clear()
                    self._loader = None
                    log.info("freed %s after %.0f s unused", self.path.name, self.idle_release_s)
        finally:
            self._infer_lock.release()

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
        started = time.monotonic()
        deadline = None if time_budget_s is None else started + time_budget_s
        with self._session(deadline) as failure:
            if failure:
                return Generation("", failure[0], error=failure[1], elapsed_s=time.monotonic() - started)
            return self._complete_locked(
                prompt, max_tokens, deadline, stop, temperature, json_schema, _templated, started
            )

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
        started = time.monotonic()
        deadline = None if time_budget_s is None else started + time_budget_s
        with self._session(deadline) as failure:
            if failure:
                return Generation("", failure[0], error=failure[1], elapsed_s=time.monotonic() - started)
            prompt, template_stops = self.render_chat(messages)
            return self._complete_locked(
                prompt,
                max_tokens,
                deadline,
                [*template_stops, *stop],
                temperature,
                json_schema,
                self._formatter is not None,
                started,
            )

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
        value = None
        if gen.finish in ("stop", "length") and gen.text.strip():
            try:
                value = json.loads(gen.text)
            except ValueError:
                value = None  # cut by the token budget: incomplete JSON is no answer
        return JsonGeneration(value, gen)

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
            llm = self._llm
            first: dict[str, int] = {}
            for option in options:
                ids = llm.tokenize(option.encode("utf-8"), add_bos=False, special=False)
                if not ids:
                    raise ValueError(f"option {option!r} has no tokens")
                first[option] = ids[0]
            if len(set(first.values())) != len(first):
                raise ValueError(f"options {list(options)} share a first token")
            if isinstance(prompt, str):
                tokens = self._tokens(prompt, templated=False)
            else:
                text, _ = self.render_chat(prompt)
                tokens = self._tokens(text, templated=self._formatter is not None)
            if len(tokens) + 1 > self.n_ctx:
                return Choice(None, finish="too_long", elapsed_s=time.monotonic() - started)
            if not self._prefill(tokens, deadline):
                return Choice(None, finish="time", elapsed_s=time.monotonic() - started)
            seen: dict[str, float] = {}

            def record(input_ids: Any, scores: Any) -> Any:
                if not seen:
                    for option, token in first.items():
                        seen[option] = float(scores[token])
                return scores

            import llama_cpp

            try:
                llm.create_completion(
                    tokens,
                    max_tokens=1,
                    temperature=0.0,
                    logits_processor=llama_cpp.LogitsProcessorList([record]),
                )
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
            if not self._prefill(tokens, deadline):
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
    class _Session:
        def __init__(self, model: LocalModel, deadline: float | None):
            self.model, self.deadline, self.locked = model, deadline, False

        def __enter__(self) -> tuple[str, str] | None:
            why = self.model._ensure_loaded(self.deadline)
            if why == "time":
                return ("time", "the model is still loading")
            if why:
                return ("error", why)
            timeout = -1 if self.deadline is None else max(0.0, self.deadline - time.monotonic())
            if not self.model._infer_lock.acquire(timeout=timeout):
                return ("busy", "another inference is running")
            self.locked = True
            if self.model._llm is None:  # freed for idleness between the two steps above
                try:
                    self.model.load()
                except ModelLoadError as exc:
                    return ("error", str(exc))
            return None

        def __exit__(self, *exc: object) -> None:
            if self.locked:
                self.model._infer_lock.release()
                self.model._used()

    def _session(self, deadline: float | None) -> LocalModel._Session:
        return LocalModel._Session(self, deadline)

    def _stopping(self, deadline: float | None, cancel: threading.Event | None = None) -> Any:
        import llama_cpp

        self._timed_out = False

        def out_of_time(input_ids: Any, logits: Any) -> bool:
            if cancel is not None and cancel.is_set():
                return True
            if deadline is not None and time.monotonic() > deadline:
                self._timed_out = True
                return True
            return False

        return llama_cpp.StoppingCriteriaList([out_of_time])

    def _grammar(self, schema: Mapping[str, Any]) -> Any:
        key = json.dumps(schema, sort_keys=True)
        grammar = self._grammars.get(key)
        if grammar is None:
            from llama_cpp import LlamaGrammar

            grammar = LlamaGrammar.from_json_schema(key, verbose=False)
            self._grammars[key] = grammar
        return grammar

    def _prefill(self, tokens: list[int], deadline: float | None) -> bool:
        """Evaluate all but the last prompt token in chunks, checking the clock between
        them; reuses whatever prefix is already in the KV cache (few-shot headers).
        False when the budget ran out."""
        llm = self._llm
        cached = llm.n_tokens
        common = 0
        if cached:
            previous = llm.input_ids[:cached]
            limit = min(cached, len(tokens))
            while common < limit and previous[common] == tokens[common]:
                common += 1
        target = len(tokens) - 1  # create_completion evaluates the last one (logits)
        if common >= target:
            return True
        llm.n_tokens = common  # eval() drops the KV cache past this point
        for start in range(common, target, PREFILL_CHUNK):
            if deadline is not None and time.monotonic() > deadline:
                return False
            llm.eval(tokens[start : min(target, start + PREFILL_CHUNK)])
        return deadline is None or time.monotonic() <= deadline

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
        if not self._prefill(tokens, deadline):
            return Generation("", "time", len(tokens), 0, time.monotonic() - started)
        criteria = self._stopping(deadline)
        try:
            result = llm.create_completion(
                tokens,
                max_tokens=max_tokens,
                temperature=temperature,
                stop=list(stop) or None,
                stopping_criteria=criteria,
                grammar=self._grammar(json_schema) if json_schema is not None else None,
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


# -- one shared instance per model file ----------------------------------------------------
_shared: dict[tuple[str, int, int, int], LocalModel] = {}
_shared_lock = threading.Lock()


def set_idle_release(seconds: float) -> None:
    """Free the weights of every model of this process after `seconds` unused (0: keep
    them loaded). The desktop app sets it from `[local_model] release_after_minutes`: the
    tiny model holds ~330 MB that an idle tray app should not."""
    global _idle_release_s
    _idle_release_s = max(0.0, float(seconds))
    with _shared_lock:
        models = list(_shared.values())
    for model in models:
        model.idle_release_s = _idle_release_s
        if model.is_loaded:
            model._used()


def get_model(
    path: str | Path, *, n_ctx: int = 0, n_threads: int = 0, n_gpu_layers: int = -1
) -> LocalModel:
    """The process-wide LocalModel for this file and configuration (the engine, the local
    provider and the CLI share one copy of the weights). Not loaded yet: see load()."""
    key = (str(Path(path).resolve()), n_ctx, n_threads, n_gpu_layers)
    with _shared_lock:
        model = _shared.get(key)
        if model is None:
            model = LocalModel(path, n_ctx=n_ctx, n_threads=n_threads, n_gpu_layers=n_gpu_layers)
            _shared[key] = model
        return model


def release_models(path: str | Path | None = None) -> None:
    """Free shared models (all, or those of one file), e.g. before deleting the file."""
    target = str(Path(path).resolve()) if path is not None else None
    with _shared_lock:
        for key in [k for k in _shared if target is None or k[0] == target]:
            _shared.pop(key).close()


# llama.cpp's own finalizer fails when it runs during interpreter shutdown (its C bindings
# are gone by then: "NoneType object is not callable"); free the models while they exist.
atexit.register(release_models)

