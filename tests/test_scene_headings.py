"""Screenplay scene headings ("INT. KITCHEN - NIGHT") are the script's sets and times of
day, not organisations (agent/detect/scene_headings.py). Every line here is made up for
these tests."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.detect.registry import build_registry
from agent.detect.scene_headings import scene_headings
from agent.entities import Label


@pytest.fixture(scope="module")
def registry():
    return build_registry(default_settings())


SCRIPTS = [
    "INT. KITCHEN - NIGHT\n\nCopper pans hang over the stove. The kettle screams.\n\n"
    "EXT. HARBOUR WALL - DAWN\n\nGulls wheel above a fishing boat.",
    "Tighten this scene for me:\n\nINT./EXT. DELIVERY VAN - CONTINUOUS\n\nThe van swerves and boxes slide.\n\n"
    "I/E. OLD MILL - DAY\n\nDust drifts through the light.",
    "EXT. GRANDVIEW PARK - LATER\n\nTwo kids argue over a kite.\n\nINT. TOWN HALL CORRIDOR - MOMENTS LATER\n\nA door slams.",
]


@pytest.mark.parametrize("text", SCRIPTS)
def test_scene_headings_give_no_organisation_or_place(registry, text):
    spans = registry.detect(text).spans
    headings = scene_headings(text)
    assert headings
    inside = [s for s in spans if any(a <= s.start < d for a, _, _, d in headings)]
    assert [s for s in inside if s.label is not Label.PERSON] == [], inside
    # nor a "person" run from the set into its time of day
    assert not any(s.end > c for s in inside for _, _, c, _ in headings if s.start < c)


def test_a_character_named_in_a_set_is_still_a_person(registry):
    text = "INT. GRETA HOLM'S STUDY - NIGHT\n\nGreta Holm reads a letter and frowns."
    spans = registry.detect(text).spans
    assert any(s.label is Label.PERSON and s.text == "GRETA HOLM" for s in spans)


@pytest.mark.parametrize(
    "text",
    [
        "Int. J. Appl. Geom. 12 (2019) 33-41 is the journal I cited.",
        "INT and EXT are the two columns of the table.",
        "Intake forms are due on Monday.",
    ],
)
def test_no_heading_without_a_set_or_a_time(text):
    assert scene_headings(text) == ()
