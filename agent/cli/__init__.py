"""`veil <command>`: the command-line entry points. Each command lives in its own module
with a `register(subcommands)` function; heavy imports happen inside the handlers so
that `veil --help` and the tray start stay fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
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
    "agent.cli.clipboard",  # clipboard sanitize|restore|undo (asks the running desktop app)
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
    desktop = parser.add_argument_group("desktop app (instead of a COMMAND)")
    desktop.add_argument("--chat", action="store_true", help="start the desktop app and open the chat window "
                         "(a second `veil` brings the running one's window up)")
    desktop.add_argument("--tray", action="store_true", help="start the desktop app in the system tray only "
                         "(what autostart at login uses)")
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


def _never_fail_on_output_characters() -> None:
    """Under a legacy locale (Latin-1, say) stdout cannot encode a Cyrillic stand-in or the
    bench's check mark, and printing one would stop the command halfway: what is sent
    escaped (\\u0410) can still be read and piped; nothing is dropped."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        if encoding not in ("utf8", "utf8sig") and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _never_fail_on_output_characters()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.self_test:
        from agent.selftest import run_self_test

        return run_self_test()
    if args.chat or args.tray:
        # `veil --chat` / `veil --tray` reach the desktop app through the launcher
        # (desktop/launcher.py); mixed with a command they mean nothing.
        print("veil: --chat and --tray start the desktop app: use them alone (`veil --chat`)", file=sys.stderr)
        return 2
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except CliError as exc:
        print(f"veil: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`veil ... | head`): not an error
        return 0
    except Exception as exc:
        if not _expected_failure(exc):
            raise
        print(f"veil: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


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


# -- the terminal, for passphrases -----------------------------------------------------------------
def terminal_available() -> bool:
    """Whether a passphrase can be asked on the terminal even when stdin is a pipe
    (`echo ... | veil sanitize`): like ssh and gpg, Veil asks on the controlling terminal,
    /dev/tty, which getpass reads from. None in cron, CI or a service."""
    if os.name == "nt":
        return sys.stdin.isatty()  # getpass reads the console there
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return False
    os.close(fd)
    return True


NO_TERMINAL = ("there is no terminal to ask for the vault passphrase on (stdin is not a terminal and "
               "/dev/tty cannot be opened); run it from a terminal, or set VEIL_PASSPHRASE for scripts and "
               "services (less safe: other programs running as you can read it)")


# -- conversation ids -------------------------------------------------------------------------------
_CONVERSATION_ID = re.compile(r"^[^\s\x00-\x1f\x7f][^\x00-\x1f\x7f]{0,127}(?<!\s)$")


def check_conversation_id(value: object) -> str:
    """The one rule for a conversation id given on the command line (sanitize, restore,
    send, chat, JSON lines): 1-128 characters, no control characters, no space at either
    end; a JSON number is taken as its digits. Returns the id; CliError says why not."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise CliError("a conversation id must be a string")
    text = str(value)
    if not _CONVERSATION_ID.match(text):
        raise CliError(f"conversation id {text!r}: use 1-128 characters, no control characters and "
                       "no space at either end")
    return text


def conversation_for(store, conversation_id: object | None, *, create: bool = True, origin: str = "cli"):
    """The conversation to use: a new one (None), the stored one with this id, or, when
    `create`, a new one under the id (what `veil sanitize --conversation ID` and
    `veil send --conversation ID` both do). Created ones are marked as coming from the
    command line, so the chat window's list does not fill with them."""
    from agent.session.conversation import ConversationNotFound

    if conversation_id is None:
        return _create(store, None, origin)
    conversation_id = check_conversation_id(conversation_id)
    try:
        return store.load_conversation(conversation_id)
    except ConversationNotFound:
        if not create:
            raise CliError(f"no conversation {conversation_id!r} in the vault") from None
        return _create(store, conversation_id, origin)


def _create(store, conversation_id: str | None, origin: str):
    return store.create_conversation(conversation_id=conversation_id, origin=origin)
