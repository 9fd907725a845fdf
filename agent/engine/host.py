"""The privacy engine in a helper process, for interactive front ends (the desktop app).

Why a process and not a thread: spaCy's tokenizer, matcher and network layers are C code
that keeps Python's GIL for hundreds of milliseconds on a large text (measured: 345 ms for
one matcher call on a 46 kB prompt). While a worker thread holds the GIL, the UI thread
cannot run any Python at all, so a window driven from Python freezes however the work is
scheduled. In a child process the engine can take seconds and the UI keeps ticking.

    host = EngineHost(settings)          # the child starts loading at once (spawn)
    host.warm_up()                       # wait for it (call off the UI thread)
    draft = host.dry_run(text, conversation)   # preview: the conversation is untouched
    host.commit(conversation, draft)           # at send time: its map entries are added
    host.sanitize(text, conversation)          # the Engine interface (commits at once)
    host.streaming_restorer(conversation)      # feed()/finish()/result(), served by the child

EngineHost is a PrivacyEngine (agent.engine.interface) and owns the helper's life cycle:
start, wait until ready, reconfigure, fall back to this process when the helper cannot
start or dies (`isolated` is then False), stop. The calls it sends are the dataclasses of
agent.engine.rpc; the helper's side is agent.engine.child.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import multiprocessing
import threading
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from agent.config import Settings
from agent.engine.interface import DryRun, StreamingRestore, apply_entries, commit_dry_run
from agent.engine.local_tasks import LocalModels
from agent.engine.rpc import (
    CloseStream,
    Configure,
    ConversationState,
    DetectCall,
    DryRunCall,
    FeedStream,
    FinishStream,
    OpenStream,
    Ping,
    RestoreCall,
    Stop,
    StreamResult,
)
from agent.entities import Action, RestoreResult, SanitizeResult, Span
from agent.session.conversation import Conversation

if TYPE_CHECKING:
    from agent.engine.child import EngineService
    from agent.restore.restorer import RestoredChunk

log = logging.getLogger("veil.engine_host")

START_TIMEOUT_S = 180.0  # loading spaCy on a busy 2-core machine can take a while


class EngineUnavailable(RuntimeError):
    """The engine could not be started (the message says why)."""


class EngineHost:
    """A PrivacyEngine served by a helper process. Thread-safe: calls are serialized.
    `local_models`: the local-model plug-in to build the engine with (default: the
    installed one, found by the helper itself)."""

    def __init__(self, settings: Settings, *, isolated: bool = True, start: bool = True,
                 local_models: LocalModels | None = None):
        self.settings = settings
        self._local_models = local_models
        self._want_isolated = isolated
        self._lock = threading.Lock()  # one request on the pipe at a time
        self._state_lock = threading.Lock()
        self._ready = threading.Event()
        self._conn = None
        self._restore_conn = None
        self._restore_channel_lock = threading.Lock()  # restore requests have their own pipe
        self._stream_ids = itertools.count(1)
        self._generation = 0  # bumped by reconfigure: drafts of older settings are not committed
        self._process = None
        self._local: EngineService | None = None  # the engine in this process, when it runs here
        self._error: BaseException | None = None
        self.fallback_reason = ""  # why the engine runs in-process, when it does
        self.started_at = time.perf_counter()
        self.ready_after_s: float | None = None
        if start:
            self.start()

    # -- life cycle ------------------------------------------------------------------------------
    @property
    def isolated(self) -> bool:
        return self._process is not None

    @property
    def ready(self) -> bool:
        return self._ready.is_set() and self._error is None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def start(self) -> None:
        """Start loading (returns at once in isolated mode; warm_up() waits)."""
        with self._state_lock:
            if self._process is not None or self._local is not None:
                return
            if self._want_isolated:
                try:
                    self._spawn()
                    return
                except Exception as exc:  # e.g. no /dev/shm, a sandbox without fork/spawn
                    self.fallback_reason = f"helper process unavailable ({exc}); the engine runs in the app"
                    log.warning("%s", self.fallback_reason)

    def _spawn(self) -> None:
        context = multiprocessing.get_context("spawn")  # never fork a process that runs Qt
        parent, child = context.Pipe()
        restore_parent, restore_child = context.Pipe()
        from agent.engine.child import child_main  # light: the engine is imported in the child

        process = context.Process(target=child_main, args=(child, restore_child, self.settings, self._local_models),
                                  name="veil-engine", daemon=True)
        process.start()
        child.close()
        restore_child.close()
        self._conn, self._restore_conn, self._process = parent, restore_parent, process

    def warm_up(self, timeout: float = START_TIMEOUT_S) -> None:
        """Block until the engine is loaded. Raises EngineUnavailable."""
        if self._ready.is_set():
            if self._error is not None:
                raise EngineUnavailable(str(self._error))
            return
        with self._lock:
            if not self._ready.is_set():
                try:
                    self._wait_ready(timeout)
                except BaseException as exc:
                    self._error = exc
                    self._ready.set()
                    raise EngineUnavailable(f"the privacy engine could not start: {exc}") from exc
                self.ready_after_s = time.perf_counter() - self.started_at
                self._ready.set()

    def _wait_ready(self, timeout: float) -> None:
        if self._process is None:
            self._start_local()
            return
        assert self._conn is not None
        if not self._conn.poll(timeout):
            self._stop_process()
            raise TimeoutError(f"the engine did not load within {timeout:.0f} s")
        try:
            kind, value = self._conn.recv()
        except (EOFError, OSError):
            kind, value = "died", None
        if kind == "ready":
            return
        self._stop_process()
        if kind == "error" and value is not None:
            raise value
        # The child died (killed, crashed in a C extension): run in-process instead.
        self.fallback_reason = "the engine's helper process exited while loading; the engine runs in the app"
        log.warning("%s", self.fallback_reason)
        self._start_local()

    def _start_local(self) -> None:
        from agent.engine.child import EngineService

        service = EngineService(self.settings, self._local_models)
        service.warm_up()
        self._local = service

    def reconfigure(self, settings: Settings) -> None:
        """Use new settings (policy, lists, detectors). Blocks until reloaded."""
        self.warm_up()
        with self._lock:
            self.settings = settings
            self._generation += 1  # before the child reloads: no preview of the old settings is sent
            self._call_locked(Configure(settings))

    def close(self) -> None:
        with self._lock:
            self._stop_process()

    def _stop_process(self) -> None:
        process, conn, restore_conn = self._process, self._conn, self._restore_conn
        self._process = self._conn = self._restore_conn = None
        for channel in (restore_conn, conn):
            if channel is None:
                continue
            try:
                channel.send(Stop())
            except (OSError, ValueError):
                pass
            channel.close()
        if process is not None:
            process.join(timeout=3)
            if process.is_alive():
                process.terminate()
                process.join(timeout=3)

    # -- the calls -------------------------------------------------------------------------------
    def _call(self, call: object) -> Any:
        self.warm_up()
        with self._lock:
            return self._call_locked(call)

    def _call_locked(self, call: object) -> Any:
        from agent.engine.child import answer

        if self._local is not None:
            return answer(self._local, call)
        assert self._conn is not None
        try:
            self._conn.send(call)
            kind, value = self._conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            self._child_died()
            assert self._local is not None
            return answer(self._local, call)
        if kind == "error":
            raise value
        return value

    def _child_died(self) -> None:
        """The child died mid-call (out of memory, killed): go on in this process so the
        user's work is not lost, and say so in the log. Caller holds self._lock."""
        self._stop_process()
        self.fallback_reason = "the engine's helper process stopped; the engine now runs in the app"
        log.warning("%s", self.fallback_reason)
        self._start_local()

    def _restore_call(self, call: object) -> Any:
        """A call on the restore channel (never queued behind a long sanitize)."""
        self.warm_up()
        with self._restore_channel_lock:
            conn = self._restore_conn
            if conn is not None:
                try:
                    conn.send(call)
                    kind, value = conn.recv()
                except (EOFError, OSError, BrokenPipeError):
                    kind, value = "died", None
                if kind == "ok":
                    return value
                if kind == "error":
                    raise value
        with self._lock:
            if self._local is None:
                self._child_died()
        raise EngineUnavailable("the engine's helper process stopped while restoring; try again")

    # -- PrivacyEngine ---------------------------------------------------------------------------
    def dry_run(
        self, text: str, conversation: Conversation, overrides: Mapping[str, Action] | None = None
    ) -> DryRun:
        """What sanitize would give, without changing the conversation (for previews)."""
        revision = conversation.revision  # read first: a change after it only makes commit refuse
        generation = self._generation  # likewise: settings changed after it make commit refuse
        state = ConversationState.of(conversation)
        began = time.perf_counter()
        draft: DryRun = self._call(DryRunCall(state, text, dict(overrides or {})))
        # The child's copy has its own revision: the draft is against this conversation.
        return dataclasses.replace(draft, base_entries=len(state.entries), base_revision=revision,
                                   engine_generation=generation, seconds=time.perf_counter() - began)

    def commit(self, conversation: Conversation, draft: DryRun) -> bool:
        """Add a dry run's map entries to the conversation. False (nothing added) when the
        conversation or the settings changed since, so the caller sanitizes again."""
        if draft.engine_generation != self._generation:
            return False
        return commit_dry_run(conversation, draft)

    def sanitize(
        self, text: str, conversation: Conversation, overrides: Mapping[str, Action] | None = None
    ) -> SanitizeResult:
        """Engine.sanitize: the new map entries are added to the conversation."""
        draft = self.dry_run(text, conversation, overrides)
        if not self.commit(conversation, draft):  # changed meanwhile (another thread): redo
            draft = self.dry_run(text, conversation, overrides)
            apply_entries(conversation, draft.new_entries)
        return draft.result

    def detect(self, text: str, conversation: Conversation | None = None) -> list[Span]:
        state = ConversationState.of(conversation) if conversation is not None else None
        return self._call(DetectCall(state, text))

    def restore(self, text: str, conversation: Conversation) -> RestoreResult:
        call = RestoreCall(ConversationState.of(conversation), text)
        if self._local is not None or not self._want_isolated:
            return self._call(call)
        return self._restore_call(call)

    def streaming_restorer(self, conversation: Conversation) -> StreamingRestore:
        """A StreamingRestore served by the child (one round trip per chunk)."""
        self.warm_up()
        if self._local is not None:
            return self._local.engine.streaming_restorer(conversation)
        stream_id = next(self._stream_ids)
        self._restore_call(OpenStream(stream_id, ConversationState.of(conversation)))
        return RemoteStreamingRestorer(self, stream_id)

    def ping(self) -> bool:
        return self._call(Ping()) == "pong"


class RemoteStreamingRestorer:
    """A StreamingRestore whose restorer lives in the helper: one round trip per chunk (~0.1 ms)."""

    def __init__(self, host: EngineHost, stream_id: int):
        self._host = host
        self._id = stream_id
        self._received: list[str] = []
        self._closed = False

    def feed(self, chunk: str) -> RestoredChunk:
        self._received.append(chunk)
        return self._host._restore_call(FeedStream(self._id, chunk))

    def finish(self) -> RestoredChunk:
        return self._host._restore_call(FinishStream(self._id))

    def result(self) -> RestoreResult:
        try:
            return self._host._restore_call(StreamResult(self._id))
        finally:
            self.close()

    @property
    def received(self) -> str:
        return "".join(self._received)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                self._host._restore_call(CloseStream(self._id))
            except Exception:
                log.debug("closing restore stream %s", self._id, exc_info=True)
