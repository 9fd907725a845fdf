"""The one interface every LLM provider implements, and the typed values it takes.

    provider = create_provider(ProviderConfig(kind="anthropic", model="claude-...", api_key=key))
    for chunk in provider.stream([ChatMessage("user", "Hi")], cancel=token):
        print(chunk, end="")

`stream` returns a ChatStream: an iterator of text chunks that also tells, once it is
exhausted, why the model stopped (`finish_reason`) and the token usage when the provider
reports it. `complete` is the non-streaming fallback with the same arguments.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from agent.providers.errors import RetryNotice

Role = Literal["system", "user", "assistant"]
ROLES: tuple[str, ...] = ("system", "user", "assistant")

# Each kind's default endpoint. OpenAI-style base URLs include the version (/v1), as the
# OpenAI SDK expects; Anthropic's does not (its SDK appends /v1/messages).
DEFAULT_BASE_URLS = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
    "gemini": "https://generativelanguage.googleapis.com/v1beta",
    "local": "",
}


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: Role
    content: str

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}, not {self.role!r}")
        if not isinstance(self.content, str):
            raise TypeError("content must be a str")


class ApiKey:
    """An API key that never prints itself: repr/str show only that a key is there.

    So a config or an exception that ends up in a log or a traceback cannot carry it."""

    __slots__ = ("_value",)

    def __init__(self, value: str):
        value = (value or "").strip()
        if not value:
            raise ValueError("empty API key")
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "ApiKey('***')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ApiKey) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __reduce__(self):  # never pickled into some cache by accident
        raise TypeError("ApiKey cannot be pickled")


@dataclass(frozen=True)
class GenerationParams:
    temperature: float | None = None
    max_tokens: int | None = None
    top_p: float | None = None
    stop: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProviderConfig:
    """Where and how to reach one provider. Built from Settings (never holds the key on
    disk: the key comes from the keyring or VEIL_API_KEY, see agent.providers.keys)."""

    kind: str  # openai | anthropic | gemini | local
    base_url: str = ""  # "" means the kind's default endpoint
    model: str = ""
    api_key: ApiKey | None = field(default=None, repr=False, compare=False)
    connect_timeout_s: float = 10.0
    # Longest silence accepted while waiting for the first byte or between two chunks.
    read_timeout_s: float = 60.0
    max_attempts: int = 4
    backoff_base_s: float = 0.5
    backoff_max_s: float = 8.0
    # A Retry-After longer than this is not waited out: RateLimitError tells the user.
    max_retry_after_s: float = 60.0
    extra_headers: Mapping[str, str] = field(default_factory=dict)
    # "local" only: a GGUF file or a catalog name ("" = the default tiny model), threads.
    local_model_path: str = ""
    local_threads: int = 0
    anthropic_version: str = "2023-06-01"

    def __post_init__(self) -> None:
        if isinstance(self.api_key, str):
            object.__setattr__(self, "api_key", ApiKey(self.api_key) if self.api_key.strip() else None)
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    @property
    def endpoint(self) -> str:
        return (self.base_url or DEFAULT_BASE_URLS.get(self.kind, "")).rstrip("/")

    @classmethod
    def from_settings(cls, settings, *, api_key: ApiKey | str | None = None, **overrides) -> ProviderConfig:
        """From agent.config.Settings (its `provider` and `local_model` sections)."""
        p = settings.provider
        values = dict(
            kind=p.kind,
            base_url=p.base_url,
            model=p.model,
            api_key=api_key,
            read_timeout_s=float(p.timeout_s),
            max_attempts=int(p.max_attempts),
            local_model_path=settings.local_model.path or settings.local_model.name,
            local_threads=settings.local_model.n_threads,
        )
        values.update(overrides)
        return cls(**values)


@dataclass(frozen=True)
class Completion:
    text: str
    finish_reason: str = ""
    usage: Mapping[str, int] = field(default_factory=dict)


class CancelToken(threading.Event):
    """A threading.Event that also runs callbacks when set, so a blocked network read
    can be aborted at once instead of at the next chunk. `cancel()` is `set()`."""

    def __init__(self) -> None:
        super().__init__()
        self._callbacks: list[Callable[[], None]] = []
        self._callbacks_lock = threading.Lock()

    def set(self) -> None:
        super().set()
        with self._callbacks_lock:
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            try:
                callback()
            except Exception:  # a callback's failure must not stop the others
                pass

    cancel = set

    @property
    def cancelled(self) -> bool:
        return self.is_set()

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Run callback when cancelled (at once if already). Returns an unregister function."""
        with self._callbacks_lock:
            if not self.is_set():
                self._callbacks.append(callback)

                def unregister() -> None:
                    with self._callbacks_lock:
                        if callback in self._callbacks:
                            self._callbacks.remove(callback)

                return unregister
        callback()
        return lambda: None


class ChatStream(Iterator[str]):
    """Text chunks of one answer. After it is exhausted: finish_reason, usage.

    Iterating raises the provider exceptions of agent.providers.errors. `close()` stops
    the request (also called when the stream is garbage-collected or used in `with`)."""

    def __init__(self, chunks: Iterator[str], close: Callable[[], None] = lambda: None):
        self._chunks = chunks
        self._close = close
        self.finish_reason = ""
        self.usage: dict[str, int] = {}
        self.text_so_far: list[str] = []

    def __iter__(self) -> ChatStream:
        return self

    def __next__(self) -> str:
        chunk = next(self._chunks)
        self.text_so_far.append(chunk)
        return chunk

    @property
    def text(self) -> str:
        return "".join(self.text_so_far)

    def close(self) -> None:
        self._close()

    def __enter__(self) -> ChatStream:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Provider:
    """Interface of every provider. Subclasses implement `_stream` and `_complete`."""

    kind: str = ""

    def __init__(self, config: ProviderConfig):
        self.config = config
        # Told (from the request's thread) before each automatic retry, so a window can
        # say "retrying (2 of 4)"; agent.providers.errors.RetryNotice.
        self.on_retry: Callable[[RetryNotice], None] | None = None

    @property
    def display_name(self) -> str:
        return self.kind

    def stream(
        self,
        messages: Sequence[ChatMessage],
        model: str | None = None,
        params: GenerationParams | None = None,
        cancel: threading.Event | None = None,
    ) -> ChatStream:
        raise NotImplementedError

    def complete(
        self,
        messages: Sequence[ChatMessage],
        model: str | None = None,
        params: GenerationParams | None = None,
        cancel: threading.Event | None = None,
    ) -> Completion:
        raise NotImplementedError

    def list_models(self, cancel: threading.Event | None = None) -> list[str]:
        """Model names the provider offers (checks the key and endpoint; spends no tokens)."""
        raise NotImplementedError

    def close(self) -> None:
        """Free connections / the model."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def check_messages(messages: Sequence[ChatMessage]) -> list[ChatMessage]:
    messages = list(messages)
    if not messages:
        raise ValueError("no messages to send")
    for m in messages:
        if not isinstance(m, ChatMessage):
            raise TypeError(f"expected ChatMessage, got {type(m).__name__}")
    return messages
