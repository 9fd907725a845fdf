"""The labelled evaluation data (../shared/data/dev, never copied into the repository)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

DATASETS = ("lopsided", "pupa", "presidio_synth", "abcd_sample", "tab", "wnut17_test")
# Prompts people send to LLMs: the sets the privacy-recall bar is measured on.
PROMPT_SETS = ("lopsided", "pupa", "presidio_synth", "abcd_sample")


@dataclass(frozen=True)
class GoldEntity:
    start: int
    end: int
    label: str
    text: str
    relevant: bool | None


@dataclass(frozen=True)
class Example:
    id: str
    text: str
    entities: tuple[GoldEntity, ...]
    # Items that must fall in the same fit/validation half (TAB: one court document's
    # paragraphs share names); the item's own id when nothing groups it.
    group: str = ""


class DataMissing(FileNotFoundError):
    pass


def default_data_dir() -> Path | None:
    """VEIL_BENCH_DATA, else ../shared/data/dev next to the checkout."""
    env = os.environ.get("VEIL_BENCH_DATA")
    candidates = [Path(env)] if env else []
    repo = Path(__file__).resolve().parents[2]
    candidates += [repo.parent / "shared" / "data" / "dev", Path("/work/shared/data/dev")]
    for candidate in candidates:
        if candidate.is_dir() and any(candidate.glob("*.jsonl")):
            return candidate
    return None


def load_file(path: Path, limit: int | None = None) -> list[Example]:
    examples = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            entities = tuple(
                GoldEntity(e["start"], e["end"], e["label"], e["text"], e.get("relevant"))
                for e in row.get("entities", [])
            )
            group = str((row.get("meta") or {}).get("doc_id") or row["id"])
            examples.append(Example(str(row["id"]), row["text"], entities, group))
            if limit is not None and len(examples) >= limit:
                break
    return examples


def load_datasets(
    data: Path | None = None, names: list[str] | None = None, limit: int | None = None
) -> dict[str, list[Example]]:
    """{dataset name: examples}. `data` may be a folder or one .jsonl file."""
    if data is not None and data.is_file():
        return {data.stem: load_file(data, limit)}
    folder = data or default_data_dir()
    if folder is None or not folder.is_dir():
        raise DataMissing(
            "evaluation data not found: expected ../shared/data/dev beside the checkout "
            "(or set VEIL_BENCH_DATA / pass --data)"
        )
    out = {}
    for name in names or DATASETS:
        path = folder / f"{name}.jsonl"
        if path.exists():
            out[name] = load_file(path, limit)
    if not out:
        raise DataMissing(f"no dataset files in {folder}")
    return out
