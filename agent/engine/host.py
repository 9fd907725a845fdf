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

Restoring has its own channel (and thread) in the child, so an answer streams while a
big preview is being sanitized. Restoring also needs the name lexicon (building it holds
the GIL for ~0.3 s and costs memory): that too stays out of the app's process.

The child gets the conversation's whole state (seed, map, choices) with each call and
returns the new map entries it made; the engine is deterministic given that state, so
replaying them here gives the same conversation the child saw. Where a child process
cannot be started, the same calls run in this process (`isolated` is then False).
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agent.config import Settings
from agent.session.conversation import Conversation, EntityChoice, MapEntry
from agent.entities import Action, RestoreResult, SanitizeResult

if TYPE_CHECKING:
    from agent.restore.restorer import RestoredChunk

log = logging.getLogger("veil.engine_host")

START_TIMEOUT_S = 180.0  # loading spaCy on a busy 2-core machine can take a while


class EngineUnavailable(RuntimeError):
    """The engine could not be started (the message says why)."""


@dataclass(frozen=True, slots=True)
class ConversationState:
    """What the engine needs of a conversation: picklable, and enough to rebuild it."""

    id: str
    seed: int
    entries: tuple[MapEntry, ...]
    choices: tuple[EntityChoice, ...]

    @classmethod
    def of(cls, conversation: Conversation) -> ConversationState:
        return cls(conversation.id, conversation.seed, tuple(conversation.entries), tuple(conversation.choices))

    def build(self) -> Conversation:
        return Conversation(self.id, seed=self.seed, entries=self.entries, choices=self.choices)


@dataclass(slots=True)
class DryRun:
    """A sanitize that has not touched the conversation yet: the result to show, and the
    map entries to add if it is sent (`EngineHost.commit`)."""

    result: SanitizeResult
    new_entries: list[MapEntry]
    conversation_id: str
    base_entries: int  # the conversation's map size it was computed against
    overrides: dict[str, Action] = field(default_factory=dict)
    seconds: float = 0.0
    # The conversation's map revision it was computed against: the map may change without
    # growing (entries another process stored replace ones that could not be stored).
    base_revision: int | None = None


def apply_entries(conversation: Conversation, entries: list[MapEntry]) -> None:
    """Replay map entries made on a copy of this conversation, in order.

    An entry whose real value is already mapped with the same action is a spelling
    variant of it (Conversation.add_variant: "MITCHELL" next to "Mitchell"); anything else
    is a new mapping (add_entry)."""
    for entry in entries:
        existing = conversation.lookup_real(entry.real, entry.action)
        if existing is None:
            conversation.add_entry(entry)
            continue
        if existing.real == entry.real and existing.stand_in == entry.stand_in:
            continue  # already there
        base = MapEntry(entry.parent or existing.real, existing.stand_in, entry.label, entry.action)
        conversation.add_variant(base, entry.real, entry.stand_in)


class _Worker:
    """The engine side of the calls: the same code runs in the child and in-process."""

    def __init__(self, settings: Settings):
        from agent.engine.core import build_engine

        self.engine = build_engine(settings)

    def warm_up(self) -> None:
        self.engine.warm_up()

    def sanitize(
        self, state: ConversationState, text: str, overrides: Mapping[str, Action] | None
    ) -> tuple[SanitizeResult, list[MapEntry]]:
        conversation = state.build()
        result = self.engine.sanitize(text, conversation, overrides)
        return result, conversation.take_unsaved()

    def restore(self, state: ConversationState, text: str) -> RestoreResult:
        return self.engine.restore(text, state.build())


class _Streams:
    """Streaming restorers by id (one per answer being received)."""

    def __init__(self) -> None:
        self._open: dict[int, Any] = {}

    def open(self, worker: _Worker, stream_id: int, state: ConversationState) -> None:
        if len(self._open) > 256:  # abandoned streams (an app that crashed mid-answer)
            self._open.clear()
        self._open[stream_id] = worker.engine.streaming_restorer(state.build())

    def feed(self, stream_id: int, chunk: str):
        return self._open[stream_id].feed(chunk)

    def finish(self, stream_id: int):
        return self._open[stream_id].finish()

    def result(self, stream_id: int) -> RestoreResult:
        return self._open[stream_id].result()

    def close(self, stream_id: int) -> None:
        self._open.pop(stream_id, None)


def _serve(conn, holder: dict, streams: _Streams | None) -> None:
    """Answer (op, args) requests on one connection until told to stop or orphaned."""
    while True:
        try:
            op, args = conn.recv()
        except (EOFError, OSError):
            return  # the app went away
        if op == "stop":
            return
        try:
            if op == "configure":
                worker = _Worker(args[0])
                worker.warm_up()
                holder["worker"] = worker
                out: Any = None
            elif op == "ping":
                out = "pong"
            elif op.startswith("stream_") and streams is not None:
                name = op.removeprefix("stream_")
                out = streams.open(holder["worker"], *args) if name == "open" else getattr(streams, name)(*args)
            else:
                out = getattr(holder["worker"], op)(*args)
            conn.send(("ok", out))
        except BaseException as exc:
            conn.send(("error", _portable(exc)))


def _child_main(conn, restore_conn, settings: Settings) -> None:
    """The helper process: sanitize requests on `conn` (this thread), restore requests on
    `restore_conn` (a second thread), until told to stop or orphaned."""
    logging.basicConfig(level=logging.WARNING, format="veil engine: %(message)s")
    try:
        worker = _Worker(settings)
        worker.warm_up()
        worker.engine.restore("warm-up", Conversation("warm-up"))  # builds the name lexicon now
    except BaseException as exc:  # reported to the parent, which falls back or says why
        conn.send(("error", _portable(exc)))
        return
    holder = {"worker": worker}
    threading.Thread(target=_serve, args=(restore_conn, holder, _Streams()), name="restore", daemon=True).start()
    conn.send(("ready", None))
    _serve(conn, holder, None)


