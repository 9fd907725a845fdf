"""Issue 12 item 3, second pass: technical text (code, configuration, docstrings, API
prose) stays as written, while personal data in it is still found: guessed names need
stronger evidence in technical zones, names where code puts them (a reviewer key, a
to-do owner) are found by their key, and numbers, types and attributes of code are not
phones, secrets or host names. Sentences and snippets written for these tests."""

from __future__ import annotations

import pytest

from agent.detect.code_names import CodeNameDetector, is_person_key, name_shaped
from agent.detect.code_zones import (
    TechnicalZones,
    is_term_of_the_trade,
    looks_like_code_token,
    looks_like_person_name,
)
from agent.detect.config_secrets import ConfigSecretDetector
from agent.detect.patterns import DomainDetector, HotwordIdDetector
from agent.detect.phones import PhoneDetector
from agent.detect.secrets import SecretDetector
from agent.entities import Action
from agent.session.conversation import Conversation


def sanitize(engine, text: str):
    return engine.sanitize(text, Conversation(seed=11))


def changed(result) -> list[str]:
    return [r.real for r in result.entities if r.action is not Action.KEEP]


# -- zones ---------------------------------------------------------------------------
def test_code_lines_and_their_comments_are_technical_prose_is_not():
    text = (
        "We moved the office last spring and everyone liked it.\n"
        "\n"
        "def load(path):\n"
        "    # Cache the Response so Keyword lookups stay cheap\n"
        "    return cache.get(path)\n"
    )
    zones = TechnicalZones(text)
    assert not zones.technical(0)
    assert zones.technical(text.index("# Cache"))
    assert zones.technical(text.index("return"))


def test_a_docstring_paragraph_dense_with_identifiers_is_technical():
    text = "Returns the parsed `Header` for the given stream_id; raises ValueError when frame_size() is zero."
    assert TechnicalZones(text).technical(0)
    assert not TechnicalZones("My sister Olga flies to Oslo on Friday to see her old teacher.").about_code


def test_form_fields_are_not_configuration():
    text = 'Name: Ilse Marquardt\nPhone: 0171 555 0199\nFax:\nContact: "Bertil Akesson"\nAddress: Lindenweg 4, Bremen'
    assert not TechnicalZones(text).any()
    assert TechnicalZones('"retries": 3,\nmax_wait = 20\ncache: {size: 10}').technical(0)


@pytest.mark.parametrize("value", ["toString", "MyClass", "getUserName", "dXNlcjpwYXNzd29yZA"])
def test_camel_case_is_code(value):
    assert looks_like_code_token(value)


@pytest.mark.parametrize("value", ["Initech GmbH", "McAllister", "DeShawn Reid", "O'Neil", "OpenAI", "MCpl"])
def test_legal_forms_and_name_particles_are_not_code(value):
    assert not looks_like_code_token(value)


def test_terms_of_the_trade_and_names():
    assert is_term_of_the_trade("Response") and is_term_of_the_trade("MCP") and is_term_of_the_trade("Keyword")
    assert not is_term_of_the_trade("Brennan") and not is_term_of_the_trade("Lindqvist")
    assert looks_like_person_name("Ingrid Sandvik") and looks_like_person_name("Jan van der Berg")
    assert not looks_like_person_name("Design Studio") and not looks_like_person_name("Returns True")


# -- names where code puts them ---------------------------------------------------------
@pytest.mark.parametrize(
    "line, value",
    [
        ('    reviewer = "Tunde Abernathy"', "Tunde Abernathy"),
        ("# TODO(Yusra Quennell): drop this branch after the migration", "Yusra Quennell"),
        ('{"owner": "Ilse Marquardt", "retries": 3}', "Ilse Marquardt"),
        ("first_name: Bertil Akesson", "Bertil Akesson"),
        ("Signed-off-by: Odile Ferrand <odile@example.org>", "Odile Ferrand"),
    ],
)
def test_person_keys_and_todo_owners(line, value):
    assert [s.text for s in CodeNameDetector().detect(line)] == [value]


@pytest.mark.parametrize(
    "line",
    [
        'name = "Build Configuration"',
        '"author": "pypa"',
        "Author: The Python Packaging Authority",
        'owner_id = "Ilse Marquardt"',
        "# TODO(later): tidy",
    ],
)
def test_not_names_where_code_puts_names(line):
    assert CodeNameDetector().detect(line) == []


def test_person_key_words():
    assert is_person_key("reviewer") and is_person_key("contactName") and is_person_key("FULL_NAME")
    assert not is_person_key("owner_id") and not is_person_key("name") and not is_person_key("timeout")
    assert name_shaped("Tunde Abernathy") and not name_shaped("retry_count") and not name_shaped("Cloud Storage")


