"""What every remote provider shares: one httpx client, timeouts, the retry loop
(exponential backoff with jitter, Retry-After honoured), server-sent events, and keeping
the key secret. HTTP failures become the exceptions of agent.providers.errors in
http_errors.py (a mixin of HttpProvider); small transport pieces are in http_support.py.

A provider subclass only says how to build its request and how to read its answers.
"""

from __future__ import annotations

import json
import logging
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit

import httpx
from httpx_sse import EventSource, ServerSentEvent, SSEError

from agent import __version__
from agent.providers.base import (
    CancelToken,
    ChatMessage,
    ChatStream,
    Completion,
    GenerationParams,
    Provider,
    ProviderConfig,
    check_messages,
)
from agent.providers.errors import (
    Cancelled,
    ProviderError,
    ProviderUnavailable,
    QuotaExceeded,
    RetryNotice,
    StreamInterrupted,
)
from agent.providers.http_errors import HttpErrors
from agent.providers.http_support import Counted, StreamTracker
from agent.providers.wording import (
    check_endpoint,
)
from agent.providers.worker import StreamMeta, threaded_call, threaded_stream

log = logging.getLogger("veil.providers")



class Request:
    """One HTTP request to make (the key is in `headers`; never log them)."""

    __slots__ = ("body", "headers", "url")

    def __init__(self, url: str, headers: dict[str, str], body: dict[str, Any]):
        self.url = url
        self.headers = headers
        self.body = body

    def __repr__(self) -> str:
        return f"Request({self.url!r})"


