"""Person names in forms the detectors used to lose: a speaker at the start of a line after
a sentence (the line before ends with a period), lower-case names with a middle initial, a
lower-case name heading an address block. Sentences written for these tests."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.engine.core import Engine


@pytest.fixture(scope="module")
def engine():
    return Engine(default_settings())


def _persons(engine, text):
    return {s.text for s in engine.detect(text) if s.label.value == "PERSON"}


def test_a_speaker_after_a_line_that_ends_a_sentence(engine):
    text = "Ottilie: What a day.\nFerdinand: Remember me, Ottilie? When I saw your car I knew."
    assert {"Ottilie", "Ferdinand"} <= _persons(engine, text)


def test_a_lower_case_name_with_a_middle_initial(engine):
    assert "lorenzo a brandt" in _persons(engine, "please follow up with lorenzo a brandt in a couple of months.")


def test_a_lower_case_name_heading_an_address_block(engine):
    text = "ulrike hansen\nquarry hill robotics inc.\npsc 1234"
    assert "ulrike hansen" in _persons(engine, text)


@pytest.mark.parametrize("text", ["best regards\nthe team", "I need a lot more time for this.", "kind regards\nsupport desk\n555 0101"])
def test_ordinary_lower_case_lines_are_no_names(engine, text):
    assert not _persons(engine, text)
