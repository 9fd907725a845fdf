"""Someone's role at an organisation ("the founder of X", "a nurse at X") makes X the
writer's or their contact's workplace, to be swapped; but a question about who leads a
well-known company is about that company, which the answer needs."""

import pytest

from agent.session.conversation import Conversation


@pytest.mark.parametrize("text, company", [
    ("Who is the CEO of Microsoft?", "Microsoft"),
    ("Who was the founder of Amazon?", "Amazon"),
])
def test_the_leader_of_a_well_known_company_keeps_the_company(privacy_engine, text, company):
    result = privacy_engine.sanitize(text, Conversation("role-public"))
    assert company in result.sanitized, result.sanitized


@pytest.mark.parametrize("text, company", [
    ("My sister is a nurse at Brightwater Clinic and needs a CV.", "Brightwater"),
    ("Write a short bio for the founder of Kelvory Labs.", "Kelvory"),
])
def test_a_role_at_an_unknown_organisation_swaps_it(privacy_engine, text, company):
    result = privacy_engine.sanitize(text, Conversation("role-private"))
    assert company not in result.sanitized, result.sanitized
