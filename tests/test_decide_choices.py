"""Keep/replace choices (agent/decide/choices.py): one rule for the engine and the chat
window's clicks, checked against what the real Decider does with the same settings."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.decide.choices import chosen_for_all, distinct_values, swap_action, toggled
from agent.entities import Action, Label


@pytest.mark.parametrize("level, swapped", [(0, Action.LABEL), (1, Action.REPLACE), (2, Action.REPLACE)])
def test_a_click_swaps_the_way_the_decider_swaps(level, swapped):
    from agent.decide.decider import Decider
    from agent.entities import Span

    settings = default_settings()
    settings.substitution_level = level
    settings.relevance = False  # every person is swapped: the Decider's own swap action shows
    decider = Decider(settings)
    span = Span(0, 12, Label.PERSON, "Anna Bergman", 0.9, "test")
    (decision,) = decider.decide("Anna Bergman called.", [span])
    assert decision.action is swapped and swap_action(settings) is swapped
    assert toggled(Action.KEEP, Label.PERSON, settings) is swapped
    assert toggled(swapped, Label.PERSON, settings) is Action.KEEP
    assert chosen_for_all(Label.EMAIL, False, settings) is swapped
    assert chosen_for_all(Label.EMAIL, True, settings) is Action.KEEP


def test_secrets_are_never_kept():
    settings = default_settings()
    assert toggled(Action.REPLACE, Label.SECRET, settings) is None
    assert chosen_for_all(Label.SECRET, True, settings) is None
    assert chosen_for_all(Label.SECRET, False, settings) is Action.REPLACE


def test_a_value_is_chosen_once_whatever_its_case():
    items = [(Label.PERSON, "Anna Berg"), (Label.PERSON, "ANNA BERG"), (Label.ORG, "Anna Berg"),
             (Label.PERSON, "Bo Li")]
    assert distinct_values(items) == [(Label.PERSON, "Anna Berg"), (Label.ORG, "Anna Berg"), (Label.PERSON, "Bo Li")]
