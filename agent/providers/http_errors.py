"""HTTP failures in words: a transport error or an error response becomes one of the
exceptions of agent.providers.errors, with a message a person can act on and the API key
never in it. A mixin of HttpProvider (agent/providers/http.py), which supplies the
provider's name, config and its error_details/classify hooks."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx

from agent.providers.errors import (
    RETRYABLE_STATUS,
    AuthenticationError,
    BadRequest,
    ProviderError,
    ProviderTimeout,
    ProviderUnavailable,
    QuotaExceeded,
    RateLimitError,
    StreamInterrupted,
    redact,
)
from agent.providers.http_support import parse_retry_after
from agent.providers.wording import connect_failure_words, error_body_words, status_words

if TYPE_CHECKING:
    from agent.providers.base import ProviderConfig

# Error bodies are read up to this size: enough for any provider's explanation.
MAX_ERROR_BODY = 64 * 1024
MAX_PROVIDER_MESSAGE = 600


class HttpErrors:
    """The error half of an HTTP provider."""

    config: ProviderConfig
    kind: str

    @property
    def display_name(self) -> str:
        raise NotImplementedError

    def error_details(self, data: Any) -> tuple[str, str]:
        raise NotImplementedError

    def classify(self, status: int, code: str, message: str) -> type[ProviderError] | None:
        raise NotImplementedError

    def _secrets(self) -> list[str]:
        key = self.config.api_key
        return [key.reveal()] if key else []

    def _redact(self, text: str) -> str:
        return redact(text, self._secrets())

    def _transport_error(self, exc: httpx.TransportError) -> ProviderError:
        if isinstance(exc, httpx.ConnectTimeout):
            return ProviderTimeout(
                f"could not connect to {self.display_name} within {self.config.connect_timeout_s:g} s",
                provider=self.kind,
            )
        if isinstance(exc, httpx.TimeoutException):
            return ProviderTimeout(
                f"{self.display_name} sent nothing for {self.config.read_timeout_s:g} s (read timeout)",
                provider=self.kind,
            )
        if isinstance(exc, httpx.ConnectError):
            host = urlsplit(self.config.endpoint).netloc or self.config.endpoint
            error = ProviderUnavailable(
                f"cannot reach {self.display_name}: {self._redact(connect_failure_words(exc, host))}",
                provider=self.kind,
            )
            error.fix_in_settings = True  # most often a wrong URL or port, or a server not started
            return error
        if isinstance(exc, httpx.RemoteProtocolError):
            return StreamInterrupted(
                f"{self.display_name} closed the connection before the answer was complete",
                provider=self.kind,
            )
        if isinstance(exc, httpx.UnsupportedProtocol):
            return BadRequest(f"{self.display_name}: unsupported URL ({self._redact(str(exc))})", provider=self.kind)
        return ProviderUnavailable(
            f"network error talking to {self.display_name}: {type(exc).__name__} {self._redact(str(exc))}".strip(),
            provider=self.kind,
        )

    def _error_from_response(self, response: httpx.Response) -> ProviderError:
        status = response.status_code
        raw = b""
        for part in response.iter_bytes():
            raw += part
            if len(raw) >= MAX_ERROR_BODY:
                break
        text = raw[:MAX_ERROR_BODY].decode("utf-8", "replace")
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, ValueError):
            data = None
        message, code = ("", "")
        if data is not None:
            try:
                message, code = self.error_details(data)
            except (AttributeError, TypeError, KeyError, IndexError):
                message, code = "", ""
        if not message and data is None:
            message = error_body_words(text, response.headers.get("content-type", ""), status)
        message = self._redact(message)[:MAX_PROVIDER_MESSAGE]
        code = self._redact(str(code or ""))[:100]
        return self.error_for_status(status, message, code, retry_after=parse_retry_after(response.headers))

    def error_for_status(self, status: int, message: str, code: str, *, retry_after: float | None = None) -> ProviderError:
        """The exception for an HTTP status (or an error inside a stream, with its status)."""
        name = self.display_name
        said = f": {message}" if message else ""
        http = status_words(status)
        cls = self.classify(status, code, message)
        if cls is None:
            if status in (401, 403):
                cls = AuthenticationError
            elif status == 429:
                cls = QuotaExceeded if "quota" in code.lower() else RateLimitError
            elif status >= 500 or status in RETRYABLE_STATUS:
                cls = ProviderUnavailable
            else:
                cls = BadRequest
        if issubclass(cls, AuthenticationError):
            text = f"{name} rejected the API key ({http}){said}. Check the key in Settings."
        elif issubclass(cls, QuotaExceeded):
            text = f"{name}: quota exceeded ({http}){said}"
        elif issubclass(cls, RateLimitError):
            wait = f"; it asks to wait {retry_after:g} s" if retry_after is not None else ""
            text = f"{name} is rate-limiting requests ({http}{wait}){said}"
        elif issubclass(cls, ProviderUnavailable) and status not in RETRYABLE_STATUS:
            # 501, 505...: the server cannot do this at all; asking again gives the same answer.
            text = f"{name} cannot answer this request ({http}){said}. Is the base URL the right API?"
        elif issubclass(cls, ProviderUnavailable):
            text = f"{name} is unavailable ({http}){said}"
        else:
            text = f"{name} refused the request ({http}){said}"
        error = cls(
            self._redact(text),
            provider=self.kind,
            status_code=status,
            provider_message=message,
            retry_after=retry_after,
        )
        if issubclass(cls, ProviderUnavailable) and status not in RETRYABLE_STATUS:
            error.retryable = False
            error.fix_in_settings = True
        elif status == 404 or (issubclass(cls, BadRequest) and "model" in message.lower()):
            error.fix_in_settings = True  # an unknown model or a wrong path: both are settings
        return error
