"""What the proxy's client is told when something fails: an OpenAI-style error body
with an HTTP status its SDK understands.

The upstream's failures are not passed through as they are: a 401 from the upstream
means Veil's key for it is wrong, not the client's token, so it becomes 502 with a
message that says so. A 429 stays a 429 with the upstream's Retry-After, so the
client's own backoff works.
"""

from __future__ import annotations

import math

from agent.providers.errors import (
    AuthenticationError,
    BadRequest,
    Cancelled,
    MissingApiKey,
    ProviderError,
    ProviderTimeout,
    QuotaExceeded,
    RateLimitError,
    StreamInterrupted,
)
from agent.serve.wire import WireError


def wire_error_for(exc: BaseException) -> WireError:
    if isinstance(exc, WireError):
        return exc
    if isinstance(exc, ProviderError):
        return _upstream_error(exc)
    from agent.engine.core import InputRejected
    from agent.vault.errors import VaultError, VaultLocked

    if isinstance(exc, InputRejected):
        too_big = "at most" in str(exc)
        return WireError(413 if too_big else 400, f"Veil cannot sanitize this request: {exc}",
                         code="input_too_large" if too_big else "input_rejected")
    from agent.session.conversation import MapConflict

    if isinstance(exc, MapConflict):
        return WireError(503, f"Veil could not store this conversation's map: {exc}", type="server_error",
                         code="map_conflict")
    if isinstance(exc, VaultLocked):
        return WireError(503, f"the Veil vault is locked ({exc}); unlock it in Veil and try again",
                         type="server_error", code="vault_locked")
    if isinstance(exc, VaultError):
        return WireError(503, f"the Veil vault cannot be used: {exc}", type="server_error", code="vault_error")
    return WireError(500, f"internal error in the Veil proxy ({type(exc).__name__}); see its log",
                     type="server_error", code="internal_error")


def _upstream_error(exc: ProviderError) -> WireError:
    said = exc.message
    if isinstance(exc, MissingApiKey):
        return WireError(502, f"Veil has no API key for its upstream: {said}", type="upstream_error",
                         code="upstream_key_missing")
    if isinstance(exc, AuthenticationError):
        return WireError(502, f"the upstream rejected Veil's API key (your token for the proxy is fine): {said}",
                         type="upstream_error", code="upstream_authentication_failed")
    if isinstance(exc, QuotaExceeded):
        return WireError(429, said, type="insufficient_quota", code="insufficient_quota")
    if isinstance(exc, RateLimitError):
        headers = {}
        if exc.retry_after is not None:
            headers["retry-after"] = str(max(1, math.ceil(exc.retry_after)))
        return WireError(429, said, type="rate_limit_error", code="rate_limit_exceeded", headers=headers)
    if isinstance(exc, ProviderTimeout):
        return WireError(504, said, type="upstream_error", code="upstream_timeout")
    if isinstance(exc, BadRequest):
        status = exc.status_code if exc.status_code and 400 <= exc.status_code < 500 and exc.status_code not in (401, 403, 429) else 400
        return WireError(status, said, code="upstream_bad_request")
    if isinstance(exc, Cancelled):
        return WireError(499, said, type="cancelled", code="cancelled")
    if isinstance(exc, StreamInterrupted):
        return WireError(502, said, type="upstream_error", code="upstream_stream_interrupted")
    return WireError(502, said, type="upstream_error", code="upstream_unavailable")
