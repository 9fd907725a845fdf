"""`veil --self-test`: one headless round trip through the real components, to check an
installation (above all the frozen bundle, where a missing library or data file shows up
only when it is first used).

    sanitize (spaCy + rules) -> store the turn in a temporary encrypted vault (SQLCipher)
    -> answer with the local model (llama.cpp, the tiny model, a few tokens)
    -> restore the answer and the sanitized prompt -> reopen the vault and read it back

Nothing of the user's is touched: VEIL_HOME points at a temporary folder for the run (the
vault, config and audit log live there and are deleted), the vault uses a passphrase
(VEIL_PASSPHRASE, or a random one) so no keyring is needed. The one exception is the
model: it is looked up in the user's models folder *before* switching homes, because the
tiny model is assembled from its bundled package on first use (253 MB) and doing that in a
throw-away folder on every run would waste time and disk; the first self-test therefore
installs it, exactly as the first local answer would.

Pure Python, no Qt (agent/ never imports Qt).
"""

from __future__ import annotations

import os
import platform
import secrets
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from agent import __version__
from agent.engine.local_tasks import LocalModels, find_local_models

if TYPE_CHECKING:
    from agent.config import Settings
    from agent.engine.interface import PrivacyEngine
    from agent.session.stores import ConversationStore

# Synthetic data only. Every kind here is one the rules must replace whatever the policy.
SAMPLE_PROMPT = (
    "Write one short sentence to Anjali Gupta (anjali.gupta@acme-example.com, phone "
    "+1 415 555 0132) to confirm that the invoice at billing.acme-example.com/inv/4471 was paid."
)
MUST_NOT_BE_SENT = ("Anjali Gupta", "anjali.gupta@acme-example.com", "+1 415 555 0132", "acme-example.com/inv/4471")
DEFAULT_MAX_TOKENS = 24


class SelfTestFailed(Exception):
    """A step failed; `step` says which, the message says why."""

    def __init__(self, step: str, message: str):
        super().__init__(f"{step}: {message}")
        self.step = step


@dataclass
class Swap:
    label: str
    real: str
    sent: str


@dataclass
class SelfTestReport:
    version: str = __version__
    frozen: bool = bool(getattr(sys, "frozen", False))
    model_name: str = ""
    model_path: str = ""
    model_size: int = 0
    model_was_installed: bool = True  # False: this run assembled/installed it first
    engine_process: int | None = None  # pid of the engine's helper process
    swaps: list[Swap] = field(default_factory=list)
    sent_text: str = ""
    answer_received: str = ""  # what the model wrote (stand-ins)
    answer_shown: str = ""  # restored
    answer_chunks: int = 0
    finish_reason: str = ""
    restored_in_answer: int = 0
    restored_in_prompt: int = 0
    # Seconds per step, in the order they ran.
    timings: dict[str, float] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for swap in self.swaps:
            out[swap.label] = out.get(swap.label, 0) + 1
        return out


@contextmanager
def _temporary_home() -> Iterator[Path]:
    """VEIL_HOME -> a fresh folder for the duration; the previous value comes back after."""
    previous = os.environ.get("VEIL_HOME")
    with tempfile.TemporaryDirectory(prefix="veil-selftest-") as folder:
        os.environ["VEIL_HOME"] = folder
        try:
            yield Path(folder)
        finally:
            if previous is None:
                os.environ.pop("VEIL_HOME", None)
            else:
                os.environ["VEIL_HOME"] = previous


class _Clock:
    def __init__(self, report: SelfTestReport):
        self.report = report

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        began = time.perf_counter()
        try:
            yield
        except SelfTestFailed:
            raise
        except Exception as exc:  # anything a broken install can throw: name the step
            raise SelfTestFailed(name, f"{type(exc).__name__}: {exc}") from exc
        finally:
            self.report.timings[name] = time.perf_counter() - began


def _resolve_model(local_models: LocalModels, name_or_path: str, report: SelfTestReport) -> Path:
    model = local_models.model_file(name_or_path)
    report.model_name = model.name
    report.model_was_installed = model.was_installed
    report.model_path = str(model.path)
    report.model_size = model.size
    return model.path


def self_test(*, model: str = "", max_tokens: int = DEFAULT_MAX_TOKENS) -> SelfTestReport:
    """Run the round trip; returns the report or raises SelfTestFailed."""
    report = SelfTestReport()
    clock = _Clock(report)

    with clock.step("model file"):
        local_models = find_local_models()
        if local_models is None:
            raise SelfTestFailed("model file", "no local-model package is installed (the models/ plug-in)")
        model_path = _resolve_model(local_models, model, report)

    with _temporary_home():
        from agent.config import default_settings

        settings = default_settings()
        settings.provider.kind = "local"
        settings.provider.max_tokens = max_tokens
        settings.provider.temperature = 0.0  # the same answer every run
        settings.local_model.name, settings.local_model.path = "", str(model_path)
        passphrase = os.environ.get("VEIL_PASSPHRASE") or secrets.token_urlsafe(24)

        # The engine starts loading in its helper process (multiprocessing "spawn", as the
        # desktop app runs it; in a frozen bundle this works only when the entry point calls
        # multiprocessing.freeze_support(), so it is worth checking) while this process
        # creates the vault and loads the model.
        with clock.step("engine spawn"):
            from agent.engine.host import EngineHost

            engine = EngineHost(settings)
        try:
            with clock.step("vault create"):
                from agent.vault import open_default_store

                store = open_default_store(settings=settings, passphrase=passphrase)
            try:
                with clock.step("model load"):
                    runtime = local_models.chat_model(model_path, n_threads=settings.local_model.n_threads)
                    runtime.load()
                    if not runtime.is_loaded:
                        raise SelfTestFailed("model load", runtime.load_error or "llama.cpp did not load the model")
                with clock.step("engine ready"):
                    engine.warm_up()
                report.engine_process = engine.pid
                conversation_id = _send_and_restore(engine, store, settings, report, clock)
            finally:
                store.close()
            if not engine.isolated or engine.fallback_reason:
                raise SelfTestFailed(
                    "engine helper process", engine.fallback_reason or "the engine did not run in its helper process"
                )
        finally:
            engine.close()

        with clock.step("vault reopen"):
            store = open_default_store(settings=settings, passphrase=passphrase)
            try:
                again = store.load_conversation(conversation_id)
                messages = store.list_messages(conversation_id)
            finally:
                store.close()
        stored = {e.real for e in again.entries}
        missing = sorted({s.real for s in report.swaps} - stored)
        if not messages or messages[-1].state.value != "answered":
            raise SelfTestFailed("vault reopen", "the answered message was not read back from the vault")
        if missing:
            raise SelfTestFailed("vault reopen", f"map entries missing after reopening: {', '.join(missing)}")
    return report


