"""Indexes built from public data packages, kept on disk between runs.

Every Veil process used to build its name lexicon (Faker's ~80 locale modules), its
GeoNames place index and its town index from the packages at start: ~1.8 s of CPU of a
~4.3 s start (`veil sanitize`, the app's engine process, each `veil files` worker). They
depend only on the installed data packages and on the code that builds them, so the
built index is written once to Veil's cache folder and read back (~0.1 s) by later runs.

What is stored is plain data (str, int, tuple, list, dict, frozenset) in `marshal`
format, never pickles: a cache file holds no objects whose loading runs code, and it lives
in the user's own 0700 folder like the vault. The file name holds a key
over the building modules' source, the data packages' versions and Python's version, so
an upgrade of either builds afresh; a file that cannot be read is built again and
replaced. Writing is best effort (a read-only home only costs the time). marshal keeps
objects that occur twice in one file as one object, and strings interned as interned, so
the memory the indexes share when built is shared when read.
"""

from __future__ import annotations

import hashlib
import logging
import marshal
import os
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import TypeVar

import platformdirs

from agent.paths import APP_NAME

log = logging.getLogger(__name__)

T = TypeVar("T")
_FORMAT = 1  # bump when the layout of this module's files changes


def cache_dir() -> Path | None:
    """VEIL_CACHE_DIR, else VEIL_HOME/cache, else the platform's user cache folder;
    VEIL_CACHE_DIR=off (or empty) turns the cache off."""
    value = os.environ.get("VEIL_CACHE_DIR")
    if value is not None:
        return None if value.strip() in ("", "off") else Path(value).expanduser()
    home = os.environ.get("VEIL_HOME")
    if home:
        return Path(home).expanduser() / "cache"
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def cache_key(modules: Sequence[str], distributions: Sequence[str]) -> str:
    """A digest of the building modules' source, the data packages' versions and
    Python's version (marshal's format may change between versions)."""
    digest = hashlib.sha256(f"{_FORMAT} {sys.version_info[:2]} {marshal.version}".encode())
    for name in modules:
        module = sys.modules.get(name)
        source = getattr(module, "__file__", None)
        try:
            digest.update(Path(source).read_bytes() if source else name.encode())
        except OSError:
            digest.update(name.encode())  # a frozen bundle: its version below tells builds apart
    for name in distributions:
        try:
            digest.update(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name}=?".encode())
    digest.update(_veil_version().encode())
    if getattr(sys, "frozen", False):  # a bundle holds no sources to read: its build tells
        stat = os.stat(sys.executable)
        digest.update(f"{stat.st_size} {stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:24]


def _veil_version() -> str:
    try:
        return metadata.version("veil")
    except metadata.PackageNotFoundError:
        return "source"


def load_or_build(
    name: str,
    key: str,
    build: Callable[[], T],
    encode: Callable[[T], object],
    decode: Callable[[object], T],
) -> T:
    """The index `name` read from the cache folder when a file for `key` is there and
    readable, else built (and written for the next run)."""
    folder = cache_dir()
    path = folder / f"{name}-{key}.marshal" if folder is not None else None
    if path is not None:
        try:
            data = path.read_bytes()
        except OSError:
            data = None
        if data is not None:
            try:
                return decode(marshal.loads(data))
            except Exception as exc:  # a truncated or foreign file: build it again
                log.info("rebuilding the %s index: its cache file could not be read (%s)", name, exc)
    built = build()
    if path is not None:
        _write(path, marshal.dumps(encode(built)))
    return built


def _write(path: Path, data: bytes) -> None:
    """Atomically (another process may read it meanwhile), readable by the user only;
    failures are only logged: the cache saves time, nothing depends on it."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except OSError as exc:
        log.info("could not keep the %s index in %s: %s", path.name, path.parent, exc)
        try:
            temporary.unlink()
        except OSError:
            pass
    else:
        for stale in path.parent.glob(f"{path.name.rsplit('-', 1)[0]}-*.marshal"):
            if stale != path:  # files of older versions
                try:
                    stale.unlink()
                except OSError:
                    pass
