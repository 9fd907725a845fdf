"""The engine's side of EngineHost: `EngineService` answers the calls of agent.engine.rpc,
through one explicit table from call type to method (`CALLS`), in the helper process
(`child_main`) or, where no helper can be started, in the app's own process.

The helper serves two channels: sanitize calls on the main thread, restore calls on a
second thread, so an answer streams while a big preview is being sanitized. Restoring
needs the name lexicon (building it holds the GIL for ~0.3 s and costs memory): that too
stays out of the app's process.
"""

from __future__ import annotations

import ctypes
import gc
import logging
import threading
from collections.abc import Callable
from typing import Any

from agent.config import Settings
from agent.engine.interface import DryRun, StreamingRestore
from agent.engine.local_tasks import LocalModels
from agent.engine.rpc import (
    CloseStream,
    Configure,
    DetectCall,
    DryRunCall,
    FeedStream,
    FinishStream,
    OpenStream,
    Ping,
    RestoreCall,
    Stop,
    StreamResult,
    portable,
)
from agent.entities import RestoreResult, Span
from agent.session.conversation import Conversation

# Abandoned streams (an app that crashed mid-answer) are dropped past this many.
MAX_OPEN_STREAMS = 256


class EngineService:
    """The engine behind the calls. Sanitize calls come from one thread, restore and
    stream calls from another; the engine itself is thread-safe."""

    def __init__(self, settings: Settings, local_models: LocalModels | None = None):
        from agent.engine.core import build_engine

        self._local_models = local_models
        self.engine = build_engine(settings, local_models)
        self._streams: dict[int, StreamingRestore] = {}

    def warm_up(self) -> None:
        self.engine.warm_up()

    def configure(self, call: Configure) -> None:
        from agent.engine.core import build_engine

        engine = build_engine(call.settings, self._local_models)
        engine.warm_up()
        self.engine = engine  # streams already open keep the restorer they started with
        release_free_memory()  # the old engine's, and what loading the new one left

    def dry_run(self, call: DryRunCall) -> DryRun:
        return self.engine.dry_run(call.text, call.state.build(), call.overrides)

    def restore(self, call: RestoreCall) -> RestoreResult:
        return self.engine.restore(call.text, call.state.build())

    def detect(self, call: DetectCall) -> list[Span]:
        return self.engine.detect(call.text, call.state.build() if call.state is not None else None)

    def ping(self, call: Ping) -> str:
        return "pong"

    def open_stream(self, call: OpenStream) -> None:
        if len(self._streams) > MAX_OPEN_STREAMS:
            self._streams.clear()
        self._streams[call.stream_id] = self.engine.streaming_restorer(call.state.build())

    def feed_stream(self, call: FeedStream):
        return self._streams[call.stream_id].feed(call.chunk)

    def finish_stream(self, call: FinishStream):
        return self._streams[call.stream_id].finish()

    def stream_result(self, call: StreamResult) -> RestoreResult:
        return self._streams[call.stream_id].result()

    def close_stream(self, call: CloseStream) -> None:
        self._streams.pop(call.stream_id, None)


def release_free_memory() -> None:
    """Give the memory that loading freed back to the system. Loading parses large files
    (spaCy's model, word and name lists) into short-lived objects; freed, their pages stay
    in the C heap, counted in the process's resident size, until malloc_trim (glibc) hands
    them back: measured ~10 MB after warm-up. Elsewhere (macOS, Windows, musl) nothing."""
    gc.collect()
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError, TypeError):
        return
    trim(0)


Handler = Callable[[EngineService, Any], Any]

# Which method answers each call, per channel. The restore channel never waits behind a
# long sanitize; the stream calls exist only there.
SANITIZE_CALLS: dict[type, Handler] = {
    DryRunCall: EngineService.dry_run,
    RestoreCall: EngineService.restore,
    DetectCall: EngineService.detect,
    Configure: EngineService.configure,
    Ping: EngineService.ping,
}
RESTORE_CALLS: dict[type, Handler] = {
    RestoreCall: EngineService.restore,
    Ping: EngineService.ping,
    OpenStream: EngineService.open_stream,
    FeedStream: EngineService.feed_stream,
    FinishStream: EngineService.finish_stream,
    StreamResult: EngineService.stream_result,
    CloseStream: EngineService.close_stream,
}
# Every call, for the in-process fallback (one thread, both channels' calls).
CALLS: dict[type, Handler] = {**SANITIZE_CALLS, **RESTORE_CALLS}


def answer(service: EngineService, call: object, table: dict[type, Handler] = CALLS) -> Any:
    """Run one call; a call type the table does not list is a TypeError."""
    handler = table.get(type(call))
    if handler is None:
        raise TypeError(f"the engine does not answer {type(call).__name__} here")
    return handler(service, call)


def serve(conn, service: EngineService, table: dict[type, Handler]) -> None:
    """Answer calls on one connection until told to stop or orphaned."""
    while True:
        try:
            call = conn.recv()
        except (EOFError, OSError):
            return  # the app went away
        if isinstance(call, Stop):
            return
        try:
            conn.send(("ok", answer(service, call, table)))
        except BaseException as exc:
            conn.send(("error", portable(exc)))


def child_main(conn, restore_conn, settings: Settings, local_models: LocalModels | None = None) -> None:
    """The helper process: sanitize calls on `conn` (this thread), restore calls on
    `restore_conn` (a second thread), until told to stop or orphaned."""
    logging.basicConfig(level=logging.WARNING, format="veil engine: %(message)s")
    try:
        service = EngineService(settings, local_models)
        service.warm_up()
        service.engine.restore("warm-up", Conversation("warm-up"))  # builds the name lexicon now
    except BaseException as exc:  # reported to the parent, which falls back or says why
        conn.send(("error", portable(exc)))
        return
    release_free_memory()
    threading.Thread(target=serve, args=(restore_conn, service, RESTORE_CALLS), name="restore", daemon=True).start()
    conn.send(("ready", None))
    serve(conn, service, SANITIZE_CALLS)
