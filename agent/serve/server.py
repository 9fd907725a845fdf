"""The proxy as a server: uvicorn on a socket bound here, in a background thread (for
the tray) or in the foreground (for `veil serve`).

    server = ProxyServer(engine, store, provider, port=0, token=load_or_create_token(store))
    server.start()            # returns once it accepts connections; server.url, server.port
    ...
    server.stop()             # one start/stop per ProxyServer: make a new one to start again

The engine, store and provider stay the caller's (they are not closed by stop()).

Binding is checked before anything listens: a non-loopback address is refused unless
`allow_remote` is set (and every request needs the token either way).
"""

from __future__ import annotations

import ipaddress
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable

from agent.engine.interface import PrivacyEngine
from agent.providers.base import GenerationParams, Provider
from agent.serve.app import build_app
from agent.serve.proxy import PrivacyProxy, ProxyStore
from agent.serve.threads import SettingsStore
from agent.serve.upstream import Upstream, upstream_for

log = logging.getLogger("veil.serve")

DEFAULT_HOST = "127.0.0.1"
# The vault setting that holds the proxy's token (encrypted with the vault; the desktop
# settings read it from there to show it).
TOKEN_SETTING = "serve.token"
MIN_TOKEN_CHARS = 16


class ServeError(Exception):
    """The proxy cannot start (the message says why)."""


class RemoteBindRefused(ServeError):
    """A non-loopback address without allow_remote."""


def new_token() -> str:
    return "veil-" + secrets.token_urlsafe(32)


def load_or_create_token(store: SettingsStore, *, token: str | None = None, rotate: bool = False) -> str:
    """The proxy's token: `token` when given, else the one kept in the vault, else a new
    one. Whatever is used is kept in the vault, so clients set up once keep working after
    a restart and the settings can show it."""
    if token is not None:
        token = token.strip()
        if len(token) < MIN_TOKEN_CHARS:
            raise ServeError(f"the token must be at least {MIN_TOKEN_CHARS} characters")
    if token is None and not rotate:
        stored = store.get_setting(TOKEN_SETTING)
        if isinstance(stored, str) and len(stored) >= MIN_TOKEN_CHARS:
            return stored
    token = token or new_token()
    store.set_setting(TOKEN_SETTING, token)
    return token


def is_loopback(host: str) -> bool:
    """True when every address `host` names is on this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(info[4][0].split("%")[0]).is_loopback for info in infos)


def bind_socket(host: str, port: int) -> socket.socket:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        raise ServeError(f"cannot resolve {host!r}: {exc}") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if os.name != "nt":  # quick restarts; on Windows the option lets others take the port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(256)
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.setblocking(False)
    return sock


class ProxyServer:
    def __init__(
        self,
        engine: PrivacyEngine,
        store: ProxyStore,
        provider: Provider | Upstream,
        *,
        host: str = DEFAULT_HOST,
        port: int = 0,
        token: str,
        allow_remote: bool = False,
        params: GenerationParams | None = None,
        access_log: bool = False,
        default_conversation: str | None = None,
        unknown_fields: str = "sanitize",
        extra_hosts: tuple[str, ...] = (),
    ):
        if not token or len(token) < MIN_TOKEN_CHARS:
            raise ServeError(f"the proxy needs a token of at least {MIN_TOKEN_CHARS} characters")
        if not is_loopback(host) and not allow_remote:
            raise RemoteBindRefused(
                f"refusing to listen on {host}: other machines could reach the proxy. "
                "Use 127.0.0.1, or pass --allow-remote (every request still needs the token)"
            )
        self.host = host
        self.requested_port = port
        self.token = token
        self.upstream = provider if isinstance(provider, Upstream) else upstream_for(provider, params)
        # Requests without an X-Veil-Conversation header go to default_conversation when
        # set, else to a conversation derived from their first messages.
        # Fields of a request that Veil does not know: "sanitize" every string in them, or
        # "refuse" the request (agent.serve.fields).
        self.proxy = PrivacyProxy(engine, store, self.upstream, default_conversation=default_conversation,
                                  unknown_fields=unknown_fields)
        # Requests must name this server in Host (DNS rebinding); extra_hosts adds names
        # a remote setup is reached by.
        self.app = build_app(self.proxy, token, host=host, extra_hosts=tuple(extra_hosts))
        self.access_log = access_log
        self.port: int | None = None
        self._server = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None

    @property
    def url(self) -> str:
        """The base URL for OpenAI clients (…/v1)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/v1"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _prepare(self, *, embedded: bool):
        import uvicorn

        self._socket = bind_socket(self.host, self.requested_port)
        self.port = self._socket.getsockname()[1]
        self.app.bind(self.port)
        extra = {"log_config": None} if embedded else {}  # in the app: leave its logging alone
        config = uvicorn.Config(
            self.app,
            **extra,
            log_level="info" if self.access_log else "warning",
            access_log=self.access_log,
            lifespan="off",
            timeout_graceful_shutdown=5,
            timeout_keep_alive=30,
            server_header=False,
        )
        self._server = uvicorn.Server(config)
        return self._server

    def start(self, timeout: float = 10.0) -> ProxyServer:
        """Listen and serve in a background thread; returns once connections are accepted.
        Raises ServeError (address in use...)."""
        if self.running:
            return self
        server = self._prepare(embedded=True)
        self._thread = threading.Thread(target=server.run, kwargs={"sockets": [self._socket]},
                                        name="veil-serve", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not server.started and self._thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        if not server.started:
            self.stop()
            raise ServeError("the proxy did not start (see the log)")
        return self

    def serve_forever(self, on_listening: Callable[[], None] | None = None) -> None:
        """Serve in this thread until Ctrl-C / SIGTERM (uvicorn handles the signals).
        `on_listening` runs once the port is bound (self.port is then the real one)."""
        server = self._prepare(embedded=False)
        try:
            if on_listening is not None:
                on_listening()
            server.run(sockets=[self._socket])
        finally:
            self._release()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop accepting, let running answers end (cut after a few seconds), free the port."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive() and self._server is not None:
                self._server.force_exit = True
                self._thread.join(2.0)
            self._thread = None
        self._release()

    def _release(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        self.upstream.close()

    def __enter__(self) -> ProxyServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
