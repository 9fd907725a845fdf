"""Readers for the file formats `veil files` handles. `read_document(path, columns)` picks
one by the file's extension."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from agent.files.document import Document, FileRejected

SUFFIXES = (".txt", ".md", ".csv", ".tsv", ".json", ".jsonl", ".docx", ".pdf", ".srt", ".vtt")


def supported(path: Path) -> bool:
    return path.suffix.casefold() in SUFFIXES


def read_document(path: Path, column_mode: Callable | None = None) -> Document:
    """The document at path. `column_mode(header) -> (CellMode, Label | None)` decides
    per CSV/TSV column. Raises FileRejected for a file its format cannot read."""
    suffix = path.suffix.casefold()
    try:
        if suffix in (".txt", ".md"):
            from agent.files.formats.text import TextDocument

            return TextDocument.read(path)
        if suffix in (".csv", ".tsv"):
            from agent.files.formats.table import TableDocument

            return TableDocument.read(path, column_mode)
        if suffix in (".json", ".jsonl"):
            from agent.files.formats.jsondoc import JsonDocument

            return JsonDocument.read(path)
        if suffix == ".docx":
            from agent.files.formats.wordfile import WordDocument

            return WordDocument.read(path)
        if suffix == ".pdf":
            from agent.files.formats.pdf import PdfDocument

            return PdfDocument.read(path)
        if suffix in (".srt", ".vtt"):
            from agent.files.formats.subtitles import SubtitleDocument

            return SubtitleDocument.read(path)
    except FileRejected:
        raise
    except (OSError, UnicodeError) as exc:
        raise FileRejected(f"cannot read {path.name}: {exc}") from None
    raise FileRejected(f"{path.name}: unsupported file type {path.suffix or '(none)'}; Veil reads {', '.join(SUFFIXES)}")
