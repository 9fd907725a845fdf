"""CSV and TSV: every cell is a segment. The first row is the header (its cells are
names, never changed); per column the project says always (the whole cell is one value
of a type: a Name column), never (product names, amounts) or auto (detect inside)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from agent.entities import Label
from agent.files.document import CellMode, Edit, FileRejected, Segment, apply_edits
from agent.files.formats.text import decode_text, encode_text

ColumnMode = Callable[[str], tuple[CellMode, Label | None]]


@dataclass
class TableDocument:
    rows: list[list[str]]
    segments: list[Segment]
    positions: list[tuple[int, int]]  # (row, column) of each segment
    delimiter: str
    encoding: str
    line_end: str
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path, column_mode: ColumnMode | None = None) -> TableDocument:
        text, encoding = decode_text(path.read_bytes(), path.name)
        delimiter = "\t" if path.suffix.casefold() == ".tsv" else ","
        return cls.from_text(text, delimiter, column_mode, encoding)

    @classmethod
    def from_text(cls, text: str, delimiter: str = ",", column_mode: ColumnMode | None = None,
                  encoding: str = "utf-8") -> TableDocument:
        line_end = "\r\n" if "\r\n" in text else "\n"
        try:
            rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
        except csv.Error as exc:
            raise FileRejected(f"not a readable {'TSV' if delimiter == chr(9) else 'CSV'} file: {exc}") from None
        header = rows[0] if rows else []
        modes = [column_mode(name) if column_mode else (CellMode.AUTO, None) for name in header]
        segments, positions = [], []
        for r, row in enumerate(rows[1:], start=1):
            for c, cell in enumerate(row):
                mode, label = modes[c] if c < len(modes) else (CellMode.AUTO, None)
                if not cell.strip() or mode is CellMode.NEVER:
                    continue
                name = header[c] if c < len(header) else f"#{c + 1}"
                last = c == len(row) - 1
                segments.append(Segment(cell, mode, label, joiner="\n\n" if last else "\n",
                                        where=f"row {r + 1}, column {name}"))
                positions.append((r, c))
        return cls(rows, segments, positions, delimiter, encoding, line_end)

    def render(self, edits: list[list[Edit]]) -> bytes:
        rows = [list(row) for row in self.rows]
        for (r, c), segment, cell_edits in zip(self.positions, self.segments, edits):
            rows[r][c] = apply_edits(segment.text, cell_edits)
        out = io.StringIO(newline="")
        writer = csv.writer(out, delimiter=self.delimiter, lineterminator=self.line_end)
        writer.writerows(rows)
        return encode_text(out.getvalue(), self.encoding)
