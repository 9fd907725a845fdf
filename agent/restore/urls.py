"""The other ways an answer writes a web address it was sent as a stand-in.

An LLM that was sent "https://<stand-in host>/docs/start" may give it back without the
scheme, name the host alone ("the <stand-in host> team"), link another page of the same
site, or percent-encode the whole address as a query value. Each of those written forms of
the stand-in maps to the same form of the real address. (A trailing slash, a longer path,
angle brackets and markdown links need nothing: the stand-in is still there whole, and the
restorer's word bounds let "/", ">" and ")" follow it.)"""

from __future__ import annotations

from urllib.parse import quote, urlsplit

from agent.session.conversation import fold


def _split(address: str) -> tuple[str, str, str] | None:
    """(scheme with "://" or "", host, the rest) of an address, None when it has no host."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "", address
    else:
        scheme += sep
    try:
        host = urlsplit("http://" + rest).hostname
    except ValueError:
        return None
    if not host:
        return None
    # hostname is lower-cased: find the host as written in the address.
    lowered = rest.lower()
    at = lowered.find(host) if len(lowered) == len(rest) else -1
    if at < 0:
        return None
    return scheme, rest[at : at + len(host)], rest


def url_forms(real: str, stand_in: str) -> list[tuple[str, str]]:
    """(stand-in form, real form) pairs beyond the stand-in itself: the address without its
    scheme, its host (with and without "www."), and the whole address (or its scheme and
    host) percent-encoded.
    A host the stand-in kept (a public site, where only the path was replaced) is no form:
    it is not what identifies the user."""
    fake_parts, real_parts = _split(stand_in), _split(real)
    if fake_parts is None or real_parts is None:
        return []
    forms: list[tuple[str, str]] = []
    if fake_parts[0] and fake_parts[2] != fake_parts[1]:
        forms.append((fake_parts[2], real_parts[2]))
    fake_host, real_host = fake_parts[1], real_parts[1]
    if fold(fake_host) != fold(real_host):
        forms.append((fake_host, real_host))
        fake_bare, real_bare = fake_host.removeprefix("www."), real_host.removeprefix("www.")
        if fake_bare != fake_host and fold(fake_bare) != fold(real_bare) and "." in fake_bare:
            forms.append((fake_bare, real_bare))
    encoded = quote(stand_in, safe="")
    if encoded != stand_in:
        forms.append((encoded, quote(real, safe="")))
    if fake_parts[0] and real_parts[0] and fold(fake_host) != fold(real_host):
        # Another page of the host, percent-encoded as a query value ("?next=https%3A%2F%2F...").
        forms.append((quote(fake_parts[0] + fake_host, safe=""), quote(real_parts[0] + real_host, safe="")))
    return [(fake, real_form) for fake, real_form in forms if fake and fold(fake) != fold(real_form)]


def email_domain_form(real: str, stand_in: str) -> tuple[str, str] | None:
    """(stand-in domain, real domain) of an e-mail address whose domain was replaced: an
    answer may name the domain alone ("write to the <domain> support desk")."""
    fake_domain, real_domain = stand_in.rpartition("@")[2], real.rpartition("@")[2]
    if "@" not in stand_in or "@" not in real or "." not in fake_domain or fold(fake_domain) == fold(real_domain):
        return None
    return fake_domain, real_domain
