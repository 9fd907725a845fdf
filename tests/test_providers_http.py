"""Remote providers against real HTTP servers on 127.0.0.1 that speak the OpenAI,
Anthropic and Gemini wire formats (tests/provider_fakes.py): streaming, the non-streaming
fallback, retries, Retry-After, timeouts, cut streams, cancel, and error mapping."""

from __future__ import annotations

import logging
import threading
import time
import traceback

import pytest
from provider_fakes import Fail, FakeProvider, Reply
from timing_checks import no_runaway

from agent.providers import (
    AuthenticationError,
    BadRequest,
    Cancelled,
    CancelToken,
    ChatMessage,
    GenerationParams,
    MissingApiKey,
    ProviderConfig,
    ProviderTimeout,
    ProviderUnavailable,
    RateLimitError,
    StreamInterrupted,
    create_provider,
)

KEY = "sk-test-0123456789abcdefSECRETKEYzyxwvu"
DIALECTS = ("openai", "anthropic", "gemini")
MODELS = {"openai": "gpt-test", "anthropic": "claude-test", "gemini": "gemini-test"}
HELLO = [ChatMessage("system", "Be brief."), ChatMessage("user", "Hello there, how are you?")]


@pytest.fixture(params=DIALECTS)
def fake(request):
    with FakeProvider(request.param, key=KEY) as server:
        yield server


def provider_for(server: FakeProvider, **overrides):
    values = dict(
        kind=server.dialect,
        base_url=server.base_url,
        model=MODELS[server.dialect],
        api_key=KEY,
        connect_timeout_s=2.0,
        read_timeout_s=5.0,
        max_attempts=3,
        backoff_base_s=0.01,
        backoff_max_s=0.05,
    )
    values.update(overrides)
    return create_provider(ProviderConfig(**values))


# -- the wire formats -------------------------------------------------------------------------
def test_stream_yields_the_answer_in_chunks(fake):
    fake.plan(Reply("The quick brown fox jumps over the lazy dog.", chunk_size=5))
    with provider_for(fake) as provider:
        stream = provider.stream(HELLO, params=GenerationParams(temperature=0.2, max_tokens=50))
        chunks = list(stream)
    assert "".join(chunks) == "The quick brown fox jumps over the lazy dog."
    assert len(chunks) == 9
    assert stream.finish_reason in ("stop", "end_turn", "STOP")
    assert len(fake.requests) == 1


def test_non_streaming_fallback(fake):
    fake.plan(Reply("All good."))
    with provider_for(fake) as provider:
        completion = provider.complete(HELLO, params=GenerationParams(max_tokens=20))
    assert completion.text == "All good."
    assert completion.finish_reason
    request = fake.requests[0]
    if fake.dialect == "gemini":
        assert request.path.endswith("/models/gemini-test:generateContent")
    else:
        assert request.json["stream"] is False


