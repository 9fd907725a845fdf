"""Logins made of a name written bare ("commits by mgarcia"), a record's number NER read as
a firm ("Ticket 4411"), and lower-case everyday words NER read as a person ("git log").
Sentences written for these tests."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.detect.logins import initials_and_surname
from agent.entities import Label
from agent.knowledge.names import lexicon
from agent.session.conversation import Conversation


def found(engine, text: str, label: Label) -> list[str]:
    return [s.text for s in engine.detect(text) if s.label is label]


@pytest.mark.parametrize(
    "text, login",
    [
        ("The release has commits by mgarcia and nobody else.", "mgarcia"),
        ("Ticket assigned to rpatel yesterday, please chase.", "rpatel"),
        ("Reviewed by lena_kowalski, merged on Friday.", "lena_kowalski"),
        ("Ask raj.patel for the credentials file.", "raj.patel"),
    ],
)
def test_a_login_made_of_a_name_is_a_user_name(privacy_engine, text, login):
    assert login in found(privacy_engine, text, Label.USERNAME)
    assert login not in privacy_engine.sanitize(text, Conversation("login")).sanitized


@pytest.mark.parametrize(
    "text",
    [
        "the claimer and the banally clambering colanders",  # rare words that end in a surname
        "import numpy.linalg as la; self.smith = x",  # code: dotted names
        "see /home/mgarcia/notes and docs.python.org",  # a path and a host have their own detectors
        "a rose.gold theme for the grace.period page",  # two everyday words joined
    ],
)
def test_words_paths_and_code_are_no_logins(privacy_engine, text):
    assert not [s for s in privacy_engine.detect(text) if s.detector == "logins"]


def test_initials_and_a_surname():
    assert initials_and_surname("mgarcia") == 1
    assert initials_and_surname("jrsmith") == 2
    assert initials_and_surname("garcia") == 0  # a name in lower case
    assert initials_and_surname("claimer") == 0  # an English word


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_a_login_stand_in_is_initials_and_a_surname_too(privacy_engine, seed):
    text = "The release has commits by mgarcia and nobody else."
    result = privacy_engine.sanitize(text, Conversation(seed=seed))
    sent = next(e.sent for e in result.entities if e.real == "mgarcia")
    assert re.fullmatch(r"[a-z][a-z]{4,}", sent) and sent != "mgarcia", sent
    assert lexicon().is_last_name(sent[1:]), sent  # an initial and a surname


def test_a_record_number_is_protected_and_its_kind_word_stays(privacy_engine):
    text = "Ticket 4411 was assigned to Maria on Monday."
    assert "Ticket 4411" not in found(privacy_engine, text, Label.ORG)
    sanitized = privacy_engine.sanitize(text, Conversation("ticket")).sanitized
    assert sanitized.startswith("Ticket ") and "4411" not in sanitized, sanitized


def test_lower_case_everyday_words_are_no_person(privacy_engine):
    text = "git log shows commits on the payments-service repo; write release notes."
    assert "git log" not in found(privacy_engine, text, Label.PERSON)
    assert privacy_engine.sanitize(text, Conversation("git-log")).sanitized.startswith("git log shows")
