"""Web addresses as they appear in pasted code and copied text: a scheme glued to what is
before it (a byte escape in a bytes literal, a lost space) is still an address, and an
address ends at a backslash (the escape after it in a quoted string, never part of it).
An ID hotword must be a whole word: a path segment such as "cards-on-sale-/v2/7731" is no
"card" followed by an identifier (that ID began inside a word, and its stand-in, glued to
the letters before it, could not be found in the answer)."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.detect.base import DetectionContext
from agent.detect.patterns import HotwordIdDetector, UrlDetector
from agent.engine.core import Engine
from agent.entities import Label
from agent.session.conversation import Conversation


def _urls(text: str) -> list[str]:
    return [s.text for s in UrlDetector().detect(text, DetectionContext())]


@pytest.mark.parametrize(
    "text, url",
    [
        ("payload = b'\\x00\\x9ahttps://files.orchardvale.dev/build/77.tar)\\x04\\xda'", "https://files.orchardvale.dev/build/77.tar"),
        ("read the setup pagehttps://wiki.orchardvale.dev/setup first", "https://wiki.orchardvale.dev/setup"),
        ('{"link": "https://orchardvale.dev/a/b\\n", "next": 2}', "https://orchardvale.dev/a/b"),
        ("mirror at sftp://backup.orchardvale.dev/nightly", "sftp://backup.orchardvale.dev/nightly"),
    ],
)
def test_glued_or_escaped_addresses_are_found_whole(text, url):
    assert _urls(text) == [url]


def test_www_still_needs_a_word_start():
    assert _urls("the sound was awww.nice of them") == []


def test_a_hotword_inside_a_longer_word_announces_no_id():
    detector = HotwordIdDetector()
    found = detector.detect("path /shop/cards-on-sale-/v2/7731 and /orders-archive/2020-11", DetectionContext())
    assert found == [], found
    assert [s.text for s in detector.detect("card no. 88-4411-02", DetectionContext())] == ["88-4411-02"]


def test_an_address_in_a_bytes_literal_restores_from_any_echo():
    engine = Engine(default_settings())
    text = ("What does this do? exec(marshal.loads(b'c\\x00\\x04\\x9bhttps://cdn.orchardvale.dev/u/cards-on-sale-/main/"
            "5590214_%D8%AA.py)\\x06\\xda\\x02os'))")
    conversation = Conversation("bytes-url", seed=3)
    result = engine.sanitize(text, conversation)
    urls = [r for r in result.entities if r.label is Label.URL]
    assert [r.real for r in urls] == ["https://cdn.orchardvale.dev/u/cards-on-sale-/main/5590214_%D8%AA.py"]
    assert not any(r.label is Label.ID for r in result.entities)
    sent = urls[0].sent
    real = urls[0].real
    # An echo in capitals or lower case gives the real address so written (unless the
    # stand-in already was: then its case says nothing, and the address comes back as it is).
    for echo, back in ((sent, real), (sent.upper(), real.upper() if sent.upper() != sent else real),
                       (sent.lower(), real.lower() if sent.lower() != sent else real)):
        answer = result.sanitized.replace(sent, echo)
        assert engine.restore(answer, conversation).text == text.replace(real, back)
