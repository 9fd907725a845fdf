"""Drives the real desktop app on a real X server (Xvfb), for tests/test_desktop_xvfb.py.

    python tests/desktop_driver.py SCENARIO REPORT.json [ARGS...]

Runs in its own process (one Qt platform per process: the pytest process uses the
offscreen one). Keys and clicks go through the X server (xdotool), like a person's;
the outcome is written as JSON for the test to check. Scenarios:

  first-run URL KEY SHOTS   the wizard: OpenAI-compatible provider at URL, KEY pasted
  chat URL SHOTS            type with real keys, preview, click an entity, Ctrl+Enter,
                            the answer streams in restored; screenshots on the way
  memory MODEL              the local provider with the tiny model answers; RSS measured
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "xcb")

# Qt only in the driver itself: the engine's helper process (multiprocessing "spawn")
# imports this file again as `__mp_main__`, and Qt there cost it ~70 MB that the real app's
# helper never has (`veil` starts from desktop.launcher, which is kept free of Qt).
if __name__ == "__main__":
    from PySide6.QtCore import QPoint, QRect
    from PySide6.QtWidgets import QApplication, QSystemTrayIcon, QToolTip

REPORT: dict = {}


def pump(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.005)


def wait(predicate, timeout: float = 30.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        QApplication.processEvents()
        if predicate():
            return
        time.sleep(0.01)
    raise TimeoutError(f"timed out waiting for {what or predicate}")


def xdo(*args: str) -> None:
    """xdotool, with the Qt loop running meanwhile (the app must answer the X server)."""
    process = subprocess.Popen(["xdotool", *args])
    while process.poll() is None:
        QApplication.processEvents()
        time.sleep(0.005)
    if process.returncode != 0:
        raise RuntimeError(f"xdotool {' '.join(args)} failed")


def focus(widget) -> None:
    widget.window().raise_()
    widget.window().activateWindow()
    xdo("windowfocus", "--sync", str(int(widget.window().winId())))
    widget.setFocus()
    pump(0.2)


def click(widget, point: QPoint | None = None) -> None:
    point = point if point is not None else widget.rect().center()
    where = widget.mapToGlobal(point)
    xdo("mousemove", "--sync", str(where.x()), str(where.y()))
    pump(0.1)
    xdo("click", "1")
    pump(0.2)


def hover(widget, point: QPoint) -> None:
    """Move the real pointer there and wait for Qt's tooltip (shown by our viewportEvent)."""
    where = widget.mapToGlobal(point)
    xdo("mousemove", "--sync", str(where.x() + 1), str(where.y()))
    xdo("mousemove", "--sync", str(where.x()), str(where.y()))
    try:
        wait(QToolTip.isVisible, timeout=4, what="tooltip")
    except TimeoutError:
        REPORT.setdefault("notes", []).append("tooltip did not show on hover")


def shot(path: Path | None, *widgets, margin: int = 8) -> None:
    """The screen area of these windows (and a visible tooltip), as the X server shows it."""
    if path is None:
        return
    pump(0.3)
    rect = QRect()
    for widget in widgets:
        rect = rect.united(widget.frameGeometry())
    for top in QApplication.topLevelWidgets():
        if top.isVisible() and top.metaObject().className() == "QTipLabel":
            rect = rect.united(top.geometry())
    rect.adjust(-margin, -margin, margin, margin)
    screen = QApplication.primaryScreen()
    rect = rect.intersected(screen.geometry())
    pixmap = screen.grabWindow(0, rect.x(), rect.y(), rect.width(), rect.height())
    path.parent.mkdir(parents=True, exist_ok=True)
    pixmap.save(str(path))
    REPORT.setdefault("screenshots", []).append(str(path))


def make_app(settings):
    from desktop.app import VeilApp

    veil = VeilApp(QApplication.instance(), settings)
    veil.start()
    return veil


def wait_ready(veil) -> None:
    from desktop.state import EnginePhase

    wait(lambda: veil.state.vault_is_open(), 30, "vault")
    wait(lambda: veil.state.engine_phase == EnginePhase.READY, 120, "engine")


def tray_report(veil) -> dict:
    tray = veil.tray
    return {
        "available": QSystemTrayIcon.isSystemTrayAvailable(),
        "visible": bool(tray and tray.isVisible()),
        "geometry": [tray.geometry().x(), tray.geometry().y(), tray.geometry().width(), tray.geometry().height()]
        if tray else None,
        "tooltip": tray.toolTip() if tray else "",
        "menu": [a.text() for a in veil.tray_menu.actions() if a.text()] if tray else [],
    }