class HttpProvider(HttpErrors, Provider):
    """Base of the OpenAI-compatible, Anthropic and Gemini providers."""

    name = "provider"  # shown in messages

    def __init__(self, config: ProviderConfig, *, client: httpx.Client | None = None, rng: random.Random | None = None):
        super().__init__(config)
        check_endpoint(config.endpoint, self.kind)  # a clear word before any key check or request
        timeout = httpx.Timeout(
            connect=config.connect_timeout_s,
            read=config.read_timeout_s,
            write=config.read_timeout_s,
            pool=config.connect_timeout_s,
        )
        self._own_client = client is None
        self._client = client or httpx.Client(
            timeout=timeout,
            headers={"user-agent": f"veil/{__version__}"},
            follow_redirects=False,  # a redirect would resend the key somewhere else
            trust_env=True,  # honour HTTPS_PROXY / NO_PROXY like other tools do
        )
        self._timeout = timeout
        self._rng = rng or random.Random()

    # ----------------------------------------------------------------- subclass hooks
    def build_request(
        self, messages: list[ChatMessage], model: str, params: GenerationParams, *, stream: bool
    ) -> Request:
        raise NotImplementedError

    def read_stream(self, events: Iterator[ServerSentEvent]) -> Iterator[str | StreamMeta]:
        """Text and meta from the events; raise StreamInterrupted if they end too early."""
        raise NotImplementedError

    def read_completion(self, data: Any) -> Completion:
        raise NotImplementedError

    def error_details(self, data: Any) -> tuple[str, str]:
        """(provider's message, provider's error code or type) from an error body."""
        return "", ""

    def classify(self, status: int, code: str, message: str) -> type[ProviderError] | None:
        """A provider-specific exception type, or None for the generic status mapping."""
        return None

    # ----------------------------------------------------------------- public API
    @property
    def display_name(self) -> str:
        host = urlsplit(self.config.endpoint).netloc or self.config.endpoint
        return f"{self.name} ({host})"

    def resolve_model(self, model: str | None) -> str:
        return (model or self.config.model or "").strip()

    def stream(
        self,
        messages: Sequence[ChatMessage],
        model: str | None = None,
        params: GenerationParams | None = None,
        cancel: threading.Event | None = None,
    ) -> ChatStream:
        messages = check_messages(messages)
        params = params or GenerationParams()
        model = self.resolve_model(model)
        request = self.build_request(messages, model, params, stream=True)

        def produce(stop: CancelToken) -> Iterator[str | StreamMeta]:
            try:
                yield from self._with_retries(lambda: self._stream_once(request, stop), stop)
            except EmptyStream:
                # Some servers (llama-cpp-python's) report a failure in streaming mode as an
                # empty 200 body; asking once without streaming gets the answer or the reason.
                fallback = self.build_request(messages, model, params, stream=False)
                for completion in self._with_retries(lambda: self._complete_once(fallback, stop), stop):
                    if completion.text:
                        yield completion.text
                    yield StreamMeta(completion.finish_reason, dict(completion.usage))

        return threaded_stream(produce, cancel, name=self.name)

    def complete(
        self,
        messages: Sequence[ChatMessage],
        model: str | None = None,
        params: GenerationParams | None = None,
        cancel: threading.Event | None = None,
    ) -> Completion:
        request = self.build_request(check_messages(messages), self.resolve_model(model), params or GenerationParams(), stream=False)

        def call(stop: CancelToken) -> Completion:
            for item in self._with_retries(lambda: self._complete_once(request, stop), stop):
                return item
            raise ProviderUnavailable(f"{self.display_name} sent no answer", provider=self.kind)

        return threaded_call(call, cancel, name=self.name)

    def list_models(self, cancel: threading.Event | None = None) -> list[str]:
        """The models this key may use: a cheap way to check a key and an endpoint (no
        tokens spent). Same errors as a request (AuthenticationError for a bad key...)."""
        url, headers = self.models_request()

        def call(stop: CancelToken) -> list[str]:
            def attempt() -> Iterator[list[str]]:
                with self._client.stream("GET", url, headers=headers) as response:
                    if response.status_code >= 400:
                        raise self._error_from_response(response)
                    yield sorted(set(self.read_models(self._json_body(response))))

            for models in self._with_retries(attempt, stop):
                return models
            return []

        return threaded_call(call, cancel, name=self.name)

    def models_request(self) -> tuple[str, dict[str, str]]:
        raise NotImplementedError

    def read_models(self, data: Any) -> list[str]:
        raise NotImplementedError

    def close(self) -> None:
        if self._own_client:
            self._client.close()

    # ----------------------------------------------------------------- one attempt
    def _stream_once(self, request: Request, stop: CancelToken) -> Iterator[str | StreamMeta]:
        tracer = StreamTracker()
        unregister = stop.on_cancel(tracer.abort)
        try:
            with self._client.stream(
                "POST",
                request.url,
                headers={**request.headers, "accept": "text/event-stream"},
                json=request.body,
                extensions={"trace": tracer},
            ) as response:
                tracer.response = response
                if stop.is_set():
                    raise Cancelled()
                if response.status_code >= 400:
                    raise self._error_from_response(response)
                content_type = response.headers.get("content-type", "")
                if "text/event-stream" not in content_type:
                    # Some servers ignore "stream": true and answer in one JSON body.
                    completion = self.read_completion(self._json_body(response))
                    if completion.text:
                        yield completion.text
                    yield StreamMeta(completion.finish_reason, dict(completion.usage))
                    return
                seen = Counted(EventSource(response).iter_sse())
                try:
                    yield from self.read_stream(seen)
                except StreamInterrupted:
                    if seen.count == 0:
                        raise EmptyStream(f"{self.display_name} sent an empty stream", provider=self.kind) from None
                    raise
                except (json.JSONDecodeError, SSEError) as exc:
                    raise ProviderUnavailable(
                        f"{self.display_name} sent a stream Veil cannot read ({type(exc).__name__})",
                        provider=self.kind,
                    ) from None
        finally:
            unregister()

    def _complete_once(self, request: Request, stop: CancelToken) -> Iterator[Completion]:
        tracer = StreamTracker()
        unregister = stop.on_cancel(tracer.abort)
        try:
            with self._client.stream(
                "POST", request.url, headers=request.headers, json=request.body, extensions={"trace": tracer}
            ) as response:
                tracer.response = response
                if response.status_code >= 400:
                    raise self._error_from_response(response)
                yield self.read_completion(self._json_body(response))
        finally:
            unregister()

    def _json_body(self, response: httpx.Response) -> Any:
        response.read()
        try:
            return response.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ProviderUnavailable(
                f"{self.display_name} answered with something that is not JSON "
                f"(HTTP {response.status_code}, {response.headers.get('content-type', 'no content type')})",
                provider=self.kind,
                status_code=response.status_code,
            ) from None

    # ----------------------------------------------------------------- retries
    def _with_retries(self, attempt: Callable[[], Iterator[Any]], stop: CancelToken) -> Iterator[Any]:
        """Items of attempt(); failed attempts are retried while nothing has been delivered.

        Once the first text chunk is out, a failure is a StreamInterrupted: retrying then
        would show the user the start of the answer twice."""
        max_attempts = self.config.max_attempts
        delivered = False
        for number in range(1, max_attempts + 1):
            try:
                for item in attempt():
                    if isinstance(item, str) and item:
                        delivered = True
                    yield item
                return
            except Cancelled:
                raise
            except httpx.TransportError as exc:
                if stop.is_set():
                    raise Cancelled() from None
                error = self._transport_error(exc)
            except ProviderError as exc:
                if stop.is_set():
                    raise Cancelled() from None
                error = exc
            if delivered:
                if isinstance(error, StreamInterrupted):
                    raise error
                raise StreamInterrupted(
                    f"the answer from {self.display_name} broke off: {error.message}",
                    provider=self.kind,
                    status_code=error.status_code,
                ) from None
            if not error.retryable or isinstance(error, QuotaExceeded):
                raise error
            if number == max_attempts:
                if max_attempts > 1:
                    error.message = f"{error.message} (gave up after {max_attempts} attempts)"
                    error.args = (error.message,)
                raise error
            delay = self._retry_delay(number, error.retry_after)
            if delay is None:
                raise error  # the provider asked for a longer wait than we accept
            log.warning(
                "%s: attempt %d/%d failed (%s); retrying in %.2f s",
                self.display_name, number, max_attempts, error.message, delay,
            )
            if self.on_retry is not None:
                try:
                    self.on_retry(RetryNotice(number + 1, max_attempts, delay, error.message))
                except Exception:  # a listener's failure must not stop the request
                    log.debug("retry listener failed", exc_info=True)
            if stop.wait(delay):
                raise Cancelled()

    def _retry_delay(self, attempt: int, retry_after: float | None) -> float | None:
        if retry_after is not None:
            if retry_after > self.config.max_retry_after_s:
                return None
            # A little jitter on top, so many clients told the same time don't all return at once.
            return retry_after + self._rng.uniform(0, min(1.0, 0.1 * retry_after + 0.02))
        ceiling = min(self.config.backoff_max_s, self.config.backoff_base_s * 2 ** (attempt - 1))
        return self._rng.uniform(ceiling / 2, ceiling)  # "equal jitter"

    def parse_json_event(self, event: ServerSentEvent) -> Any:
        return json.loads(event.data)


class EmptyStream(ProviderError):
    """A 200 with no events at all: not retried as a stream (see `stream`)."""


def text_of(value: Any) -> str:
    return value if isinstance(value, str) else ""
