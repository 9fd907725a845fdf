"""Where Veil keeps its files.

`VEIL_HOME` overrides everything (tests, portable use): config, data and models then
live below that one folder. Otherwise the platform's user dirs (platformdirs).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs

APP_NAME = "veil"


def _home_override() -> Path | None:
    value = os.environ.get("VEIL_HOME")
    return Path(value).expanduser() if value else None


def data_dir() -> Path:
    """The vault, models and other per-user data."""
    home = _home_override()
    path = home / "data" if home else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    return _private_dir(path)


def config_dir() -> Path:
    home = _home_override()
    path = home / "config" if home else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
    return _private_dir(path)


def models_dir() -> Path:
    return _private_dir(data_dir() / "models")


def _private_dir(path: Path) -> Path:
    """Veil's own folder, created readable by the user only (0700); one an older Veil made
    0755 is tightened. Only this folder: its parents (~/.local/share...) are not ours."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o700)
    except OSError:
        pass  # a folder we may not change (shared portable stick): the files are still 0600
    return path


def resources_dir() -> Path:
    """The read-only resources shipped with the app (source tree or PyInstaller bundle)."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


def fsync_dir(directory: Path) -> None:
    """Make a rename into `directory` durable (POSIX); a no-op where directories cannot be
    opened (Windows: the rename is atomic all the same)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