def _send_and_restore(
    engine: PrivacyEngine, store: ConversationStore, settings: Settings, report: SelfTestReport, clock: _Clock
) -> str:
    """Sanitize, store, answer with the local model, restore; returns the conversation id."""
    from agent.providers import params_from_settings, provider_from_settings
    from agent.session.sender import Sender

    provider = provider_from_settings(settings)
    sender = Sender(engine, store, provider, params=params_from_settings(settings))
    conversation = store.create_conversation(title="self-test")
    try:
        with clock.step("sanitize + store"):
            reply = sender.send(conversation, SAMPLE_PROMPT)
        report.sent_text = reply.sent_text
        report.swaps = [Swap(e.label.value, e.real, e.sent) for e in reply.sanitized.entities if e.sent != e.real]
        leaked = [value for value in MUST_NOT_BE_SENT if value in reply.sent_text]
        if leaked:
            raise SelfTestFailed("sanitize", f"real values would have been sent: {', '.join(leaked)}")

        with clock.step("local answer"):
            chunks = list(reply)
        assert reply.result is not None
        report.answer_chunks = len(chunks)
        report.answer_received = reply.message.received
        report.answer_shown = reply.result.text
        report.restored_in_answer = len(reply.result.spans)
        report.finish_reason = reply.finish_reason
        if reply.timings.first_chunk_s is not None:
            report.timings["first answer text"] = reply.timings.first_chunk_s
        if not report.answer_received.strip():
            raise SelfTestFailed("local answer", "the local model returned no text")
    finally:
        provider.close()

    with clock.step("restore"):
        # The sanitized prompt read back through restore must be the prompt again: every
        # stand-in the model could repeat maps back to its real value.
        restored = engine.restore(report.sent_text, conversation)
    report.restored_in_prompt = len(restored.spans)
    if restored.text != SAMPLE_PROMPT:
        raise SelfTestFailed("restore", f"restoring the sent text gave {restored.text!r}, not the original prompt")
    return conversation.id


# -- the command ------------------------------------------------------------------------------


def _quote(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _seconds(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def format_report(report: SelfTestReport, total_s: float) -> str:
    kind = "frozen bundle" if report.frozen else "source tree"
    counts = ", ".join(f"{n} {label}" for label, n in sorted(report.counts().items())) or "nothing"
    lines = [
        (
            f"veil self-test: OK (veil {report.version}, {kind}, Python {platform.python_version()}, "
            f"{platform.system().lower()}-{platform.machine()})"
        ),
        f"  model     {report.model_name} ({report.model_size / 1e6:.1f} MB) {report.model_path}"
        + ("" if report.model_was_installed else "  [installed by this run]"),
        "  vault     temporary, passphrase mode (created, written, reopened, deleted)",
        f"  engine    helper process (pid {report.engine_process})",
        f"  sanitized {len(report.swaps)} values replaced: {counts}",
    ]
    for swap in report.swaps:
        lines.append(f"            {swap.label:<8} {swap.real!r} -> {swap.sent!r}")
    lines += [
        f"  sent      {_quote(report.sent_text)}",
        (
            f"  answer    {_quote(report.answer_shown)} "
            f"({report.answer_chunks} chunks, {report.finish_reason or 'done'}, "
            f"{report.restored_in_answer} values restored)"
        ),
        f"  restore   sanitized prompt -> original prompt, {report.restored_in_prompt} values restored",
        "  timings   " + ", ".join(f"{name} {_seconds(s)}" for name, s in report.timings.items()),
        f"  total     {_seconds(total_s)}",
    ]
    return "\n".join(lines)


def run_self_test(
    *, model: str = "", max_tokens: int = DEFAULT_MAX_TOKENS, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """The `--self-test` command: 0 and a summary on success, 1 and the failed step otherwise."""
    out = out or sys.stdout
    err = err or sys.stderr
    began = time.perf_counter()
    try:
        report = self_test(model=model, max_tokens=max_tokens)
    except SelfTestFailed as exc:
        print(f"veil self-test: FAILED at {exc}", file=err)
        return 1
    except KeyboardInterrupt:
        print("veil self-test: interrupted", file=err)
        return 130
    print(format_report(report, time.perf_counter() - began), file=out)
    return 0
