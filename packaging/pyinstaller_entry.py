"""The frozen bundle's entry point (build.spec): `desktop.launcher.main` after
multiprocessing.freeze_support().

Why: the engine runs in a helper process started with multiprocessing "spawn"
(agent/engine/host.py). In a PyInstaller bundle the child is the `veil` executable itself
with `--multiprocessing-fork ...` arguments; freeze_support() recognizes them and runs the
child instead of the app (without it the child would parse them as a CLI command and die,
and the engine would fall back to running inside the UI process).
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()

    from desktop.launcher import main

    sys.exit(main())
