"""Byte counts in words ("812 KB", "1.4 GB"), the one way the CLI, the models commands and
the desktop's settings say how big a file, a download or the vault is."""

from __future__ import annotations


def human_size(n: int | None) -> str:
    """Binary units, whole bytes and kilobytes, one decimal from megabytes; "?" when unknown."""
    if n is None:
        return "?"
    size = float(n)
    for unit in ("B", "KB", "MB"):
        if size < 1024:
            return f"{size:.0f} {unit}" if unit != "MB" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"
