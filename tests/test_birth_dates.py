"""A birth-date cue names its own date, not a later one: "(DOB 2016-04-09) has a fever
since Sunday" keeps "Sunday" for the answer, and the birth date itself is still swapped.
Sentences written for these tests."""

from __future__ import annotations

import pytest

from agent.session.conversation import Conversation


def test_a_weekday_after_a_birth_date_is_no_birth_date(privacy_engine):
    text = "My son Mateo (DOB 2016-04-09) has had a fever since Sunday. Should we see a doctor?"
    result = privacy_engine.sanitize(text, Conversation("dob"))
    assert "since Sunday" in result.sanitized, result.sanitized
    assert "2016-04-09" not in result.sanitized, result.sanitized


@pytest.mark.parametrize("text, date", [("She was born on 12 March 1990 in Leeds.", "12 March 1990"),
                                        ("DOB: 03/04/1985, blood group A+", "03/04/1985")])
def test_the_birth_date_itself_is_swapped(privacy_engine, text, date):
    result = privacy_engine.sanitize(text, Conversation("dob-2"))
    found = [e for e in result.entities if e.real == date]
    assert found and found[0].reason == "date of birth", result.entities
    assert date not in result.sanitized


def test_every_date_of_a_list_after_one_cue_is_a_birth_date(privacy_engine):
    text = "The applicants were born in 1961 and 1958 and live in a small town."
    result = privacy_engine.sanitize(text, Conversation("dob-3"))
    reasons = {e.real: e.reason for e in result.entities}
    assert reasons.get("1961") == reasons.get("1958") == "date of birth", reasons