# -- scenarios ------------------------------------------------------------------------------------------
def first_run(url: str, key: str, shots: str) -> None:
    """Journey 1: start, tray icon, the wizard: provider, key, done."""
    from agent.config import load_settings
    from agent.providers.keys import get_api_key

    out = Path(shots) if shots else None
    started = time.perf_counter()
    veil = make_app(load_settings())
    REPORT["tray_after_s"] = round(time.perf_counter() - started, 3)
    wait(lambda: getattr(veil, "wizard", None) is not None and veil.wizard.isVisible(), 20, "wizard")
    wizard = veil.wizard
    REPORT["default_provider"] = wizard.provider_page.kind()
    shot(out and out / "first-run.png", wizard, margin=0)
    radio = wizard.provider_page.buttons["openai"]
    click(radio, QPoint(8, radio.height() // 2))  # on the indicator: the row is wider than its text
    REPORT["picked"] = wizard.provider_page.kind()
    click(wizard.button(wizard.WizardButton.NextButton))
    REPORT["page_after_next"] = wizard.currentId()
    page = wizard.details_page
    for field, value in ((page.base_url, url), (page.model, "model-a"), (page.api_key, key)):
        (field.clearEditText if hasattr(field, "clearEditText") else field.clear)()  # the model box is editable
        focus(field)
        xdo("type", "--delay", "2", value)
    REPORT["key_field_echo"] = int(page.api_key.echoMode().value)
    click(wizard.button(wizard.WizardButton.NextButton))
    REPORT["page_before_finish"] = wizard.currentId()
    click(wizard.button(wizard.WizardButton.FinishButton))
    # The vault is created only now (scrypt for the passphrase), on a machine others load too.
    wait(lambda: veil.chat is not None and veil.chat.isVisible(), 60, "chat window")
    wait_ready(veil)
    pump(0.5)
    saved = load_settings()
    stored = get_api_key("openai")
    REPORT.update(
        tray=tray_report(veil),
        saved={"kind": saved.provider.kind, "base_url": saved.provider.base_url, "model": saved.provider.model,
               "first_run_done": saved.first_run_done},
        key_in_keyring=stored is not None and stored.reveal() == key,
        chat_visible=veil.chat.isVisible(),
    )
    veil.quit()


PROMPT = ("Write a short reply to Sarah Mitchell (sarah.m@globaltech.com) confirming our meeting "
          "on Friday at the Chicago office; copy Dev Patel.")


def chat(url: str, shots: str) -> None:
    """Journey 2: type, see what will leave, hover, click to keep, send, restored answer."""
    from agent.config import default_settings
    from desktop.chat import MessageView

    out = Path(shots) if shots else None
    settings = default_settings()
    settings.first_run_done = True
    settings.provider.kind, settings.provider.base_url, settings.provider.model = "openai", url, "model-a"
    veil = make_app(settings)
    REPORT["tray"] = tray_report(veil)
    wait_ready(veil)
    veil.open_chat()
    window = veil.chat
    window.resize(1180, 780)
    window.move(40, 40)
    pump(0.3)
    # An earlier conversation, so the list is not empty in the screenshots.
    focus(window.composer)
    xdo("type", "--delay", "1", "Summarise the attached notes from Anjali Gupta for the Lisbon team.")
    wait(lambda: window.last_draft is not None and not window.preview.rendering, 30, "first preview")
    xdo("key", "ctrl+Return")
    wait(lambda: not window.sending and window.views, 30, "first answer")
    window.new_conversation()
    pump(0.3)
    focus(window.composer)
    xdo("type", "--delay", "1", PROMPT)
    wait(lambda: window.last_draft is not None and window._draft_text == PROMPT and not window.preview.rendering,
         30, "preview")
    draft = window.last_draft
    REPORT["preview"] = window.preview.text()
    REPORT["preview_marks"] = [[m.label, m.style, m.key.real, m.key.sent] for m in window.preview.marks()]
    person = next(m for m in window.preview.marks() if m.key.real == "Sarah Mitchell")
    start, _ = window.preview.rect_of(person)
    hover(window.preview.viewport(), start)
    REPORT["preview_tooltip"] = QToolTip.text()
    shot(out and out / "preview.png", window)
    # Click "Chicago" (the user's office: swapped) to keep it, then click again to swap it back.
    place = next((m for m in window.preview.marks() if m.key.real == "Chicago"), None)
    if place is not None:
        before = window.preview.text()
        REPORT["before_click_style"] = place.style
        window.last_draft = None
        click(window.preview.viewport(), window.preview.rect_of(place)[0])
        wait(lambda: window.last_draft is not None and not window.preview.rendering, 30, "preview after click")
        REPORT["after_click_changed"] = window.preview.text() != before
        place = next(m for m in window.preview.marks() if m.key.real == "Chicago")
        REPORT["after_click_style"] = place.style
        window.last_draft = None
        click(window.preview.viewport(), window.preview.rect_of(place)[0])
        wait(lambda: window.last_draft is not None and not window.preview.rendering, 30, "preview after 2nd click")
        REPORT["after_second_click"] = window.preview.text() == before
    sent_preview = window.preview.text()
    focus(window.composer)
    xdo("key", "ctrl+Return")
    wait(lambda: not window.sending and len(window.views) == 2, 60, "answer")
    answer: MessageView = window.views[-1]
    REPORT["sent_preview"] = sent_preview
    REPORT["answer"] = answer.body.text()
    REPORT["answer_marks"] = [[m.label, m.key.real, m.key.stand_in] for m in answer.body.marks()]
    REPORT["stand_ins"] = {e.real: e.sent for e in draft.result.entities}
    xdo("mousemove", "5", "5")
    pump(0.3)
    shot(out and out / "answer.png", window)
    mark = next(m for m in answer.body.marks() if m.key.real.startswith("sarah.m@"))
    hover(answer.body.viewport(), answer.body.rect_of(mark)[0])
    REPORT["answer_tooltip"] = QToolTip.text()
    shot(out and out / "answer-hover.png", window)
    QToolTip.hideText()
    xdo("mousemove", "5", "5")
    pump(0.3)
    # The main window with a few turns in the conversation.
    focus(window.composer)
    xdo("type", "--delay", "1", "Also mention that Dev Patel joins by phone from +1 312 555 0199.")
    wait(lambda: window.last_draft is not None and not window.preview.rendering, 30, "third preview")
    shot(out and out / "main-window.png", window)
    veil.open_settings()
    dialog = veil.settings_dialog
    dialog.move(120, 80)
    wait(lambda: dialog.isVisible(), 10, "settings")
    pump(0.5)
    shot(out and out / "settings.png", dialog, margin=0)
    dialog.tabs.setCurrentIndex(1)
    pump(0.5)
    shot(out and out / "settings-protection.png", dialog, margin=0)
    dialog.tabs.setCurrentWidget(dialog.model_tab)
    wait(lambda: dialog.model_tab.catalog_tree.topLevelItemCount() > 0, 10, "catalog")
    pump(0.3)
    shot(out and out / "settings-models.png", dialog, margin=0)
    dialog.reject()
    REPORT["stored_messages"] = len(veil.state.store.list_messages(window.conversation.id))
    veil.quit()


def memory(model_path: str) -> None:
    """The local provider with the tiny model: one short answer, then RSS of the app and
    of its engine process."""
    import psutil

    from agent.config import default_settings

    settings = default_settings()
    settings.first_run_done = True
    settings.provider.kind = "local"
    settings.provider.max_tokens = 24
    settings.local_model.path = model_path
    veil = make_app(settings)
    wait_ready(veil)
    veil.open_chat()
    window = veil.chat
    me = psutil.Process()
    engine = psutil.Process(veil.state.engine.pid)
    REPORT["rss_ready_mb"] = {"app": me.memory_info().rss >> 20, "engine": engine.memory_info().rss >> 20}
    window.composer.setPlainText("What is the capital of France?")
    wait(lambda: window.last_draft is not None, 30, "preview")
    window.send()
    wait(lambda: not window.sending and window.views, 180, "local answer")
    REPORT["answer"] = window.views[-1].body.text()
    REPORT["state"] = window.views[-1].message.state.value if window.views[-1].message else ""
    pump(0.5)
    REPORT["rss_model_mb"] = {"app": me.memory_info().rss >> 20, "engine": engine.memory_info().rss >> 20}
    REPORT["rss_model_mb"]["total"] = REPORT["rss_model_mb"]["app"] + REPORT["rss_model_mb"]["engine"]
    # `release_after_minutes`, shortened to a second: the idle model is freed, its memory with it.
    from models.runtime import set_idle_release

    set_idle_release(1.0)
    pump(4)
    REPORT["rss_released_mb"] = {"app": me.memory_info().rss >> 20, "engine": engine.memory_info().rss >> 20}
    REPORT["rss_released_mb"]["total"] = REPORT["rss_released_mb"]["app"] + REPORT["rss_released_mb"]["engine"]
    veil.quit()


def main() -> int:
    scenario, report, *args = sys.argv[1:]
    app = QApplication([sys.argv[0]])
    app.setQuitOnLastWindowClosed(False)
    try:
        {"first-run": first_run, "chat": chat, "memory": memory}[scenario](*args)
        REPORT["ok"] = True
    except Exception as exc:
        import traceback

        REPORT["ok"] = False
        REPORT["error"] = f"{type(exc).__name__}: {exc}"
        REPORT["traceback"] = traceback.format_exc()
    Path(report).write_text(json.dumps(REPORT, indent=1, ensure_ascii=False))
    pump(0.2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
