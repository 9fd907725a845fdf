"""`veil sanitize` and `veil restore`: stdin -> stdout, for scripts and outside harnesses,
one text at a time or JSON lines. A passphrase-mode vault asks for its passphrase on the
terminal even when stdin is a pipe (agent.cli.terminal_available)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from agent.cli import (
    NO_TERMINAL,
    CliError,
    check_conversation_id,
    conversation_for,
    read_stdin_text,
    terminal_available,
)

if TYPE_CHECKING:
    from agent.engine.interface import PrivacyEngine
    from agent.session.stores import ConversationStore


def register(subcommands: argparse._SubParsersAction) -> None:
    p = subcommands.add_parser(
        "sanitize",
        help="replace personal data in stdin with stand-ins",
        description="Reads text on stdin, writes the sanitized text on stdout. The map is kept in the "
        "vault under a conversation id (printed on stderr, or in the JSON) for `veil restore`.",
    )
    p.add_argument("--conversation", metavar="ID", help="reuse (or create) this conversation's map")
    p.add_argument("--json", action="store_true", help="print a JSON object with sanitized text and entities")
    p.add_argument(
        "--fast",
        action="store_true",
        help="rules, NER and the judge's trained head only: never the local model, whatever the settings say",
    )
    p.add_argument(
        "--jsonl",
        action="store_true",
        help='read JSON lines {"id", "text", "conversation"?} and write one line '
        '{"id", "sanitized", "entities"} per input, flushed after each',
    )
    p.set_defaults(func=run_sanitize)

    r = subcommands.add_parser(
        "restore",
        help="put real values back into an LLM answer on stdin",
        description="Reads an answer on stdin and writes it with the conversation's real values restored.",
    )
    r.add_argument("--conversation", metavar="ID", help="the conversation the answer belongs to (needed "
                   "unless each --jsonl line names its own)")
    r.add_argument("--json", action="store_true", help="print a JSON object with the restored text and spans")
    r.add_argument(
        "--jsonl",
        action="store_true",
        help='read JSON lines {"id", "conversation", "text"} (the answers to `veil sanitize --jsonl`) and write '
        'one line {"id", "restored"} per input, flushed after each; a bad line gets {"id", "error"} and the '
        "rest go on",
    )
    r.set_defaults(func=run_restore)


def open_store(*, memory_ok: bool = False):
    """The vault; in passphrase mode the passphrase comes from VEIL_PASSPHRASE or is asked
    on the terminal (also when stdin is a pipe). No way to get it is an error that says
    what to do: sanitizing into a map that is then thrown away would make the next
    `veil restore` fail. `memory_ok` (veil send / chat, which restore in the same process):
    an in-memory store with a warning instead, nothing kept after the command."""
    from agent.vault import (
        PassphraseRequired,
        VaultError,
        open_default_store,
        open_default_store_or_memory,
    )

    try:
        if memory_ok:
            return open_default_store_or_memory(interactive=terminal_available())
        return open_default_store(interactive=terminal_available())
    except PassphraseRequired:
        raise CliError(NO_TERMINAL) from None
    except VaultError as exc:
        raise CliError(str(exc)) from None


def build_engine(store=None, *, fast: bool = False):
    """The engine for the saved settings, with the protection lists kept in the vault
    when `store` is the vault (they are not in config.toml). `fast`: no local-model task."""
    from agent.config import ConfigError
    from agent.engine.core import build_engine as engine_for
    from agent.vault.lists import settings_for

    try:
        settings = settings_for(store)
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    if fast:
        settings.local_model.tasks = []
        settings.detectors.local_llm = False
        settings.substitution_level = min(settings.substitution_level, 1)
    return engine_for(settings)


def get_or_create(store, conversation_id: str | None):
    """Kept for callers of the old name: agent.cli.conversation_for is the rule."""
    return conversation_for(store, conversation_id)


def run_sanitize(args: argparse.Namespace) -> int:
    return _with_engine_and_store(_sanitize, args)


def _with_engine_and_store(command, args: argparse.Namespace) -> int:
    store = open_store()
    try:
        return command(args, build_engine(store, fast=getattr(args, "fast", False)), store)
    finally:
        _close(store)


def _close(store) -> None:
    """Fold the vault's write-ahead log back into the file (a MemoryStore has nothing)."""
    close = getattr(store, "close", None)
    if close is not None:
        close()


