"""Issue 12 item 1/4: a stand-in shares no run of three digits with its real value at the
same place, for every type of the table and for phone numbers, whatever the conversation
seed (the type's fixed characters, such as a country prefix, aside)."""

from __future__ import annotations

import random

import pytest

from agent.bench.id_sets import generator_runs, valid_values
from agent.detect.id_table import ID_TYPES
from agent.detect.spec import StandInRequest
from agent.substitute.formats import fake_phone
from agent.substitute.id_standins import constant_positions, shares_digit_run, stand_in_for


@pytest.mark.parametrize("kind", [t for t in ID_TYPES if t.examples], ids=lambda t: t.key)
def test_every_type_over_many_seeds(kind):
    rng = random.Random(5)
    values = valid_values(kind, 3, rng)
    assert values, f"no valid values for {kind.key}"
    for value in values:
        fixed = constant_positions(kind, value)
        for seed in range(60):
            stand_in = stand_in_for(kind, StandInRequest(real=value, rng=random.Random(seed)))
            assert stand_in is not None
            assert not shares_digit_run(value, stand_in, fixed=fixed), (value, stand_in, seed)


@pytest.mark.parametrize(
    "real",
    [
        # A US number whose last four digits fall in the fictional 555-01xx range: the
        # random part must not keep them.
        "492 382 0187", "(312) 748-0164", "+1 617 920 0155",
        "020 7123 4567", "+49 30 12345678", "+91 98765 43210", "+33 6 12 34 56 78",
    ],
)
def test_phone_stand_ins_keep_no_run(real):
    for seed in range(300):
        stand_in = fake_phone(random.Random(seed), real)
        national = "".join(ch for ch in real if ch.isdigit())
        keep = 3 if real.startswith("+") else 0  # the country calling code and the line kind
        assert not shares_digit_run(real, stand_in, fixed=frozenset(range(keep))), (real, stand_in, seed)
        assert len("".join(ch for ch in stand_in if ch.isdigit())) == len(national)


def test_bench_generator_check_reports_no_shared_run():
    runs = generator_runs(ID_TYPES, seeds=8, values_per_type=2)
    assert runs["PHONE"]["n"] > 0 and all(r["shared"] == 0 for r in runs.values()), {
        k: r for k, r in runs.items() if r["shared"]}

