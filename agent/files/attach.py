"""A file attached to a chat message (dropped on the chat window): its text, read with
the same readers as `veil files`, so it can go into the composer and from there through
the preview (highlights, keep/replace clicks), the send and the restore like typed text."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from agent.files.document import FileRejected
from agent.files.formats import read_document, supported

# A message is a prompt, not a corpus: bigger files are for the Files window.
MAX_ATTACHMENT_CHARS = 200_000


@dataclass(frozen=True)
class Attachment:
    name: str
    text: str
    warnings: list[str] = field(default_factory=list)

    def as_message_part(self) -> str:
        """How it is written into the message: a header line with the file name, then its text."""
        return f"[{self.name}]\n{self.text.strip()}\n"


def read_attachment(path: Path, max_chars: int = MAX_ATTACHMENT_CHARS) -> Attachment:
    """The text of a .txt/.md/.csv/.tsv/.json/.jsonl/.docx/.pdf/.srt/.vtt file. Raises
    FileRejected (with a message for the user) for other types, unreadable or too large files."""
    path = Path(path)
    if not supported(path):
        raise FileRejected(f"{path.name}: Veil can attach text, Markdown, CSV/TSV, JSON, Word, PDF and subtitle files")
    document = read_document(path)
    pieces = []
    for segment in document.segments:
        pieces.append(segment.text)
        pieces.append(segment.joiner)
    text = "".join(pieces[:-1]) if pieces else ""
    if len(text) > max_chars:
        raise FileRejected(f"{path.name} has {len(text):,} characters of text; a message takes at most "
                           f"{max_chars:,}. Use the Files window (tray menu) for large files.")
    return Attachment(path.name, text, list(getattr(document, "warnings", [])))
