"""Helpers for the proxy tests (tests/test_serve_*.py).

ScriptedOpenAI: a recording OpenAI-compatible upstream on 127.0.0.1 whose answer a test
writes as a function of the request body; it streams content and tool-call arguments in
small pieces (so stand-ins get split across chunks), like real servers do.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from provider_fakes import RecordedRequest, wait_until

REPO = Path(__file__).resolve().parent.parent

PIECE = 5  # characters per streamed piece


def mentions(text: str, value: str) -> bool:
    """`value` in `text` as a word of its own, any case. ("Gupta" is not in "Sengupta": a
    stand-in surname may contain a real one, and that is another name, not a leak.)"""
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.IGNORECASE) is not None


def last_user(body: dict) -> str:
    return next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")


class ScriptedOpenAI:
    """answer(body) -> {"content": str | None, "tool_calls": [{"id", "name", "arguments"}], ...}
    Other string fields of the answer (e.g. "reasoning_content") go into the message and
    are streamed in pieces like content."""

    def __init__(self, answer: Callable[[dict], dict]):
        self.answer = answer
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                with fake._lock:
                    fake.requests.append(RecordedRequest("POST", self.path, dict(self.headers), body))
                data = json.loads(body)
                message = fake.answer(data)
                if data.get("stream"):
                    self._stream(message)
                else:
                    self._json(_completion(message))

            def _json(self, payload: Any) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def _stream(self, message: dict) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("transfer-encoding", "chunked")
                self.end_headers()
                for event in _chunks(message):
                    data = b"data: " + json.dumps(event).encode() + b"\n\n"
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                done = b"data: [DONE]\n\n"
                self.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(done), done))
                self.wfile.flush()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def all_bodies(self) -> str:
        """Every request body as text, with non-ASCII written as itself (not \\u escapes)."""
        return "\n".join(json.dumps(r.json, ensure_ascii=False) for r in self.requests)

    def __enter__(self) -> ScriptedOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def _tool_calls(message: dict) -> list[dict]:
    return [{"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for c in message.get("tool_calls") or []]


def _extra_fields(message: dict) -> dict[str, str]:
    return {k: v for k, v in message.items() if k not in ("content", "tool_calls") and isinstance(v, str)}


def _completion(message: dict) -> dict:
    out: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
    out.update(_extra_fields(message))
    if message.get("tool_calls"):
        out["tool_calls"] = _tool_calls(message)
    return {"id": "chatcmpl-up", "object": "chat.completion", "created": 1, "model": "scripted",
            "choices": [{"index": 0, "message": out, "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}}


def _chunks(message: dict) -> list[dict]:
    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {"id": "chatcmpl-up", "object": "chat.completion.chunk", "created": 1, "model": "scripted",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    events = [chunk({"role": "assistant", "content": ""})]
    for name, text in _extra_fields(message).items():
        events += [chunk({name: text[i : i + PIECE]}) for i in range(0, len(text), PIECE)]
    content = message.get("content") or ""
    events += [chunk({"content": content[i : i + PIECE]}) for i in range(0, len(content), PIECE)]
    for index, call in enumerate(message.get("tool_calls") or []):
        events.append(chunk({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                             "function": {"name": call["name"], "arguments": ""}}]}))
        args = call["arguments"]
        events += [chunk({"tool_calls": [{"index": index, "function": {"arguments": args[i : i + PIECE]}}]})
                   for i in range(0, len(args), PIECE)]
    events.append(chunk({}, "tool_calls" if message.get("tool_calls") else "stop"))
    return events


# -- `veil serve` as a real process ------------------------------------------------------------------
def start_veil_serve(home: Path, upstream_url: str, *extra: str, key: str) -> tuple[subprocess.Popen, str, str]:
    """Start `veil serve` (VEIL_HOME=home, passphrase vault, no keyring) in front of an
    OpenAI-compatible upstream; returns (process, base URL, token) once it listens."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VEIL_")}
    env.update(VEIL_HOME=str(home), VEIL_PASSPHRASE="serve cli tests", VEIL_API_KEY=key,
               PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
    command = [sys.executable, "-c", "import sys; from agent.cli import main; sys.exit(main(sys.argv[1:]))",
               "serve", "--provider", "openai", "--base-url", upstream_url, "--model", "up-model", "--port", "0", *extra]
    with open(home / "veil-serve.log", "ab") as log:  # a file, not a pipe: a full pipe would block the server
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=log, text=True)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(process.stdout.readline, "")), daemon=True).start()
    wait_until(lambda: any("token" in line for line in lines) or process.poll() is not None, timeout=90)
    output = "".join(lines)
    if process.poll() is not None or "token" not in output:
        process.kill()
        raise AssertionError(f"veil serve did not start: {output}{(home / 'veil-serve.log').read_text()}")
    url = re.search(r"serving on (http://127\.0\.0\.1:\d+/v1)", output).group(1)
    token = re.search(r"API key\): (\S+)", output).group(1)
    return process, url, token


def stop_veil_serve(process: subprocess.Popen, sig: int = signal.SIGINT) -> int:
    process.send_signal(sig)
    try:
        return process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        raise


# -- every byte the upstream receives --------------------------------------------------------------
class ByteTap:
    """A TCP relay on 127.0.0.1 in front of an upstream: it records every byte the proxy
    sends (request lines, headers, bodies, on every connection) before passing it on, and
    passes the answers back untouched. Point the proxy at `base_url`.

        with ScriptedOpenAI(answer) as upstream, ByteTap(upstream.base_url) as tap:
            ... proxy -> tap.base_url ...
            tap.received()          # all bytes sent upstream, in order of arrival
    """

    def __init__(self, upstream_base_url: str):
        import socket
        from urllib.parse import urlsplit

        target = urlsplit(upstream_base_url)
        self._target = (target.hostname, target.port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        port = self._listener.getsockname()[1]
        self.base_url = f"{target.scheme}://127.0.0.1:{port}{target.path}"
        self._bytes = bytearray()
        self._lock = threading.Lock()
        self._open: list = []
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def received(self) -> bytes:
        with self._lock:
            return bytes(self._bytes)

    def _accept(self) -> None:
        import socket

        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self._target)
            self._open += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, False), daemon=True).start()

    def _pipe(self, source, target, record: bool) -> None:
        import socket

        try:
            while data := source.recv(65536):
                if record:
                    with self._lock:
                        self._bytes += data
                target.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, target):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def __enter__(self) -> ByteTap:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._listener.close()
        for sock in self._open:
            sock.close()


def leaked(raw: bytes, values) -> list[str]:
    """The values found in raw bytes, in any of the forms JSON or HTTP could carry them:
    as UTF-8, JSON-escaped (\\u00fd), any case."""
    text = raw.decode("utf-8", "replace")
    found = []
    for value in values:
        forms = {value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
        if any(form.casefold() in text.casefold() for form in forms):
            found.append(value)
    return found
