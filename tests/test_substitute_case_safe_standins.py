"""Every stand-in, not only a person's, keeps its letters when an answer writes it in
capitals or in lower case: a town drawn from the gazetteer such as "Gießen" is written
"GIESSEN" in capitals, and "İ" is two characters in lower case ("i̇"); such an echo is
neither the stand-in nor flagged. The substituter spells "ß" as "ss" and draws again
for a letter with no such spelling."""

from __future__ import annotations

import pytest

from agent.entities import Action, Label, Span
from agent.restore.restorer import CompiledRestorer
from agent.session.conversation import Conversation
from agent.substitute.case_forms import case_safe
from agent.substitute.substituter import Substituter


@pytest.mark.parametrize(
    "stand_in, safe",
    [("Gießen", "Giessen"), ("Weißdorn Straße 4", "Weissdorn Strasse 4"), ("Elazığ", "Elazığ"), ("Brno", "Brno"),
     ("İnegöl", None), ("ﬂoweret", None), ("Zürich", "Zürich")],
)
def test_case_safe_spelling(stand_in, safe):
    assert case_safe(stand_in) == safe


def _stand_ins(value: str, label: Label, seeds: range) -> list[str]:
    text = f"Next year my cousin moves from {value} to the coast."
    start = text.index(value)
    substituter = Substituter()
    return [
        substituter.stand_in(Span(start, start + len(value), label, value, 0.9, "test"), Action.REPLACE, text,
                             Conversation(f"c{seed}", seed=seed)).stand_in
        for seed in seeds
    ]


def test_town_stand_ins_keep_their_length_in_capitals_and_lower_case():
    # A German town of ~90,000 people: the towns of its size include ones spelt with "ß".
    for stand_in in _stand_ins("Düren", Label.LOCATION, range(40)):
        assert len(stand_in.upper()) == len(stand_in) == len(stand_in.lower()), stand_in


def test_a_town_stand_in_written_in_capitals_is_restored():
    text = "Next year my cousin moves from Düren to the coast."
    for seed in range(40):
        conversation = Conversation(f"c{seed}", seed=seed)
        start = text.index("Düren")
        entry = Substituter().stand_in(Span(start, start + 5, Label.LOCATION, "Düren", 0.9, "test"), Action.REPLACE,
                                       text, conversation)
        restored, _ = CompiledRestorer(conversation.entries).restore(f"MOVING TO {entry.stand_in.upper()}!")
        assert restored == "MOVING TO DÜREN!", (entry.stand_in, restored)
