"""`veil sanitize` and `veil restore`: stdin -> stdout, for scripts and outside harnesses."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from agent.cli import CliError, read_stdin_text

if TYPE_CHECKING:
    from agent.engine.interface import PrivacyEngine
    from agent.session.conversation import ConversationStore


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
    r.add_argument("--conversation", metavar="ID", required=True, help="the conversation the answer belongs to")
    r.add_argument("--json", action="store_true", help="print a JSON object with the restored text and spans")
    r.set_defaults(func=run_restore)


def open_store():
    from agent.vault import VaultError, open_default_store_or_memory

    try:
        return open_default_store_or_memory(interactive=sys.stdin.isatty())
    except VaultError as exc:
        raise CliError(str(exc)) from None


def build_engine():
    from agent.config import ConfigError, load_settings
    from agent.engine.core import build_engine as engine_for

    try:
        settings = load_settings()
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    return engine_for(settings)


def get_or_create(store, conversation_id: str | None):
    from agent.session.conversation import ConversationNotFound

    if conversation_id is None:
        return store.create_conversation()
    try:
        return store.load_conversation(conversation_id)
    except ConversationNotFound:
        return store.create_conversation(conversation_id=conversation_id)


def run_sanitize(args: argparse.Namespace) -> int:
    return _with_engine_and_store(_sanitize, args)


def _with_engine_and_store(command, args: argparse.Namespace) -> int:
    engine = build_engine()
    store = open_store()
    try:
        return command(args, engine, store)
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
    conversation = get_or_create(store, args.conversation)
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
        conversation_id = item.get("conversation")
        if conversation_id is not None and (isinstance(conversation_id, bool) or not isinstance(conversation_id, (str, int))):
            # One bad line gets its error; the batch goes on.
            out = {"id": item.get("id"), "error": f"line {number}: conversation must be a string id"}
            print(json.dumps(out), flush=True)
            continue
        if conversation_id is not None:
            conversation_id = str(conversation_id)
            conversation = conversations.get(conversation_id) or get_or_create(store, conversation_id)
            conversations[conversation_id] = conversation
        else:
            conversation = store.create_conversation()
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
    from agent.session.conversation import ConversationNotFound
    from agent.engine.core import InputRejected

    text = read_stdin_text()
    try:
        conversation = store.load_conversation(args.conversation)
    except ConversationNotFound:
        raise CliError(f"no conversation {args.conversation!r} in the vault") from None
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
