"""A title with no name after it ("Dr. said...", "Ms." tagged as an organisation) is no one:
it is neither an entity nor swapped (it was: "Dr. said" went out as "Shelley said")."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.engine.core import Engine
from agent.session.conversation import Conversation


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(default_settings())


@pytest.mark.parametrize(
    "text, title",
    [("Dr. said the scan is fine.", "Dr."), ("I spoke with Ms. yolanda about the rent.", "Ms.")],
)
def test_a_title_alone_is_no_one_and_stays_as_written(engine, text, title):
    result = engine.sanitize(text, Conversation("titles"))
    assert not [r for r in result.entities if r.real == title], result.entities
    assert result.sanitized.startswith(text.split(title)[0] + title), result.sanitized
