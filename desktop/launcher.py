"""The `veil` executable: the desktop app with no arguments, the CLI otherwise.

Kept free of Qt imports so that CLI commands start fast and work without a display.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

# Options that start the desktop app; anything else is a CLI command (or --help).
DESKTOP_OPTIONS = ("--tray", "--minimized", "--chat")


def main(argv: Sequence[str] | None = None) -> int:
    # The privacy engine runs in a helper process (agent.engine.host); in a frozen
    # (PyInstaller) build that process re-runs this executable, which must hand over to
    # multiprocessing before anything else. A no-op otherwise.
    import multiprocessing

    multiprocessing.freeze_support()
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] not in DESKTOP_OPTIONS:
        from agent.cli import main as cli_main

        return cli_main(args)
    from desktop.main import run_app

    return run_app(args)


if __name__ == "__main__":
    sys.exit(main())
