"""Plain text and Markdown: paragraphs (split at blank lines) are the segments; the
blank lines and the file's encoding, BOM and line endings are kept as they were."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from agent.files.document import Edit, FileRejected, Segment, apply_edits

# A paragraph longer than this is cut at line breaks, so one chunk never holds a whole
# book (detection memory grows with the text it sees at once).
_MAX_SEGMENT = 20_000
_BLANK = re.compile(r"\n[ \t]*\n\s*")


def decode_text(data: bytes, name: str) -> tuple[str, str]:
    """(text, encoding) of a text file; a clear error for binary data."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="strict"), "utf-8-sig"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16"), "utf-16"
    if b"\x00" in data[:8192]:
        raise FileRejected(f"{name} looks like a binary file, not text")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        # Windows-1252 decodes almost anything; a file with control characters is
        # binary data that happens to decode.
        text = data.decode("cp1252", errors="replace")
        control = sum(1 for ch in text[:10000] if ord(ch) < 32 and ch not in "\n\r\t\f")
        if control > 20:
            raise FileRejected(f"{name} is not UTF-8 text and looks like binary data") from None
        return text, "cp1252"


def encode_text(text: str, encoding: str) -> bytes:
    if encoding == "utf-8-sig":
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    return text.encode(encoding, errors="replace")


def split_paragraphs(text: str) -> list[tuple[str, str]]:
    """(paragraph, the separator after it) pairs whose concatenation is text."""
    pieces: list[tuple[str, str]] = []
    position = 0
    for match in _BLANK.finditer(text):
        pieces.append((text[position : match.start()], match.group()))
        position = match.end()
    pieces.append((text[position:], ""))
    out: list[tuple[str, str]] = []
    for paragraph, separator in pieces:
        while len(paragraph) > _MAX_SEGMENT:
            cut = paragraph.rfind("\n", 0, _MAX_SEGMENT)
            if cut <= 0:
                cut = paragraph.rfind(" ", 0, _MAX_SEGMENT)
            if cut <= 0:
                cut = _MAX_SEGMENT
            out.append((paragraph[:cut], paragraph[cut : cut + 1] if paragraph[cut : cut + 1].isspace() else ""))
            paragraph = paragraph[cut + 1 :] if paragraph[cut : cut + 1].isspace() else paragraph[cut:]
        out.append((paragraph, separator))
    return out


@dataclass
class TextDocument:
    segments: list[Segment]
    separators: list[str]
    encoding: str
    crlf: bool
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> TextDocument:
        text, encoding = decode_text(path.read_bytes(), path.name)
        return cls.from_text(text, encoding)

    @classmethod
    def from_text(cls, text: str, encoding: str = "utf-8") -> TextDocument:
        crlf = "\r\n" in text
        if crlf:
            text = text.replace("\r\n", "\n")
        segments, separators = [], []
        for i, (paragraph, separator) in enumerate(split_paragraphs(text)):
            segments.append(Segment(paragraph, joiner=separator or "\n\n", where=f"paragraph {i + 1}"))
            separators.append(separator)
        return cls(segments, separators, encoding, crlf)

    def render_text(self, edits: list[list[Edit]]) -> str:
        text = "".join(apply_edits(s.text, e) + sep for s, e, sep in zip(self.segments, edits, self.separators))
        return text.replace("\n", "\r\n") if self.crlf else text

    def render(self, edits: list[list[Edit]]) -> bytes:
        return encode_text(self.render_text(edits), self.encoding)
