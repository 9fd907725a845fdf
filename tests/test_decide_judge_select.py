"""train._select: the least cross-validated cost of the default fold assignment replaces the
settled settings only when it also costs less on MOST of the reseeded fold assignments
(paired: the same assignment scores both). Cross-validation and scoring are replaced by a
table of made-up costs, so each case says exactly how many reassignments the pick wins."""

from __future__ import annotations

import pytest

from agent.decide.judge import train

PICK = (train.L2_GRID[0], train.OTHER_WEIGHT_GRID[-1], train.THRESHOLDS[0])
assert PICK != train.SETTLED


def _costs(monkeypatch, best_on_default: tuple, pick_wins_on: set[int], ties_on: frozenset[int] = frozenset()):
    """Default assignment: best_on_default costs 0.5, the settled settings 0.6, all else 1.0.
    Reassignment seed s: PICK costs 0.5 if s in pick_wins_on, 0.6 (a tie) if s in ties_on,
    else 0.7; the settled settings always 0.6."""
    seeds_asked: list[int | None] = []

    def fake_cross_validate(rows, l2, other_weight, seed=None):
        seeds_asked.append(seed)
        return (l2, other_weight, seed)

    def fake_score(rows, probabilities, threshold):
        l2, other_weight, seed = probabilities
        setting = (l2, other_weight, threshold)
        if seed is None:
            cost = 0.5 if setting == best_on_default else 0.6 if setting == train.SETTLED else 1.0
        elif setting == train.SETTLED:
            cost = 0.6
        elif setting == PICK:
            cost = 0.5 if seed in pick_wins_on else 0.6 if seed in ties_on else 0.7
        else:
            cost = 1.0
        return train.Scores(cost / 4, cost / 4, cost / 4)  # cost = 2u + p + o

    monkeypatch.setattr(train, "cross_validate", fake_cross_validate)
    monkeypatch.setattr(train, "score", fake_score)
    return seeds_asked


def _chosen(monkeypatch, **kwargs) -> tuple:
    _costs(monkeypatch, **kwargs)
    return tuple(train._select([], lambda line: None)[1:])


def test_the_pick_replaces_the_settled_settings_when_it_wins_most_reassignments(monkeypatch):
    most = set(range(train.REASSIGNMENTS // 2 + 1))
    assert _chosen(monkeypatch, best_on_default=PICK, pick_wins_on=most) == PICK


@pytest.mark.parametrize("wins", [0, 1, train.REASSIGNMENTS // 2])
def test_the_settled_settings_stay_unless_the_pick_wins_most_reassignments(monkeypatch, wins):
    # Half the reassignments is not most: a pick as good as a coin toss does not move the head.
    assert _chosen(monkeypatch, best_on_default=PICK, pick_wins_on=set(range(wins))) == train.SETTLED


def test_a_tie_on_a_reassignment_is_no_win(monkeypatch):
    half = set(range(train.REASSIGNMENTS // 2))
    ties = frozenset(range(train.REASSIGNMENTS // 2, train.REASSIGNMENTS))
    assert _chosen(monkeypatch, best_on_default=PICK, pick_wins_on=half, ties_on=ties) == train.SETTLED


def test_reassignments_are_not_scored_when_the_settled_settings_win_the_default_assignment(monkeypatch):
    seeds = _costs(monkeypatch, best_on_default=train.SETTLED, pick_wins_on=set(range(train.REASSIGNMENTS)))
    assert tuple(train._select([], lambda line: None)[1:]) == train.SETTLED
    assert set(seeds) == {None}


def test_the_settings_are_scored_on_the_same_reassignments(monkeypatch):
    # Paired: every reseeded assignment is used for both the pick and the settled settings.
    seeds = _costs(monkeypatch, best_on_default=PICK, pick_wins_on=set())
    train._select([], lambda line: None)
    reseeded = [s for s in seeds if s is not None]
    assert sorted(reseeded) == sorted(list(range(train.REASSIGNMENTS)) * 2)
