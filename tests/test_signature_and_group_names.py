"""The firm in a signature block is the writer's and is swapped; a "place" NER saw that
ends in a trade word is a firm ("Vantora Legal"); a "group" word no English text ever
wrote is a person's name ("loop in Oyelaran"), while real peoples' names, even rare ones,
stay groups (agent/detect/ner.py, agent/decide/relevance.py). Texts of our own."""

from __future__ import annotations

import pytest

from agent.entities import Action, Label
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, org",
    [
        ("Thanks,\nMarguerite Delacroix-Novak\nSenior Counsel | Vantora Legal\nm: 0412 555 019", "Vantora Legal"),
        ("Kind regards,\nIlse\nOperations Lead\nBrambleway Logistics", "Brambleway Logistics"),
    ],
)
def test_the_firm_in_a_signature_is_swapped(privacy_engine, text, org):
    result = privacy_engine.sanitize(text, Conversation("signature", seed=9))
    entry = next(e for e in result.entities if e.real == org)
    assert entry.label is Label.ORG and entry.action is not Action.KEEP, (entry.label, entry.reason)
    assert org not in result.sanitized and entry.sent.split()[-1] == org.split()[-1]


def test_a_famous_firm_in_a_signature_stays(privacy_engine):
    text = "Best,\nJo\nSite Reliability, Google"
    result = privacy_engine.sanitize(text, Conversation("signature-public", seed=9))
    assert "Google" in result.sanitized


def test_a_group_word_no_text_writes_is_a_person(privacy_engine):
    text = "Ximena says the Q3 numbers are off. Can someone loop in Oyelaran?"
    result = privacy_engine.sanitize(text, Conversation("norp-name", seed=9))
    entry = next(e for e in result.entities if e.real == "Oyelaran")
    assert entry.label is Label.PERSON and entry.action is not Action.KEEP
    assert "Oyelaran" not in result.sanitized


def test_rare_peoples_stay_groups(privacy_engine):
    text = "The Sammarinese delegation and the Nigerian team met in Geneva."
    result = privacy_engine.sanitize(text, Conversation("norp-rare", seed=9))
    assert not [e for e in result.entities if e.label is Label.PERSON]


def test_a_given_name_read_as_a_group_then_her_is_a_person(privacy_engine):
    text = "Please draft a reminder to Hollis that her rent for the flat is late."
    result = privacy_engine.sanitize(text, Conversation("norp-given", seed=9))
    entry = next(e for e in result.entities if e.real == "Hollis")
    assert entry.label is Label.PERSON and "Hollis" not in result.sanitized
    assert not [e for e in privacy_engine.sanitize("The Roma community met; she spoke.", Conversation("roma", seed=9)).entities
                if e.label is Label.PERSON]


def test_the_users_own_business_is_theirs(privacy_engine):
    for text in ("As the owner of Tidewater Ceramics, I need a W-9 cover letter.",
                 "I run Tidewater Ceramics and need a price list."):
        result = privacy_engine.sanitize(text, Conversation("own-business", seed=9))
        assert "Tidewater" not in result.sanitized, result.sanitized
    result = privacy_engine.sanitize("Who is the CEO of Microsoft?", Conversation("ceo-public", seed=9))
    assert "Microsoft" in result.sanitized
