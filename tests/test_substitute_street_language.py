"""An address stand-in keeps the street's kind and language: "Rua dos Santos" becomes
"Rua dos <Portuguese surname>", "Hauptstraße" "<German surname>straße", and the answer
that repeats the stand-in restores to the real street (agent/substitute/substituter.py).
Addresses of our own."""

from __future__ import annotations

import re

import pytest

from agent.entities import Label
from agent.knowledge.names import lexicon
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, real, kept_words, locale",
    [
        ("I live at 27 Rua dos Santos, Porto.", "27 Rua dos Santos", ("Rua", "dos"), "pt_PT"),
        ("Send it to 5 Via Garibaldi 14 please.", "5 Via Garibaldi 14", ("Via",), "it_IT"),
        ("Address: Storgatan 4, 411 38 Göteborg", "Storgatan 4", (), "sv_SE"),
    ],
)
def test_a_street_stand_in_keeps_its_kind_and_language(privacy_engine, text, real, kept_words, locale):
    surnames = {n.casefold() for n in lexicon().last_names(locale)}
    for seed in range(5):
        result = privacy_engine.sanitize(text, Conversation(f"street-{seed}", seed=seed))
        entry = next(e for e in result.entities if e.label is Label.ADDRESS and e.real.startswith(real))
        assert entry.sent != entry.real
        for word in kept_words:
            assert word in entry.sent.split(), entry.sent
        names = [w for w in re.findall(r"[^\W\d_]+", entry.sent) if w not in kept_words]
        stems = [w[: -len("gatan")] if w.endswith("gatan") else w for w in names]
        assert any(s.casefold() in surnames for s in stems), (entry.sent, locale)


def test_a_german_street_keeps_its_ending(privacy_engine):
    text = "Adresse: Hauptstraße 12, 80331 München"
    for seed in range(5):
        conversation = Conversation(f"strasse-{seed}", seed=seed)
        result = privacy_engine.sanitize(text, conversation)
        entry = next(e for e in result.entities if e.label is Label.ADDRESS)
        street = entry.sent.split()[0]
        assert street.endswith(("straße", "strasse")) and not street.startswith("Haupt"), entry.sent
        restored = privacy_engine.restore(f"Ich schicke es an {entry.sent}.", conversation)
        assert entry.real in restored.text, restored.text
