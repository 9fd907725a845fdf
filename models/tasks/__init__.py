"""The tasks a local model does for the engine, and the factory that builds them.

    tasks, detectors = build_local_tasks(settings)        # the app, the CLI, veil serve
    engine = Engine(settings, local_tasks=tasks, extra_detectors=detectors)
    # (agent/ reaches these through models.plugin.LocalModelPackage, never directly)

    tasks, detectors = tasks_for_model("qwen2.5-1.5b-instruct-q4")   # veil bench --llm

Every task is optional and advisory: it returns None (or no spans) when the model is
missing, slow or says something that fails validation, and the engine then does what it
does without a model. The model is loaded lazily, on the first task call (which runs on
the engine's worker thread), or earlier by `warm_up_local_model`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from agent.config import Settings
from agent.detect.base import Detector
from agent.engine.local_tasks import LocalTasks
from models.catalog import TASK_NAMES, load_catalog
from models.runtime import LocalModel, ModelLoadError, get_model, set_idle_release
from models.store import ModelNotAvailable, resolve_model
from models.tasks.detect import LocalLLMDetector
from models.tasks.relevance import LocalRelevanceJudge
from models.tasks.restore import LocalFallbackRestorer
from models.tasks.surrogates import LocalSurrogateProposer, validate_surrogate

log = logging.getLogger(__name__)

ALL_TASKS = TASK_NAMES  # ("relevance", "detect", "surrogates", "restore")

__all__ = [
    "ALL_TASKS",
    "LocalFallbackRestorer",
    "LocalLLMDetector",
    "LocalRelevanceJudge",
    "LocalSurrogateProposer",
    "build_local_tasks",
    "enabled_tasks",
    "tasks_for_model",
    "tasks_from_model",
    "validate_surrogate",
    "warm_up_local_model",
]


def enabled_tasks(settings: Settings) -> frozenset[str]:
    """The tasks the settings ask for: `local_model.tasks`, plus "detect" when the
    local_llm detector is switched on and "surrogates" at substitution level 2;
    "relevance" only while relevance checks are on at all."""
    wanted = set(settings.local_model.tasks)
    if settings.detectors.local_llm:
        wanted.add("detect")
    if settings.substitution_level == 2:
        wanted.add("surrogates")
    if not settings.relevance:
        wanted.discard("relevance")
    unknown = wanted - set(ALL_TASKS)
    if unknown:
        log.warning("unknown local-model tasks ignored: %s", ", ".join(sorted(unknown)))
    return frozenset(wanted & set(ALL_TASKS))


def build_local_tasks(settings: Settings) -> tuple[LocalTasks, list[Detector]]:
    """What the engine gets for these settings. (LocalTasks(), []) when no task is enabled
    or the model cannot be used (missing file, not a GGUF): the app then runs with rules
    and NER only, and the reason is logged."""
    tasks = enabled_tasks(settings)
    if not tasks:
        return LocalTasks(), []
    lm = settings.local_model
    try:
        path = resolve_model(lm.path or lm.name)
        model = get_model(path, n_threads=lm.n_threads, n_gpu_layers=lm.n_gpu_layers)
        set_idle_release(lm.release_after_minutes * 60)
    except (ModelNotAvailable, ModelLoadError, OSError) as exc:
        log.warning("local model tasks disabled: %s", exc)
        return LocalTasks(), []
    _warn_if_too_small(path, tasks)
    return tasks_from_model(model, tasks, time_budget_s=lm.time_budget_s)


def tasks_for_model(
    model: str | Path,
    tasks: Iterable[str] = ALL_TASKS,
    *,
    time_budget_s: float = 8.0,
    n_threads: int = 0,
) -> tuple[LocalTasks, list[Detector]]:
    """For `veil bench --llm MODEL` and tests: tasks backed by a catalog model name or a
    .gguf path. Unlike build_local_tasks it raises (ModelNotAvailable, ModelLoadError)
    when the model cannot be used, because a benchmark must not silently run without it."""
    path = resolve_model(str(model))
    llm = get_model(path, n_threads=n_threads)
    return tasks_from_model(llm, tasks, time_budget_s=time_budget_s)



def tasks_from_model(
    model: LocalModel, tasks: Iterable[str], *, time_budget_s: float = 8.0
) -> tuple[LocalTasks, list[Detector]]:
    chosen = set(tasks)
    unknown = chosen - set(ALL_TASKS)
    if unknown:
        raise ValueError(f"unknown local-model tasks {sorted(unknown)}; known: {', '.join(ALL_TASKS)}")
    bundle = LocalTasks(
        judge=LocalRelevanceJudge(model, time_budget_s=time_budget_s) if "relevance" in chosen else None,
        surrogates=LocalSurrogateProposer(model, time_budget_s=time_budget_s) if "surrogates" in chosen else None,
        restorer=LocalFallbackRestorer(model, time_budget_s=time_budget_s) if "restore" in chosen else None,
    )
    detectors: list[Detector] = []
    if "detect" in chosen:
        detectors.append(LocalLLMDetector(model, time_budget_s=time_budget_s))
    return bundle, detectors


def warm_up_local_model(settings: Settings) -> bool:
    """Load the configured model in a background thread now (call after the UI is up), so
    the first message does not wait for it. False when no task needs a model."""
    if not enabled_tasks(settings):
        return False
    lm = settings.local_model
    try:
        path = resolve_model(lm.path or lm.name)
        get_model(path, n_threads=lm.n_threads, n_gpu_layers=lm.n_gpu_layers).start_loading()
    except (ModelNotAvailable, ModelLoadError, OSError) as exc:
        log.warning("local model not loaded: %s", exc)
        return False
    return True


def _warn_if_too_small(path: Path, tasks: Iterable[str]) -> None:
    entry = load_catalog().by_file(path.name)
    if entry is None:
        return
    weak = sorted(set(tasks) - set(entry.tasks))
    if weak:
        log.warning(
            "%s is not recommended for %s (see README, Local models); results are validated "
            "but may add little",
            entry.name,
            ", ".join(weak),
        )
