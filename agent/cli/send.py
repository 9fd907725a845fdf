"""`veil send` (one shot, for scripts) and `veil chat` (a terminal chat): personal data is
swapped for stand-ins before the prompt leaves, and put back into the streamed answer."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from agent.cli import CliError, read_stdin_text

# ANSI: restored values are underlined in a terminal, like the highlight in the app.
_HIGHLIGHT = ("\x1b[4m", "\x1b[24m")


def add_provider_options(p: argparse.ArgumentParser) -> None:
    from agent.providers.choice import PROVIDER_KINDS

    p.add_argument("--provider", choices=PROVIDER_KINDS, help="provider kind (default: from the settings)")
    p.add_argument("--base-url", metavar="URL", help="endpoint, e.g. http://127.0.0.1:11434/v1 for Ollama")
    p.add_argument("--model", help="model name (default: from the settings)")
    p.add_argument("--conversation", metavar="ID", help="continue this conversation (its stand-ins are reused)")
    p.add_argument("--max-tokens", type=int, metavar="N", help="longest answer, in tokens")
    p.add_argument("--temperature", type=float, metavar="T")


def register(subcommands: argparse._SubParsersAction) -> None:
    send = subcommands.add_parser(
        "send",
        help="send stdin to the LLM with personal data swapped out; print the restored answer",
        description="Reads a prompt on stdin, sends it sanitized to the configured LLM and streams the "
        "answer to stdout with the real values put back. The API key comes from the system keyring "
        "(Settings) or the VEIL_API_KEY environment variable.",
    )
    add_provider_options(send)
    send.add_argument("--show-sent", action="store_true", help="also print exactly what was sent, on stderr")
    send.add_argument("--retry", action="store_true",
                      help="send the conversation's last failed or unsent message again (needs --conversation)")
    send.set_defaults(func=run_send)

    chat = subcommands.add_parser(
        "chat",
        help="terminal chat with personal data swapped out",
        description="A chat in the terminal on one conversation. Commands: /new (new conversation), "
        "/sent (show exactly what was sent last), /retry, /help, /quit. Ctrl-C stops an answer.",
    )
    add_provider_options(chat)
    chat.set_defaults(func=run_chat)


# -- shared setup ---------------------------------------------------------------------------------
class Session:
    """Engine, store, provider and sender for one command."""

    def __init__(self, args: argparse.Namespace):
        from agent.cli.text import build_engine, open_store
        from agent.config import ConfigError, load_settings
        from agent.providers import ProviderError, params_from_settings, provider_from_settings
        from agent.providers.keys import KeyStoreError
        from agent.session.sender import Sender

        try:
            settings = load_settings()
        except ConfigError as exc:
            raise CliError(str(exc)) from None
        apply_overrides(settings, args)
        self.settings = settings
        self.store = open_store(memory_ok=True)  # first: without a keyring the API key is kept in the vault
        try:
            self.provider = provider_from_settings(settings, vault=self.store)
        except (ProviderError, KeyStoreError, ValueError) as exc:
            close = getattr(self.store, "close", None)
            if close is not None:
                close()
            raise CliError(str(exc)) from None
        self.engine = build_engine(self.store)  # the protection lists are kept in the vault
        params = params_from_settings(settings)
        self.sender = Sender(self.engine, self.store, self.provider, params=params)

    def conversation(self, conversation_id: str | None, *, create: bool = True):
        """New, stored, or created under this id: the same rule as `veil sanitize`."""
        from agent.cli import conversation_for

        return conversation_for(self.store, conversation_id, create=create)

    def close(self) -> None:
        self.provider.close()
        close = getattr(self.store, "close", None)
        if close is not None:
            close()


def apply_overrides(settings, args: argparse.Namespace) -> None:
    """Command-line flags over the saved settings (never saved). --provider picks that
    kind's remembered profile; --base-url and --model change that profile only."""
    from agent.providers.choice import choose_provider

    chosen = choose_provider(settings, args.provider or None, model=args.model or None,
                             base_url=args.base_url or None)
    settings.provider, settings.local_model = chosen.provider, chosen.local_model
    p = settings.provider
    if args.max_tokens is not None:
        p.max_tokens = args.max_tokens
    if args.temperature is not None:
        p.temperature = args.temperature


def stream_answer(reply, out: TextIO, *, highlight: bool) -> None:
    """Write the restored chunks as they come (restored values underlined on a terminal)."""
    for chunk in reply:
        out.write(_highlighted(chunk) if highlight else chunk.text)
        out.flush()


def _highlighted(chunk) -> str:
    text, pieces, position = chunk.text, [], 0
    for span in sorted(chunk.spans, key=lambda s: s.start):
        start, end = span.start - chunk.start, span.end - chunk.start
        if start < position or end > len(text):
            continue
        pieces += [text[position:start], _HIGHLIGHT[0], text[start:end], _HIGHLIGHT[1]]
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def describe_request(reply) -> str:
    """Exactly what went to the provider: every message of the request."""
    provider = reply.sender.provider
    model = reply.model or "default model"
    lines = [f"--- sent to {provider.display_name} ({model}) ---"]
    for message in reply.request:
        lines.append(f"[{message.role}] {message.content}")
    lines.append("---")
    return "\n".join(lines)


