"""A company named with its legal form is found whole: partners joined by "&" ("Quenby &
Aldous LLP": the first partner had gone out), a German partnership's form ("GmbH & Co.
KG": its "KG" had become the country "AZERBAIJAN"), and without the request verb before it
("Contact Acme Holdings GmbH") (agent/detect/gazetteer.py, agent/knowledge/org_words.py).
Names of our own."""

from __future__ import annotations

import pytest

from agent.entities import Action, Label
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, firm, form",
    [
        ("We wrote to Quenby & Aldous LLP about the lease.", "Quenby & Aldous LLP", "LLP"),
        ("Please contact Brandtwerk Holdings GmbH & Co. KG about it.", "Brandtwerk Holdings GmbH & Co. KG", "GmbH & Co. KG"),
        ("Contact Wexmoor Holdings GmbH today.", "Wexmoor Holdings GmbH", "GmbH"),
    ],
)
def test_a_company_with_its_legal_form_is_found_whole(privacy_engine, text, firm, form):
    result = privacy_engine.sanitize(text, Conversation("legal-form", seed=13))
    entry = next(e for e in result.entities if e.label is Label.ORG and e.action is not Action.KEEP)
    assert entry.real == firm, entry.real
    assert entry.sent.endswith(form) and not [e for e in result.entities if e.label is Label.LOCATION]
    for word in firm.split()[:1]:
        assert word not in result.sanitized
