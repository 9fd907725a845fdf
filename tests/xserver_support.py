"""A virtual X display (Xvfb) with trayer as its system tray, for the tests that need a
real X server: the desktop tests (tray, clipboard, global hotkeys) and the frozen bundle.

One class for both so the hard-won details live in one place: a display number is only
free if no lock file, socket *or abstract socket* names it (servers in other network
namespaces on the same machine show up only as abstract sockets), the server is ready
when `xdpyinfo` answers rather than when its socket appears, and trayer is started a few
times because on a loaded machine its first start can fail (it exits 1 when it loses
the race for the tray selection or reaches the display before it accepts clients).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

# What the desktop tests run (packaging/dev.sh test installs them on Debian/Ubuntu).
X_TOOLS = ("Xvfb", "trayer", "xdotool", "xclip")
X_TOOLS_INSTALL = "apt-get install xvfb trayer xdotool xclip (packaging/dev.sh test does it)"


def require_x_tools(*tools: str) -> None:
    """Skip a test whose X tools are missing on a developer's machine, but fail it under CI
    (the CI environment variable is set, .ci/run sets it): a CI run must not go green
    without running the desktop tests."""
    missing = [tool for tool in tools or X_TOOLS if shutil.which(tool) is None]
    if not missing:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI: the X tools {', '.join(missing)} are missing; {X_TOOLS_INSTALL}", pytrace=False)
    pytest.skip(f"needs {', '.join(missing)}: {X_TOOLS_INSTALL}")


TRAYER_ARGS = ["--edge", "top", "--align", "right", "--widthtype", "pixel", "--width", "200",
               "--heighttype", "pixel", "--height", "28", "--SetDockType", "true", "--transparent", "false"]


def display_in_use(number: int) -> bool:
    if Path(f"/tmp/.X{number}-lock").exists() or Path(f"/tmp/.X11-unix/X{number}").exists():
        return True
    try:
        return f"@/tmp/.X11-unix/X{number}\n" in Path("/proc/net/unix").read_text()
    except OSError:
        return False


def free_display(first: int) -> int:
    for number in range(first, first + 400):
        if not display_in_use(number):
            return number
    raise RuntimeError("no free X display number")


class XServer:
    """Xvfb on a free display number, optionally with trayer as the system tray."""

    def __init__(self, width: int = 1280, height: int = 860, *, record: bool = True, first_display: int = 90):
        self.size = (width, height)
        self.record = record  # the RECORD extension pynput's X11 listener needs
        self.first_display = first_display
        self.processes: list[subprocess.Popen] = []
        self.display = ""

    def start(self) -> XServer:
        problems = []
        number = self.first_display
        for _ in range(5):
            number = free_display(number)
            process = subprocess.Popen(
                ["Xvfb", f":{number}", "-screen", "0", f"{self.size[0]}x{self.size[1]}x24", "-nolisten", "tcp",
                 "+extension" if self.record else "-extension", "RECORD"],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            )
            self.display = f":{number}"
            if self._answers(process):
                self.processes.append(process)
                return self
            if process.poll() is None:
                process.kill()
            problems.append((process.communicate()[1] or b"").decode(errors="replace")[-300:])
            number += 1  # taken after all (a race with another server): try the next one
        raise RuntimeError(f"Xvfb did not start: {problems}")

    def _answers(self, process: subprocess.Popen) -> bool:
        deadline = time.monotonic() + 15
        socket = Path(f"/tmp/.X11-unix/X{self.display[1:]}")
        while time.monotonic() < deadline and process.poll() is None:
            if shutil.which("xdpyinfo") is None:  # x11-utils is optional: then trust the socket
                if socket.exists():
                    time.sleep(0.3)
                    return True
            elif subprocess.run(["xdpyinfo"], env=self.env(), capture_output=True, check=False).returncode == 0:
                return True
            time.sleep(0.1)
        return False

    def window_of(self, class_name: str) -> bool:
        found = subprocess.run(["xdotool", "search", "--class", class_name], env=self.env(),
                               capture_output=True, text=True, check=False)
        return bool(found.stdout.strip())

    def start_tray(self) -> None:
        problems = []
        for _ in range(4):
            trayer = subprocess.Popen(["trayer", *TRAYER_ARGS], env=self.env(),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and trayer.poll() is None:
                if self.window_of("trayer"):
                    self.processes.append(trayer)
                    return
                time.sleep(0.1)
            if trayer.poll() is None:
                trayer.kill()
            problems.append(f"exit {trayer.wait()}: "
                            + (trayer.communicate()[1] or b"").decode(errors="replace")[-300:])
            time.sleep(0.5)
        raise RuntimeError(f"trayer did not start on {self.display}: {problems}")

    def env(self, **extra: str) -> dict[str, str]:
        env = {**os.environ, "DISPLAY": self.display, "QT_QPA_PLATFORM": "xcb", "XDG_SESSION_TYPE": "x11"}
        env.pop("WAYLAND_DISPLAY", None)
        env.update(extra)
        return env

    def stop(self) -> None:
        for process in reversed(self.processes):
            stop_process(process, timeout=5)
        self.processes = []


def stop_process(process: subprocess.Popen, timeout: float = 10) -> None:
    """Ask a child process to end; kill it if it has not within `timeout` seconds."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
