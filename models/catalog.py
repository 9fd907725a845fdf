"""The model catalog (resources/models.json): what Veil knows how to get and verify.

Data, not code: adding a model is adding an entry to the JSON file. Entries are either
shipped as a Python package (the default tiny model, assembled into the models folder on
first use) or downloaded from a URL and checked against a pinned sha256 (or the server's
X-Linked-Etag where no hash is pinned).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent import paths

TASK_NAMES = ("relevance", "detect", "surrogates", "restore")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class CatalogError(ValueError):
    """The catalog file is malformed, or a model name is unknown."""


@dataclass(frozen=True)
class ModelSource:
    kind: str  # "package" (a PyPI package that assembles the file) or "url"
    package: str = ""  # distribution name, for messages ("pip install ...")
    module: str = ""  # import name, which exposes assemble(path)


@dataclass(frozen=True)
class CatalogEntry:
    name: str  # what users type: `veil models download qwen2.5-1.5b-instruct-q4`
    title: str
    file: str  # file name in the models folder
    size: int  # bytes
    sha256: str  # lower-case hex; "" when not pinned (then the server's etag is used)
    source: ModelSource
    url: str
    licence: str
    licence_url: str
    parameters: str  # "1.5B"
    quantization: str  # "Q4_K_M"
    context_length: int
    chat_template: bool
    tasks: tuple[str, ...]  # which local tasks the model is good enough for
    notes: str = ""

    @property
    def is_bundled(self) -> bool:
        return self.source.kind == "package"

    def local_path(self, models_dir: Path | None = None) -> Path:
        return (models_dir or paths.models_dir()) / self.file

    def is_installed(self, models_dir: Path | None = None) -> bool:
        """The final file exists with the catalog's size (a full hash check is done when it is
        downloaded or assembled; files only ever appear there by an atomic rename)."""
        path = self.local_path(models_dir)
        try:
            return path.stat().st_size == self.size
        except OSError:
            return False

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "file": self.file,
            "size": self.size,
            "sha256": self.sha256,
            "source": self.source.kind,
            "url": self.url,
            "licence": self.licence,
            "parameters": self.parameters,
            "quantization": self.quantization,
            "context_length": self.context_length,
            "chat_template": self.chat_template,
            "tasks": list(self.tasks),
            "notes": self.notes,
        }


@dataclass(frozen=True)
class Catalog:
    entries: tuple[CatalogEntry, ...]
    default: str

    def get(self, name: str) -> CatalogEntry:
        for entry in self.entries:
            if entry.name == name:
                return entry
        known = ", ".join(e.name for e in self.entries)
        raise CatalogError(f"no model named {name!r} in the catalog; known: {known}")

    def find(self, name: str) -> CatalogEntry | None:
        try:
            return self.get(name)
        except CatalogError:
            return None

    def by_file(self, file_name: str) -> CatalogEntry | None:
        for entry in self.entries:
            if entry.file == file_name:
                return entry
        return None

    @property
    def default_entry(self) -> CatalogEntry:
        return self.get(self.default)

    def __iter__(self):
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)


def load_catalog(path: Path | None = None) -> Catalog:
    """Parse and check the catalog (resources/models.json unless a path is given)."""
    path = path or paths.resource("models.json")
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CatalogError(f"cannot read the model catalog {path}: {exc}") from exc
    entries = tuple(_entry(item, i) for i, item in enumerate(data.get("models", [])))
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        raise CatalogError("duplicate model names in the catalog")
    catalog = Catalog(entries, str(data.get("default", "")))
    if catalog.default and catalog.find(catalog.default) is None:
        raise CatalogError(f"catalog default {catalog.default!r} is not one of its models")
    return catalog


def _entry(item: dict[str, Any], index: int) -> CatalogEntry:
    where = f"models[{index}]"
    try:
        source = ModelSource(**item["source"])
        entry = CatalogEntry(
            name=item["name"],
            title=item.get("title", item["name"]),
            file=item["file"],
            size=int(item["size"]),
            sha256=str(item.get("sha256", "")).lower(),
            source=source,
            url=item.get("url", ""),
            licence=item.get("licence", ""),
            licence_url=item.get("licence_url", ""),
            parameters=item.get("parameters", ""),
            quantization=item.get("quantization", ""),
            context_length=int(item.get("context_length", 0)),
            chat_template=bool(item.get("chat_template", False)),
            tasks=tuple(item.get("tasks", ())),
            notes=item.get("notes", ""),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise CatalogError(f"{where}: {exc!r}") from exc
    if entry.source.kind not in ("package", "url"):
        raise CatalogError(f"{where}: source.kind must be 'package' or 'url'")
    if entry.source.kind == "url" and not entry.url.startswith("https://"):
        raise CatalogError(f"{where}: downloads must use an https:// URL")
    if entry.source.kind == "package" and not entry.source.module:
        raise CatalogError(f"{where}: a package source needs its module name")
    if entry.sha256 and not _SHA256.match(entry.sha256):
        raise CatalogError(f"{where}: sha256 must be 64 hex digits")
    if "/" in entry.file or "\\" in entry.file or not entry.file.endswith(".gguf"):
        raise CatalogError(f"{where}: file must be a bare *.gguf name")
    unknown = set(entry.tasks) - set(TASK_NAMES)
    if unknown:
        raise CatalogError(f"{where}: unknown tasks {sorted(unknown)}")
    return entry
