"""A stand-in of several words never brings in a distinctive word of the text that its
real value does not have: a building's stand-in drawn from the places of its country
("<City> Internet City") would otherwise send the very city the text swapped elsewhere.
Sentences are written for this test; seeds are drawn, so it must hold for every seed."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.entities import Action
from agent.knowledge.words import is_common_word
from agent.session.conversation import Conversation

TEXTS = [
    (("Ship the crate to Qasr Layali Tower, Al Barsha, Dubai. The Dubai desk signs for it; "
      "Sharjah and Ajman branches are copied."), ["Qasr Layali Tower", "Al Barsha", "Dubai", "Sharjah", "Ajman"]),
    ("My flat is in Palm Residence Building, Dubai Marina, Dubai.", ["Palm Residence Building", "Dubai Marina", "Dubai"]),
    ("Tenancy at Birchmoor Court, Salford, near Manchester and Bolton; rent is paid from Stockport.",
     ["Birchmoor Court", "Salford", "Manchester", "Bolton", "Stockport"]),
]
_WORD = re.compile(r"[^\W\d_]+")


def _distinctive(value: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(value) if len(w) >= 3 and not is_common_word(w.casefold())}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_stand_ins_bring_in_no_distinctive_word_of_the_text(privacy_engine, seed):
    for text, values in TEXTS:
        result = privacy_engine.sanitize(text, Conversation(seed=seed), dict.fromkeys(values, Action.REPLACE))
        text_words = _distinctive(text)
        for entity in result.entities:
            if entity.action is not Action.REPLACE or len(entity.sent.split()) < 2:
                continue
            brought = (_distinctive(entity.sent) - _distinctive(entity.real)) & text_words
            assert not brought, (entity.real, entity.sent, brought)
