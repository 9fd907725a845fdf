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
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    home = _home_override()
    path = home / "config" if home else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def models_dir() -> Path:
    path = data_dir() / "models"
    path.mkdir(parents=True, exist_ok=True)
    return path


def resources_dir() -> Path:
    """The read-only resources shipped with the app (source tree or PyInstaller bundle)."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)
