"""A nickname next to its full name ("Reginald 'Reg' Thornton") takes the same form of the
full name's stand-in where the nickname list has one, else a stand-in of the same sex; the
word after the quoted nickname is a surname and gets a surname. Names written for these
tests."""

from __future__ import annotations

import re

import pytest

from agent.knowledge.names import lexicon
from agent.session.conversation import Conversation
from agent.substitute.nickname_forms import nickname_pairs, other_forms

_TRIPLE = re.compile(r"(?P<first>\w+) ['\"](?P<nick>\w+)['\"] (?P<last>\w+)")


@pytest.mark.parametrize("seed", range(6))
def test_the_nickname_follows_the_full_names_stand_in(privacy_engine, seed):
    text = "Please write a toast for Reginald 'Reg' Thornton, who retires on Friday."
    sanitized = privacy_engine.sanitize(text, Conversation(f"nick-{seed}", seed=seed)).sanitized
    m = _TRIPLE.search(sanitized)
    assert m, sanitized
    first, nick, last = m.group("first"), m.group("nick"), m.group("last")
    assert "Reginald" not in sanitized and "Reg " not in sanitized and "Thornton" not in sanitized, sanitized
    names = lexicon()
    pairs = dict(nickname_pairs("reginald", first))
    if pairs.get("reg", first.casefold()) != first.casefold():
        assert nick.casefold() == pairs["reg"], sanitized  # the stand-in's own nickname
    else:
        assert names.gender_of(nick, "en_US") != "female", sanitized  # Reginald is a man
    assert names.is_last_name(last), sanitized  # a surname, not another first name


def test_a_later_nickname_alone_gets_the_same_stand_in_as_in_the_triple(privacy_engine):
    conversation = Conversation("nick-later", seed=3)
    text = 'Invite Katherine "Kate" Doyle to the retro. Kate said she can come.'
    sanitized = privacy_engine.sanitize(text, conversation).sanitized
    m = _TRIPLE.search(sanitized)
    assert m, sanitized
    assert sanitized.count(m.group("nick")) >= 2, sanitized
    assert "Kate" not in sanitized, sanitized


def test_other_forms_read_both_ways():
    assert "reginald" in other_forms("Reg")
    assert "bob" in other_forms("Robert")