def _portable(exc: BaseException) -> BaseException:
    """The exception itself when it survives pickling, else a RuntimeError with its text."""
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")


class EngineHost:
    """The Engine interface the pipeline needs (sanitize, restore, streaming_restorer,
    warm_up), served by a helper process. Thread-safe: calls are serialized."""

    def __init__(self, settings: Settings, *, isolated: bool = True, start: bool = True):
        self.settings = settings
        self._want_isolated = isolated
        self._lock = threading.Lock()  # one request on the pipe at a time
        self._state_lock = threading.Lock()
        self._ready = threading.Event()
        self._conn = None
        self._restore_conn = None
        self._restore_channel_lock = threading.Lock()  # restore requests have their own pipe
        self._stream_ids = itertools.count(1)
        self._process = None
        self._local: _Worker | None = None
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
        process = context.Process(target=_child_main, args=(child, restore_child, self.settings),
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
        worker = _Worker(self.settings)
        worker.warm_up()
        self._local = worker

    def reconfigure(self, settings: Settings) -> None:
        """Use new settings (policy, lists, detectors). Blocks until reloaded."""
        self.warm_up()
        with self._lock:
            self.settings = settings
            if self._local is not None:
                worker = _Worker(settings)
                worker.warm_up()
                self._local = worker
            else:
                self._call_locked("configure", (settings,))

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
                channel.send(("stop", ()))
            except (OSError, ValueError):
                pass
            channel.close()
        if process is not None:
            process.join(timeout=3)
            if process.is_alive():
                process.terminate()
                process.join(timeout=3)

    # -- the calls -------------------------------------------------------------------------------
    def _call(self, op: str, *args: Any) -> Any:
        self.warm_up()
        with self._lock:
            return self._call_locked(op, args)

    def _call_locked(self, op: str, args: tuple) -> Any:
        if self._local is not None:
            return getattr(self._local, op)(*args)
        assert self._conn is not None
        try:
            self._conn.send((op, args))
            kind, value = self._conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            self._child_died()
            return getattr(self._local, op)(*args)
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

    def _restore_call(self, op: str, *args: Any) -> Any:
        """A request on the restore channel (never queued behind a long sanitize)."""
        self.warm_up()
        with self._restore_channel_lock:
            conn = self._restore_conn
            if conn is not None:
                try:
                    conn.send((op, args))
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

    def dry_run(
        self, text: str, conversation: Conversation, overrides: Mapping[str, Action] | None = None
    ) -> DryRun:
        """What sanitize would give, without changing the conversation (for previews)."""
        revision = conversation.revision  # read first: a change after it only makes commit refuse
        state = ConversationState.of(conversation)
        began = time.perf_counter()
        result, entries = self._call("sanitize", state, text, dict(overrides or {}))
        return DryRun(result, entries, conversation.id, len(state.entries), dict(overrides or {}),
                      time.perf_counter() - began, revision)

    def commit(self, conversation: Conversation, draft: DryRun) -> bool:
        """Add a dry run's map entries to the conversation. False (nothing added) when the
        conversation changed since, so the caller sanitizes again."""
        if draft.conversation_id != conversation.id or len(conversation.entries) != draft.base_entries:
            return False
        if draft.base_revision is not None and conversation.revision != draft.base_revision:
            return False
        apply_entries(conversation, draft.new_entries)
        return True

    def sanitize(
        self, text: str, conversation: Conversation, overrides: Mapping[str, Action] | None = None
    ) -> SanitizeResult:
        """Engine.sanitize: the new map entries are added to the conversation."""
        draft = self.dry_run(text, conversation, overrides)
        if not self.commit(conversation, draft):  # changed meanwhile (another thread): redo
            draft = self.dry_run(text, conversation, overrides)
            apply_entries(conversation, draft.new_entries)
        return draft.result

    def restore(self, text: str, conversation: Conversation) -> RestoreResult:
        state = ConversationState.of(conversation)
        if self._local is not None or not self._want_isolated:
            return self._call("restore", state, text)
        return self._restore_call("restore", state, text)

    def streaming_restorer(self, conversation: Conversation):
        """A StreamingRestorer (feed, finish, result, received) served by the child."""
        self.warm_up()
        if self._local is not None:
            return self._local.engine.streaming_restorer(conversation)
        stream_id = next(self._stream_ids)
        self._restore_call("stream_open", stream_id, ConversationState.of(conversation))
        return RemoteStreamingRestorer(self, stream_id)

    def ping(self) -> bool:
        return self._call("ping") == "pong"


class RemoteStreamingRestorer:
    """agent.restore.restorer.StreamingRestorer's interface, one round trip per chunk (~0.1 ms)."""

    def __init__(self, host: EngineHost, stream_id: int):
        self._host = host
        self._id = stream_id
        self._received: list[str] = []
        self._closed = False

    def feed(self, chunk: str) -> RestoredChunk:
        self._received.append(chunk)
        return self._host._restore_call("stream_feed", self._id, chunk)

    def finish(self) -> RestoredChunk:
        return self._host._restore_call("stream_finish", self._id)

    def result(self) -> RestoreResult:
        try:
            return self._host._restore_call("stream_result", self._id)
        finally:
            self.close()

    @property
    def received(self) -> str:
        return "".join(self._received)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                self._host._restore_call("stream_close", self._id)
            except Exception:
                log.debug("closing restore stream %s", self._id, exc_info=True)
