"""Verified model downloads with httpx.

The rules that keep a half-written or tampered file from ever being loaded:
- bytes go to `<file>.part`; only a complete, hash-checked file is renamed (atomically)
  to its final name, and only final names are ever loaded;
- an interrupted download resumes from the `.part` file with an HTTP Range request;
- the sha256 is the catalog's pinned one, else the server's `X-Linked-Etag` (Hugging
  Face's sha256 of LFS files, sent on the redirect to the CDN); with neither, the download
  is refused unless the caller explicitly accepts an unverified file;
- a mismatch deletes the `.part` file (a resumed download that fails the check is retried
  once from scratch, in case the earlier partial bytes were the corrupt ones).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

from agent.paths import fsync_dir

log = logging.getLogger(__name__)

CHUNK_SIZE = 1 << 20
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_CONTENT_RANGE = re.compile(r"bytes\s+(\d+)-(\d+)/(\d+|\*)")
_UNSATISFIED_RANGE = re.compile(r"bytes\s+\*/(\d+)")
_RETRY_STATUS = {408, 425, 429, 500, 502, 503, 504}


class DownloadError(Exception):
    """The download failed; the message says why in user terms."""


class DownloadCancelled(DownloadError):
    """Cancelled by the caller; the `.part` file is kept so a later call resumes."""


class ChecksumMismatch(DownloadError):
    """The downloaded bytes do not have the expected sha256 (the file was deleted)."""


class HTTPStatusError(DownloadError):
    def __init__(self, status: int, url: str):
        super().__init__(f"server answered HTTP {status} for {url}")
        self.status = status


class UnverifiableDownload(DownloadError):
    """Neither a pinned sha256 nor a server checksum is available."""


@dataclass(frozen=True)
class Progress:
    downloaded: int  # bytes on disk so far (including resumed bytes)
    total: int | None  # None when the server does not say
    rate_bps: float  # bytes per second over this session
    eta_s: float | None  # None when unknown
    done: bool = False

    @property
    def fraction(self) -> float | None:
        return self.downloaded / self.total if self.total else None


class CancelToken:
    """Thread-safe cancellation flag (a UI "Cancel" button sets it)."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


ProgressCallback = Callable[[Progress], None]


def part_path(dest: Path) -> Path:
    return dest.with_name(dest.name + ".part")


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(CHUNK_SIZE):
            digest.update(block)
    return digest.hexdigest()


