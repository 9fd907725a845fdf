"""What a person reads when a provider fails (issue 15 item 5): plain words from the
provider layer, no HTML pages or "[Errno 111]", no retries that cannot help, progress
while retrying, and which actions (Retry, Settings) can help. Real HTTP servers on
127.0.0.1 (tests/provider_fakes.py)."""

from __future__ import annotations

import pytest
from provider_fakes import Fail, FakeProvider, Reply

from agent.providers import ChatMessage, ProviderConfig, create_provider
from agent.providers.errors import (
    AuthenticationError,
    InvalidEndpoint,
    MissingApiKey,
    ProviderUnavailable,
    StreamInterrupted,
    describe_failure,
)

HELLO = [ChatMessage("user", "Hello")]
NGINX_502 = (b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway"
             b"</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n")


@pytest.fixture
def fake():
    with FakeProvider("openai") as server:
        yield server


def provider_for(server, **config):
    values = {"base_url": server.base_url, "model": "m", "backoff_base_s": 0.01, "backoff_max_s": 0.02, **config}
    return create_provider(ProviderConfig("openai", **values))


def test_an_html_error_page_is_said_by_its_title(fake):
    fake.plan(Fail(502, raw=NGINX_502))
    with provider_for(fake, max_attempts=1) as provider, pytest.raises(ProviderUnavailable) as info:
        "".join(provider.stream(HELLO))
    text = str(info.value)
    assert "502 Bad Gateway" in text and "<" not in text and "center" not in text
    assert "nginx" not in text  # the page's body is not the point


def test_connection_refused_in_words_without_errno():
    server = FakeProvider("openai").start()
    base_url, port = server.base_url, server.port
    server.stop()
    provider = create_provider(ProviderConfig("openai", base_url=base_url, model="m", max_attempts=1))
    with pytest.raises(ProviderUnavailable) as info:
        "".join(provider.stream(HELLO))
    text = str(info.value)
    assert "Errno" not in text and "[" not in text
    assert f"127.0.0.1:{port}" in text and "connection refused" in text and "server running" in text
    assert info.value.fix_in_settings


@pytest.mark.parametrize("url", ["localhost:8080/v1", "htp://127.0.0.1:8080/v1", "http://", "http://host:port/v1",
                                 "127.0.0.1"])
def test_a_malformed_base_url_is_refused_before_any_key_check(url):
    with pytest.raises(InvalidEndpoint) as info:
        create_provider(ProviderConfig("openai", base_url=url, model="m"))
    text = str(info.value)
    assert url in text and "http://" in text and "API key" not in text
    assert info.value.fix_in_settings and not info.value.retryable


def test_a_501_is_not_retried(fake):
    fake.plan(Fail(501, "streaming is not implemented"), Fail(501), Fail(501), Fail(501))
    with provider_for(fake, max_attempts=4) as provider, pytest.raises(ProviderUnavailable) as info:
        "".join(provider.stream(HELLO))
    assert len(fake.requests) == 1
    assert not info.value.retryable and "501 Not Implemented" in str(info.value)
    assert "gave up" not in str(info.value)


def test_each_retry_is_reported_before_the_wait(fake):
    fake.plan(Fail(503, "overloaded"), Fail(502), Reply("fine"))
    notices = []
    with provider_for(fake, max_attempts=4) as provider:
        provider.on_retry = notices.append
        assert "".join(provider.stream(HELLO)) == "fine"
    assert [(n.attempt, n.max_attempts) for n in notices] == [(2, 4), (3, 4)]
    assert "503" in notices[0].reason and "(attempt 2 of 4)" in notices[0].describe()


def test_a_stream_cut_after_text_is_described_as_broken_off_not_as_no_answer(fake):
    fake.plan(Reply("A long answer that will break off in the middle", chunk_size=4, cut_after=3))
    with provider_for(fake, max_attempts=1) as provider, pytest.raises(StreamInterrupted) as info:
        "".join(provider.stream(HELLO))
    shown = describe_failure(info.value, partial_kept=True)
    assert not shown.text.startswith("No answer") and "kept" in shown.text and shown.retry


def test_what_a_window_offers_for_each_failure():
    assert describe_failure(MissingApiKey("no API key for OpenAI")).open_settings
    assert describe_failure(AuthenticationError("OpenAI rejected the API key")).open_settings
    plain = describe_failure(ProviderUnavailable("OpenAI is unavailable (HTTP 503 Service Unavailable)"))
    assert plain.text == "No answer: OpenAI is unavailable (HTTP 503 Service Unavailable)." and plain.retry
    assert not plain.open_settings
    other = describe_failure(ValueError("the vault is locked"))
    assert other.text == "Not sent: The vault is locked." and other.retry
