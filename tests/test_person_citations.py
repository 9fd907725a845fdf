"""Authors of academic citations are people: "<Surname> et al." and "(<Surname> & <Surname>,
<year>)". spaCy tags "X et al." as an organisation (whose stand-in then carried "et al."
along as name words), tags "al." alone as a place, and misses the name after a bracket
typed without a space, which the code heuristics took for a call ("results(X et al.")."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.engine.core import Engine
from agent.entities import Label
from agent.session.conversation import Conversation


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(default_settings())


def _sanitize(engine: Engine, text: str):
    return engine.sanitize(text, Conversation("citations"))


@pytest.mark.parametrize(
    "text, surname",
    [
        ("Proofread: uptake stays low in rural wards(Vesterhus et al., 2021), which matters.", "Vesterhus"),
        ("Proofread: uptake stays low in rural wards (Vesterhus et al., 2021), which matters.", "Vesterhus"),
        ("Proofread: as Drozdowska et al. (2018) found, the effect fades.", "Drozdowska"),
        ("Proofread: costs fell sharply (Quenneville & Abernathy-Lowe, 2017).", "Quenneville"),
        ("Proofread: costs fell sharply (Quenneville and Abernathy-Lowe 2017a; see below).", "Abernathy-Lowe"),
    ],
)
def test_cited_surnames_are_people_and_are_swapped(engine, text, surname):
    result = _sanitize(engine, text)
    people = [r for r in result.entities if r.real == surname]
    assert people and all(r.label is Label.PERSON for r in people), result.entities
    assert surname not in result.sanitized, result.sanitized


def test_et_al_stays_as_written_and_is_never_an_entity(engine):
    result = _sanitize(engine, "Proofread: the gap persists (Vesterhus et al., 2021; Marchetti-Lund et al., 2019).")
    assert result.sanitized.count(" et al.,") == 2, result.sanitized
    assert not [r for r in result.entities if "al." in r.real or "et al" in r.real], result.entities


def test_organisations_cited_with_a_year_are_not_made_people(engine):
    result = _sanitize(engine, "Two vendors disagree on the timeline (Microsoft & Oracle, 2021).")
    assert not [r for r in result.entities if r.label is Label.PERSON], result.entities


def test_a_lower_case_al_is_not_dropped_as_a_citation_piece(engine):
    from agent.detect.registry import _CITATION_PIECE

    assert _CITATION_PIECE.fullmatch("al.") and _CITATION_PIECE.fullmatch("et al.")
    assert not _CITATION_PIECE.fullmatch("al") and not _CITATION_PIECE.fullmatch("Al")


@pytest.mark.parametrize("seed", range(6))
def test_a_cited_surname_gets_a_surname_stand_in(engine, seed):
    from agent.knowledge.names import lexicon

    names = lexicon()
    result = engine.sanitize("Proofread: the gap persists (Vesterhus et al., 2021).", Conversation(seed=seed))
    [author] = [r for r in result.entities if r.real == "Vesterhus"]
    assert names.is_last_name(author.sent) and not names.is_first_name(author.sent), author.sent