def _summary(reply) -> str:
    counts = reply.sanitized.counts_by_label()
    if not counts:
        return "nothing to replace"
    return "replaced " + ", ".join(f"{n} {label}" for label, n in sorted(counts.items()))


def _failure(exc, conversation_id: str) -> CliError:
    return CliError(f"{exc} (your message is kept: veil send --conversation {conversation_id} --retry)")


# -- veil send ------------------------------------------------------------------------------------
def run_send(args: argparse.Namespace) -> int:
    from agent.engine.core import InputRejected
    from agent.providers import Cancelled, ProviderError
    from agent.session.sender import RETRYABLE_STATES

    if args.retry and not args.conversation:
        raise CliError("--retry needs --conversation ID")
    text = "" if args.retry else read_stdin_text()
    if not args.retry and not text.strip():
        raise CliError("nothing to send: the prompt on stdin is empty")
    session = Session(args)
    try:
        conversation = session.conversation(args.conversation, create=not args.retry)
        try:
            if args.retry:
                failed = [m for m in session.store.list_messages(conversation.id) if m.state in RETRYABLE_STATES]
                if not failed:
                    raise CliError(f"conversation {conversation.id} has no failed or unsent message")
                reply = session.sender.retry(conversation, failed[-1].id)
            else:
                reply = session.sender.send(conversation, text)
        except InputRejected as exc:
            raise CliError(str(exc)) from None
        for warning in reply.sanitized.warnings:
            print(f"veil: warning: {warning}", file=sys.stderr)
        if args.show_sent:
            print(describe_request(reply), file=sys.stderr, flush=True)
        try:
            stream_answer(reply, sys.stdout, highlight=False)
        except Cancelled:
            return 130
        except ProviderError as exc:
            sys.stdout.flush()
            raise _failure(exc, conversation.id) from None
        if sys.stdout.isatty():
            sys.stdout.write("\n")
        if reply.result is not None and reply.result.unrestored:
            print(f"veil: warning: stand-ins left in the answer: {', '.join(reply.result.unrestored)}", file=sys.stderr)
        if args.conversation is None:
            print(f"veil: conversation {conversation.id}", file=sys.stderr)
        return 0
    finally:
        session.close()


# -- veil chat ------------------------------------------------------------------------------------
CHAT_HELP = """commands:
  /new     start a new conversation (new stand-ins)
  /sent    show exactly what was sent with the last message
  /retry   send the last failed message again
  /help    this text
  /quit    leave (Ctrl-D too); Ctrl-C stops an answer"""


def run_chat(args: argparse.Namespace) -> int:
    from agent.engine.core import InputRejected
    from agent.providers import Cancelled, ProviderError
    from agent.session.sender import RETRYABLE_STATES

    session = Session(args)
    out = sys.stdout
    tty = out.isatty()
    try:
        conversation = session.conversation(args.conversation)
        print(f"veil chat with {session.provider.display_name}; conversation {conversation.id}. /help for commands.",
              file=sys.stderr)
        last = None
        while True:
            try:
                line = input("you> ")
            except EOFError:
                print(file=sys.stderr)
                return 0
            except KeyboardInterrupt:
                print(file=sys.stderr)
                return 0
            command = line.strip()
            if not command:
                continue
            if command in ("/quit", "/exit", "/q"):
                return 0
            if command == "/help":
                print(CHAT_HELP, file=sys.stderr)
                continue
            if command == "/new":
                conversation = session.conversation(None)
                last = None
                print(f"new conversation {conversation.id}", file=sys.stderr)
                continue
            if command == "/sent":
                print(describe_request(last) if last else "nothing sent yet in this conversation", file=sys.stderr)
                continue
            try:
                if command == "/retry":
                    failed = [m for m in session.store.list_messages(conversation.id) if m.state in RETRYABLE_STATES]
                    if not failed:
                        print("nothing to retry", file=sys.stderr)
                        continue
                    reply = session.sender.retry(conversation, failed[-1].id)
                else:
                    reply = session.sender.send(conversation, line)
            except InputRejected as exc:
                print(f"veil: {exc}", file=sys.stderr)
                continue
            last = reply
            print(f"({_summary(reply)})", file=sys.stderr)
            out.write("veil> ")
            try:
                stream_answer(reply, out, highlight=tty)
            except (Cancelled, KeyboardInterrupt):
                out.write("\n")
                print("(stopped; /retry sends it again)", file=sys.stderr)
                continue
            except ProviderError as exc:
                out.write("\n")
                print(f"veil: {exc} (your message is kept: /retry)", file=sys.stderr)
                continue
            out.write("\n")
            out.flush()
            if reply.result is not None and reply.result.unrestored:
                print(f"(stand-ins left in the answer: {', '.join(reply.result.unrestored)})", file=sys.stderr)
    finally:
        session.close()
