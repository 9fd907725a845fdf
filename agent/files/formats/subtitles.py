"""Subtitles (.srt, .vtt): each cue's text is a segment; numbers, timings, cue settings,
the WEBVTT header and NOTE/STYLE blocks are kept byte for byte. Cue texts are joined
with line breaks for detection, so a number read over two cues is still one number."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from agent.files.document import Edit, Segment, apply_edits
from agent.files.formats.text import decode_text, encode_text

_TIMING = re.compile(r"-->")


@dataclass
class SubtitleDocument:
    # The file as pieces: fixed text, or the index of a segment.
    pieces: list[str | int]
    segments: list[Segment]
    encoding: str
    crlf: bool
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> SubtitleDocument:
        text, encoding = decode_text(path.read_bytes(), path.name)
        return cls.from_text(text, encoding)

    @classmethod
    def from_text(cls, text: str, encoding: str = "utf-8") -> SubtitleDocument:
        crlf = "\r\n" in text
        if crlf:
            text = text.replace("\r\n", "\n")
        pieces: list[str | int] = []
        segments: list[Segment] = []
        for block in re.split(r"(\n[ \t]*\n)", text):
            lines = block.split("\n")
            timing = next((i for i, line in enumerate(lines) if _TIMING.search(line)), None)
            if block.strip() == "" or timing is None or lines[0].startswith(("NOTE", "STYLE", "REGION")):
                pieces.append(block)
                continue
            head = "\n".join(lines[: timing + 1])
            body = "\n".join(lines[timing + 1 :])
            if not body.strip():
                pieces.append(block)
                continue
            pieces.append(head + "\n")
            pieces.append(len(segments))
            segments.append(Segment(body, joiner="\n", where=f"cue at {lines[timing].split('-->')[0].strip()}"))
        return cls(pieces, segments, encoding, crlf)

    def render(self, edits: list[list[Edit]]) -> bytes:
        out = []
        for piece in self.pieces:
            out.append(piece if isinstance(piece, str) else apply_edits(self.segments[piece].text, edits[piece]))
        text = "".join(out)
        return encode_text(text.replace("\n", "\r\n") if self.crlf else text, self.encoding)
