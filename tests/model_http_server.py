"""A small HTTP file server on 127.0.0.1 (free port) for the downloader tests.

Routes (each serves `blob`, a few MB of random bytes):
  /file          200 / 206 with Range support
  /drop          like /file, but the first `drops` responses stop mid-body
  /wrong         serves other bytes than `blob`
  /missing       404
  /always416     416 to every Range request (Content-Range: bytes */size)
  /norange       ignores Range: always 200 with the whole file
  /resolve       302 to /cdn with X-Linked-Etag = `etag` (Hugging Face style)
  /cdn           like /file, no checksum header
  /busy          503 with Retry-After: 0 for the first `busy` requests, then like /file
Every request is recorded (path, Range header) in `requests`.
"""

from __future__ import annotations

import hashlib
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self


class FileServer:
    def __init__(self, size: int = 3 * 1024 * 1024 + 123):
        self.blob = os.urandom(size)
        self.other = os.urandom(size)
        self.sha256 = hashlib.sha256(self.blob).hexdigest()
        self.etag = self.sha256
        self.drops = 1
        self.drop_after = 1024 * 1024 + 7
        self.busy = 0
        self.requests: list[tuple[str, str | None]] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output clean
                pass

            def do_GET(self):
                server._handle(self)

        class QuietServer(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass  # clients that hang up early (cancel, size check) are expected here

        self.httpd = QuietServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def ranges(self, path: str) -> list[str | None]:
        return [r for p, r in self.requests if p == path]

    # -- routes ------------------------------------------------------------------------
    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        path = h.path.split("?")[0]
        rng = h.headers.get("Range")
        with self._lock:
            self.requests.append((path, rng))
        if path == "/missing":
            return self._simple(h, 404, b"not found")
        if path == "/resolve":
            h.send_response(302)
            h.send_header("Location", "/cdn")
            h.send_header("X-Linked-Etag", f'"{self.etag}"')
            h.send_header("X-Linked-Size", str(len(self.blob)))
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        if path == "/always416" and rng:
            h.send_response(416)
            h.send_header("Content-Range", f"bytes */{len(self.blob)}")
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        if path == "/busy":
            with self._lock:
                busy = self.busy > 0
                self.busy -= 1
            if busy:
                h.send_response(503)
                h.send_header("Retry-After", "0")
                h.send_header("Content-Length", "0")
                h.end_headers()
                return
        data = self.other if path == "/wrong" else self.blob
        drop = False
        if path == "/drop":
            with self._lock:
                drop = self.drops > 0
                self.drops -= 1
        honour_range = path != "/norange"
        self._serve(h, data, rng if honour_range else None, drop)

    def _simple(self, h: BaseHTTPRequestHandler, status: int, body: bytes) -> None:
        h.send_response(status)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    def _serve(self, h: BaseHTTPRequestHandler, data: bytes, rng: str | None, drop: bool) -> None:
        start = 0
        if rng and rng.startswith("bytes="):
            start = int(rng[len("bytes=") :].split("-")[0])
            if start >= len(data):
                h.send_response(416)
                h.send_header("Content-Range", f"bytes */{len(data)}")
                h.send_header("Content-Length", "0")
                h.end_headers()
                return
            h.send_response(206)
            h.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            h.send_response(200)
        body = data[start:]
        h.send_header("Content-Length", str(len(body)))
        h.send_header("Accept-Ranges", "bytes")
        h.end_headers()
        if drop:
            h.wfile.write(body[: self.drop_after])
            h.wfile.flush()
            h.close_connection = True
            h.connection.shutdown(2)  # the peer sees the body end early
            return
        h.wfile.write(body)