def download(
    url: str,
    dest: str | Path,
    *,
    sha256: str = "",
    size: int | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | threading.Event | None = None,
    client: httpx.Client | None = None,
    max_attempts: int = 5,
    timeout_s: float = 30.0,
    allow_unverified: bool = False,
    backoff_s: float = 1.0,
) -> Path:
    """Download `url` to `dest`, verified. Returns dest. Raises DownloadError subclasses.

    `size`, when given, is checked too (catalog sizes are exact). Retries connection drops
    and 5xx/429 answers up to `max_attempts`, resuming each time."""
    dest = Path(dest)
    expected = sha256.lower().strip()
    if expected and not _HEX64.match(expected):
        raise ValueError(f"sha256 must be 64 hex digits, not {sha256!r}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    if dest.exists() and expected and sha256_file(dest) == expected:
        return dest  # already there and verified
    own_client = client is None
    client = client or httpx.Client(
        follow_redirects=True,
        timeout=httpx.Timeout(timeout_s, connect=min(timeout_s, 15.0)),
        headers={"User-Agent": "veil-model-downloader"},
    )
    try:
        job = _Job(url, dest, expected, size, progress, cancel, client, allow_unverified)
        return job.run(max_attempts, backoff_s)
    finally:
        if own_client:
            client.close()


class _Job:
    def __init__(
        self,
        url: str,
        dest: Path,
        expected: str,
        size: int | None,
        progress: ProgressCallback | None,
        cancel: CancelToken | threading.Event | None,
        client: httpx.Client,
        allow_unverified: bool,
    ):
        self.url, self.dest, self.part = url, dest, part_path(dest)
        self.expected = expected  # pinned hash, or learned from the server
        self.pinned = bool(expected)
        self.size = size
        self.progress = progress
        self.cancel = cancel
        self.client = client
        self.allow_unverified = allow_unverified
        self.total: int | None = size
        self.started = time.monotonic()
        self.session_bytes = 0
        self.last_report = 0.0

    # -- the retry loop ----------------------------------------------------------------
    def run(self, max_attempts: int, backoff_s: float) -> Path:
        restarted_after_mismatch = False
        attempt = 0
        while True:
            attempt += 1
            resumed = self.part.exists() and self.part.stat().st_size > 0
            try:
                self._transfer()
                return self._finish()
            except ChecksumMismatch:
                if resumed and not restarted_after_mismatch:
                    # The old partial bytes may be the bad ones: one clean retry.
                    log.warning("checksum mismatch after resuming; downloading again")
                    restarted_after_mismatch = True
                    continue
                raise
            except (httpx.TransportError, _Retryable) as exc:
                if attempt >= max_attempts:
                    raise DownloadError(
                        f"download of {self.dest.name} failed after {attempt} attempts: {exc}"
                    ) from exc
                log.info("download interrupted (%s); resuming (attempt %d)", exc, attempt + 1)
                self._sleep(backoff_s * (2 ** (attempt - 1)), getattr(exc, "retry_after", None))

    def _sleep(self, seconds: float, retry_after: float | None) -> None:
        wait = min(60.0, retry_after if retry_after is not None else seconds)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            self._check_cancel()
            time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))

    def _check_cancel(self) -> None:
        if self.cancel is None:
            return
        flag = self.cancel.is_set() if isinstance(self.cancel, threading.Event) else self.cancel.cancelled
        if flag:
            raise DownloadCancelled(f"download of {self.dest.name} cancelled")

    # -- one HTTP request ----------------------------------------------------------------
    def _transfer(self) -> None:
        self._check_cancel()
        have = self.part.stat().st_size if self.part.exists() else 0
        if self.total is not None and have > self.total:
            self.part.unlink()  # longer than the file can be: junk
            have = 0
        headers = {"Range": f"bytes={have}-"} if have else {}
        with self.client.stream("GET", self.url, headers=headers) as response:
            self._learn_checksum(response)
            status = response.status_code
            if status == 416:
                self._range_not_satisfiable(response, have)
                return
            if status in _RETRY_STATUS:
                raise _Retryable(f"HTTP {status}", _retry_after(response))
            if status >= 400:
                raise HTTPStatusError(status, self.url)
            if status == 206 and have:
                start, total = _parse_content_range(response.headers.get("content-range", ""))
                if start != have:
                    raise _Retryable(f"server resumed at byte {start}, expected {have}")
                mode = "ab"
            else:  # 200: the server ignored the Range header (or nothing to resume)
                have = 0
                total = _int_header(response, "content-length")
                mode = "wb"
            self._set_total(total)
            with open(self.part, mode) as out:
                # No chunk_size: bytes are written as they arrive, so a dropped connection
                # loses nothing that was received.
                for block in response.iter_bytes():
                    self._check_cancel()
                    out.write(block)
                    have += len(block)
                    self.session_bytes += len(block)
                    if self.total is not None and have > self.total:
                        raise _Retryable("server sent more bytes than announced")
                    self._report(have)
                out.flush()
                os.fsync(out.fileno())
            if self.total is not None and have < self.total:
                raise _Retryable(f"connection ended at byte {have} of {self.total}")

    def _range_not_satisfiable(self, response: httpx.Response, have: int) -> None:
        """416: our .part is already complete, or does not match the file at all."""
        match = _UNSATISFIED_RANGE.search(response.headers.get("content-range", ""))
        total = int(match.group(1)) if match else self.total
        if total is not None and have == total:
            self._set_total(total)
            return  # complete: verification decides
        self.part.unlink(missing_ok=True)
        raise _Retryable(f"server cannot resume at byte {have} (HTTP 416); starting over")

    def _learn_checksum(self, response: httpx.Response) -> None:
        if self.pinned:
            return
        for r in (*response.history, response):
            for header in ("x-linked-etag", "etag"):
                value = r.headers.get(header, "").strip().removeprefix("W/").strip('"').lower()
                if _HEX64.match(value):
                    self.expected = value
                    return

    def _set_total(self, total: int | None) -> None:
        if total is None:
            return
        if self.size is not None and total != self.size:
            raise DownloadError(
                f"server offers {total} bytes for {self.dest.name}, the catalog says {self.size}"
            )
        self.total = total

    def _report(self, have: int, *, done: bool = False) -> None:
        if self.progress is None:
            return
        now = time.monotonic()
        if not done and now - self.last_report < 0.2:
            return
        self.last_report = now
        elapsed = max(1e-6, now - self.started)
        rate = self.session_bytes / elapsed
        eta = (self.total - have) / rate if self.total is not None and rate > 0 else None
        try:
            self.progress(Progress(have, self.total, rate, eta, done))
        except Exception:  # a broken UI callback must not corrupt the download
            log.exception("download progress callback failed")

    # -- verification and the atomic rename ----------------------------------------------
    def _finish(self) -> Path:
        have = self.part.stat().st_size
        if self.total is not None and have != self.total:
            raise _Retryable(f"incomplete file ({have} of {self.total} bytes)")
        if not self.expected and not self.allow_unverified:
            raise UnverifiableDownload(
                f"no sha256 to check {self.dest.name} against (none pinned, none sent by the "
                "server); refusing to use an unverified model file"
            )
        if self.expected:
            actual = sha256_file(self.part)
            if actual != self.expected:
                self.part.unlink(missing_ok=True)
                raise ChecksumMismatch(
                    f"{self.dest.name}: sha256 {actual} does not match the expected "
                    f"{self.expected}; the file was deleted"
                )
        os.replace(self.part, self.dest)
        fsync_dir(self.dest.parent)
        self._report(have, done=True)
        return self.dest


class _Retryable(Exception):
    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


def _parse_content_range(value: str) -> tuple[int, int | None]:
    match = _CONTENT_RANGE.search(value)
    if not match:
        raise _Retryable(f"bad Content-Range header {value!r}")
    total = None if match.group(3) == "*" else int(match.group(3))
    return int(match.group(1)), total


def _int_header(response: httpx.Response, name: str) -> int | None:
    try:
        return int(response.headers[name])
    except (KeyError, ValueError):
        return None


def _retry_after(response: httpx.Response) -> float | None:
    try:
        return max(0.0, float(response.headers["retry-after"]))
    except (KeyError, ValueError):
        return None
