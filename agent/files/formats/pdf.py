"""PDF: the text of each page, extracted with pypdf, written as Markdown (a PDF cannot be
rewritten in place without breaking its layout). Pages become `## Page N` sections and
their paragraphs the segments. A scanned page with no text layer is reported."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from agent.files.document import Edit, FileRejected, Segment
from agent.files.formats.text import TextDocument


@dataclass
class PdfDocument:
    body: TextDocument
    warnings: list[str] = field(default_factory=list)

    @property
    def segments(self) -> list[Segment]:
        return self.body.segments

    @classmethod
    def read(cls, path: Path) -> PdfDocument:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError

        try:
            reader = PdfReader(str(path))
            if reader.is_encrypted:
                try:
                    reader.decrypt("")
                except Exception:  # pypdf raises several types for a wrong password  # noqa: BLE001
                    raise FileRejected(f"{path.name} is encrypted; decrypt it first") from None
            pages = [page.extract_text() or "" for page in reader.pages]
        except FileRejected:
            raise
        except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
            raise FileRejected(f"{path.name} cannot be read as a PDF: {exc}") from None
        warnings = [f"page {i} has no text layer (a scan?): not checked, not in the output"
                    for i, text in enumerate(pages, 1) if not text.strip()]
        parts = []
        for number, text in enumerate(pages, 1):
            lines = [line.rstrip() for line in text.splitlines()]
            parts.append(f"## Page {number}\n\n" + "\n".join(lines).strip() + "\n")
        return cls(TextDocument.from_text("\n".join(parts)), warnings)

    def render(self, edits: list[list[Edit]]) -> bytes:
        return self.body.render(edits)
