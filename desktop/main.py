"""`veil` with no command (or --chat / --tray): start the desktop app. Checks there is a
graphical session, picks the Qt platform (XWayland on Wayland, for the clipboard), claims
the single instance (a second `veil` shows the running one's window), builds the VeilApp
(desktop/app.py) with the saved settings and runs Qt's event loop.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Mapping, Sequence

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from agent.config import ConfigError, default_settings, load_settings
from desktop import app as app_module
from desktop import icons
from desktop.app import VeilApp
from desktop.clipboard_actions import Report
from desktop.instance import claim_instance

log = logging.getLogger("veil.desktop")


# -- entry point ----------------------------------------------------------------------------------------------------
def parse_args(args: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="veil", description="Veil desktop app")
    parser.add_argument("--tray", "--minimized", action="store_true", help="start in the tray only")
    parser.add_argument("--chat", action="store_true", help="open the chat window at start")
    known, _ = parser.parse_known_args(list(args))  # Qt's own options (-style...) pass through
    return known


def qt_platform_for(environ: Mapping[str, str]) -> str:
    """The Qt platform to ask for ('' = Qt's choice). Wayland hands the clipboard only to
    the window that has the keyboard focus, and Veil lives in the tray: where XWayland runs
    (DISPLAY is set), the app uses it, whose clipboard the compositor serves to X11 clients
    whatever has the focus (as clipboard managers such as CopyQ do). QT_QPA_PLATFORM, when
    set, is the user's choice and wins."""
    if environ.get("QT_QPA_PLATFORM"):
        return ""
    wayland = environ.get("XDG_SESSION_TYPE", "").lower() == "wayland" or bool(environ.get("WAYLAND_DISPLAY"))
    return "xcb" if wayland and environ.get("DISPLAY") else ""


def run_app(args: Sequence[str] = ()) -> int:
    app_module.restart_clock()
    level = os.environ.get("VEIL_LOG", "warning").upper()
    logging.basicConfig(level=getattr(logging, level, logging.WARNING), format="%(name)s: %(message)s")
    options = parse_args(args)
    if (sys.platform.startswith("linux") and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")
            and not os.environ.get("QT_QPA_PLATFORM")):
        # Qt would abort with "could not connect to display"; say what to do instead.
        print("veil: no graphical session here (neither DISPLAY nor WAYLAND_DISPLAY is set). The desktop app "
              "needs one; in a terminal use `veil chat`, `veil sanitize` / `veil restore`, or `veil serve`.",
              file=sys.stderr)
        return 2
    platform = qt_platform_for(os.environ)
    if platform:
        log.info("Wayland session: the app runs through XWayland (%s) to read the clipboard in the background",
                 platform)
        os.environ["QT_QPA_PLATFORM"] = platform
    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
    app = QApplication.instance() or QApplication([sys.argv[0], *[a for a in args if a not in ("--tray", "--minimized", "--chat")]])
    app.setApplicationName("Veil")
    app.setApplicationDisplayName("Veil")
    app.setDesktopFileName("veil")
    app.setWindowIcon(icons.icon())
    app.setQuitOnLastWindowClosed(False)

    holder: dict[str, VeilApp] = {}
    def request(line: str, report: Report) -> None:
        if "app" in holder:
            holder["app"].handle_request(line, report)
        else:
            report(False, "Veil", "Veil is starting; try again in a moment.")

    server = claim_instance(request)
    if server is None:
        log.info("Veil is already running: asked it to open its window")
        return 0

    problem = ""
    try:
        settings = load_settings()
    except (ConfigError, OSError) as exc:
        problem = f"{exc}. Veil runs with the default settings; your file was left as it is."
        settings = default_settings()
        settings.first_run_done = True  # never overwrite a broken file through the wizard
    veil = VeilApp(app, settings, settings_problem=problem)
    holder["app"] = veil
    _quit_on_signals(app)
    veil.start(open_chat=options.chat)
    if veil.tray is None:
        app.setQuitOnLastWindowClosed(True)
    code = app.exec()
    veil.shutdown()
    server.close()
    return code


def _quit_on_signals(app: QApplication) -> None:
    """Ctrl-C in a terminal and SIGTERM (logout, kill) close Veil cleanly: the vault is
    checkpointed and the engine process told to stop. Python only runs signal handlers
    between bytecodes, so a timer wakes the interpreter regularly."""
    import signal

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: app.exit(0))  # see VeilApp.quit
    wake = QTimer(app)
    wake.timeout.connect(lambda: None)
    wake.start(300)


def show_fatal(text: str) -> None:  # pragma: no cover - last resort before a crash
    QMessageBox.critical(None, "Veil", text)
