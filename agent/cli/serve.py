"""`veil serve`: the local OpenAI-compatible privacy proxy (see agent/serve)."""

from __future__ import annotations

import argparse
import copy
import signal
import sys

from agent.cli import CliError


def register(subcommands: argparse._SubParsersAction) -> None:
    from agent.cli.send import add_provider_options

    p = subcommands.add_parser(
        "serve",
        help="local OpenAI-compatible endpoint that sanitizes requests and restores answers",
        description="Listens on 127.0.0.1 for OpenAI Chat Completions requests (streaming or not), "
        "swaps personal data in every message for stand-ins, forwards to the configured provider and "
        "puts the real values back into the answer, tool-call arguments included. Point any OpenAI "
        "client at the printed URL and use the printed token as its API key. The upstream is chosen "
        "like for `veil send`. Requests of one chat share stand-ins: the conversation comes from the "
        "X-Veil-Conversation header, else from the chat's opening and first answer.",
    )
    add_provider_options(p)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (default: [server] port in the settings; 0 = any free port)")
    p.add_argument("--token", metavar="TOKEN|-", help="bearer token clients must send; '-' reads it from the "
                   "first line of stdin (a value given here is visible to other users in `ps`: prefer '-' or "
                   "--token-file). Default: the one kept in the vault, or a new one")
    p.add_argument("--token-file", metavar="PATH", help="read the bearer token from this file (its first line)")
    p.add_argument("--new-token", action="store_true", help="make a new token (the old one stops working)")
    p.add_argument("--allow-remote", action="store_true",
                   help="allow listening on a non-loopback address (other machines; the token is still required)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a host name clients may reach the proxy by, besides its address and localhost "
                        "(with --allow-remote; requests naming any other host get 403: DNS rebinding)")
    p.add_argument("--access-log", action="store_true", help="log each request line (paths only, no content)")
    p.add_argument("--unknown-fields", choices=("sanitize", "refuse"),
                   help="request fields Veil does not know: sanitize every string in them, or refuse the request "
                        "(default: [server] unknown_fields in the settings, sanitize)")
    p.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    from agent.cli.send import apply_overrides
    from agent.config import ConfigError, load_settings
    from agent.engine.core import build_engine
    from agent.providers import (
        GenerationParams,
        ProviderError,
        params_from_settings,
        provider_from_settings,
    )
    from agent.providers.keys import KeyStoreError
    from agent.serve import ProxyServer, ServeError, is_loopback, load_or_create_token
    from agent.vault import VaultError, open_default_store

    if not (args.allow_remote or is_loopback(args.host)):
        raise CliError(f"refusing to listen on {args.host}: other machines could reach the proxy. Use 127.0.0.1, "
                       "or pass --allow-remote (every request still needs the token)")
    given_token = _token_from(args)
    try:
        settings = load_settings()
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    engine_settings = copy.deepcopy(settings)  # the engine as saved; the flags choose the upstream
    apply_overrides(settings, args)
    port = settings.server.port if args.port is None else args.port
    if not 0 <= port <= 65535:
        raise CliError(f"--port must be 0-65535, not {port}")
    try:
        # The proxy needs the vault: the map must outlive a request, and every request is audited.
        # It also fills engine_settings.lists: the protection lists are kept in the vault.
        store = open_default_store(interactive=sys.stdin.isatty(), settings=engine_settings)
    except VaultError as exc:
        raise CliError(f"{exc} (veil serve keeps its maps and audit log in the vault)") from None
    try:
        provider = provider_from_settings(settings, vault=store)  # the key may be kept in the vault
    except (ProviderError, KeyStoreError, ValueError) as exc:
        store.close()
        raise CliError(str(exc)) from None
    try:
        token = load_or_create_token(store, token=given_token, rotate=args.new_token)
        # An OpenAI-compatible upstream gets the client's own parameters; only the flags
        # given here fill in what a request leaves out. The others need the settings' values.
        if settings.provider.kind == "openai":
            params = GenerationParams(temperature=args.temperature, max_tokens=args.max_tokens)
        else:
            params = params_from_settings(settings)
        server = ProxyServer(build_engine(engine_settings), store, provider, host=args.host, port=port, token=token,
                             allow_remote=args.allow_remote, params=params,
                             access_log=args.access_log, default_conversation=args.conversation,
                             unknown_fields=args.unknown_fields or settings.server.unknown_fields,
                             extra_hosts=tuple(args.allow_host))
        server.proxy.engine.warm_up()  # the first request should not wait for spaCy
        model = provider.config.model or "the model each client asks for"
        # uvicorn stops gracefully on SIGINT/SIGTERM, then raises the signal again: both end here.
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            server.serve_forever(on_listening=lambda: print(
                f"veil: serving on {server.url} -> {provider.display_name} ({model})\n"
                f"veil: token (use it as the API key): {token}\n"
                "veil: the token is kept in the vault; --new-token replaces it. Ctrl-C stops.",
                flush=True,
            ))
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
        print("veil: stopped", file=sys.stderr)
        return 0
    except ServeError as exc:
        raise CliError(str(exc)) from None
    finally:
        provider.close()
        store.close()


def _token_from(args: argparse.Namespace) -> str | None:
    """--token -, --token-file PATH or --token VALUE (None: the vault's, or a new one)."""
    from pathlib import Path

    if args.token is not None and args.token_file is not None:
        raise CliError("give the token with --token or with --token-file, not both")
    if args.token_file is not None:
        path = Path(args.token_file)
        try:
            if path.stat().st_mode & 0o077 and sys.platform != "win32":
                print(f"veil: warning: {path} can be read by other users (chmod 600 it)", file=sys.stderr)
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise CliError(f"cannot read the token from {path}: {getattr(exc, 'strerror', None) or exc}") from None
        return _one_token(lines, str(path))
    if args.token == "-":
        return _one_token(sys.stdin.readline().splitlines(), "stdin")
    if args.token is not None:
        print("veil: warning: a token on the command line is visible to other users (ps); "
              "use --token - (stdin) or --token-file", file=sys.stderr)
    return args.token


def _one_token(lines: list[str], where: str) -> str:
    token = lines[0].strip() if lines else ""
    if not token:
        raise CliError(f"no token on the first line of {where}")
    return token


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
