"""`veil <command>`: the command-line entry points. Each command lives in its own module
with a `register(subcommands)` function; heavy imports happen inside the handlers so
that `veil --help` and the tray start stay fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from agent import __version__

# Modules that register subcommands, in the order they appear in --help.
COMMAND_MODULES = (
    "agent.cli.text",  # sanitize, restore
    "agent.cli.bench",  # bench
    "agent.cli.vault",  # vault status|list|lock|unlock|passphrase|export|wipe|reset|bench
    "agent.cli.send",  # send, chat
    "agent.cli.serve",  # serve (local OpenAI-compatible proxy)
    "agent.cli.files",  # files sanitize|restore|projects|bench (documents and transcripts)
)  # then the local-model plug-in's own: models list|download|use|info|remove


class CliError(Exception):
    """A user-facing error: printed as one line, exit code 2, no traceback."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="veil",
        description="Veil: swaps personal data for stand-ins before text reaches an LLM, "
        "and puts it back in the answer. With no command, starts the desktop app.",
    )
    parser.add_argument("--version", action="version", version=f"veil {__version__}")
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="check this installation: sanitize -> local model answer -> restore on a temporary "
        "vault, print a summary; exit 0 when everything works",
    )
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subcommands)
    from agent.engine.local_tasks import find_local_models

    local_models = find_local_models()
    if local_models is not None:
        local_models.register_commands(subcommands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.self_test:
        from agent.selftest import run_self_test

        return run_self_test()
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except CliError as exc:
        print(f"veil: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        if not _expected_failure(exc):
            raise
        print(f"veil: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def _expected_failure(exc: BaseException) -> bool:
    """A failure the message of which says what to do (a damaged, busy or locked vault
    met in the middle of a command): printed as one line, no traceback. Checked without
    importing the vault: when its module is not loaded, exc cannot be one of its errors."""
    errors = sys.modules.get("agent.vault.errors")
    conversation = sys.modules.get("agent.session.conversation")
    return (errors is not None and isinstance(exc, errors.VaultError)) or (
        conversation is not None and isinstance(exc, conversation.MapConflict)
    )


def read_stdin_text() -> str:
    """All of stdin as text; a clear error for input that is not UTF-8."""
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CliError(
            f"input is not UTF-8 text (invalid byte at position {exc.start}); "
            "Veil sanitizes text, not binary files"
        ) from None
