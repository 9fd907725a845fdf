"""Running slow work off the UI thread, and getting results back onto it.

    background = Background()
    background.submit(lambda: store.list_conversations(), on_done=show, on_error=report)

`on_done` / `on_error` run on the UI thread (through a queued Qt signal). Exceptions
never vanish: without `on_error` they are logged.

Streams (an LLM answer) produce many small pieces; `ChunkPipe` coalesces them so the UI
receives at most one pending notification however fast the worker produces.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot

log = logging.getLogger("veil.desktop")


class Invoker(QObject):
    """Runs callables on the thread this object lives in (create it on the UI thread)."""

    _call = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self._call.connect(self._run, Qt.ConnectionType.QueuedConnection)

    def post(self, fn: Callable[[], Any]) -> None:
        """Queue fn for the UI thread (safe from any thread)."""
        self._call.emit(fn)

    @Slot(object)
    def _run(self, fn: Callable[[], Any]) -> None:
        try:
            fn()
        except RuntimeError as exc:
            # A widget closed while its work was running ("already deleted"): nothing to show.
            if "already deleted" in str(exc):
                log.debug("callback for a closed widget dropped: %s", exc)
            else:
                log.exception("UI callback failed")
        except Exception:
            log.exception("UI callback failed")


class Background:
    """A small pool of worker threads whose results come back on the UI thread."""

    def __init__(self, max_workers: int = 4) -> None:
        self.invoker = Invoker()
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="veil-worker")
        self._closed = False

    def submit(
        self,
        fn: Callable[[], Any],
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
    ) -> Future:
        def run() -> Any:
            try:
                result = fn()
            except BaseException as exc:  # reported on the UI thread, never swallowed
                if on_error is not None:
                    self.invoker.post(lambda error=exc: on_error(error))  # `exc` is unbound after the block
                else:
                    log.error("background task failed: %s: %s", type(exc).__name__, exc, exc_info=exc)
                raise
            if on_done is not None:
                self.invoker.post(lambda: on_done(result))
            return result

        if self._closed:
            raise RuntimeError("the app is shutting down")
        return self._pool.submit(run)

    def thread(self, fn: Callable[[], Any], name: str) -> threading.Thread:
        """A dedicated thread for long jobs (answer streams, downloads) so they never
        occupy the pool that quick vault and preview calls need."""
        thread = threading.Thread(target=fn, name=name, daemon=True)
        thread.start()
        return thread

    def post(self, fn: Callable[[], Any]) -> None:
        self.invoker.post(fn)

    def shutdown(self) -> None:
        self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)


class ChunkPipe:
    """Worker -> UI hand-over for streams. The worker `put`s pieces; the UI callback
    `drain` gets everything queued so far in one call, scheduled once per batch."""

    def __init__(self, background: Background, drain: Callable[[list[Any]], None]) -> None:
        self._background = background
        self._drain = drain
        self._lock = threading.Lock()
        self._items: list[Any] = []
        self._scheduled = False

    def put(self, item: Any) -> None:
        with self._lock:
            self._items.append(item)
            if self._scheduled:
                return
            self._scheduled = True
        self._background.post(self._flush)

    def _flush(self) -> None:
        with self._lock:
            items, self._items = self._items, []
            self._scheduled = False
        if items:
            self._drain(items)
