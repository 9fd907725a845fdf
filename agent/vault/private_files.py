"""Files Veil writes that hold real values outside the vault (an export with
`--include-real`): created readable by the user only, never written through a symlink,
never inheriting an existing file's looser mode.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from agent.vault.keys import fsync_dir


class UnsafeTarget(OSError):
    """The path names something that is not a plain file (a symlink, a folder, a device)."""


def write_private_file(path: Path | str, text: str) -> None:
    """Write `text` to `path` as a new file with mode 0600: created beside it with
    O_CREAT|O_EXCL|O_NOFOLLOW, then renamed over it (a rename replaces a symlink itself,
    never its target). A path that is a symlink, a folder or a device is refused
    (UnsafeTarget); other OSErrors pass through."""
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a plain file"
        raise UnsafeTarget(f"{path} is {kind}; Veil writes real values only to a plain file it creates")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(tmp, flags, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    fsync_dir(path.parent)
