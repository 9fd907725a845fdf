"""The three check rules python-stdnum has no module for (agent/detect/id_checks.py),
from the issuers' published rules: examples worked by hand from those rules."""

from __future__ import annotations

import pytest

from agent.detect.id_checks import au_medicare_valid, de_id_card_valid, sg_nric_valid


@pytest.mark.parametrize("value", ["S1234567D", "T1234567J", "F1234567N", "G1234567X", "s1234567d"])
def test_nric_check_letters(value):
    # S: 2*1+7*2+6*3+5*4+4*5+3*6+2*7 = 106 -> 106 % 11 = 7 -> "JZIHGFEDCBA"[7] = D;
    # T and G add 4 (110 % 11 = 0 -> J / X); F: 7 -> "XWUTRQPNMLK"[7] = N.
    assert sg_nric_valid(value)


@pytest.mark.parametrize("value", ["S1234567A", "T1234567D", "F1234567X", "A1234567D", "S123456D"])
def test_nric_wrong_letter_or_form(value):
    assert not sg_nric_valid(value)


def test_medicare_check_digit():
    # 2,1,2,3,4,5,6,7 weighted 1,3,7,9,1,3,7,9: 2+3+14+27+4+15+42+63 = 170 -> 0.
    assert au_medicare_valid("2123 45670 1") and au_medicare_valid("2123456701") and au_medicare_valid("2123 45670 1/2")
    assert not au_medicare_valid("2123 45671 1") and not au_medicare_valid("7123 45670 1") and not au_medicare_valid("2123 45670")


def test_identity_card_check_digit():
    # T=29, 2,2,0,0,0,1,2,9 weighted 7,3,1: 203+6+2+0+0+0+7+6+9 = 233 -> 3.
    assert de_id_card_valid("T220001293") and de_id_card_valid("T22000129")
    assert not de_id_card_valid("T220001294") and not de_id_card_valid("A220001293")