# -- the whole engine -------------------------------------------------------------------
SNIPPET = '''import logging

log = logging.getLogger(__name__)


class RetryPolicy:
    """Retries a Response when the MCP server sends a Keyword the Parser does not know."""

    # TODO(Yusra Quennell): make the backoff configurable
    def __init__(self, limit: int = 3, secret: str | None = None):
        self.limit = limit
        self.secret = self._client.webhook_secret
        self.reviewer = "Tunde Abernathy"
        self.oncall = "+44 20 7946 0321"
        self.ratio = 0.9789029536
        self.request_id = "49df3a34-2368-5688-b4a9-2f22f8897630"
        self.info("Retry policy ready")
'''


def test_code_keeps_its_words_and_loses_its_personal_data(privacy_engine):
    result = sanitize(privacy_engine, SNIPPET)
    swapped = changed(result)
    for value in ("Yusra Quennell", "Tunde Abernathy", "+44 20 7946 0321"):
        assert value in swapped and value not in result.sanitized
    assert set(swapped) == {"Yusra Quennell", "Tunde Abernathy", "+44 20 7946 0321"}


def test_docstring_prose_keeps_its_terms(privacy_engine):
    text = (
        "Emitted when the Response for an MCP tool call is finalized. The `item_id` is the Item "
        "the Server VAD produced; Returns True if the Cache accepted it."
    )
    assert sanitize(privacy_engine, text).sanitized == text


def test_word_lists_of_other_languages_are_not_names(privacy_engine):
    text = "STOP = set('''\nolla ovat oli olisi olen olet olemme olette\nsekä sitten siis siellä sieltä\n'''.split())\n"
    assert sanitize(privacy_engine, text).sanitized == text


def test_names_in_plain_prose_are_still_found(privacy_engine):
    text = "Please send the contract to Ingrid Sandvik before Monday; she signs for the Oslo office."
    assert "Ingrid Sandvik" in changed(sanitize(privacy_engine, text))


def test_a_name_in_a_comment_with_a_cue_is_found(privacy_engine):
    text = "def total(rows):\n    # ask Ingrid Sandvik before changing the rounding\n    return sum(rows)\n"
    assert "Ingrid Sandvik" in changed(sanitize(privacy_engine, text))


# -- numbers, types and attributes of code ------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        '"precision": 0.9789029536,',
        "request 49df3a34-2368-5688-b4a9-2f22f8897630 finished",
        'models = ["sora-2-2025-10-06", "sora-2-pro"]',
    ],
)
def test_decimals_and_pieces_of_ids_are_not_phones(text):
    assert PhoneDetector().detect(text, None) == []


def test_phones_still_found():
    assert [s.text for s in PhoneDetector().detect("on-call phone: +44 20 7946 0321, or 415-555-0134", None)] == [
        "+44 20 7946 0321", "415-555-0134"]


@pytest.mark.parametrize(
    "text",
    [
        "    def sign(self, secret: str | None = None):",
        "        secret = self._client.webhook_secret",
        "verify(payload=payload, secret=secret)",
        "url, rev, user_pass = super().get_url_rev_and_auth(url)",
        "    token: bytes",
    ],
)
def test_types_attributes_and_calls_are_not_secrets(text):
    assert SecretDetector().detect(text, None) == [] and ConfigSecretDetector().detect(text) == []


def test_a_password_with_an_ampersand_is_taken_whole():
    assert [s.text for s in ConfigSecretDetector().detect("DB_PASSWORD=Kn0t&Ro9e")] == ["Kn0t&Ro9e"]


@pytest.mark.parametrize("text", ['self.info("ready")', "from spellchecker.info import WordFrequency"])
def test_attributes_and_modules_are_not_host_names(text):
    assert DomainDetector().detect(text, None) == []


def test_user_generated_is_no_username():
    assert HotwordIdDetector().detect("It reads user-generated events from the device.", None) == []
    assert [s.text for s in HotwordIdDetector().detect("username - tqennell7", None)] == ["tqennell7"]
    assert DomainDetector().detect("the dashboard at metrics.quennell-labs.io is down", None)[0].text == "metrics.quennell-labs.io"


@pytest.mark.parametrize(
    "text",
    ["The review is on 07.11.2025 09:15 in the small room.", "job 19991231 235959 finished", "built 2031-02-28 16:45 by ci"],
)
def test_a_date_with_a_time_is_not_a_phone_number(text):
    assert PhoneDetector().detect(text, None) == []


def test_a_phone_number_after_a_date_is_still_one():
    text = "On 07.11.2025 call +49 30 901820 or 030 9018 2045."
    assert [s.text for s in PhoneDetector().detect(text, None)] == ["+49 30 901820", "030 9018 2045"]