def test_openai_request_format():
    with FakeProvider("openai", key=KEY) as server, provider_for(server) as provider:
        "".join(provider.stream(HELLO, params=GenerationParams(temperature=0.1, max_tokens=7, stop=("END",))))
        request = server.requests[0]
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    body = request.json
    assert body["model"] == "gpt-test" and body["stream"] is True
    assert body["messages"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hello there, how are you?"}]
    assert body["max_tokens"] == 7 and body["temperature"] == 0.1 and body["stop"] == ["END"]


def test_anthropic_request_format():
    with FakeProvider("anthropic", key=KEY) as server, provider_for(server) as provider:
        messages = [*HELLO, ChatMessage("assistant", "Fine."), ChatMessage("user", "Good.")]
        "".join(provider.stream(messages))
        request = server.requests[0]
    assert request.path == "/v1/messages"
    assert request.headers["x-api-key"] == KEY
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in request.headers
    body = request.json
    assert body["system"] == "Be brief."
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assert body["max_tokens"] > 0 and body["model"] == "claude-test"


def test_gemini_request_format():
    with FakeProvider("gemini", key=KEY) as server, provider_for(server, model="models/gemini-test") as provider:
        messages = [*HELLO, ChatMessage("assistant", "Fine."), ChatMessage("user", "Good.")]
        "".join(provider.stream(messages, params=GenerationParams(max_tokens=9)))
        request = server.requests[0]
    assert request.path == "/v1beta/models/gemini-test:streamGenerateContent?alt=sse"
    assert request.headers["x-goog-api-key"] == KEY
    assert KEY not in request.path  # never in the URL, where logs and proxies see it
    body = request.json
    assert body["systemInstruction"] == {"parts": [{"text": "Be brief."}]}
    assert [c["role"] for c in body["contents"]] == ["user", "model", "user"]
    assert body["generationConfig"]["maxOutputTokens"] == 9


def test_list_models_checks_the_key_without_spending_tokens(fake):
    with provider_for(fake) as provider:
        models = provider.list_models()
    assert models == (["gemini-test"] if fake.dialect == "gemini" else ["model-a", "model-b"])
    assert fake.requests[0].method == "GET"
    with provider_for(fake, api_key="not-the-key-123456") as provider, pytest.raises(AuthenticationError):
        provider.list_models()


# -- errors --------------------------------------------------------------------------------------
def test_bad_key_is_an_authentication_error_and_is_not_retried(fake):
    with provider_for(fake, api_key="wrong-key-abcdef") as provider:
        with pytest.raises(AuthenticationError) as info:
            "".join(provider.stream(HELLO))
    assert len(fake.requests) == 1
    assert info.value.status_code == 401
    assert "invalid api key" in str(info.value)


def test_keys_never_leak_into_errors_or_logs(fake, caplog):
    """A server that echoes the credential into its error body (whole and masked)."""
    caplog.set_level(logging.DEBUG)
    fake.plan(Fail(401, "Incorrect API key provided", echo_auth=True), Fail(500, "boom", echo_auth=True),
              Fail(500, "boom", echo_auth=True), Fail(500, "boom", echo_auth=True))
    with provider_for(fake) as provider:
        with pytest.raises(AuthenticationError) as auth_error:
            "".join(provider.stream(HELLO))
        with pytest.raises(ProviderUnavailable) as unavailable:
            provider.complete(HELLO)
    assert KEY in fake.requests[0].text or KEY in str(fake.requests[0].headers)  # the key was really sent
    for exc in (auth_error.value, unavailable.value):
        rendered = "".join(traceback.format_exception(exc)) + repr(exc) + repr(exc.args) + exc.provider_message
        assert KEY not in rendered
        assert KEY[:10] not in rendered and KEY[-8:] not in rendered
        assert "[redacted]" in exc.provider_message
    assert KEY not in caplog.text and KEY[-8:] not in caplog.text
    assert KEY not in repr(provider.config)


def test_bad_request_carries_the_providers_message(fake):
    fake.plan(Fail(404, "model 'nope' does not exist"))
    with provider_for(fake) as provider, pytest.raises(BadRequest) as info:
        "".join(provider.stream(HELLO))
    assert info.value.provider_message == "model 'nope' does not exist"
    assert "model 'nope' does not exist" in str(info.value)
    assert len(fake.requests) == 1


def test_gemini_invalid_key_400_is_an_authentication_error():
    with FakeProvider("gemini") as server:
        server.plan(Fail(400, "API key not valid. Please pass a valid API key."))
        with provider_for(server) as provider, pytest.raises(AuthenticationError):
            provider.complete(HELLO)


def test_missing_key_sends_nothing():
    with FakeProvider("anthropic") as server, provider_for(server, api_key=None) as provider:
        with pytest.raises(MissingApiKey):
            provider.stream(HELLO)
    assert server.requests == []
    remote = create_provider(ProviderConfig("openai", model="gpt-test"))  # api.openai.com, no key
    with pytest.raises(MissingApiKey):
        remote.stream(HELLO)


def test_local_openai_compatible_servers_need_no_key():
    with FakeProvider("openai") as server, provider_for(server, api_key=None, model="") as provider:
        assert "".join(provider.stream(HELLO)) == "You wrote: Hello there, how are you?"
        assert "authorization" not in server.requests[0].headers
        assert "model" not in server.requests[0].json


# -- retries -------------------------------------------------------------------------------------
def test_rate_limit_waits_for_retry_after_then_succeeds(fake):
    fake.plan(Fail(429, "slow down", retry_after=1), Reply("done"))
    with provider_for(fake) as provider:
        started = time.monotonic()
        assert "".join(provider.stream(HELLO)) == "done"
        elapsed = time.monotonic() - started
    assert len(fake.requests) == 2
    assert elapsed >= 1.0  # it waited what the server asked
    no_runaway("a Retry-After of 1 s", elapsed, 15)


def test_retry_after_longer_than_we_accept_is_reported_not_waited(fake):
    fake.plan(Fail(429, "slow down", retry_after=3600))
    with provider_for(fake) as provider:
        started = time.monotonic()
        with pytest.raises(RateLimitError) as info:
            "".join(provider.stream(HELLO))
    no_runaway("reporting a Retry-After of an hour", time.monotonic() - started, 30)
    assert info.value.retry_after == pytest.approx(3600)
    assert "3600" in str(info.value)
    assert len(fake.requests) == 1


def test_server_errors_are_retried_up_to_max_attempts(fake):
    fake.plan(Fail(500), Fail(503), Fail(500))
    with provider_for(fake) as provider, pytest.raises(ProviderUnavailable) as info:
        "".join(provider.stream(HELLO))
    assert len(fake.requests) == 3
    assert "gave up after 3 attempts" in str(info.value)


def test_a_500_then_success_is_invisible_to_the_caller(fake):
    fake.plan(Fail(500), Fail(502), Reply("recovered"))
    with provider_for(fake) as provider:
        assert "".join(provider.stream(HELLO)) == "recovered"
    assert len(fake.requests) == 3


def test_connection_refused_is_unavailable():
    server = FakeProvider("openai").start()
    base_url = server.base_url
    server.stop()  # nothing listens on that port any more
    provider = create_provider(ProviderConfig("openai", base_url=base_url, model="m", max_attempts=2, backoff_base_s=0.01))
    with pytest.raises(ProviderUnavailable) as info:
        "".join(provider.stream(HELLO))
    assert "cannot reach" in str(info.value)


def test_slow_first_byte_within_the_read_timeout_is_fine(fake):
    fake.plan(Reply("late but fine", first_byte_delay=0.5))
    with provider_for(fake, read_timeout_s=3.0) as provider:
        assert "".join(provider.stream(HELLO)) == "late but fine"


def test_first_byte_later_than_the_read_timeout_times_out(fake):
    fake.plan(Reply(first_byte_delay=30), Reply(first_byte_delay=30))  # 60 s if the timeout is ignored
    with provider_for(fake, read_timeout_s=0.3, max_attempts=2) as provider:
        started = time.monotonic()
        with pytest.raises(ProviderTimeout) as info:
            "".join(provider.stream(HELLO))
    no_runaway("two attempts with a 0.3 s read timeout", time.monotonic() - started, 15)
    assert "read timeout" in str(info.value)
    assert len(fake.requests) == 2


# -- cut streams ---------------------------------------------------------------------------------
def test_a_stream_cut_in_half_is_interrupted_and_not_retried(fake):
    fake.plan(Reply("one two three four five six seven", chunk_size=4, cut_after=3))
    received = []
    with provider_for(fake) as provider, pytest.raises(StreamInterrupted) as info:
        for chunk in provider.stream(HELLO):
            received.append(chunk)
    assert "".join(received) == "one two thre"
    assert info.value.partial == "one two thre"
    assert len(fake.requests) == 1  # never retried after text was shown


def test_a_stream_that_ends_without_its_final_event_is_interrupted(fake):
    fake.plan(Reply("one two three four", chunk_size=4, end_early_after=2))
    with provider_for(fake) as provider, pytest.raises(StreamInterrupted) as info:
        "".join(provider.stream(HELLO))
    assert info.value.partial == "one two "
    assert len(fake.requests) == 1


def test_a_stream_cut_before_any_text_is_retried(fake):
    fake.plan(Reply("never seen", cut_after=0), Reply("second try"))
    with provider_for(fake) as provider:
        assert "".join(provider.stream(HELLO)) == "second try"
    assert len(fake.requests) == 2


def test_an_error_event_inside_the_stream(fake):
    fake.plan(Reply("abcdefgh", chunk_size=2, error_event_after=0), Reply("abcdefgh", chunk_size=2, error_event_after=2))
    with provider_for(fake) as provider:
        # Before any text: retried (the second plan step then fails after text was shown).
        with pytest.raises(StreamInterrupted) as info:
            "".join(provider.stream(HELLO))
    assert info.value.partial == "abcd"
    assert len(fake.requests) == 2


def test_an_empty_stream_falls_back_to_one_non_streaming_request(fake):
    fake.plan(Reply(empty_stream=True), Fail(400, "prompt is too long for this model"))
    with provider_for(fake) as provider, pytest.raises(BadRequest) as info:
        "".join(provider.stream(HELLO))
    assert info.value.provider_message == "prompt is too long for this model"
    fake.plan(Reply(empty_stream=True), Reply("fine without streaming"))
    with provider_for(fake) as provider:
        assert "".join(provider.stream(HELLO)) == "fine without streaming"
    assert len(fake.requests) == 4


# -- cancel --------------------------------------------------------------------------------------
def test_cancel_mid_stream_is_immediate_and_keeps_the_partial_text(fake):
    # Chunks 2 s apart: a cancel that waits for the next chunk takes ~2 s, one that is
    # ignored ~16 s; an immediate one a few ms.
    fake.plan(Reply("a b c d e f g h i j", chunk_size=2, chunk_delay=2.0))
    token = CancelToken()
    received = []
    with provider_for(fake) as provider, pytest.raises(Cancelled) as info:
        for chunk in provider.stream(HELLO, cancel=token):
            received.append(chunk)
            if len(received) == 2:
                threading.Timer(0.05, token.cancel).start()
                cancelled_at = time.monotonic()
    no_runaway("cancel mid-stream (next chunk due in ~2 s)", time.monotonic() - cancelled_at, 1.5)
    assert info.value.partial == "".join(received)
    assert len(received) <= 3


def test_cancel_while_waiting_for_the_first_byte(fake):
    fake.plan(Reply(first_byte_delay=10))
    token = CancelToken()
    threading.Timer(0.3, token.cancel).start()
    with provider_for(fake, read_timeout_s=30) as provider:
        started = time.monotonic()
        with pytest.raises(Cancelled):
            "".join(provider.stream(HELLO, cancel=token))
    no_runaway("cancel at 0.3 s while the first byte is 10 s away", time.monotonic() - started, 5)


def test_cancel_during_a_retry_wait_with_a_plain_event():
    with FakeProvider("anthropic", key=KEY) as server:
        server.plan(Fail(429, retry_after=20))
        event = threading.Event()
        threading.Timer(0.3, event.set).start()
        with provider_for(server) as provider:
            started = time.monotonic()
            with pytest.raises(Cancelled):
                provider.complete(HELLO, cancel=event)
        no_runaway("cancel at 0.3 s during a 20 s retry wait", time.monotonic() - started, 5)
        assert len(server.requests) == 1


def test_closing_a_stream_early_stops_the_request():
    with FakeProvider("openai", key=KEY) as server, provider_for(server) as provider:
        server.plan(Reply("x" * 200, chunk_size=1, chunk_delay=0.02))
        stream = provider.stream(HELLO)
        assert next(stream) == "x"
        stream.close()
        with pytest.raises(StopIteration):
            next(stream)
