"""The local-model package as agent/ sees it: `LocalModelPackage` implements
agent.engine.local_tasks.LocalModels over this package (tasks, store, runtime, CLI).

pyproject.toml declares it under the `veil.local_models` entry point; agent/ finds it
there and never imports models/ (models/ imports agent's interfaces, not the reverse).
Every import of the package's heavy parts (llama.cpp) happens inside a method, so finding
the plug-in costs nothing.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from agent.config import Settings
from agent.detect.base import Detector
from agent.engine.local_tasks import ChatModel, LocalModelUnavailable, LocalTasks, ModelFile


class LocalModelPackage:
    """agent.engine.local_tasks.LocalModels, backed by models/."""

    def engine_tasks(self, settings: Settings) -> tuple[LocalTasks, list[Detector]]:
        from models.tasks import build_local_tasks

        return build_local_tasks(settings)

    def bench_tasks(self, model: str, tasks: Sequence[str], settings: Settings) -> tuple[LocalTasks, list[Detector]]:
        from models.tasks import tasks_for_model

        try:
            return tasks_for_model(
                model,
                list(tasks),
                time_budget_s=settings.local_model.time_budget_s,
                n_threads=settings.local_model.n_threads,
            )
        except ValueError as exc:  # an unknown task name
            raise LocalModelUnavailable(str(exc)) from None

    def model_file(self, name_or_path: str) -> ModelFile:
        from models.catalog import load_catalog
        from models.store import resolve_model

        catalog = load_catalog()
        entry = catalog.find(name_or_path or catalog.default)
        was_installed = entry is None or entry.is_installed()
        path = resolve_model(name_or_path, catalog=catalog)
        name = entry.name if entry is not None else Path(name_or_path).name
        return ModelFile(name, path, path.stat().st_size, was_installed)

    def chat_model(self, path: Path, *, n_threads: int = 0) -> ChatModel:
        from models.runtime import get_model

        return get_model(path, n_threads=n_threads)

    def installed(self) -> list[str]:
        from models.store import installed_models

        return [m.entry.name if m.entry is not None else str(m.path) for m in installed_models()]

    def register_commands(self, subcommands: argparse._SubParsersAction) -> None:
        from models.cli import register

        register(subcommands)
