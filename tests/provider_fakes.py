"""Small real HTTP servers on 127.0.0.1 that speak the documented wire formats of the
OpenAI Chat Completions, Anthropic Messages and Gemini generateContent APIs, streaming
included, and that can misbehave on request: 401, 429 with Retry-After, 500, a slow
first byte, slow chunks, a stream cut in half, an error event inside a stream.

Every request is recorded (path, headers, raw body, JSON), so tests can assert what
reached the "provider", in particular that no real value from the user's text did.

    with FakeProvider("anthropic", key="sk-ant-test") as server:
        server.plan(Fail(429, retry_after=1), Reply("Hello"))
        ... AnthropicProvider(ProviderConfig("anthropic", base_url=server.base_url, ...)) ...
        server.requests[0].json
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit


@dataclass
class Reply:
    """A successful answer. text=None echoes the last user message ("You wrote: ...")."""

    text: str | Callable[[dict], str] | None = None
    chunk_size: int = 4  # characters per streamed chunk: stand-ins get split across chunks
    first_byte_delay: float = 0.0  # before the status line
    chunk_delay: float = 0.0  # between chunks
    cut_after: int | None = None  # drop the connection after this many text chunks
    end_early_after: int | None = None  # end the body cleanly, without the final event
    error_event_after: int | None = None  # send the dialect's in-stream error after N chunks
    error_event_type: str = "overloaded_error"
    empty_stream: bool = False  # 200 with no events (llama-cpp-python's way to fail a stream)


@dataclass
class Fail:
    """An HTTP error in the dialect's own error format."""

    status: int
    message: str = ""
    retry_after: str | float | None = None
    headers: dict[str, str] = field(default_factory=dict)
    echo_auth: bool = False  # put the credential the client sent into the error message
    first_byte_delay: float = 0.0
    raw: bytes | None = None  # a body sent as it is instead (e.g. a proxy's HTML error page)
    content_type: str = "text/html; charset=utf-8"  # of `raw`


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    at: float = field(default_factory=time.perf_counter)  # when the request line arrived

    @property
    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


def last_user_text(dialect: str, body: dict) -> str:
    if dialect == "gemini":
        return "".join(p.get("text", "") for p in body["contents"][-1]["parts"])
    return body["messages"][-1]["content"]


class FakeProvider:
    def __init__(self, dialect: str, *, key: str | None = None):
        assert dialect in ("openai", "anthropic", "gemini")
        self.dialect = dialect
        self.key = key  # when set, requests without it get a 401
        self.requests: list[RecordedRequest] = []
        self._plan: list[Reply | Fail] = []
        self._lock = threading.Lock()
        self.released = threading.Event()  # wakes handlers that sleep, at shutdown
        self.connections_dropped = 0
        handler = type("Handler", (_Handler,), {"fake": self})
        self.server = _QuietServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.server.block_on_close = False
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        root = f"http://127.0.0.1:{self.port}"
        return {"openai": f"{root}/v1", "anthropic": root, "gemini": f"{root}/v1beta"}[self.dialect]

    def plan(self, *steps: Reply | Fail) -> None:
        """What the next requests get, in order; after the plan runs out: Reply()."""
        with self._lock:
            self._plan.extend(steps)

    def next_step(self) -> Reply | Fail:
        with self._lock:
            return self._plan.pop(0) if self._plan else Reply()

    def start(self) -> FakeProvider:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> FakeProvider:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def all_bodies(self) -> str:
        return "\n".join(r.text for r in self.requests)

    def sleep(self, seconds: float) -> None:
        if seconds:
            self.released.wait(seconds)


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # dropped connections are the point of some tests


