"""National identity numbers of Central and Eastern Europe, after their own words: the
Czech/Slovak birth number, the Lithuanian and Estonian personal codes, the Romanian CNP,
the Bulgarian EGN and the Croatian OIB (python-stdnum validates each; a stand-in is a
valid number of the type). Example numbers from python-stdnum's documentation; sentences
of our own."""

from __future__ import annotations

import pytest

from agent.entities import Label
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, number, module",
    [
        ("Moje rodné číslo je 710319/2745, pošlete to prosím.", "710319/2745", "stdnum.cz.rc"),
        ("Mano asmens kodas 38703181745, tel. +370 612 34567", "38703181745", "stdnum.lt.asmens"),
        ("Minu isikukood on 37605030299.", "37605030299", "stdnum.ee.ik"),
        ("CNP: 1630615123457, judetul Cluj", "1630615123457", "stdnum.ro.cnp"),
        ("Моето ЕГН е 7523169263.", "7523169263", "stdnum.bg.egn"),
        ("OIB: 94577403194 za račun", "94577403194", "stdnum.hr.oib"),
    ],
)
def test_a_national_number_after_its_word_is_swapped_for_a_valid_one(privacy_engine, text, number, module):
    import importlib

    result = privacy_engine.sanitize(text, Conversation("ce-ids"))
    found = [e for e in result.entities if e.real == number]
    assert found and found[0].label is Label.ID, result.entities
    assert number not in result.sanitized, result.sanitized
    assert importlib.import_module(module).is_valid(found[0].sent), found[0].sent


def test_the_cue_word_is_no_place(privacy_engine):
    result = privacy_engine.sanitize("Asmens kodas 38703181745", Conversation("ce-cue"))
    assert result.sanitized.startswith("Asmens kodas "), result.sanitized
