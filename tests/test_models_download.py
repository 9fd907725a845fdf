"""The model downloader against a real HTTP server on 127.0.0.1 (see model_http_server)."""

from __future__ import annotations

import hashlib
import itertools
import threading

import pytest
from model_http_server import FileServer

from models.download import (
    CancelToken,
    ChecksumMismatch,
    DownloadCancelled,
    DownloadError,
    HTTPStatusError,
    UnverifiableDownload,
    download,
    part_path,
)


@pytest.fixture
def server():
    with FileServer() as s:
        yield s


def sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_downloads_verifies_and_reports_progress(server, tmp_path):
    seen = []
    dest = download(
        server.url("/file"),
        tmp_path / "m.gguf",
        sha256=server.sha256,
        size=len(server.blob),
        progress=seen.append,
    )
    assert dest.read_bytes() == server.blob
    assert not part_path(dest).exists()
    assert seen[-1].done and seen[-1].downloaded == seen[-1].total == len(server.blob)
    assert seen[-1].rate_bps > 0 and seen[-1].eta_s == 0
    assert all(a.downloaded <= b.downloaded for a, b in itertools.pairwise(seen))


def test_resumes_with_range_after_the_connection_drops(server, tmp_path):
    server.drops = 2  # two cut responses before a good one
    dest = download(
        server.url("/drop"), tmp_path / "m.gguf", sha256=server.sha256, backoff_s=0.01
    )
    assert sha(dest) == server.sha256
    ranges = server.ranges("/drop")
    assert len(ranges) == 3 and ranges[0] is None
    # Each retry asks for the rest, from what was received (the server cut each body
    # after drop_after bytes).
    first = int(ranges[1].removeprefix("bytes=").rstrip("-"))
    second = int(ranges[2].removeprefix("bytes=").rstrip("-"))
    assert 0 < first <= server.drop_after
    assert first < second <= first + server.drop_after


def test_gives_up_after_max_attempts_and_keeps_the_part_file_unused(server, tmp_path):
    server.drops = 10
    with pytest.raises(DownloadError, match="after 2 attempts"):
        download(
            server.url("/drop"),
            tmp_path / "m.gguf",
            sha256=server.sha256,
            max_attempts=2,
            backoff_s=0.01,
        )
    assert not (tmp_path / "m.gguf").exists()
    assert 0 < part_path(tmp_path / "m.gguf").stat().st_size <= 2 * server.drop_after


def test_wrong_file_is_rejected_and_deleted(server, tmp_path):
    with pytest.raises(ChecksumMismatch):
        download(server.url("/wrong"), tmp_path / "m.gguf", sha256=server.sha256)
    assert list(tmp_path.iterdir()) == []


def test_corrupt_partial_file_is_redownloaded_once_from_scratch(server, tmp_path):
    dest = tmp_path / "m.gguf"
    part_path(dest).write_bytes(b"x" * 5000)  # wrong bytes from an earlier session
    download(server.url("/file"), dest, sha256=server.sha256)
    assert sha(dest) == server.sha256
    assert server.ranges("/file") == ["bytes=5000-", None]


def test_404_is_a_clear_error(server, tmp_path):
    with pytest.raises(HTTPStatusError) as info:
        download(server.url("/missing"), tmp_path / "m.gguf", sha256=server.sha256)
    assert info.value.status == 404
    assert not (tmp_path / "m.gguf").exists()


def test_416_with_a_complete_part_file_verifies_it(server, tmp_path):
    dest = tmp_path / "m.gguf"
    part_path(dest).write_bytes(server.blob)
    download(server.url("/always416"), dest, sha256=server.sha256)
    assert sha(dest) == server.sha256
    assert server.ranges("/always416") == [f"bytes={len(server.blob)}-"]


def test_416_with_a_bogus_part_file_starts_over(server, tmp_path):
    dest = tmp_path / "m.gguf"
    part_path(dest).write_bytes(b"y" * 100)
    download(server.url("/always416"), dest, sha256=server.sha256, backoff_s=0.01)
    assert sha(dest) == server.sha256
    assert server.ranges("/always416") == ["bytes=100-", None]


def test_server_that_ignores_range_gets_a_fresh_file(server, tmp_path):
    dest = tmp_path / "m.gguf"
    part_path(dest).write_bytes(server.blob[:1000])
    download(server.url("/norange"), dest, sha256=server.sha256)
    assert dest.read_bytes() == server.blob


def test_checksum_from_x_linked_etag_after_redirect(server, tmp_path):
    dest = download(server.url("/resolve"), tmp_path / "m.gguf")
    assert sha(dest) == server.sha256


def test_wrong_x_linked_etag_is_a_mismatch(server, tmp_path):
    server.etag = "0" * 64
    with pytest.raises(ChecksumMismatch):
        download(server.url("/resolve"), tmp_path / "m.gguf")
    assert not (tmp_path / "m.gguf").exists()


def test_no_checksum_at_all_is_refused_unless_allowed(server, tmp_path):
    with pytest.raises(UnverifiableDownload):
        download(server.url("/file"), tmp_path / "m.gguf")
    assert not (tmp_path / "m.gguf").exists()
    dest = download(server.url("/file"), tmp_path / "m.gguf", allow_unverified=True)
    assert dest.read_bytes() == server.blob


def test_catalog_size_must_match_the_server(server, tmp_path):
    with pytest.raises(DownloadError, match="catalog says"):
        download(server.url("/file"), tmp_path / "m.gguf", sha256=server.sha256, size=10)


def test_cancel_keeps_the_part_file_and_a_later_call_resumes(server, tmp_path):
    dest = tmp_path / "m.gguf"
    token = CancelToken()

    def cancel_soon(p):  # the first report comes after the first block
        token.cancel()

    with pytest.raises(DownloadCancelled):
        download(server.url("/file"), dest, sha256=server.sha256, progress=cancel_soon, cancel=token)
    assert not dest.exists()
    have = part_path(dest).stat().st_size
    assert 0 < have < len(server.blob)
    download(server.url("/file"), dest, sha256=server.sha256)
    assert sha(dest) == server.sha256
    assert server.ranges("/file")[-1] == f"bytes={have}-"


def test_cancel_with_a_threading_event_from_another_thread(server, tmp_path):
    event = threading.Event()
    event.set()
    with pytest.raises(DownloadCancelled):
        download(server.url("/file"), tmp_path / "m.gguf", sha256=server.sha256, cancel=event)


def test_retries_503_honouring_retry_after(server, tmp_path):
    server.busy = 2
    dest = download(server.url("/busy"), tmp_path / "m.gguf", sha256=server.sha256, backoff_s=5)
    assert sha(dest) == server.sha256
    assert len(server.ranges("/busy")) == 3


def test_existing_verified_file_is_not_downloaded_again(server, tmp_path):
    dest = tmp_path / "m.gguf"
    dest.write_bytes(server.blob)
    download(server.url("/file"), dest, sha256=server.sha256)
    assert server.requests == []
