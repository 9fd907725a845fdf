"""A line ending in ";" is a statement in code but an item of a list in prose (a CV, a
contract): the names in such a prose line are not code identifiers."""

import pytest

from agent.detect.code_zones import TechnicalZones, is_code_line

CV_LINE = ("2016-2020 senior producer at a mobile games studio; led the yearly partnership talks "
           "with Quorvane Games and Maltby Interactive;")


@pytest.mark.parametrize("line", [
    "int total = count + 1;",
    "import java.util.List;",
    "    return render(view);",
    'print("we talked with the whole team about it today");',  # prose inside a string literal
])
def test_statements_are_code(line):
    assert is_code_line(line)


@pytest.mark.parametrize("line", [
    CV_LINE,
    "(b) the buyer shall pay all taxes and fees that apply to the goods;",
])
def test_prose_list_items_are_not(line):
    assert not is_code_line(line)


def test_names_in_a_prose_line_with_semicolons_are_found(privacy_engine):
    assert not TechnicalZones(CV_LINE).technical(CV_LINE.index("Quorvane"))
    found = {s.text for s in privacy_engine.detect(CV_LINE)}
    assert "Quorvane Games" in found, found
