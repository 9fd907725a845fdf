"""The shape every file format is read into: a list of text segments (a paragraph, a
table cell, a subtitle cue, a JSON string value) that the sanitizer may change, and a
writer that puts changed text back where it came from, leaving the rest of the file
(formatting, timings, keys, delimiters) as it was.

The sanitizer never sees a format: it joins segments into chunks for detection and hands
back, per segment, the edits to make (offsets in the segment's original text).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Protocol

from agent.entities import Label
from agent.splice import splice


class CellMode(str, Enum):
    """What to do with a segment: detect in it (auto), replace all of it (always), leave it (never)."""

    AUTO = "auto"
    ALWAYS = "always"
    NEVER = "never"


@dataclass(slots=True)
class Segment:
    text: str
    mode: CellMode = CellMode.AUTO
    label: Label | None = None  # the type of an ALWAYS segment
    # What stands between this segment and the next when segments are joined for
    # detection: a blank line between paragraphs, a line break between a row's cells.
    joiner: str = "\n\n"
    where: str = ""  # for messages and the report: "row 4, column Name", "cue 12", "$.user.name"


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace text[start:end] of a segment's original text by `text`."""

    start: int
    end: int
    text: str


def apply_edits(text: str, edits: list[Edit]) -> str:
    return splice(text, ((e.start, e.end, e.text) for e in edits))


class Document(Protocol):
    """A file read into segments."""

    segments: list[Segment]
    # Warnings found while reading (a bad JSONL line kept as it was, a PDF page without text).
    warnings: list[str]

    def render(self, edits: list[list[Edit]]) -> bytes:
        """The whole output file, with edits[i] applied to segments[i]."""
        ...


class FileRejected(ValueError):
    """This file cannot be read as its format (the message says why); other files go on."""


def output_name(path: Path) -> str:
    """The output's file name: a PDF becomes Markdown, everything else keeps its name."""
    if path.suffix.casefold() == ".pdf":
        return path.stem + ".md"
    return path.name
