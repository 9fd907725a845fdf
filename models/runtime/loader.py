"""Loading the weights and letting go of them: `ModelLoader` reads a GGUF file's metadata
at once and loads the weights on first use or in a background thread (`start_loading`),
serializes calls (one inference at a time: llama.cpp contexts are not thread-safe) and
frees the weights after `idle_release_s` unused, loading them again on the next call.
`set_idle_release` sets that delay for the models the process shares (`shared`: one
instance per file and configuration, so the engine, the local provider and the CLI share
one copy of the weights). What the weights are used for is `generation.LocalModel`, a
ModelLoader.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from agent.engine.local_tasks import LocalModelUnavailable
from models.gguf_info import GgufInfo, read_gguf_info
from models.runtime.llama import chat_formatter, default_threads, open_llama

log = logging.getLogger("models.runtime")

DEFAULT_CONTEXT = 2048  # enough for prompts + answers of the tiny model; 4096 costs ~30 MB more

_idle_release_s = 0.0  # see set_idle_release()


class ModelLoadError(LocalModelUnavailable):
    """The model file is missing, not a GGUF, or llama.cpp refused to load it."""


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


def idle_release_seconds() -> float:
    """The delay set_idle_release gave (0: models stay loaded)."""
    return _idle_release_s


class ModelLoader:
    """A GGUF model's weights. Cheap to create (reads only the metadata); the weights are
    loaded on first use or by `load()` / `start_loading()`."""

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
        self._llm: Any = None  # the llama_cpp.Llama while loaded
        self._formatter: Any = None  # the chat template's formatter, when the model has one
        self._load_error: str = ""
        self._load_lock = threading.Lock()
        self._loaded = threading.Event()
        self._infer_lock = threading.Lock()
        self._loader: threading.Thread | None = None
        # Weights are freed after this many seconds unused (0: kept until close()); the
        # next call loads them again (~0.5 s for the tiny model, its file is in the page
        # cache). See set_idle_release().
        self.idle_release_s = _idle_release_s
        self._last_used = time.monotonic()
        self._release_timer: threading.Timer | None = None
        self._timer_lock = threading.Lock()

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
            started = time.monotonic()
            try:
                self._llm, gpu_layers = open_llama(
                    self.path, n_ctx=self.n_ctx, n_threads=self.n_threads, n_gpu_layers=self.n_gpu_layers,
                    seed=self.seed,
                )
            except Exception as exc:  # llama.cpp raises ValueError/RuntimeError on bad files
                self._load_error = f"llama.cpp could not load {self.path.name}: {exc}"
                self._loaded.set()
                raise ModelLoadError(self._load_error) from exc
            if self.has_chat_template:
                self._formatter = chat_formatter(self._llm, self.info.chat_template or "")
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

    # -- one call at a time --------------------------------------------------------------
    class _Session:
        """`with model._session(deadline) as failure:` loads the weights if needed and
        holds the inference lock; `failure` is None, or (finish, why) when the call
        cannot run within the deadline."""

        def __init__(self, model: ModelLoader, deadline: float | None):
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

    def _session(self, deadline: float | None) -> ModelLoader._Session:
        return ModelLoader._Session(self, deadline)

    # -- releasing the weights when idle -------------------------------------------------
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


# -- one shared instance per model file ----------------------------------------------------
Model = TypeVar("Model", bound=ModelLoader)
_shared: dict[tuple[str, int, int, int], Any] = {}
_shared_lock = threading.Lock()


def shared(key: tuple[str, int, int, int], make: Callable[[], Model]) -> Model:
    """The process-wide model for this key (file, context, threads, GPU layers), made by
    `make` the first time. Not loaded yet: see load()."""
    with _shared_lock:
        model = _shared.get(key)
        if model is None:
            model = make()
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
