"""Links to public reference pages: an encyclopedia article, a dictionary entry, a page of a
well-known project's documentation ("https://en.wikipedia.org/wiki/Photosynthesis",
"https://docs.python.org/3/library/itertools.html#itertools.groupby").

Such a link names a public topic, not a person: swapping it made the article's title into
random letters and the answer useless. It is a reference page only when every part of it
is public: the host a reference site (a Wikimedia project in any language, a well-known
dictionary or encyclopedia, a documentation host of a project or company everyone knows),
the path an article, and nothing of a visitor's in it. A user or account page ("User:...",
"/~name", "<name>.github.io"), a query (an e-mail, a token, a search), a fragment that
carries values ("#access_token=..."), a port, credentials, a private or unknown host: the
link stays swapped."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import unquote, urlsplit

# The Wikimedia projects, reached as <language>.<project>.org (with ".m" on phones).
_WIKIMEDIA = re.compile(
    r"^(?:(?:[a-z]{2,3}(?:-[a-z0-9]{2,8})*|simple|commons|species|meta|www)\.)?(?:m\.)?"
    r"(?:wikipedia|wiktionary|wikiquote|wikisource|wikibooks|wikivoyage|wikinews|wikiversity|wikidata|"
    r"wikimedia|wikispecies)\.org$"
)
# Reference works and dictionaries everyone can read: general knowledge of the web, not of
# any one prompt.
_REFERENCE_HOSTS = frozenset(
    {
        "britannica.com", "merriam-webster.com", "dictionary.cambridge.org", "dictionary.com",
        "collinsdictionary.com", "oxfordlearnersdictionaries.com", "etymonline.com", "thefreedictionary.com",
        "plato.stanford.edu", "iep.utm.edu", "mathworld.wolfram.com", "scholarpedia.org", "encyclopedia.com",
        "larousse.fr", "duden.de", "dle.rae.es", "treccani.it", "cnrtl.fr", "dwds.de", "oeis.org",
        "en.cppreference.com", "cppreference.com", "developer.mozilla.org", "docs.python.org",
        "doc.rust-lang.org", "docs.rs", "pkg.go.dev", "go.dev", "man7.org", "rfc-editor.org",
        "datatracker.ietf.org", "w3.org", "whatwg.org", "html.spec.whatwg.org", "tc39.es", "ecma-international.org",
        "learn.microsoft.com", "docs.microsoft.com", "docs.oracle.com", "developer.apple.com",
        "developer.android.com", "docs.github.com", "docs.gitlab.com", "kubernetes.io", "docs.docker.com",
        "nodejs.org", "react.dev", "reactjs.org", "vuejs.org", "angular.io", "svelte.dev", "typescriptlang.org",
        "postgresql.org", "dev.mysql.com", "sqlite.org", "numpy.org", "pandas.pydata.org", "scikit-learn.org",
        "pytorch.org", "tensorflow.org", "docs.djangoproject.com", "flask.palletsprojects.com",
        "cloud.google.com", "developers.google.com", "docs.aws.amazon.com",
        "git-scm.com", "gnu.org", "docs.kernel.org", "wiki.archlinux.org",
        "help.ubuntu.com", "docs.fedoraproject.org", "php.net", "ruby-doc.org", "docs.ruby-lang.org",
        "kotlinlang.org", "docs.swift.org", "docs.julialang.org", "cran.r-project.org", "r-project.org",
        "docs.scipy.org", "matplotlib.org", "docs.pytest.org", "docs.rust-lang.org", "learn.unity.com",
        "docs.unity3d.com", "docs.unrealengine.com", "docs.godotengine.org", "docs.blender.org",
    }
)
# Documentation published on the project's own site: "<project>.readthedocs.io",
# "<project>.readthedocs.org" (public hosting: a project there is public by being there).
_DOCS_HOSTING = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}\.readthedocs\.(?:io|org)$")
# A namespace before a wiki title ("User:Ana", "Special:Search", "Benutzer:Ana"): an
# account's page or a tool, not an article. A title's own colon comes before a space or
# an underscore ("Star_Wars:_Episode_IV").
_WIKI_NAMESPACE = re.compile(r"^[^/:_\s]+(?:[_ ][^/:_\s]+)?:[^_\s]")
_PUBLIC_NAMESPACES = frozenset({"category", "file", "image", "portal", "help", "template", "wikipedia", "wp"})
# Pieces of a path or fragment no article title has: an address, an account ("~ana",
# "@ana", "/users/ana"; a docs "/user/" guide is no account), a long run of letters and digits mixed (a token, a session, an id).
_PRIVATE_PIECE = re.compile(
    r"@|(?:^|/)~|(?i:(?:^|/)(?:users|profiles?|accounts?|members?|people|settings|login|sign-?in|"
    r"auth|oauth|sessions?|tokens?|reset|password|invite)(?:/|$))"
)
_TOKEN_RUN = re.compile(r"(?<![A-Za-z0-9])(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{16,}")
_LANGUAGE = re.compile(r"^[a-z]{2,3}(?:-[a-z]{2,4})?$")
_PLAIN_FRAGMENT = re.compile(r"^[\w.\-:%()~!,'*+]*$")


def is_public_reference_url(value: str) -> bool:
    """Is this link a public reference page (an article, an entry, a documentation page)?"""
    text = value if "://" in value else "https://" + value
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return False
    if parts.scheme.casefold() not in ("http", "https") or parts.username or parts.password or port not in (None, 80, 443):
        return False
    host = (parts.hostname or "").casefold().removeprefix("www.")
    if not _reference_host(host):
        return False
    if parts.query or not _PLAIN_FRAGMENT.match(parts.fragment):
        return False  # a search, a token, a tracking id, "#access_token=...": the visitor's
    path = unquote(parts.path)
    if _PRIVATE_PIECE.search(path) or _TOKEN_RUN.search(path) or _TOKEN_RUN.search(parts.fragment):
        return False
    if "wiki" in host or "/wiki/" in path:
        title = path.rsplit("/wiki/", 1)[-1] if "/wiki/" in path else path.rsplit("/", 1)[-1]
        match = _WIKI_NAMESPACE.match(title)
        if match and title.split(":", 1)[0].casefold().replace(" ", "_") not in _PUBLIC_NAMESPACES:
            return False
    return True


def is_reference_host(host: str) -> bool:
    """Is this host (without "www.") a public reference site?"""
    return _reference_host(host.casefold().removeprefix("www."))


def private_path_piece(segment: str, previous: str) -> bool:
    """A path segment of a reference site that is someone's: a name after an account
    route ("/users/<name>"), a token, an address."""
    return bool(_PRIVATE_PIECE.search("/" + previous + "/") or _TOKEN_RUN.search(segment) or "@" in segment
                or segment.startswith("~"))


def wiki_namespace(segment: str) -> str | None:
    """"User:Orla_Vintree" -> "User:" (a namespace other than the public ones), else None."""
    title = unquote(segment)
    if _WIKI_NAMESPACE.match(title) and title.split(":", 1)[0].casefold().replace(" ", "_") not in _PUBLIC_NAMESPACES:
        return segment[: segment.index(":") + 1] if ":" in segment else None
    return None


@lru_cache(maxsize=512)
def _reference_host(host: str) -> bool:
    if not host or host.replace(".", "").isdigit() or ":" in host:
        return False
    if _WIKIMEDIA.match(host) or _DOCS_HOSTING.match(host):
        return True
    # The listed host, or its edition in a language ("de.cppreference.com"); never another
    # subdomain (a user's or a team's) nor a name that only ends like one ("evil-duden.de").
    if host in _REFERENCE_HOSTS:
        return True
    language, _, rest = host.partition(".")
    return _LANGUAGE.match(language) is not None and rest in _REFERENCE_HOSTS
