"""`veil vault status | list | lock | unlock | passphrase | export | wipe | reset | bench`."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from agent.cli import CliError


def register(subcommands: Any) -> None:
    parser = subcommands.add_parser(
        "vault",
        help="the encrypted vault: status, lock, unlock, passphrase, export, wipe",
        description="The encrypted vault (SQLCipher) that keeps conversations and the map "
        "between real values and stand-ins. Its key is in the OS keyring, or comes from a "
        "passphrase (prompted, or VEIL_PASSPHRASE: less safe).",
    )
    parser.set_defaults(func=lambda args: _help(parser))
    actions = parser.add_subparsers(dest="vault_command", metavar="ACTION")

    p = actions.add_parser(
        "status", help="where the vault is, how its key is kept, what it holds",
        description="Exit status: 0 unlocked (or not created yet), 1 damaged or unusable, 3 locked "
        "(a passphrase is needed: `veil vault unlock`, or VEIL_PASSPHRASE).",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_status)

    p = actions.add_parser("list", help="list the conversations in the vault")
    p.set_defaults(func=_list)

    p = actions.add_parser("lock", help="make every running Veil process lock the vault")
    p.set_defaults(func=_lock)

    p = actions.add_parser(
        "unlock", help="check that the key opens the vault; running processes that need no typing unlock again"
    )
    p.set_defaults(func=_unlock)

    p = actions.add_parser(
        "passphrase",
        help="set or change the vault passphrase (re-encrypts the vault; no data loss)",
        description="Re-encrypt the vault under a new passphrase. The current key comes from "
        "the keyring or the current passphrase (prompt or VEIL_PASSPHRASE).",
    )
    p.add_argument("--stdin", action="store_true", help="read the new passphrase from the first line of stdin")
    p.add_argument(
        "--keyring",
        action="store_true",
        help="instead of a passphrase, keep a new random key in the OS keyring",
    )
    p.set_defaults(func=_passphrase)

    p = actions.add_parser(
        "export",
        help="export a conversation as JSON (what was sent and received; real values only with --include-real)",
    )
    p.add_argument("conversation", nargs="?", help="conversation id (see `veil vault list`)")
    p.add_argument("--all", action="store_true", help="export every conversation")
    p.add_argument(
        "--include-real",
        action="store_true",
        help="also export real values: what you typed, what was shown, the entity map, your choices",
    )
    p.add_argument("-o", "--output", help="write to this file (created readable by you only) instead of stdout")
    p.set_defaults(func=_export)

    p = actions.add_parser(
        "wipe",
        help="delete the vault and its key (asks for confirmation unless --yes)",
        description="Deletes every conversation, map and log entry: the contents are overwritten "
        "when the key is at hand, then the files and the key are deleted. A new empty vault is "
        "created on next use.",
    )
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p.set_defaults(func=_wipe)

    p = actions.add_parser(
        "reset",
        help="move the current vault aside (damaged, or passphrase forgotten) and start a fresh one",
    )
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p.set_defaults(func=_reset)

    p = actions.add_parser("bench", help="measure vault write/read throughput on a throw-away vault")
    p.add_argument("--messages", type=int, default=1000)
    p.add_argument("--threads", type=int, default=4)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_bench)


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _interactive() -> bool:
    return sys.stdin.isatty()


def _open(*, interactive: bool, create: bool = True, retention: bool = True):
    """The user's vault, or CliError with the vault's own message."""
    from agent.config import ConfigError, load_settings
    from agent.vault import VaultError, VaultStore, default_vault_path

    try:
        settings = load_settings()
    except ConfigError as exc:
        raise CliError(str(exc)) from exc
    try:
        store = VaultStore(default_vault_path(), interactive=interactive, create=create)
        if retention and settings.vault.retention_days > 0:
            store.apply_retention(settings.vault.retention_days)
        return store
    except VaultError as exc:
        raise CliError(str(exc)) from exc


def _status(args: argparse.Namespace) -> int:
    from agent.vault import PASSPHRASE_ENV, VaultError, VaultStore, describe_vault

    info = describe_vault()
    out: dict[str, Any] = {
        "path": str(info.path),
        "exists": info.exists,
        "size_bytes": info.size_bytes,
        "mode": info.header.mode if info.header else None,
        "keyring_backend": info.keyring.backend,
        "keyring_usable": info.keyring.usable,
        "keyring_problem": info.keyring.reason,
        "passphrase_from_environment": bool(os.environ.get(PASSPHRASE_ENV)),
        "state": "absent",
    }
    code = 0
    if info.header_problem:
        out["state"], out["problem"], code = "damaged", info.header_problem, 1
    elif info.exists or info.header or info.size_bytes:
        try:
            # Never prompts: status must work in scripts; `veil vault unlock` asks.
            with VaultStore(info.path, create=False) as store:
                st = store.status()
            out.update(
                state="unlocked",
                vault_id=st.vault_id,
                schema_version=st.schema_version,
                conversations=st.conversations,
                messages=st.messages,
                entities=st.entities,
                audit_entries=st.audit_entries,
                created_at=st.created_at,
            )
        except VaultError as exc:
            state = _state_of(exc)
            out["state"], out["problem"] = state, str(exc)
            code = 3 if state == "locked" else 1  # scripts can tell "needs the passphrase" from "broken"
    if args.json:
        print(json.dumps(out, indent=2))
        return code
    print(f"vault:    {out['path']} ({'exists' if out['exists'] else 'not created yet'}, {out['size_bytes']} bytes)")
    keyring_line = out["keyring_backend"] + ("" if out["keyring_usable"] else f" (not usable: {out['keyring_problem']})")
    print(f"keyring:  {keyring_line}")
    if out["mode"]:
        how = "key in the OS keyring" if out["mode"] == "keyring" else "passphrase (scrypt)"
        print(f"key:      {how}")
    print(f"state:    {out['state']}")
    if "conversations" in out:
        print(
            f"contents: {out['conversations']} conversations, {out['messages']} messages, "
            f"{out['entities']} map entries, {out['audit_entries']} audit entries (schema v{out['schema_version']})"
        )
    if "problem" in out:
        print(f"problem:  {out['problem']}")
    return code


def _state_of(exc: Exception) -> str:
    from agent.vault import KeyUnavailable, VaultCorrupt, VaultMissing, WrongKey

    if isinstance(exc, KeyUnavailable):
        return "locked"
    if isinstance(exc, WrongKey):
        return "wrong key"
    if isinstance(exc, VaultMissing):
        return "missing"
    if isinstance(exc, VaultCorrupt):
        return "damaged"
    return "unavailable"


def _list(args: argparse.Namespace) -> int:
    with _open(interactive=_interactive(), create=False) as store:
        summaries = store.list_conversations()
    if not summaries:
        print("no conversations", file=sys.stderr)
        return 0
    width = max(len("ID"), *(len(s.id) for s in summaries))
    print(f"{'ID':<{width}}  {'UPDATED':<16}  {'MESSAGES':>12}  TITLE")
    for s in summaries:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(s.updated_at))
        count = f"{s.message_count} message{'' if s.message_count == 1 else 's'}"
        print(f"{s.id:<{width}}  {when:<16}  {count:>12}  {s.title or '(untitled)'}")
    return 0


def _lock(args: argparse.Namespace) -> int:
    from agent.vault import VaultError, default_vault_path, request_lock

    try:
        request_lock(default_vault_path(), "lock")
    except VaultError as exc:
        raise CliError(str(exc)) from exc
    print("Asked every running Veil process to lock the vault (they ask for the key again before using it).")
    return 0


def _unlock(args: argparse.Namespace) -> int:
    from agent.vault import default_vault_path, request_lock

    with _open(interactive=_interactive(), create=False, retention=False) as store:
        st = store.status()
    request_lock(default_vault_path(), "unlock")
    print(f"The key opens the vault ({st.conversations} conversations).")
    if st.mode == "passphrase" and not os.environ.get("VEIL_PASSPHRASE"):
        print("Running Veil apps in passphrase mode ask for the passphrase themselves.")
    return 0


def _read_new_passphrase(args: argparse.Namespace) -> str | None:
    if args.stdin:
        line = sys.stdin.readline().rstrip("\r\n")
        if not line.strip():
            raise CliError("no passphrase on stdin")
        return line
    if not _interactive():
        raise CliError("no terminal to ask for the new passphrase: use --stdin")
    return None  # the store prompts (twice)


def _passphrase(args: argparse.Namespace) -> int:
    from agent.vault import VaultError

    new = None if args.keyring else _read_new_passphrase(args)
    # With --stdin the current passphrase must come from VEIL_PASSPHRASE or the terminal.
    can_prompt = _interactive() or (args.stdin and sys.stderr.isatty())  # getpass uses the terminal
    with _open(interactive=can_prompt, create=False, retention=False) as store:
        try:
            if args.keyring:
                store.change_key("keyring")
            else:
                store.change_key("passphrase", passphrase=new, interactive=new is None)
        except VaultError as exc:
            raise CliError(str(exc)) from exc
        mode = store.mode
    if mode == "keyring":
        print("The vault was re-encrypted; its key is now in the OS keyring.")
    else:
        print("The vault was re-encrypted under the new passphrase.")
    return 0


def _export(args: argparse.Namespace) -> int:
    from agent.session.conversation import ConversationNotFound

    if not args.all and not args.conversation:
        raise CliError("name a conversation id (see `veil vault list`) or use --all")
    with _open(interactive=_interactive(), create=False) as store:
        try:
            ids = [s.id for s in store.list_conversations()] if args.all else [args.conversation]
            data: Any = [store.export_conversation(i, include_real=args.include_real) for i in ids]
        except ConversationNotFound as exc:
            raise CliError(str(exc)) from exc
    if not args.all:
        data = data[0]
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if args.output:
        from agent.vault.private_files import write_private_file

        try:  # a new 0600 file, never through a symlink (it may hold real values)
            write_private_file(args.output, text)
        except OSError as exc:
            raise CliError(f"cannot write {args.output}: {exc.strerror or exc}") from exc
        print(f"exported {len(ids)} conversation(s) to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _confirm(args: argparse.Namespace, question: str, word: str) -> None:
    if args.yes:
        return
    if not _interactive():
        raise CliError(f"refusing without confirmation: stdin is not a terminal; add --yes to {word} the vault")
    answer = input(f"{question} Type '{word}' to confirm: ")
    if answer.strip().lower() != word:
        raise CliError("cancelled; nothing was changed")


def _wipe(args: argparse.Namespace) -> int:
    from agent.vault import (
        VaultError,
        VaultStore,
        default_vault_path,
        describe_vault,
        destroy_vault,
    )

    info = describe_vault()
    if not info.exists and info.header is None:
        print(f"there is no vault at {info.path}; nothing to wipe")
        return 0
    _confirm(args, f"This deletes every conversation and map in {info.path}, for good.", "wipe")
    try:
        # Overwrite the contents first when the key is at hand without asking (keyring,
        # VEIL_PASSPHRASE); deleting the files and the key is what makes it final anyway.
        with VaultStore(default_vault_path(), create=False) as store:
            store.wipe()
    except VaultError:
        pass
    try:
        removed = destroy_vault(default_vault_path())
    except (OSError, VaultError) as exc:
        raise CliError(f"could not wipe the vault: {exc}") from exc
    print(f"wiped: removed {', '.join(p.name for p in removed) or 'nothing'} and the vault key")
    return 0


def _reset(args: argparse.Namespace) -> int:
    from agent.vault import default_vault_path, describe_vault, move_vault_aside

    info = describe_vault()
    if not info.exists and info.header is None and not info.size_bytes:
        print(f"there is no vault at {info.path}; a fresh one is created on first use")
        return 0
    _confirm(args, f"This moves {info.path} aside (it is kept) and starts a fresh, empty vault.", "reset")
    try:
        aside = move_vault_aside(default_vault_path(), reason="reset")
    except OSError as exc:
        raise CliError(f"could not move the vault aside: {exc}") from exc
    print(f"the old vault is now {aside} (kept, with its header); a fresh vault is created on next use")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from agent.vault.bench import run_bench

    result = run_bench(args.messages, args.threads)
    if args.json:
        print(json.dumps(result.as_dict(), indent=2))
        return 0
    print(f"vault bench: {result.messages} messages of {result.message_chars} chars, synchronous={result.synchronous}")
    print(f"  write, 1 thread, 1 transaction/message: {result.write_one_thread_per_s:10.0f} messages/s")
    print(f"  write turns (message + 2 map entries):  {result.write_turns_per_s:10.0f} turns/s")
    print(f"  write, {result.threads} threads at once:              {result.write_concurrent_per_s:10.0f} messages/s")
    print(f"  read (list_messages):                   {result.read_messages_per_s:10.0f} messages/s")
    print(f"  load a conversation ({result.messages // 2 * 2} map entries):   {result.load_conversation_ms:10.2f} ms")
    print(f"  open (scrypt N=2^14, checks):           {result.open_ms:10.1f} ms")
    print(f"  page check at open ({result.file_mb:.1f} MB file):       {result.quick_check_ms:10.1f} ms")
    return 0
