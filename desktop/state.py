"""The app's state, shared by the tray, the chat window and the dialogs: settings, the
privacy engine (in its helper process), the vault, whether protection is paused.

No widgets here: this object holds state and runs the slow calls in workers; the
views listen to its signals. All privacy logic stays in agent/.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from agent.config import Settings, save_settings
from desktop.tasks import Background

if TYPE_CHECKING:
    from agent.engine.host import EngineHost

log = logging.getLogger("veil.desktop")

LOCK_WATCH_MS = 1000


class VaultPhase:
    OPENING = "opening"
    OPEN = "open"
    NEEDS_PASSPHRASE = "needs-passphrase"  # passphrase mode: the user must type it
    LOCKED = "locked"  # locked by the user or by idle time
    FAILED = "failed"  # corrupt, unwritable, too new: the message says what to do


class EnginePhase:
    LOADING = "loading"
    READY = "ready"
    FAILED = "failed"


def preload_modules() -> None:
    """Import what sending and the clipboard need now, at start, rather than at the first
    send: an import holds the GIL while it compiles or unmarshals, i.e. a short freeze of
    the window if it happened while the user waits for an answer."""
    import importlib

    for name in ("agent.session.sender", "agent.providers", "agent.providers.openai_compat", "agent.providers.anthropic",
                 "agent.providers.gemini", "agent.providers.local", "agent.providers.keys", "agent.session.clipboard",
                 "agent.vault", "httpx", "httpx_sse", "keyring"):
        try:
            importlib.import_module(name)
        except Exception:  # optional pieces (e.g. a build without one provider): loaded on use
            log.debug("preloading %s failed", name, exc_info=True)


class AppState(QObject):
    engine_changed = Signal()
    vault_changed = Signal()
    settings_changed = Signal()
    paused_changed = Signal(bool)
    conversations_changed = Signal()
    proxy_changed = Signal()  # the local proxy (veil serve) started, stopped or failed

    def __init__(self, settings: Settings, background: Background | None = None, *, isolated_engine: bool = True,
                 engine: EngineHost | None = None):
        """`engine`: an EngineHost already started (tests share one); else start_engine() makes one."""
        super().__init__()
        self.settings = settings
        self.background = background or Background()
        self.isolated_engine = isolated_engine
        self.engine: EngineHost | None = engine  # EngineHost: a PrivacyEngine with a helper's life cycle
        self._own_engine = engine is None
        self.engine_phase = EnginePhase.LOADING
        self.engine_error = ""
        self.proxy: Any = None  # agent.serve.server.ProxyServer while the tray toggle is on
        self.proxy_error = ""
        self.store: Any = None  # agent.vault.VaultStore when open
        self.vault_phase = VaultPhase.OPENING
        self.vault_error = ""
        self.vault_creating = False  # no vault file yet: a new passphrase is asked twice
        self.paused = False
        self._vault_waiters: list[Callable[[], None]] = []
        # The vault locks itself when idle (its own thread): look every second, so the
        # windows hide real values at once rather than at the next vault call.
        self._lock_watch = QTimer(self)
        self._lock_watch.setInterval(LOCK_WATCH_MS)
        self._lock_watch.timeout.connect(self._check_idle_lock)
        self._lock_watch.start()
        self.background.submit(lambda: _apply_model_release(settings))  # off the start-up path (~50 ms import)

    # -- engine ----------------------------------------------------------------------------------
    def start_engine(self) -> None:
        """Start the helper process and warm it up in a worker (returns at once)."""
        from agent.engine.host import EngineHost

        self.engine_phase = EnginePhase.LOADING
        if self.engine is None:
            self.engine = EngineHost(self.settings, isolated=self.isolated_engine)

        def ready(_: object) -> None:
            self.engine_phase = EnginePhase.READY
            log.info("engine ready after %.2f s (%s)", self.engine.ready_after_s or 0,
                     "helper process" if self.engine.isolated else "in the app")
            self.engine_changed.emit()

        def failed(exc: BaseException) -> None:
            self.engine_phase = EnginePhase.FAILED
            self.engine_error = str(exc)
            self.engine_changed.emit()

        self.background.submit(self.engine.warm_up, ready, failed)
        self.background.submit(preload_modules)
        self.engine_changed.emit()

    # -- vault -----------------------------------------------------------------------------------
    def open_vault(self, passphrase: str | None = None, on_done: Callable[[], None] | None = None) -> None:
        """Open (or create) the vault in a worker. Keyring mode opens silently; passphrase
        mode ends in NEEDS_PASSPHRASE until open_vault(passphrase) succeeds."""
        from agent.vault import KeyUnavailable, WrongKey, describe_vault, open_default_store

        if on_done is not None:
            self._vault_waiters.append(on_done)
        settings = copy.deepcopy(self.settings)

        def work() -> Any:
            from agent.vault.lists import load_lists_into

            info = describe_vault()
            self.vault_creating = not info.exists
            if self.store is not None:
                self.store.unlock(passphrase=passphrase)
                load_lists_into(settings, self.store)
                return self.store
            return open_default_store(interactive=False, settings=settings, passphrase=passphrase)

        def done(store: Any) -> None:
            self.store = store
            self.vault_phase, self.vault_error = VaultPhase.OPEN, ""
            self._use_lists(settings.lists)  # the protection lists live in the vault
            log.info("vault open (%s mode)", getattr(store, "mode", "?"))
            self.vault_changed.emit()
            self.conversations_changed.emit()
            waiters, self._vault_waiters = self._vault_waiters, []
            for waiter in waiters:
                waiter()

        def failed(exc: BaseException) -> None:
            if isinstance(exc, WrongKey):
                self.vault_phase, self.vault_error = VaultPhase.NEEDS_PASSPHRASE, "Wrong passphrase. Try again."
            elif isinstance(exc, KeyUnavailable):
                self.vault_phase = VaultPhase.NEEDS_PASSPHRASE
                self.vault_error = "" if passphrase is None else str(exc)
            else:
                self.vault_phase, self.vault_error = VaultPhase.FAILED, str(exc)
                self._vault_waiters.clear()
            self.vault_changed.emit()

        self.vault_phase = VaultPhase.OPENING
        self.vault_changed.emit()
        self.background.submit(work, done, failed)

    def _use_lists(self, lists) -> None:
        """The protection lists read from the vault: shown in Settings, and the engine
        reloaded with them when they differ from what it has."""
        if lists == self.settings.lists:
            return
        self.settings.lists = copy.deepcopy(lists)
        self.settings_changed.emit()
        if self.engine is not None:
            self._reload_engine(copy.deepcopy(self.settings))

    def lock_vault(self) -> None:
        if self.store is None:
            return
        store = self.store

        def done(_: object) -> None:
            self.vault_phase = VaultPhase.LOCKED
            self.vault_changed.emit()

        self.background.submit(store.lock, done)

    def vault_is_open(self) -> bool:
        return self.store is not None and self.vault_phase == VaultPhase.OPEN and not self.store.locked

    def note_vault_locked(self) -> None:
        """A call found the vault locked (idle auto-lock, another process): reflect it."""
        if self.vault_phase == VaultPhase.OPEN:
            self.vault_phase = VaultPhase.LOCKED
            self.vault_changed.emit()

    def _check_idle_lock(self) -> None:
        if self.vault_phase == VaultPhase.OPEN and self.store is not None and self.store.locked:
            self.note_vault_locked()

    def cancel_vault_waiters(self) -> None:
        self._vault_waiters.clear()

    # -- settings ---------------------------------------------------------------------------------
    def apply_settings(self, settings: Settings, on_done: Callable[[], None] | None = None,
                       on_error: Callable[[BaseException], None] | None = None) -> None:
        """Validate and save, then reload the engine with them (in a worker). The
        protection lists are saved in the vault (agent.vault.lists), never in the file."""
        settings.validate()
        if settings.lists != self.settings.lists:
            self._save_lists(settings.lists)
        save_settings(settings)
        old = self.settings
        self.settings = settings
        _apply_model_release(settings)
        self.settings_changed.emit()
        engine_changed = (
            old.policy != settings.policy or old.lists != settings.lists or old.detectors != settings.detectors
            or old.relevance != settings.relevance or old.substitution_level != settings.substitution_level
            or old.local_model != settings.local_model
        )
        if self.engine is None or not engine_changed:
            if on_done:
                on_done()
            return
        self._reload_engine(settings, on_done, on_error)

    def _save_lists(self, lists) -> None:
        from agent.config import ConfigError
        from agent.vault import VaultError
        from agent.vault.lists import write_lists

        if not self.vault_is_open():
            raise ConfigError("the protection lists are kept in the encrypted vault: unlock it to change them")
        try:
            write_lists(self.store, lists)
        except VaultError as exc:
            raise ConfigError(f"the protection lists could not be saved in the vault: {exc}") from exc

    def _reload_engine(self, settings: Settings, on_done: Callable[[], None] | None = None,
                       on_error: Callable[[BaseException], None] | None = None) -> None:
        self.engine_phase = EnginePhase.LOADING
        self.engine_changed.emit()
        engine = self.engine

        def done(_: object) -> None:
            self.engine_phase = EnginePhase.READY
            self.engine_changed.emit()
            if on_done:
                on_done()

        def failed(exc: BaseException) -> None:
            self.engine_phase, self.engine_error = EnginePhase.FAILED, str(exc)
            self.engine_changed.emit()
            if on_error:
                on_error(exc)

        self.background.submit(lambda: engine.reconfigure(copy.deepcopy(settings)), done, failed)

    def set_paused(self, paused: bool) -> None:
        if paused != self.paused:
            self.paused = paused
            self.paused_changed.emit(paused)

    # -- things built from the state (call in workers: they may touch the keyring) ----------------
    def make_sender(self, kind: str | None = None, model: str | None = None, base_url: str | None = None):
        """A Sender for the configured provider, or for a kind/model picked in the window
        (that kind's remembered profile: never another kind's URL)."""
        from agent.providers import choose_provider, params_from_settings, provider_from_settings
        from agent.session.sender import Sender

        settings = choose_provider(self.settings, kind, model=model, base_url=base_url)
        provider = provider_from_settings(settings, vault=self.store)  # keys kept in the vault (no keyring)
        return Sender(self.engine, self.store, provider, params=params_from_settings(settings))

    def clipboard_guard(self):
        from agent.session.clipboard import ClipboardGuard

        return ClipboardGuard(self.engine, self.store)

    def describe(self) -> str:
        """The tray tooltip: what protects, where answers come from, the vault."""
        from agent.providers.choice import destination

        where = destination(self.settings)
        model = where.model or "default model"
        provider = where.provider
        vault = {
            VaultPhase.OPEN: "unlocked", VaultPhase.LOCKED: "locked", VaultPhase.NEEDS_PASSPHRASE: "locked",
            VaultPhase.OPENING: "opening…", VaultPhase.FAILED: "unavailable",
        }[self.vault_phase]
        protection = "paused" if self.paused else {
            EnginePhase.LOADING: "starting…", EnginePhase.READY: "on", EnginePhase.FAILED: "engine failed",
        }[self.engine_phase]
        return f"Veil — protection {protection}\nProvider: {provider} ({model})\nVault: {vault}"

    # -- the local proxy (veil serve) -------------------------------------------------------------
    def start_proxy(self) -> None:
        """Serve the OpenAI-compatible proxy on 127.0.0.1 (settings.server.port) with this
        engine, vault and provider; proxy_changed says how it went."""
        if self.proxy is not None:
            return
        if not self.vault_is_open():
            self.proxy_error = "Unlock the vault first: the proxy keeps its maps and audit log there."
            self.proxy_changed.emit()
            return
        settings = copy.deepcopy(self.settings)

        def work() -> Any:
            from agent.providers import params_from_settings, provider_from_settings
            from agent.serve.server import ProxyServer, load_or_create_token

            self.engine.warm_up()
            server = ProxyServer(
                self.engine, self.store, provider_from_settings(settings, vault=self.store), port=settings.server.port,
                token=load_or_create_token(self.store), params=params_from_settings(settings),
                unknown_fields=settings.server.unknown_fields,
            )
            return server.start()

        def done(server: Any) -> None:
            self.proxy, self.proxy_error = server, ""
            self.proxy_changed.emit()

        def failed(exc: BaseException) -> None:
            self.proxy, self.proxy_error = None, f"The local proxy did not start: {exc}"
            self.proxy_changed.emit()

        self.background.submit(work, done, failed)

    def stop_proxy(self) -> None:
        server, self.proxy = self.proxy, None
        if server is not None:
            server.stop()
        self.proxy_changed.emit()

    def proxy_token(self, *, rotate: bool = False) -> str | None:
        """The proxy's bearer token (kept in the vault), for the settings to show."""
        if not self.vault_is_open():
            return None
        from agent.serve.server import load_or_create_token

        return load_or_create_token(self.store, rotate=rotate)

    def shutdown(self) -> None:
        if self.proxy is not None:
            self.stop_proxy()
        self.background.shutdown()
        if self.engine is not None and self._own_engine:
            self.engine.close()
        if self.store is not None:
            try:
                self.store.close()
            except Exception:
                log.exception("closing the vault")


def _apply_model_release(settings: Settings) -> None:
    """The local provider's model lives in this process: free it when idle, as set."""
    try:
        from models.runtime import set_idle_release
    except ImportError:  # a build without llama.cpp: no local model to free
        return
    set_idle_release(settings.local_model.release_after_minutes * 60)
