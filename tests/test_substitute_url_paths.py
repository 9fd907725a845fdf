"""A web address's stand-in is still a valid address: a percent-escape in its path stays an
escape (of a random letter, so the path decodes to text as the real one did; it used to
become "%Y0"-like junk that no browser or LLM reads as an address), and a file's type at
the end of the path is kept. On a public site (the host kept) an account's handle in the
path is replaced (it was kept unless it had a digit, "-" or "_": "github.com/<name>/repo"
sent the name), and a slug of everyday words stays."""

from __future__ import annotations

import random
import re
from urllib.parse import unquote

import pytest

from agent.substitute.formats import fake_url

REAL = [
    "https://share.lindenmoor.net/docs/2291_%E4%BC%9A%E8%AE%AE%20notes.docx",
    "https://github.com/lindenmoor/trail-maps/raw/v3/map_%C3%BCbersicht_07.pdf",
    "http://intranet.lindenmoor.net/p/%7euser42/plan%2fq2.xlsx",
]


@pytest.mark.parametrize("real", REAL)
def test_url_stand_ins_keep_valid_escapes_and_file_type(real):
    for seed in range(30):
        fake = fake_url(random.Random(seed), real, {})
        assert fake != real
        assert not re.search(r"%(?![0-9A-Fa-f]{2})", fake), fake
        unquote(fake, errors="strict")  # decodes: every escape is a whole character
        assert fake.rsplit(".", 1)[1] == real.rsplit(".", 1)[1], fake


@pytest.mark.parametrize(
    "real, handle",
    [
        ("https://github.com/oskarlindvall/garden-planner", "oskarlindvall"),
        ("https://www.linkedin.com/in/mirtaskovran/", "mirtaskovran"),
        ("https://medium.com/@verabostrom/how-i-learned-to-bake", "verabostrom"),
        ("https://twitter.com/tomas_krivanek", "krivanek"),
    ],
)
def test_a_handle_on_a_public_site_is_replaced_and_everyday_words_stay(real, handle):
    for seed in range(10):
        fake = fake_url(random.Random(seed), real, {})
        assert handle not in fake, fake
        assert fake.split("/")[2] == real.split("/")[2]  # the public host stays
    fake = fake_url(random.Random(1), real, {})
    for kept in ("garden-planner", "/in/", "how-i-learned-to-bake"):
        if kept in real:
            assert kept in fake, fake
