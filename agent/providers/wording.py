"""Plain words for what goes wrong on the wire, used by the HTTP providers' errors.

A proxy's HTML error page becomes its title ("502 Bad Gateway"), an OSError's
"[Errno 111] Connection refused" becomes "nothing answers at 127.0.0.1:8080 (connection
refused): is the server running?", and a base URL that is not a web address is refused
with an example of one, before anything (a key check included) is attempted.
"""

from __future__ import annotations

import errno
import html
import re
import socket
import ssl
from http import HTTPStatus
from urllib.parse import urlsplit

from agent.providers.errors import InvalidEndpoint

_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_HEADING = re.compile(r"<h1[^>]*>(.*?)</h1>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_ERRNO = re.compile(r"\[Errno -?\d+\]\s*")
MAX_PLAIN_BODY = 300  # characters of a plain-text error body worth showing


def status_words(status: int) -> str:
    """"HTTP 502 Bad Gateway" (the status and its standard phrase)."""
    try:
        return f"HTTP {status} {HTTPStatus(status).phrase}"
    except ValueError:
        return f"HTTP {status}"


def error_body_words(text: str, content_type: str, status: int | None = None) -> str:
    """What a non-JSON error body says, in a line: an HTML page's title (or first heading),
    else the text itself, whitespace folded and cut short. A page that only repeats the
    status ("502 Bad Gateway") adds nothing: ""."""
    looks_html = "html" in content_type.lower() or text.lstrip()[:1] == "<"
    if looks_html:
        found = _TITLE.search(text) or _HEADING.search(text)
        words = html.unescape(_TAG.sub(" ", found.group(1))) if found else ""
        words = " ".join(words.split())
        if status is not None and words and status_words(status).endswith(words):
            return ""
        return f"an error page ({words})" if words else "an error page"
    words = " ".join(text.split())
    return words if len(words) <= MAX_PLAIN_BODY else words[:MAX_PLAIN_BODY] + "…"


def check_endpoint(url: str, provider: str) -> None:
    """Refuse a base URL that is not an http(s) address with a host, saying why."""
    parts = urlsplit(url)
    example = "e.g. http://127.0.0.1:11434/v1 or https://api.openai.com/v1"
    if parts.scheme not in ("http", "https"):
        raise InvalidEndpoint(
            f"the base URL “{url}” is not a web address: it must start with http:// or https:// ({example})",
            provider=provider,
        )
    try:
        host, _ = parts.hostname, parts.port
    except ValueError:  # a port that is not a number
        host = None
    if not host:
        raise InvalidEndpoint(f"the base URL “{url}” has no valid server name or port ({example})", provider=provider)


def connect_failure_words(exc: BaseException, host: str) -> str:
    """Why a connection failed, from the OS error under httpx's exception."""
    cause = _os_error(exc)
    if isinstance(cause, socket.gaierror):
        return f"the server name {host} cannot be found (DNS): check the base URL and the network"
    if isinstance(cause, ssl.SSLError):
        reason = getattr(cause, "reason", None) or "handshake failed"
        return f"the secure connection to {host} failed ({str(reason).replace('_', ' ').lower()})"
    code = getattr(cause, "errno", None)
    if code == errno.ECONNREFUSED:
        return f"nothing answers at {host} (connection refused): is the server running, and is the port right?"
    if code in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        return f"{host} cannot be reached from this computer (no network route)"
    if code == errno.ECONNRESET:
        return f"{host} closed the connection"
    text = _ERRNO.sub("", str(cause or exc)).strip()
    return f"cannot connect to {host}" + (f": {text}" if text else "")


def _os_error(exc: BaseException) -> BaseException | None:
    seen = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError):
            return current
        current = current.__cause__ or current.__context__
    return None
