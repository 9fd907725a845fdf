"""`veil serve`: a local OpenAI-compatible endpoint that sanitizes every request and
restores every answer, so any tool that speaks the OpenAI API gets Veil's protection
by pointing its base URL at it.

    from agent.serve import ProxyServer, load_or_create_token
    server = ProxyServer(engine, store, provider, port=8741, token=load_or_create_token(store))
    server.start()      # background thread; server.url -> http://127.0.0.1:8741/v1
    server.stop()

Modules: wire (OpenAI request/answer shapes), conversations (which conversation a
request belongs to; sanitizing its messages), upstream (where requests go), restoring
(real values back into chunks and completions), proxy (one request end to end, with
the vault), errors (what the client is told), app (Starlette routes), server (uvicorn).
Pure Python, no Qt.
"""

from __future__ import annotations

from agent.serve.conversations import CONVERSATION_HEADER
from agent.serve.server import (
    DEFAULT_HOST,
    TOKEN_SETTING,
    ProxyServer,
    RemoteBindRefused,
    ServeError,
    is_loopback,
    load_or_create_token,
    new_token,
)

__all__ = [
    "CONVERSATION_HEADER",
    "DEFAULT_HOST",
    "TOKEN_SETTING",
    "ProxyServer",
    "RemoteBindRefused",
    "ServeError",
    "is_loopback",
    "load_or_create_token",
    "new_token",
]
