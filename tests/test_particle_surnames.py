"""A person's span widened over the particles of its surname (agent/detect/particle_surnames.py).
Sentences written for these tests."""

from __future__ import annotations

import pytest

from agent.detect.particle_surnames import widen_over_particles


def widened(text: str, piece: str) -> str:
    start = text.index(piece)
    new_start, new_end = widen_over_particles(text, start, start + len(piece))
    return text[new_start:new_end]


@pytest.mark.parametrize(
    "text, piece, name",
    [
        ("Ask Van der Berg about the invoice.", "Berg", "Van der Berg"),  # capital particles before
        ("Please email Jan van den Heuvel today.", "Jan van", "Jan van den Heuvel"),  # cut inside the run
        ("Please email Jan van den Heuvel today.", "Heuvel", "Jan van den Heuvel"),  # the given name too
        ("The signature reads Inés de la Vega.", "Inés", "Inés de la Vega"),  # a run of two after
        ("Our builder is Hendrik ter Horst.", "Hendrik", "Hendrik ter Horst"),  # a family's own particle
        ("Call De Souza before noon.", "Souza", "De Souza"),  # one capital particle
        ("The file went to Pieter van.", "Pieter van", "Pieter"),  # a particle with no surname after it
    ],
)
def test_widened_over_the_particles(text, piece, name):
    assert widened(text, piece) == name


@pytest.mark.parametrize(
    "text, piece",
    [
        ("La lettre de Pierre est arrivée hier.", "Pierre"),  # "de": "of", not a family
        ("Es la casa de María, no la mía.", "María"),
        ("Ich habe mit Anna zu Mittag gegessen.", "Anna"),  # "zu" alone is an everyday word
        ("Lucia de Paris and Tom arrived.", "Lucia"),  # a known city after "de": where she is from
        ("Meet Ben at the station.", "Ben"),
    ],
)
def test_everyday_words_and_places_do_not_widen(text, piece):
    assert widened(text, piece) == piece


@pytest.mark.parametrize(
    "text, piece",
    [
        ("Hallo, ich bin Wiebke Oltmanns und brauche Hilfe.", "Wiebke Oltmanns"),  # "bin": "am"
        ("Hoi, ik ben Sanne de Wit.", "Sanne de Wit"),
    ],
)
def test_a_verb_that_is_also_a_particle_does_not_widen(text, piece):
    assert widened(text, piece) == piece
