"""A text progress bar for stderr: files, bytes and time left. On a terminal it redraws
one line; otherwise (a log, a pipe) it prints a line per file."""

from __future__ import annotations

from typing import TextIO

from agent.files.runner import Progress


def _size(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def describe(progress: Progress, width: int = 24) -> str:
    share = progress.bytes_done / progress.bytes_total if progress.bytes_total else 1.0
    filled = int(share * width)
    bar = "#" * filled + "-" * (width - filled)
    return (f"[{bar}] {progress.files_done}/{progress.files_total} files  {_size(progress.bytes_done)}/"
            f"{_size(progress.bytes_total)}  {_duration(progress.eta_seconds)} left")


class ProgressBar:
    def __init__(self, stream: TextIO):
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self._last_files = -1
        self._drawn = False

    def update(self, progress: Progress) -> None:
        line = describe(progress)
        if self.tty:
            current = f"  {progress.current}" if progress.current else ""
            self.stream.write("\r" + (line + current)[:118].ljust(118))
            self.stream.flush()
            self._drawn = True
        elif progress.files_done != self._last_files:
            self._last_files = progress.files_done
            self.stream.write(f"veil: {line}\n")
            self.stream.flush()

    def close(self) -> None:
        if self.tty and self._drawn:
            self.stream.write("\n")
            self.stream.flush()
