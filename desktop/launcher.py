"""The `veil` executable: the desktop app with no arguments, the CLI otherwise.

Kept free of Qt imports so that CLI commands start fast and work without a display.
"""

from __future__ import annotations

import sys
from typing import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] not in ("--tray", "--minimized"):
        from agent.cli import main as cli_main

        return cli_main(args)
    from desktop.app import run_app

    return run_app(args)


if __name__ == "__main__":
    sys.exit(main())
