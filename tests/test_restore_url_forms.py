"""A web address sent as a stand-in comes back however the answer writes it: without its
scheme, with another scheme, as the bare host, as another page of the same host, or
percent-encoded whole (as sent, with a trailing slash, in angle brackets or a markdown
link it already did). An e-mail's replaced domain named alone comes back too."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from agent.entities import Action, Label
from agent.restore.restorer import CompiledRestorer, StreamingRestorer
from agent.session.conversation import MapEntry

REAL = "https://intranet.quillmere-fabrics.co.uk/orders/track?id=4471"
FAKE = "https://dovecrest.co.uk/orders/track?id=9025"
REAL_HOST, FAKE_HOST = "intranet.quillmere-fabrics.co.uk", "dovecrest.co.uk"
MAP = [
    MapEntry(REAL, FAKE, Label.URL, Action.REPLACE),
    MapEntry("www.pebblewick-studio.net", "www.amberfield.net", Label.URL, Action.REPLACE),
    MapEntry("rhea.tal@quillmere-fabrics.co.uk", "nora.vale@tidebrook.co.uk", Label.EMAIL, Action.REPLACE),
]


@pytest.mark.parametrize(
    "said, real",
    [
        (FAKE.removeprefix("https://"), REAL.removeprefix("https://")),
        (FAKE.replace("https://", "http://"), REAL.replace("https://", "http://")),
        (FAKE_HOST, REAL_HOST),
        (FAKE_HOST.upper(), REAL_HOST.upper()),
        (f"https://{FAKE_HOST}/help/returns", f"https://{REAL_HOST}/help/returns"),
        (f"{FAKE_HOST}:8443/admin", f"{REAL_HOST}:8443/admin"),
        (quote(FAKE, safe=""), quote(REAL, safe="")),
        ("/login?next=" + quote(f"https://{FAKE_HOST}/account", safe=""),
         "/login?next=" + quote(f"https://{REAL_HOST}/account", safe="")),
        ("amberfield.net", "pebblewick-studio.net"),
    ],
)
def test_written_forms_of_a_url_stand_in_are_restored(said, real):
    compiled = CompiledRestorer(MAP)
    answer = f"You can open {said} in a private window."
    restored, spans = compiled.restore(answer)
    assert restored == f"You can open {real} in a private window.", restored
    assert not compiled.leftovers(restored, spans)
    streaming = StreamingRestorer(compiled)
    shown = "".join(streaming.feed(answer[i : i + 3]).text for i in range(0, len(answer), 3)) + streaming.finish().text
    assert shown == restored


def test_a_replaced_e_mail_domain_named_alone_is_restored():
    restored, _ = CompiledRestorer(MAP).restore("Ask the tidebrook.co.uk helpdesk to reset it.")
    assert restored == "Ask the quillmere-fabrics.co.uk helpdesk to reset it."


def test_a_kept_public_host_is_not_a_form():
    compiled = CompiledRestorer([MapEntry("https://github.com/rheatal/loom-tools", "https://github.com/kqvbml/loom-tools",
                                          Label.URL, Action.REPLACE)])
    answer = "Fork it on github.com and open github.com/kqvbml/loom-tools."
    restored, _ = compiled.restore(answer)
    assert restored == "Fork it on github.com and open github.com/rheatal/loom-tools."