class _Handler(BaseHTTPRequestHandler):
    fake: FakeProvider
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    def do_GET(self) -> None:
        """The model list (GET .../models), behind the same key check and plan."""
        self._record(b"")
        step = self.fake.next_step()
        credential = self._credential()
        if isinstance(step, Fail):
            self._fail(step, credential)
        elif self.fake.key is not None and credential != self.fake.key:
            self._fail(Fail(401, "invalid api key"), credential)
        elif "/models" not in urlsplit(self.path).path:
            self._send_json(404, _error_body(self.fake.dialect, 404, "not found"))
        elif self.fake.dialect == "gemini":
            self._send_json(200, {"models": [
                {"name": "models/gemini-test", "supportedGenerationMethods": ["generateContent", "countTokens"]},
                {"name": "models/embedding-test", "supportedGenerationMethods": ["embedContent"]},
            ]})
        else:
            self._send_json(200, {"object": "list", "data": [{"id": "model-b", "object": "model"}, {"id": "model-a", "object": "model"}]})

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length)
        request = self._record(body)
        fake = self.fake
        step = fake.next_step()
        fake.sleep(step.first_byte_delay)
        credential = self._credential()
        if isinstance(step, Fail):
            self._fail(step, credential)
            return
        if fake.key is not None and credential != fake.key:
            self._fail(Fail(401, "invalid api key"), credential)
            return
        data = request.json or {}
        if fake.dialect == "anthropic" and not self.headers.get("anthropic-version"):
            self._fail(Fail(400, "anthropic-version header is required"), credential)
            return
        text = step.text
        if text is None:
            text = f"You wrote: {last_user_text(fake.dialect, data)}"
        elif callable(text):
            text = text(data)
        path = urlsplit(self.path)
        streaming = data.get("stream") is True if fake.dialect != "gemini" else ":streamGenerateContent" in path.path
        if not streaming:
            self._send_json(200, _whole_answer(fake.dialect, text))
            return
        chunks = [text[i : i + step.chunk_size] for i in range(0, len(text), step.chunk_size)] or [""]
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        if step.empty_stream:
            self._write_chunk(b"")
            return
        try:
            for event in _opening_events(fake.dialect):
                self._write_chunk(event)
            for n, chunk in enumerate(chunks):
                if step.cut_after is not None and n == step.cut_after:
                    self._drop_connection()
                    return
                if step.end_early_after is not None and n == step.end_early_after:
                    self._write_chunk(b"")
                    return
                if step.error_event_after is not None and n == step.error_event_after:
                    self._write_chunk(_error_event(fake.dialect, step.error_event_type))
                    self._write_chunk(b"")
                    return
                fake.sleep(step.chunk_delay)
                self._write_chunk(_delta_event(fake.dialect, chunk))
            for event in _closing_events(fake.dialect, len(chunks)):
                self._write_chunk(event)
            self._write_chunk(b"")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away (cancelled): fine

    # -- helpers -------------------------------------------------------------------------
    def _record(self, body: bytes) -> RecordedRequest:
        request = RecordedRequest(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        with self.fake._lock:
            self.fake.requests.append(request)
        return request

    def _credential(self) -> str | None:
        if self.fake.dialect == "openai":
            auth = self.headers.get("authorization", "")
            return auth.removeprefix("Bearer ") if auth else None
        if self.fake.dialect == "anthropic":
            return self.headers.get("x-api-key")
        return self.headers.get("x-goog-api-key")

    def _fail(self, step: Fail, credential: str | None) -> None:
        message = step.message or {401: "invalid api key", 429: "rate limited", 500: "internal error"}.get(step.status, "error")
        if step.echo_auth and credential:
            # What real providers do, in a few shapes: the whole key, and a masked fragment.
            message = f"{message}: {credential} (you sent {credential[:6]}***{credential[-4:]})"
        headers = dict(step.headers)
        if step.retry_after is not None:
            headers["retry-after"] = str(step.retry_after)
        if step.raw is not None:
            self.send_response(step.status)
            self.send_header("content-type", step.content_type)
            self.send_header("content-length", str(len(step.raw)))
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(step.raw)
            return
        self._send_json(step.status, _error_body(self.fake.dialect, step.status, message), headers)

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def _drop_connection(self) -> None:
        self.wfile.flush()
        self.fake.connections_dropped += 1
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _sse(data: Any, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data)}\n\n".encode()


def _opening_events(dialect: str) -> list[bytes]:
    if dialect == "openai":
        return [_sse({"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]})]
    if dialect == "anthropic":
        return [
            _sse({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "claude-test", "stop_reason": None, "usage": {"input_tokens": 12, "output_tokens": 1}}}, "message_start"),
            _sse({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}, "content_block_start"),
            _sse({"type": "ping"}, "ping"),
        ]
    return []


def _delta_event(dialect: str, chunk: str) -> bytes:
    if dialect == "openai":
        return _sse({"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": chunk}, "finish_reason": None}]})
    if dialect == "anthropic":
        return _sse({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": chunk}}, "content_block_delta")
    return (
        "data: " + json.dumps({"candidates": [{"content": {"parts": [{"text": chunk}], "role": "model"}, "index": 0}]}) + "\r\n\r\n"
    ).encode()


def _closing_events(dialect: str, n_chunks: int) -> list[bytes]:
    if dialect == "openai":
        return [
            _sse({"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
            b"data: [DONE]\n\n",
        ]
    if dialect == "anthropic":
        return [
            _sse({"type": "content_block_stop", "index": 0}, "content_block_stop"),
            _sse({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": {"output_tokens": n_chunks}}, "message_delta"),
            _sse({"type": "message_stop"}, "message_stop"),
        ]
    return [
        (
            "data: " + json.dumps({"candidates": [{"content": {"parts": [{"text": ""}], "role": "model"}, "finishReason": "STOP", "index": 0}], "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": n_chunks, "totalTokenCount": 12 + n_chunks}}) + "\r\n\r\n"
        ).encode()
    ]


def _error_event(dialect: str, error_type: str) -> bytes:
    if dialect == "anthropic":
        return _sse({"type": "error", "error": {"type": error_type, "message": "Overloaded"}}, "error")
    if dialect == "openai":
        return _sse({"error": {"message": "The server had an error while processing your request.", "type": "server_error", "code": 500}})
    return ("data: " + json.dumps({"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}) + "\r\n\r\n").encode()


def _whole_answer(dialect: str, text: str) -> dict:
    if dialect == "openai":
        return {"id": "chatcmpl-1", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}}
    if dialect == "anthropic":
        return {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test", "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "usage": {"input_tokens": 12, "output_tokens": 5}}
    return {"candidates": [{"content": {"parts": [{"text": text}], "role": "model"}, "finishReason": "STOP", "index": 0}], "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 5, "totalTokenCount": 17}}


def _error_body(dialect: str, status: int, message: str) -> dict:
    if dialect == "anthropic":
        kind = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error", 429: "rate_limit_error", 529: "overloaded_error"}.get(status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    if dialect == "gemini":
        status_name = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 503: "UNAVAILABLE"}.get(status, "INTERNAL")
        error: dict[str, Any] = {"code": status, "message": message, "status": status_name}
        if status == 400 and "key" in message.lower():
            error["details"] = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID", "domain": "googleapis.com"}]
        return {"error": error}
    kind = {401: "invalid_request_error", 429: "rate_limit_exceeded"}.get(status, "server_error" if status >= 500 else "invalid_request_error")
    return {"error": {"message": message, "type": kind, "param": None, "code": kind if status == 429 else None}}


def wait_until(predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()
