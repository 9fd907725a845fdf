"""One organisation, one stand-in domain: its hosts, links and e-mail addresses in a
prompt all name the same stand-in domain, and a host's service labels ("db", "api",
"jira") stay while an owner's label changes (agent/substitute/formats.py fake_host,
agent/knowledge/hosts.py). Hosts of our own."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from agent.entities import Label
from agent.knowledge.hosts import is_service_label, split_host
from agent.session.conversation import Conversation


def _host(link: str) -> str:
    return urlsplit(link if "://" in link else "http://" + link).hostname or ""


@pytest.mark.parametrize(
    "host, expected",
    [
        ("db.acme-corp.io", ("db", "acme-corp.io")),
        ("foo.bar.co.uk", ("foo", "bar.co.uk")),
        ("pages.x.github.io", ("pages", "x.github.io")),
        ("vpn.ops.internal", ("vpn", "ops.internal")),
        ("Example.COM", ("", "example.com")),
    ],
)
def test_split_host_finds_the_registrable_domain(host, expected):
    assert split_host(host) == expected


def test_service_labels_are_not_owners():
    assert all(is_service_label(label) for label in ("db", "API", "staging", "eu-west-1", "us-east"))
    assert not any(is_service_label(label) for label in ("sarah", "jsmith", "acme", "node-sarah"))


@pytest.mark.parametrize("seed", range(6))
def test_hosts_of_one_domain_share_one_stand_in_domain(privacy_engine, seed):
    text = ("Our staging database is db.quillmoor-systems.io, the status page is quillmoor-systems.io/status "
            "and tickets go to https://jira.quillmoor-systems.io/browse/OPS-12. Mail ops@quillmoor-systems.io.")
    conversation = Conversation(f"hosts-{seed}", seed=seed)
    result = privacy_engine.sanitize(text, conversation)
    assert "quillmoor" not in result.sanitized
    links = [e for e in result.entities if e.label in (Label.URL, Label.EMAIL)]
    assert len(links) == 4, [(e.real, e.label) for e in links]
    domains = {split_host(_host(e.sent) if e.label is Label.URL else e.sent.rpartition("@")[2])[1] for e in links}
    assert len(domains) == 1, [e.sent for e in links]
    by_real = {e.real: e.sent for e in links}
    assert _host(by_real["db.quillmoor-systems.io"]).startswith("db.")
    assert _host(by_real["https://jira.quillmoor-systems.io/browse/OPS-12"]).startswith("jira.")
    assert by_real["quillmoor-systems.io/status"].endswith("/status")
    restored = privacy_engine.restore(result.sanitized, conversation)
    assert restored.text == text


def test_an_owners_label_changes(privacy_engine):
    text = "My homepage is https://marisol.quillmoor.dev and my blog is blog.quillmoor.dev"
    for seed in range(4):
        result = privacy_engine.sanitize(text, Conversation(f"owner-{seed}", seed=seed))
        assert "marisol" not in result.sanitized.lower() and "quillmoor" not in result.sanitized
        blog = next(e for e in result.entities if e.real == "blog.quillmoor.dev")
        assert blog.sent.startswith("blog.")
