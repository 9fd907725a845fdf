"""Small pieces of the HTTP transport: counting the items of a stream, a trace hook that
lets a cancel shut the socket, and reading Retry-After."""

from __future__ import annotations

import email.utils
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx


class Counted:
    """Iterator wrapper that counts the items that went through."""

    def __init__(self, items: Iterator[Any]):
        self._items = items
        self.count = 0

    def __iter__(self) -> Counted:
        return self

    def __next__(self) -> Any:
        item = next(self._items)
        self.count += 1
        return item


class StreamTracker:
    """httpx trace hook that remembers the connection's socket, so that cancelling can
    shut it down and wake a read that is blocked waiting for the server."""

    def __init__(self) -> None:
        self.network_stream = None
        self.response: httpx.Response | None = None

    def __call__(self, event: str, info: dict) -> None:
        if event in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            stream = info.get("return_value")
            if stream is not None:
                self.network_stream = stream

    def abort(self) -> None:
        stream = self.network_stream
        if self.response is not None:
            stream = self.response.extensions.get("network_stream", stream)
        if stream is None:
            return
        try:
            sock = stream.get_extra_info("socket")
            if sock is not None:
                sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def parse_retry_after(headers: httpx.Headers) -> float | None:
    """Seconds to wait from Retry-After (seconds or an HTTP date) or retry-after-ms."""
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())
