"""What a host name is made of: the registrable domain (the part an organisation owns:
"acme-corp.io", "bar.co.uk", "x.github.io") and the labels before it ("db", "api.eu").

The split follows the Public Suffix List as tldextract ships it (its bundled snapshot;
never fetched: Veil makes no network call of its own). A host under a suffix the list
does not know (".internal", ".corp", ".lan": private networks) takes its last label as
the suffix.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

# The words a host's first labels use to name a service rather than an owner: machine
# roles, environments and common apps of IT practice (written from general knowledge,
# not from any evaluation text). A stand-in host keeps them ("db.<stand-in domain>"), so
# the model still sees which machine is meant; any other label is swapped.
SERVICE_LABELS = frozenset({
    "www", "www2", "api", "app", "apps", "web", "db", "sql", "mysql", "postgres", "pg", "redis", "cache", "mq",
    "mail", "smtp", "imap", "pop", "mx", "webmail", "vpn", "proxy", "gw", "gateway", "lb", "ns", "ns1", "ns2",
    "dns", "ftp", "sftp", "ssh", "git", "gitlab", "svn", "ci", "cd", "build", "jenkins", "registry", "docker",
    "k8s", "kube", "cdn", "static", "assets", "img", "images", "media", "files", "download", "downloads",
    "status", "monitor", "monitoring", "metrics", "grafana", "prometheus", "kibana", "logs", "log", "sentry",
    "dev", "devel", "test", "testing", "qa", "uat", "stage", "staging", "preprod", "prod", "production",
    "sandbox", "demo", "beta", "alpha", "canary", "internal", "intranet", "extranet", "portal", "admin",
    "auth", "login", "sso", "id", "accounts", "account", "my", "secure", "docs", "doc", "wiki", "jira",
    "confluence", "help", "support", "kb", "blog", "news", "shop", "store", "pay", "payments", "billing",
    "m", "mobile", "crm", "erp", "hr", "share", "drive", "nas", "backup", "calendar", "chat",
    "meet", "video", "search", "data", "analytics", "events", "hooks", "webhooks", "ws", "socket",
    "eu", "us", "uk", "de", "fr", "asia", "apac", "emea", "east", "west", "north", "south", "central",
})


@lru_cache(maxsize=1)
def _extractor():
    import tldextract

    # No list URLs and no cache directory: the snapshot inside the package, offline.
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True)


@lru_cache(maxsize=4096)
def split_host(host: str) -> tuple[str, str]:
    """(labels before the registrable domain, the registrable domain), lower case:
    "db.acme-corp.io" -> ("db", "acme-corp.io"); "a.b.internal" -> ("a", "b.internal")."""
    host = host.lower().strip(".")
    found = _extractor()(host)
    if found.suffix and found.domain:
        return found.subdomain, f"{found.domain}.{found.suffix}"
    labels = host.split(".")
    if len(labels) < 2:
        return "", host
    return ".".join(labels[:-2]), ".".join(labels[-2:])


def is_service_label(label: str) -> bool:
    """A host label that names a service ("db", "api", "eu-west-1"), not an owner."""
    label = label.lower()
    if label in SERVICE_LABELS:
        return True
    # A region or numbered instance: "eu-west-1", "us-east", "node3" keeps its service word.
    parts = [p for p in label.replace("_", "-").split("-") if p]
    return len(parts) > 1 and all(p in SERVICE_LABELS or p.isdigit() for p in parts)


def registrable_domain(link: str) -> str:
    """"acme-corp.io" of "https://db.acme-corp.io/x" or "db.acme-corp.io" (empty for no
    host, an IP or a single label)."""
    host = urlsplit(link if "://" in link else "http://" + link).hostname or ""
    if not host or host.replace(".", "").isdigit() or "." not in host:
        return ""
    return split_host(host)[1]
