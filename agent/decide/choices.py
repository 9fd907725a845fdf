"""What a person's keep/replace choice means, decided in one place for the engine and the
windows.

A value is either sent as it is (KEEP) or swapped; how it is swapped follows the
substitution level (labels like [PERSON_1] at level 0, realistic stand-ins above). Secrets
are never sent, whatever anyone clicks. The Decider applies choices when it decides; the
chat window asks here what a click on a value, or on a whole type, should choose.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from agent.entities import Action, Label
from agent.session.conversation import fold

if TYPE_CHECKING:
    from agent.config import Settings

NEVER_SENT = frozenset({Label.SECRET})


def swap_action(settings: Settings) -> Action:
    """How a value that is not kept is swapped."""
    return Action.LABEL if settings.substitution_level == 0 else Action.REPLACE


def can_keep(label: Label) -> bool:
    return label not in NEVER_SENT


def toggled(action: Action, label: Label, settings: Settings) -> Action | None:
    """The choice a click on a value makes: keep a swapped value, swap a kept one. None
    when the value cannot be sent as it is (a secret)."""
    if not can_keep(label):
        return None
    return swap_action(settings) if action is Action.KEEP else Action.KEEP


def chosen_for_all(label: Label, keep: bool, settings: Settings) -> Action | None:
    """The choice for every value of a type ("keep all persons"); None for secrets."""
    if keep and not can_keep(label):
        return None
    return Action.KEEP if keep else swap_action(settings)


def distinct_values(items: Iterable[tuple[Label, str]]) -> list[tuple[Label, str]]:
    """Each (type, value) once, in order of first appearance (a choice is per value)."""
    seen: set[tuple[Label, str]] = set()
    out = []
    for label, real in items:
        key = (label, fold(real))
        if key not in seen:
            seen.add(key)
            out.append((label, real))
    return out
