"""What agent/ may ask of a local model, and how it finds the package that has one.

models/ implements these interfaces; agent/ only knows them and never imports models/,
so the engine, the CLI and the providers run the same with no model package at all.

- The tasks (`RelevanceJudge`, `SurrogateProposer`, `FallbackRestorer`, bundled as
  `LocalTasks`): every answer is advisory; the engine validates it (type, shape,
  offsets) and falls back to its own rules when a task returns None, junk, or runs out
  of time.
- `LocalModels`: the plug-in itself (tasks for the engine and the bench, a model that
  writes answers for the "local" provider, its `veil models` commands). It is found
  through the `veil.local_models` entry point that pyproject.toml declares
  (`find_local_models()`), the way spaCy and pytest find their plug-ins; a front end may
  also pass one in (`build_engine(settings, local_models=...)`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from agent.entities import Span
from agent.session.conversation import MapEntry

if TYPE_CHECKING:
    import argparse

    from agent.config import Settings
    from agent.detect.base import Detector

ENTRY_POINT_GROUP = "veil.local_models"

log = logging.getLogger(__name__)


@runtime_checkable
class RelevanceJudge(Protocol):
    """LOPSIDED's semantic awareness: does the answer depend on this entity?"""

    def judge(self, text: str, spans: Sequence[Span]) -> list[bool | None]:
        """One verdict per span: True keep (the answer needs it), False swap, None unsure."""
        ...


@runtime_checkable
class SurrogateProposer(Protocol):
    """Level-2 substitution: a stand-in that fits the context (culture, domain)."""

    def propose(self, text: str, span: Span) -> str | None: ...


@runtime_checkable
class FallbackRestorer(Protocol):
    """For answers where rule-based restore left stand-ins (e.g. the LLM inflected them)."""

    def restore(self, answer: str, leftovers: Sequence[MapEntry]) -> str | None: ...


@dataclass
class LocalTasks:
    """The optional local-model helpers the engine was given (any may be None).

    The extra detector is a plain agent.detect.base.Detector and is registered with the
    others, so it is not listed here."""

    judge: RelevanceJudge | None = None
    surrogates: SurrogateProposer | None = None
    restorer: FallbackRestorer | None = None


class LocalModelUnavailable(RuntimeError):
    """The local model cannot be used: no model package, a missing or broken file, a
    model llama.cpp refused (the message says which)."""


@dataclass(frozen=True, slots=True)
class ModelFile:
    """A model file as the plug-in resolved it from a catalog name or a path."""

    name: str
    path: Path
    size: int
    was_installed: bool  # False: resolving it installed it (assembled the bundled model)


@runtime_checkable
class ChatModel(Protocol):
    """A local model that writes answers (the "local" provider, the self-test)."""

    @property
    def has_chat_template(self) -> bool: ...

    def stream(
        self, messages: Sequence[Mapping[str, str]], *, max_tokens: int, temperature: float, cancel: Any = None
    ) -> Iterator[str]:
        """The answer in pieces. Raises LocalModelUnavailable when the model cannot load."""
        ...

    def load(self) -> None:
        """Load now (blocking); `load_error` says why when it did not."""
        ...

    @property
    def is_loaded(self) -> bool: ...

    @property
    def load_error(self) -> str | None: ...


@runtime_checkable
class LocalModels(Protocol):
    """The local-model plug-in (models/ is one): everything agent/ asks of it."""

    def engine_tasks(self, settings: Settings) -> tuple[LocalTasks, list[Detector]]:
        """The tasks these settings ask for; (LocalTasks(), []) when none is enabled or
        the model cannot be used (the reason is logged)."""
        ...

    def bench_tasks(
        self, model: str, tasks: Sequence[str], settings: Settings
    ) -> tuple[LocalTasks, list[Detector]]:
        """Tasks backed by a catalog model or a .gguf path, for `veil bench --llm`.
        Raises LocalModelUnavailable: a benchmark must not silently run without it."""
        ...

    def model_file(self, name_or_path: str) -> ModelFile:
        """The file for a settings value ("" = the default model), installing the bundled
        one if needed. Raises LocalModelUnavailable."""
        ...

    def chat_model(self, path: Path, *, n_threads: int = 0) -> ChatModel:
        """The process-wide model for this file (loaded lazily)."""
        ...

    def installed(self) -> list[str]:
        """The installed models, by catalog name (or path when not in the catalog)."""
        ...

    def register_commands(self, subcommands: argparse._SubParsersAction) -> None:
        """Add its commands to `veil` (`veil models ...`)."""
        ...


_found: list[LocalModels | None] = []
_find_lock = threading.Lock()


def find_local_models() -> LocalModels | None:
    """The installed local-model plug-in (the first `veil.local_models` entry point), or
    None when there is none or it cannot be loaded (logged). Looked up once."""
    with _find_lock:
        if not _found:
            _found.append(_load_entry_point())
        return _found[0]


def _load_entry_point() -> LocalModels | None:
    from importlib.metadata import entry_points

    for entry_point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            plugin = entry_point.load()()
        except Exception as exc:  # noqa: BLE001 - a broken plug-in must not stop the engine
            log.warning("local-model plug-in %s not loaded: %s", entry_point.value, exc)
            continue
        if isinstance(plugin, LocalModels):
            return plugin
        log.warning("local-model plug-in %s does not have the LocalModels interface", entry_point.value)
    return None
