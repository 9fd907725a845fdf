"""JSON and JSON Lines: every string value is a segment; keys, numbers, booleans and
the structure stay as they were. The output keeps the input's indentation style."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.files.document import Edit, FileRejected, Segment, apply_edits
from agent.files.formats.text import decode_text, encode_text


def _strings(value: Any, path: str, out: list[tuple[list, Any, str]], parent=None, key=None) -> None:
    if isinstance(value, str):
        if value.strip() and parent is not None:
            out.append(([parent, key], value, path))
    elif isinstance(value, dict):
        for k, v in value.items():
            _strings(v, f"{path}.{k}", out, value, k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _strings(v, f"{path}[{i}]", out, value, i)


def _keys(value: Any):
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


@dataclass
class JsonDocument:
    values: list[Any]  # one per line for JSONL, one for JSON (wrapped in a holder)
    raw_lines: list[str | None]  # JSONL lines that were not JSON, kept as they were
    segments: list[Segment]
    places: list[list]  # [container, key] of each segment
    lines: bool
    indent: int | None
    encoding: str
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> JsonDocument:
        text, encoding = decode_text(path.read_bytes(), path.name)
        return cls.from_text(text, path.suffix.casefold() == ".jsonl", encoding)

    @classmethod
    def from_text(cls, text: str, lines: bool = False, encoding: str = "utf-8") -> JsonDocument:
        values: list[Any] = []
        raw: list[str | None] = []
        warnings: list[str] = []
        if lines:
            for number, line in enumerate(text.splitlines(), 1):
                if not line.strip():
                    values.append(None)
                    raw.append(line)
                    continue
                try:
                    values.append({"v": json.loads(line)})
                    raw.append(None)
                except ValueError as exc:
                    values.append(None)
                    raw.append(line)
                    warnings.append(f"line {number} is not JSON ({exc}); kept as it was and NOT checked")
        else:
            try:
                values.append({"v": json.loads(text)})
            except ValueError as exc:
                raise FileRejected(f"not valid JSON: {exc}") from None
            raw.append(None)
        found: list[tuple[list, Any, str]] = []
        for number, holder in enumerate(values, 1):
            if holder is not None:
                _strings(holder["v"], f"line {number}: $" if lines else "$", found, holder, "v")
        segments = [Segment(value, joiner="\n\n", where=path) for _, value, path in found]
        # Keys are never changed; say so when some look like personal data (an e-mail or
        # a long number used as a key), so the report shows them.
        suspicious = sorted({k for holder in values if holder is not None for k in _keys(holder["v"])
                             if "@" in k or sum(ch.isdigit() for ch in k) >= 6})
        if suspicious:
            warnings.append(f"{len(suspicious)} keys look like personal data and are kept as they are (keys are "
                            f"never changed), e.g. {suspicious[0][:3]}…")
        indent = None
        if not lines:
            match = re.search(r"\n([ \t]+)[\"\[{\d\-tfn]", text)
            indent = len(match.group(1).expandtabs(4)) if match else None
        return cls(values, raw, segments, [place for place, _, _ in found], lines, indent, encoding, warnings)

    def render(self, edits: list[list[Edit]]) -> bytes:
        for (container, key), segment, value_edits in zip(self.places, self.segments, edits):
            container[key] = apply_edits(segment.text, value_edits)
        if self.lines:
            out = [raw if holder is None else json.dumps(holder["v"], ensure_ascii=False)
                   for holder, raw in zip(self.values, self.raw_lines)]
            return encode_text("\n".join(out) + "\n", self.encoding)
        text = json.dumps(self.values[0]["v"], ensure_ascii=False, indent=self.indent)
        return encode_text(text + "\n", self.encoding)
