"""The HTTP side of the proxy: a Starlette app with the OpenAI routes.

    POST /v1/chat/completions   stream true (server-sent events, `data: [DONE]`) or false
    GET  /v1/models             the configured upstream model, then the upstream's list

Every request needs `Authorization: Bearer <token>` and a `Host` (and `Origin`, when a
browser sends one) that names this server. Engine, vault and upstream calls block, so
they run in worker threads; the event loop only moves bytes.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import threading
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from agent.serve.conversations import CONVERSATION_HEADER
from agent.serve.errors import wire_error_for
from agent.serve.proxy import ANSWER_COMPLETE, Exchange, PrivacyProxy
from agent.serve.wire import (
    SSE_DONE,
    WireError,
    decode_body,
    error_body,
    parse_chat_request,
    sse_event,
)

log = logging.getLogger("veil.serve")

MAX_BODY_BYTES = 8 * 1024 * 1024
# Sanitizing is CPU work under the GIL: a few threads are enough on any machine, more
# only add contention. Waiting for the upstream costs nothing: many threads may wait.
ENGINE_THREADS = 4
WAITING_THREADS = 512


class TokenGate:
    """ASGI middleware: 401 unless the request carries the bearer token (compared in
    constant time). Browsers get no CORS headers, so a web page cannot read answers."""

    def __init__(self, app: ASGIApp, token: str):
        if not token:
            raise ValueError("the proxy needs a token")
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                body = error_body("missing or wrong bearer token for the Veil proxy: use the token `veil serve` "
                                  "printed (also shown in Veil's settings) as the API key",
                                  type="invalid_request_error", code="invalid_api_key")
                response = JSONResponse(body, status_code=401, headers={"www-authenticate": "Bearer"})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class HostGate:
    """ASGI middleware against DNS rebinding: a web page on an attacker's domain that
    resolves to 127.0.0.1 reaches this port with its own name in `Host`; browsers also
    send `Origin`. Only the names of the bound address (and the loopback names, and any
    `extra_hosts`), with the bound port, are answered; anything else gets 403 before the
    token is even looked at. The port is set once the socket is bound (`bind`)."""

    def __init__(self, app: ASGIApp, host: str, extra_hosts: tuple[str, ...] = ()):
        self.app = app
        self.host = host.strip("[]").lower()
        self.extra = {h.strip("[]").lower() for h in extra_hosts}
        self.port: int | None = None

    def bind(self, port: int) -> None:
        self.port = port

    def allows(self, authority: str) -> bool:
        """True for `name[:port]` naming this server."""
        name, port = _split_authority(authority)
        if name is None or self.port is None or (port if port is not None else 80) != self.port:
            return False
        if name in self.extra or name == self.host or name == "localhost":
            return True
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            return False  # a DNS name that is not ours: the rebinding case
        if address.is_loopback:
            return True
        return self.host in ("0.0.0.0", "::")  # bound to every address: any address literal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            host = headers.get(b"host", b"").decode("latin-1")
            origin = headers.get(b"origin")
            refused = None
            if not self.allows(host):
                said = (f"the Veil proxy answers requests for {self.host}:{self.port} only, not for Host "
                        f"{host[:100]!r} (a web page on another domain must not reach it)")
                refused = (said, "forbidden_host")
            elif origin is not None and not self._origin_allowed(origin.decode("latin-1")):
                said = f"the Veil proxy does not answer web pages of other origins ({origin.decode('latin-1')[:100]!r})"
                refused = (said, "forbidden_origin")
            if refused is not None:
                body = error_body(refused[0], type="invalid_request_error", code=refused[1])
                await JSONResponse(body, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _origin_allowed(self, origin: str) -> bool:
        parts = urlsplit(origin)
        return parts.scheme == "http" and not parts.path and self.allows(parts.netloc)


def _split_authority(authority: str) -> tuple[str | None, int | None]:
    """("name", port) of a Host header value; (None, None) when it is not one."""
    authority = authority.strip().lower()
    if not authority or any(c in authority for c in "/?#@ \t"):
        return None, None
    if authority.startswith("["):
        end = authority.find("]")
        if end < 0:
            return None, None
        name, rest = authority[1:end], authority[end + 1 :]
    else:
        name, colon, port_text = authority.partition(":")
        rest = colon + port_text
    if not rest:
        return name, None
    if not rest.startswith(":") or not rest[1:].isdigit() or len(rest) > 6:
        return None, None
    return name, int(rest[1:])


def build_app(proxy: PrivacyProxy, token: str, *, host: str = "127.0.0.1",
              extra_hosts: tuple[str, ...] = ()) -> HostGate:
    engine_limiter = anyio.CapacityLimiter(ENGINE_THREADS)
    waiting_limiter = anyio.CapacityLimiter(WAITING_THREADS)

    async def in_thread(func, *args, limiter=waiting_limiter, abandon=False):
        return await anyio.to_thread.run_sync(func, *args, limiter=limiter, abandon_on_cancel=abandon)

    async def chat_completions(request: Request) -> Response:
        chat = parse_chat_request(await _read_json(request))
        exchange: Exchange = await in_thread(proxy.begin, chat, request.headers.get(CONVERSATION_HEADER),
                                             limiter=engine_limiter)
        headers = {CONVERSATION_HEADER: exchange.conversation_id}
        if not chat.stream:
            try:
                completion = await in_thread(exchange.completion, abandon=True)
            finally:
                exchange.cancel()  # nothing left to cancel when it finished; stops it when the client left
            return JSONResponse(completion, headers=headers)
        pump = _Pump(exchange, in_thread)
        # The first chunk is awaited before answering, so an upstream that fails at once
        # (bad key, 429, unknown model) gets a proper HTTP status instead of a broken stream.
        first, error = await pump.next()
        if error is not None:
            raise error
        return StreamingResponse(
            _events(pump, first),
            media_type="text/event-stream",
            headers={**headers, "cache-control": "no-cache", "x-accel-buffering": "no"},
        )

    async def models(request: Request) -> Response:
        names = await in_thread(proxy.models)
        return JSONResponse({"object": "list", "data": [
            {"id": name, "object": "model", "created": 0, "owned_by": proxy.upstream.kind} for name in names
        ]})

    async def not_found(request: Request) -> Response:
        raise WireError(404, f"the Veil proxy has no route {request.method} {request.url.path}; it serves "
                             "POST /v1/chat/completions and GET /v1/models", code="unknown_url")

    async def on_http_error(request: Request, exc: HTTPException) -> Response:
        return _error_response(WireError(exc.status_code, f"{exc.detail}: {request.method} {request.url.path}"))

    app = Starlette(
        routes=[
            Route("/v1/chat/completions", _answering_errors(chat_completions), methods=["POST"]),
            Route("/v1/models", _answering_errors(models), methods=["GET"]),
            Route("/{path:path}", _answering_errors(not_found), methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        ],
        exception_handlers={HTTPException: on_http_error},
    )
    return HostGate(TokenGate(app, token), host, extra_hosts)


def _answering_errors(endpoint):
    """Any failure of the endpoint as an OpenAI-style error response (here, rather than in
    Starlette's last-resort handler, which re-raises and drops the connection)."""

    async def wrapped(request: Request) -> Response:
        try:
            return await endpoint(request)
        except Exception as exc:
            error = wire_error_for(exc)
            if error.code == "internal_error":
                log.error("request failed", exc_info=exc)
            return _error_response(error)

    return wrapped


def _error_response(error: WireError) -> JSONResponse:
    return JSONResponse(error.body(), status_code=error.status, headers=error.headers)


async def _read_json(request: Request) -> Any:
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise WireError(413, f"request body over {MAX_BODY_BYTES // (1024 * 1024)} MB", code="request_too_large")
    body = bytearray()
    async for part in request.stream():
        body += part
        if len(body) > MAX_BODY_BYTES:
            raise WireError(413, f"request body over {MAX_BODY_BYTES // (1024 * 1024)} MB", code="request_too_large")
    return decode_body(bytes(body))


_END = object()


class _Pump:
    """Pulls restored chunks from an exchange in worker threads, one at a time."""

    def __init__(self, exchange: Exchange, in_thread):
        self.exchange = exchange
        self.chunks = exchange.chunks()
        self.in_thread = in_thread
        self.lock = threading.Lock()  # held while a worker thread runs the generator

    def _step(self) -> Any:
        with self.lock:
            return next(self.chunks, _END)

    async def next(self) -> tuple[Any, BaseException | None]:
        """The next chunk (or _END), or the error that ended the stream. A client that
        goes away while this waits cancels the upstream request at once."""
        try:
            return await self.in_thread(self._step, abandon=True), None
        except anyio.get_cancelled_exc_class():
            self.exchange.cancel()
            raise
        except Exception as exc:
            return None, exc

    def _close(self) -> None:
        with self.lock:  # a step still running ends soon: the upstream request was cancelled
            self.chunks.close()  # records the answer as cancelled, if it had not ended

    async def close(self) -> None:
        self.exchange.cancel()
        with anyio.CancelScope(shield=True):
            await self.in_thread(self._close)


async def _events(pump: _Pump, first: Any) -> AsyncIterator[bytes]:
    item = first
    try:
        while item is not _END:
            if item is ANSWER_COMPLETE:
                yield SSE_DONE
            else:
                yield sse_event(item)
            item, error = await pump.next()
            if error is not None:
                # Mid-stream the status line is long sent: OpenAI's way is an error event,
                # which the OpenAI SDKs raise as an APIError.
                yield sse_event(wire_error_for(error).body())
                return
    finally:
        if item is not _END:
            await pump.close()  # the client left, or the upstream failed
