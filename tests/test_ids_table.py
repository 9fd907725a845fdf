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
