"""Run a provider's blocking work (network reads, llama.cpp generation) in a worker
thread, so that cancelling is immediate for the caller wherever the work is blocked:
connecting, waiting for the first byte, between two chunks, or sleeping before a retry.

The worker gets its own CancelToken (`stop`), set when the caller cancels or stops
iterating. Producers check it between items and register abort callbacks on it (for
instance to shut a socket down), so the worker also ends soon after.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from agent.providers.base import CancelToken, ChatStream
from agent.providers.errors import Cancelled, StreamInterrupted

T = TypeVar("T")

# How often a plain threading.Event (which cannot call us back) is polled.
_POLL_S = 0.05


@dataclass
class StreamMeta:
    """Not text: what a producer learned about the answer (why it stopped, token usage)."""

    finish_reason: str = ""
    usage: dict[str, int] = field(default_factory=dict)


_END = object()
_CANCELLED = object()


def _relay(produce: Callable[[CancelToken], Iterator[Any]], cancel: threading.Event | None, name: str, stop: CancelToken) -> Iterator[Any]:
    """Items of `produce(stop)` (run in a worker thread) as they come; raises what it raises.

    Raises Cancelled as soon as `cancel` is set (the worker is told to stop, and is not
    waited for). Closing this generator also stops the worker."""
    items: queue.SimpleQueue = queue.SimpleQueue()
    unregister: Callable[[], None] = lambda: None
    poll = None
    if isinstance(cancel, CancelToken):

        def on_cancel() -> None:
            stop.set()
            items.put((_CANCELLED, None))

        unregister = cancel.on_cancel(on_cancel)
    elif cancel is not None:
        poll = _POLL_S

    def work() -> None:
        produced = None
        try:
            produced = produce(stop)
            for item in produced:
                if stop.is_set():
                    return
                items.put((item, None))
            items.put((_END, None))
        except BaseException as exc:  # handed to the consumer and raised there
            items.put((None, exc))
        finally:
            close = getattr(produced, "close", None)
            if close is not None:
                try:
                    close()  # leaves the producer's `with` blocks: the response is closed
                except Exception:
                    pass

    threading.Thread(target=work, name=f"veil-{name}", daemon=True).start()
    try:
        while True:
            if cancel is not None and cancel.is_set():
                raise Cancelled()
            try:
                item, error = items.get(timeout=poll)
            except queue.Empty:
                continue
            if item is _CANCELLED or (cancel is not None and cancel.is_set()):
                raise Cancelled()
            if error is not None:
                raise error
            if item is _END:
                return
            yield item
    finally:
        stop.set()
        unregister()


def threaded_stream(
    produce: Callable[[CancelToken], Iterator[str | StreamMeta]],
    cancel: threading.Event | None,
    *,
    name: str,
) -> ChatStream:
    """A ChatStream whose text comes from `produce(stop)` running in a worker thread."""
    stop = CancelToken()
    stream: ChatStream

    def chunks() -> Iterator[str]:
        try:
            for item in _relay(produce, cancel, name, stop):
                if isinstance(item, StreamMeta):
                    if item.finish_reason:
                        stream.finish_reason = item.finish_reason
                    stream.usage.update(item.usage)
                elif item:
                    yield item
        except (Cancelled, StreamInterrupted) as exc:
            # The partial text is what the caller has already shown: keep it on the error.
            if not exc.partial:
                exc.partial = stream.text
            raise

    generator = chunks()

    def close() -> None:
        stop.set()
        generator.close()

    stream = ChatStream(generator, close=close)
    return stream


def threaded_call(call: Callable[[CancelToken], T], cancel: threading.Event | None, *, name: str) -> T:
    """`call(stop)` in a worker thread; returns its result, or raises Cancelled at once."""
    stop = CancelToken()
    for result in _relay(lambda s: iter([call(s)]), cancel, name, stop):
        return result
    raise Cancelled()  # the worker was stopped before it produced anything
