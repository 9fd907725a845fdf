"""What can go wrong when talking to an LLM provider, as precise exception types.

Every message is meant to be shown to the user as is: it says which provider, what
happened in plain words (no HTML pages, no "[Errno 111]"), and (where the provider said
why) the provider's own words. API keys never appear in these messages: provider text
passes through `redact` before it is stored. `describe_failure` turns a failure into what
a window shows (the sentence, and whether Retry or Settings can help); `RetryNotice` is
what a provider reports while it waits to try again.
"""

from __future__ import annotations

from dataclasses import dataclass


class ProviderError(Exception):
    """Base class. `retryable` tells the caller whether trying again later can help;
    `fix_in_settings` whether the fix is a setting (the key, the base URL, the model)."""

    retryable = False
    fix_in_settings = False

    def __init__(
        self,
        message: str,
        *,
        provider: str = "",
        status_code: int | None = None,
        provider_message: str = "",
        retry_after: float | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.provider = provider
        self.status_code = status_code
        # The provider's own explanation (already redacted), e.g. "model 'x' not found".
        self.provider_message = provider_message
        # Seconds the provider asked us to wait (Retry-After), when it said so.
        self.retry_after = retry_after

    def __str__(self) -> str:
        return self.message


class MissingApiKey(ProviderError):
    """No key in the keyring and no VEIL_API_KEY: nothing was sent."""

    fix_in_settings = True


class AuthenticationError(ProviderError):
    """401/403, or the provider said the key is invalid."""

    fix_in_settings = True


class RateLimitError(ProviderError):
    """429 after the last attempt, or a Retry-After longer than we are willing to wait."""

    retryable = True


class QuotaExceeded(RateLimitError):
    """429 that waiting will not fix (billing quota used up)."""

    retryable = False


class ProviderUnavailable(ProviderError):
    """5xx, connection refused/reset, DNS failure or timeout: the network or the service."""

    retryable = True


class ProviderTimeout(ProviderUnavailable):
    """Connect or read timeout (no data for longer than the configured read timeout)."""


class BadRequest(ProviderError):
    """The provider refused the request itself (unknown model, context too long, blocked
    content...). Carries the provider's own message; retrying the same request won't help."""


class InvalidEndpoint(BadRequest):
    """The base URL is not a web address Veil can use: nothing was sent."""

    fix_in_settings = True


class StreamInterrupted(ProviderError):
    """The answer broke off after part of it had already been shown. Not retried
    automatically (the user would see text twice); the partial text is in `partial`."""

    retryable = True

    def __init__(self, message: str, *, partial: str = "", **kwargs):
        super().__init__(message, **kwargs)
        self.partial = partial


class Cancelled(ProviderError):
    """The caller cancelled the request (the user pressed Stop)."""

    def __init__(self, message: str = "cancelled", *, partial: str = "", **kwargs):
        super().__init__(message, **kwargs)
        self.partial = partial


@dataclass(frozen=True)
class RetryNotice:
    """A provider is about to try again (reported before it waits)."""

    attempt: int  # the attempt about to start: 2 is the first retry
    max_attempts: int
    delay_s: float
    reason: str  # why the last attempt failed, in the error's words

    def describe(self) -> str:
        wait = f" in {self.delay_s:.0f} s" if self.delay_s >= 1 else ""
        return f"{_sentence(self.reason)} Retrying{wait} (attempt {self.attempt} of {self.max_attempts})…"


@dataclass(frozen=True)
class FailureMessage:
    """What a window says about a failed request, and which actions can help."""

    text: str
    retry: bool  # Retry can help (the message is kept, so it can always be sent again)
    open_settings: bool  # the fix is a setting: the key, the base URL, the model


def describe_failure(exc: BaseException, *, partial_kept: bool = False, sent: bool = True) -> FailureMessage:
    """The sentence for a failed send. `partial_kept`: part of the answer was shown and
    stays; `sent`: False when the failure came before anything left the machine."""
    if isinstance(exc, ProviderError):
        said = _sentence(exc.message)
        if not sent:
            text = f"Not sent: {said}"
        elif isinstance(exc, StreamInterrupted) or partial_kept:
            head = said if "broke off" in said else f"The answer broke off: {_sentence(exc.message, upper=False)}"
            text = f"{head} The part of the answer that arrived is kept above; Retry asks again."
        else:
            text = f"No answer: {said}"
        return FailureMessage(text, not isinstance(exc, Cancelled), exc.fix_in_settings)
    # Not from a provider (a key store, a settings value): its own words, said plainly.
    return FailureMessage(f"Not sent: {_sentence(str(exc) or type(exc).__name__)}", True, False)


def _sentence(text: str, *, upper: bool = True) -> str:
    text = " ".join(text.split())
    if not text:
        return text
    if upper:
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…")) else text + "."


# Statuses worth another attempt: timeouts, conflicts of the moment, rate limits, server
# trouble, and Anthropic's 529 "overloaded".
RETRYABLE_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})


def redact(text: str, secrets: list[str] | tuple[str, ...]) -> str:
    """`text` with every secret, and every word that shares 6+ characters with one, masked.

    Providers like to echo a key back partly ("Incorrect API key provided: sk-ab***wxyz");
    masking whole words that share a run of the key catches those fragments too."""
    if not text:
        return text
    for secret in secrets:
        if not secret:
            continue
        text = text.replace(secret, "[redacted]")
        if len(secret) < 6:
            continue
        grams = {secret[i : i + 6] for i in range(len(secret) - 5)}
        words = text.split()
        masked = False
        for i, word in enumerate(words):
            if len(word) >= 6 and any(word[j : j + 6] in grams for j in range(len(word) - 5)):
                words[i] = "[redacted]"
                masked = True
        if masked:
            text = " ".join(words)
    return text
