"""A stand-in the regex finds in any case is also found in the map: the map's keys are
folded the way re.IGNORECASE compares characters, not by str.casefold (which turns the
capital "I" of "IŞIK" into "i" while the stand-in "Işık" folds to "ışık"). Else an
upper-cased Turkish stand-in was matched, not restored, and not flagged either."""

from __future__ import annotations

import pytest

from agent.entities import Action, Label
from agent.restore.restorer import CompiledRestorer, StreamingRestorer
from agent.session.conversation import MapEntry

MAP = [
    MapEntry("Deniz Aksoy", "Ilgın Işık", Label.PERSON, Action.REPLACE),
    MapEntry("Tuna Ekinci", "İnci Sarıkaya", Label.PERSON, Action.REPLACE),
]


@pytest.mark.parametrize(
    "answer, real",
    [
        ("ILGIN IŞIK will call.", "DENIZ AKSOY"),
        ("Call IŞIK today.", "AKSOY"),
        ("ilgın ışık will call.", "deniz aksoy"),
        ("İNCİ SARIKAYA signed.", "TUNA EKINCI"),
        ("inci sarıkaya signed.", "tuna ekinci"),
    ],
)
def test_upper_and_lower_case_turkish_stand_ins_are_restored(answer, real):
    restored, spans = CompiledRestorer(MAP).restore(answer)
    assert real.casefold() in restored.casefold(), restored
    assert spans and spans[0].real.casefold() in real.casefold()


def test_upper_case_turkish_stand_in_split_across_chunks_is_restored():
    streaming = StreamingRestorer(CompiledRestorer(MAP))
    shown = "".join(streaming.feed(c).text for c in "Hello ILGIN IŞIK, welcome.") + streaming.finish().text
    assert "DENIZ AKSOY" in shown and "IŞIK" not in shown


def test_inflected_upper_case_stand_in_is_flagged_as_left_over():
    compiled = CompiledRestorer(MAP)
    answer = "IŞIKLAR came."  # the surname inflected: not restored, so it must be flagged
    restored, spans = compiled.restore(answer)
    assert compiled.leftovers(restored, spans)
