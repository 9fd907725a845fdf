"""A name sent glued to the timestamp after it, as comment threads copied from a web page
write it ("<name>Tue Jun 4 2024"), comes back when the answer keeps it glued: a
capitalised weekday or month name that no letter continues ends the stand-in, in one
piece and streamed in chunks of any size (the streamer waits for the glued word to be
whole, a few characters at most). A longer word glued on ("<name>Marsh") is still not a
match."""

from __future__ import annotations

import pytest

from agent.entities import Action, Label
from agent.restore.restorer import CompiledRestorer, StreamingRestorer
from agent.session.conversation import MapEntry

MAP = [
    MapEntry("Odile Ferrant", "Mirela Dunstan", Label.PERSON, Action.REPLACE),
    MapEntry("Brankovic", "Ashcombe", Label.PERSON, Action.REPLACE),
]


def _streamed(compiled: CompiledRestorer, answer: str, size: int) -> str:
    streaming = StreamingRestorer(compiled)
    pieces = [streaming.feed(answer[i : i + size]).text for i in range(0, len(answer), size)]
    return "".join(pieces) + streaming.finish().text


@pytest.mark.parametrize(
    "answer, restored",
    [
        ("Reply from Mirela DunstanTue Jun 4 2024: agreed.", "Reply from Odile FerrantTue Jun 4 2024: agreed."),
        ("Last edit: AshcombeSaturday, 8 June", "Last edit: BrankovicSaturday, 8 June"),
        ("by AshcombeSep 12, by DunstanMon", "by BrankovicSep 12, by FerrantMon"),
        ("Mirela DunstanWednesday, 5 May", "Odile FerrantWednesday, 5 May"),
    ],
)
def test_a_stand_in_glued_to_a_timestamp_is_restored(answer, restored):
    compiled = CompiledRestorer(MAP)
    text, spans = compiled.restore(answer)
    assert text == restored
    assert not compiled.leftovers(text, spans)
    for size in (1, 2, 3, 4, 7, 11):
        assert _streamed(compiled, answer, size) == restored, size


def test_a_longer_glued_word_is_no_timestamp():
    compiled = CompiledRestorer(MAP)
    for answer in ("AshcombeMarsh and DunstanMayfield", "AshcombeJuniper"):
        text, _ = compiled.restore(answer)
        assert text == answer
        for size in (1, 3, 5):
            assert _streamed(compiled, answer, size) == answer