def _sanitize(args: argparse.Namespace, engine: PrivacyEngine, store: ConversationStore) -> int:
    from agent.engine.core import InputRejected
    from agent.session.conversation import MapConflict
    from agent.session.stored_sanitize import sanitize_and_save

    if args.jsonl:
        return _sanitize_lines(engine, store)
    text = read_stdin_text()
    conversation = conversation_for(store, args.conversation)
    try:
        result = sanitize_and_save(engine, store, conversation, text)
    except (InputRejected, MapConflict) as exc:
        raise CliError(str(exc)) from None
    for warning in result.warnings:
        print(f"veil: warning: {warning}", file=sys.stderr)
    if args.json:
        out = result.to_json() | {"conversation": conversation.id}
        json.dump(out, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(result.sanitized)
        if args.conversation is None:
            print(f"veil: conversation {conversation.id}", file=sys.stderr)
    return 0


def _sanitize_lines(engine: PrivacyEngine, store: ConversationStore) -> int:
    """One JSON object per line in and out, flushed per line, so a harness can drive it."""
    from agent.engine.core import InputRejected
    from agent.session.conversation import MapConflict
    from agent.session.stored_sanitize import sanitize_and_save

    conversations: dict[str, object] = {}
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        item = None
        try:
            item = json.loads(line)
            text = item["text"]
            if not isinstance(text, str):
                raise TypeError("text must be a string")
        except (ValueError, KeyError, TypeError) as exc:
            line_id = item.get("id") if isinstance(item, dict) else None
            out = {"id": line_id, "error": f"line {number}: expected a JSON object with a text string ({exc})"}
            print(json.dumps(out), flush=True)
            continue
        try:  # one bad line gets its error; the batch goes on
            conversation_id = item.get("conversation")
            if conversation_id is not None:
                conversation_id = check_conversation_id(conversation_id)
                conversation = conversations.get(conversation_id) or conversation_for(store, conversation_id)
                conversations[conversation_id] = conversation
            else:
                conversation = conversation_for(store, None)
        except CliError as exc:
            print(json.dumps({"id": item.get("id"), "error": f"line {number}: {exc}"}), flush=True)
            continue
        try:
            result = sanitize_and_save(engine, store, conversation, text)
            out = {"id": item.get("id"), "sanitized": result.sanitized,
                   "entities": [e.to_json() for e in result.entities], "conversation": conversation.id}
        except (InputRejected, MapConflict) as exc:
            out = {"id": item.get("id"), "error": str(exc)}
        print(json.dumps(out, ensure_ascii=False), flush=True)
    return 0


def run_restore(args: argparse.Namespace) -> int:
    return _with_engine_and_store(_restore, args)


def _restore(args: argparse.Namespace, engine: PrivacyEngine, store: ConversationStore) -> int:
    from agent.engine.core import InputRejected

    if args.jsonl:
        return _restore_lines(args, engine, store)
    if args.conversation is None:
        raise CliError("restore needs --conversation ID (the id `veil sanitize` printed), or --jsonl")
    text = read_stdin_text()
    conversation = conversation_for(store, args.conversation, create=False)
    try:
        result = engine.restore(text, conversation)
    except InputRejected as exc:
        raise CliError(str(exc)) from None
    if args.json:
        json.dump(result.to_json(), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(result.text)
    if result.unrestored:
        print(f"veil: warning: stand-ins left in the answer: {', '.join(result.unrestored)}", file=sys.stderr)
    return 0


def _restore_lines(args: argparse.Namespace, engine: PrivacyEngine, store: ConversationStore) -> int:
    """{"id", "conversation", "text"} lines in, {"id", "restored"} lines out (with
    "unrestored" when stand-ins are left), flushed per line; a bad line gets
    {"id", "error"} and the batch goes on."""
    from agent.engine.core import InputRejected

    conversations: dict[str, object] = {}
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        item = None
        try:
            item = json.loads(line)
            if not isinstance(item, dict) or not isinstance(item.get("text"), str):
                raise CliError('expected a JSON object with a "text" string')
            conversation_id = check_conversation_id(item.get("conversation", args.conversation))
            conversation = conversations.get(conversation_id)
            if conversation is None:
                conversation = conversations[conversation_id] = conversation_for(store, conversation_id, create=False)
            result = engine.restore(item["text"], conversation)
        except (ValueError, CliError, InputRejected) as exc:
            line_id = item.get("id") if isinstance(item, dict) else None
            why = "no conversation: give it in the line or with --conversation" if (
                isinstance(item, dict) and item.get("conversation", args.conversation) is None) else str(exc)
            print(json.dumps({"id": line_id, "error": f"line {number}: {why}"}, ensure_ascii=False), flush=True)
            continue
        out = {"id": item.get("id"), "restored": result.text}
        if result.unrestored:
            out["unrestored"] = list(result.unrestored)
        print(json.dumps(out, ensure_ascii=False), flush=True)
    return 0
