"""llama.cpp internals, kept in one place: threads and GPU layers for this machine, its
log output routed to Python logging, opening a model, the chat template formatter,
tokenizing prompts, evaluating a prompt in chunks between clock checks (reusing the KV
cache), the stopping criterion that ends a call on time or on cancel, and reading the
next token's logits. Everything here takes or returns llama_cpp objects; the rest of the
runtime does not reach into them.
"""

from __future__ import annotations

import ctypes
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

log = logging.getLogger("models.runtime")
_llama_log = logging.getLogger("veil.llama_cpp")

# Prompt evaluation is done in chunks of this many tokens so the time budget is checked
# between them (a single llama_decode call cannot be interrupted).
PREFILL_CHUNK = 128


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


def route_llama_logs() -> None:
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


def open_llama(path: Path, *, n_ctx: int, n_threads: int, n_gpu_layers: int, seed: int) -> tuple[Any, int]:
    """A llama_cpp.Llama for the file, and the GPU layers it got (-1 in the settings:
    all of them where this build can offload, else none). Raises what llama.cpp raises."""
    route_llama_logs()
    import llama_cpp

    gpu_layers = n_gpu_layers
    if gpu_layers < 0:
        gpu_layers = -1 if gpu_offload_supported() else 0
    llm = llama_cpp.Llama(
        str(path),
        n_ctx=n_ctx,
        n_threads=n_threads,
        n_threads_batch=n_threads,
        n_gpu_layers=gpu_layers,
        seed=seed,
        verbose=False,
    )
    return llm, gpu_layers


def chat_formatter(llm: Any, template: str) -> Any:
    """The model's own chat template (from the GGUF metadata) as a formatter."""
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    eos_id, bos_id = llm.token_eos(), llm.token_bos()
    eos = llm._model.token_get_text(eos_id) if eos_id != -1 else ""
    bos = llm._model.token_get_text(bos_id) if bos_id != -1 else ""
    return Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)


def prompt_tokens(llm: Any, text: str, *, templated: bool) -> list[int]:
    """The prompt's tokens. A templated prompt writes its special tokens (and usually BOS)
    as text; a plain prompt carries user text, which must never spell control tokens."""
    if templated:
        tokens = llm.tokenize(text.encode("utf-8"), add_bos=False, special=True)
        bos = llm.token_bos()
        if bos != -1 and (not tokens or tokens[0] != bos) and llm._model.add_bos_token():
            tokens.insert(0, bos)
        return tokens
    return llm.tokenize(text.encode("utf-8"), add_bos=True, special=False)


def token_count(llm: Any, text: str) -> int:
    return len(llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))


def prefill(llm: Any, tokens: list[int], deadline: float | None) -> bool:
    """Evaluate all but the last prompt token in chunks, checking the clock between
    them; reuses whatever prefix is already in the KV cache (few-shot headers).
    False when the budget ran out."""
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


def stopping_criteria(
    deadline: float | None, cancel: threading.Event | None, on_time_out: Callable[[], None]
) -> Any:
    """Ends generation on cancel, or past the deadline (then `on_time_out` is called)."""
    import llama_cpp

    def out_of_time(input_ids: Any, logits: Any) -> bool:
        if cancel is not None and cancel.is_set():
            return True
        if deadline is not None and time.monotonic() > deadline:
            on_time_out()
            return True
        return False

    return llama_cpp.StoppingCriteriaList([out_of_time])


def first_tokens(llm: Any, options: Sequence[str]) -> dict[str, int]:
    """Each option's first token; they must differ, or no logit tells them apart."""
    first: dict[str, int] = {}
    for option in options:
        ids = llm.tokenize(option.encode("utf-8"), add_bos=False, special=False)
        if not ids:
            raise ValueError(f"option {option!r} has no tokens")
        first[option] = ids[0]
    if len(set(first.values())) != len(first):
        raise ValueError(f"options {list(options)} share a first token")
    return first


def next_token_logits(llm: Any, tokens: list[int], wanted: Mapping[str, int]) -> dict[str, float]:
    """The logits of the wanted tokens for the token after `tokens` (one forward pass).
    Raises what llama.cpp raises on a decode failure."""
    import llama_cpp

    seen: dict[str, float] = {}

    def record(input_ids: Any, scores: Any) -> Any:
        if not seen:
            for option, token in wanted.items():
                seen[option] = float(scores[token])
        return scores

    llm.create_completion(
        tokens,
        max_tokens=1,
        temperature=0.0,
        logits_processor=llama_cpp.LogitsProcessorList([record]),
    )
    return seen
