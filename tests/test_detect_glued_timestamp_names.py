"""A name that runs on into the timestamp after it, as a comment thread copied from a web
page writes it ("<name>Sun Apr 14 2024"), is found up to the weekday or month name: the
tokenizer splits the glued word (spaCy read "<surname>Sun" as one word and typed the pair
an organisation or a product, and the name-list detector saw no word end), every named
span is cut there, and the whole answer restores. A name that only contains such a word
("LaMar", "Mayfield") is not cut."""

from __future__ import annotations

import re

import pytest

from agent.config import default_settings
from agent.detect.glued_dates import trim_at_glued_date
from agent.engine.core import Engine
from agent.entities import Label, Span
from agent.session.conversation import Conversation

THREAD = (
    "Can you sum up this discussion from our forum?\n"
    "The upload page times out for big videos.\n"
    "reply from Henrietta LindqvistSun Apr 14 2024\n"
    "Same here since the last update.\n"
    "reply from Bartholomew OyelaranMon Apr 15 2024\n"
    "Try a smaller chunk size."
)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(default_settings())


def test_names_glued_to_a_timestamp_are_found_up_to_the_weekday(engine):
    result = engine.sanitize(THREAD, Conversation("glued"))
    found = {r.real for r in result.entities}
    assert "Henrietta Lindqvist" in found, found
    assert not any(r.real.endswith(("Sun", "Mon")) for r in result.entities), found
    assert "Lindqvist" not in result.sanitized, result.sanitized
    # The weekdays stay as written, still glued to the names' stand-ins.
    assert re.search(r"[a-z]Sun [A-Z]", result.sanitized) and re.search(r"[a-z]Mon [A-Z]", result.sanitized)


def test_the_glued_answer_restores(engine):
    conversation = Conversation("glued-restore")
    result = engine.sanitize(THREAD, conversation)
    assert engine.restore(result.sanitized, conversation).text == THREAD
    streaming = engine.streaming_restorer(conversation)
    shown = "".join(streaming.feed(result.sanitized[i : i + 4]).text for i in range(0, len(result.sanitized), 4))
    assert shown + streaming.finish().text == THREAD


@pytest.mark.parametrize(
    "value, cut",
    [("Henrietta LindqvistSun", "Henrietta Lindqvist"), ("OyelaranThursday", "Oyelaran"), ("LaMar", "LaMar"),
     ("Mayfield", "Mayfield"), ("Ruth Mayfield", "Ruth Mayfield"), ("JohnsonMarsh", "JohnsonMarsh")],
)
def test_a_named_span_is_cut_at_a_glued_weekday_or_month(value, cut):
    span = trim_at_glued_date(Span(10, 10 + len(value), Label.PERSON, value, 0.8, "test"))
    assert span.text == cut and span.end == 10 + len(cut)
