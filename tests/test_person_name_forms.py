"""Names in the forms NER cuts short (issue 16 item 3): capitals, a lower-case surname, a
rare first name with no cue word, a double-barrelled surname, a name over a line break,
and a verb before the name. Strict: no word of the name may survive. Sentences written
for these tests."""

from __future__ import annotations

import re

import pytest

from agent.session.conversation import Conversation


def _sent(engine, text: str) -> str:
    return engine.sanitize(text, Conversation("names-test", seed=3)).sanitized


def _leaked(sent: str, *words: str) -> list[str]:
    return [w for w in words if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", sent, re.IGNORECASE)]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("REPLY TO IRENE WALCOTT BEFORE THE AUDIT.", ("Irene", "Walcott")),
        ("I met Irene walcott at the station yesterday.", ("Irene", "walcott")),
        ("Zephyrine Quistgaard wants a refund for the blue kettle.", ("Zephyrine", "Quistgaard")),
        ("Please send the lease to Irene Walcott-Mensah today.", ("Irene", "Walcott", "Mensah")),
        ("Please ask Thandeka Obi-Lindqvist to sign the form.", ("Thandeka", "Obi", "Lindqvist")),
        ("Kind regards,\nIrene\nWalcott", ("Irene", "Walcott")),
        ("The minutes were taken by Gerlinde\nQuistgaard and checked on Friday.", ("Gerlinde", "Quistgaard")),
    ],
)
def test_no_word_of_the_name_survives(privacy_engine, text, words):
    sent = _sent(privacy_engine, text)
    assert not _leaked(sent, *words), sent


def test_the_verb_before_a_name_stays_a_verb(privacy_engine):
    sent = _sent(privacy_engine, "Call Irene Walcott tomorrow about the boiler.")
    assert sent.startswith("Call ") and not _leaked(sent, "Irene", "Walcott"), sent


def test_ordinary_words_after_a_first_name_are_not_a_surname(privacy_engine):
    sent = _sent(privacy_engine, "Summer sales start in June, and the garden opens at nine.")
    assert "sales start" in sent and "garden opens" in sent, sent
