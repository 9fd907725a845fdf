"""Links to public reference pages (an encyclopedia article, a dictionary entry, a page of
a well-known project's documentation) are kept: they name a topic, and their stand-in
turned the title into random letters. Links to accounts, with a query or a token, on a
private or unknown host are still swapped (agent/knowledge/reference_sites.py). Every
link here is made up for these tests."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.engine.core import Engine
from agent.entities import Action
from agent.knowledge.reference_sites import is_public_reference_url
from agent.session.conversation import Conversation

PUBLIC = [
    "https://en.wikipedia.org/wiki/Tidal_locking",
    "https://fr.wikipedia.org/wiki/Bouillabaisse",
    "https://pt.m.wikipedia.org/wiki/Cuscuz",
    "https://en.wiktionary.org/wiki/petrichor",
    "https://en.wikipedia.org/wiki/List_of_tallest_lighthouses_built_in_1902",
    "https://en.wikipedia.org/wiki/Voyager:_The_Long_Road",  # a title's own colon
    "https://commons.wikimedia.org/wiki/Category:Windmills",
    "https://docs.python.org/3/library/functools.html#functools.lru_cache",
    "https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API",
    "https://www.merriam-webster.com/dictionary/quixotic",
    "https://httpx-demo.readthedocs.io/en/latest/user/advanced/",
    "de.cppreference.com/w/cpp/algorithm/sort",
]
PRIVATE = [
    "https://github.com/orlavintree",  # an account
    "https://orlavintree-notes.net/about",  # someone's own site
    "https://orlavintree.github.io/recipes",
    "https://en.wikipedia.org/wiki/User:Orla_Vintree",  # a user page
    "https://de.wikipedia.org/wiki/Benutzer:Orla_Vintree",
    "https://en.wikipedia.org/wiki/Special:Contributions/OrlaV",
    "https://docs.python.org/3/search.html?q=orla+vintree",  # a query
    "https://developer.mozilla.org/en-US/docs/Web#access_token=k29fj38sk2l4m5n6p7",
    "https://learn.microsoft.com/en-us/users/orlavintree/",
    "https://orla:hunter2@en.wikipedia.org/wiki/Tea",  # credentials
    "http://en.wikipedia.org:8443/wiki/Tea",
    "https://wiki.corp-intranet.local/wiki/Quarterly_Payroll",  # a private wiki
    "https://en.wikipedia.org.mirror-cache.io/wiki/Tea",  # only looks like one
    "https://not-merriam-webster.com/dictionary/quixotic",
    "https://docs.python.org/3/k29fj38sk2l4m5n6p7q8/",  # a token in the path
]


@pytest.mark.parametrize("url", PUBLIC)
def test_reference_pages_are_public(url):
    assert is_public_reference_url(url)


@pytest.mark.parametrize("url", PRIVATE)
def test_accounts_queries_tokens_and_other_hosts_are_not(url):
    assert not is_public_reference_url(url)


@pytest.fixture(scope="module")
def engine():
    return Engine(default_settings())


def test_an_article_link_is_sent_as_written_and_an_account_link_swapped(engine):
    text = (
        "Explain https://en.wikipedia.org/wiki/Tidal_locking simply, and mention my page "
        "https://github.com/orlavintree at the end."
    )
    result = engine.sanitize(text, Conversation(seed=3))
    actions = {e.real: (e.action, e.reason) for e in result.entities}
    assert actions["https://en.wikipedia.org/wiki/Tidal_locking"] == (Action.KEEP, "a public reference page")
    assert "https://en.wikipedia.org/wiki/Tidal_locking" in result.sanitized
    assert actions["https://github.com/orlavintree"][0] is not Action.KEEP
    assert "orlavintree" not in result.sanitized


def test_url_policy_label_still_labels_reference_pages():
    settings = default_settings()
    settings.policy = {**settings.policy, "URL": "label"}
    result = Engine(settings).sanitize("Summarise https://en.wikipedia.org/wiki/Tidal_locking please.", Conversation(seed=3))
    assert [e.action for e in result.entities if e.real.startswith("https://")] == [Action.LABEL]


@pytest.mark.parametrize(
    "real, kept, gone",
    [
        # swapped for its query: the article's title stays, the query's value changes
        ("https://en.wikipedia.org/wiki/Tidal_locking?oldid=88231045", "https://en.wikipedia.org/wiki/Tidal_locking?oldid=", "88231045"),
        ("https://docs.python.org/3/search.html?q=orla+vintree", "https://docs.python.org/3/search.html?q=", "vintree"),
        # a user page: the site and the namespace stay, the name and its sub-pages change
        ("https://en.wikipedia.org/wiki/User:Orla_Vintree/drafts", "https://en.wikipedia.org/wiki/User:", "Vintree"),
        ("https://en.wikipedia.org/wiki/Special:Contributions/OrlaVin", "https://en.wikipedia.org/wiki/Special:Contributions/", "OrlaVin"),
        ("https://learn.microsoft.com/en-us/users/orlavintree/", "https://learn.microsoft.com/en-us/users/", "orlavintree"),
    ],
)
def test_a_swapped_reference_link_keeps_its_article_and_changes_the_private_part(real, kept, gone):
    import random

    from agent.substitute.formats import fake_url

    for seed in range(10):
        fake = fake_url(random.Random(seed), real, {})
        assert fake.startswith(kept) and gone not in fake, fake
