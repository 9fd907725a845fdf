"""The type table is the one place for a type's facts: the README's list is generated
from it, and the desktop colours, notification nouns and propagation read it."""

from __future__ import annotations

from pathlib import Path

from agent.detect.table import END, LABEL_TYPES, START, TYPES, protects_markdown
from agent.entities import Label

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_lists_what_the_table_protects():
    text = README.read_text(encoding="utf-8")
    section = START + text.split(START, 1)[1].split(END, 1)[0] + END
    assert section == protects_markdown(), "run: python -m agent.detect.table --write README.md"


def test_every_label_has_one_row_and_keys_are_unique():
    assert sorted(row.label for row in LABEL_TYPES) == sorted(Label)
    identifiers = [row.key for row in TYPES if row.patterns]
    assert len(identifiers) == len(set(identifiers))


def test_clipboard_nouns_come_from_the_table():
    from agent.session.clipboard import _count_phrase

    assert _count_phrase("PHONE", 2) == "2 phone numbers"
    assert _count_phrase("CREDIT_CARD", 1) == "1 card number"


def test_identifier_rows_have_what_detection_and_stand_ins_need():
    for row in TYPES:
        if row.patterns:
            assert row.context, row.key  # cue words
            assert row.masks or row.generate, row.key  # a stand-in maker
            assert row.examples or row.cue_required, row.key  # a documented example the tests use


def test_every_row_carries_its_facts():
    """Issue 12 item 2: the facts about a type are in its row: display name, noun, hue, risk
    weight, propagation, stand-in maker (a generator or masks), plausibility where a
    local model's proposal needs one."""
    from agent.detect.table import LABEL_TYPES, TYPES

    for row in TYPES:
        assert row.name and row.noun[0] and row.noun[1] and 0 <= row.hue < 360 and row.risk > 0
        assert row.generate is not None or row.masks, row.key
    for label in Label:
        assert any(row.label is label for row in LABEL_TYPES), label


def test_risk_weights_come_from_the_rows():
    from agent.decide.decider import RISK_WEIGHTS, residual_risk
    from agent.detect.table import label_row
    from agent.entities import Action, Decision, Span

    assert all(RISK_WEIGHTS[label] == label_row(label).risk for label in Label)
    vat = Span(0, 11, Label.ID, "DE136695976", 0.95, "ids:DE_VAT")
    order = Span(20, 30, Label.ID, "A-99120034", 0.85, "hotword_id")
    risk = residual_risk([Decision(vat, Action.KEEP, "kept"), Decision(order, Action.KEEP, "kept")])
    assert risk.total == 3 + label_row(Label.ID).risk  # the VAT row's own weight, then the label's


def test_stand_ins_and_plausibility_through_the_rows():
    import re

    from agent.entities import Action, Span
    from agent.session.conversation import Conversation
    from agent.substitute.substituter import Substituter, plausible_stand_in

    texts = {
        Label.PERSON: "Tell Halvard Ostby", Label.EMAIL: "mail h.ostby@example.net", Label.PHONE: "call +44 20 7946 0321",
        Label.IP: "host 10.20.30.40", Label.MAC: "mac 00:1A:2B:3C:4D:5E", Label.DATE: "on 12 March 2024",
        Label.NORP: "a Danish team", Label.USERNAME: "user hostby42", Label.SECRET: "key sk-abc123def456ghi789",
        Label.MISC: "the Quellfors plan",
    }
    substituter = Substituter()
    for label, text in texts.items():
        value = text.split(" ", 1)[1] if label not in (Label.NORP, Label.MISC, Label.DATE) else re.search(r"(Danish|Quellfors|12 March 2024)", text).group()
        start = text.index(value)
        span = Span(start, start + len(value), label, value, 0.9, "test")
        entry = substituter.stand_in(span, Action.REPLACE, text, Conversation(seed=4))
        assert entry.stand_in and entry.stand_in != value, (label, entry)
    assert plausible_stand_in(Label.EMAIL, "a@b.io", "c@d.io") and not plausible_stand_in(Label.EMAIL, "a@b.io", "not mail")
    assert not plausible_stand_in(Label.PHONE, "+44 20 7946 0321", "12")
    assert plausible_stand_in(Label.ORG, "Globex LLC", "Initech LLC")
