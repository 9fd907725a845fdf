"""Bootstrap intervals of the bench's headline measures: resampled by text, not by entity."""

from __future__ import annotations

from agent.bench.bootstrap import KEYS, intervals, point, record_text
from agent.bench.data import Example, GoldEntity
from agent.bench.headline import gap_cell, headline_table
from agent.bench.metrics import DatasetScore, score_protection
from agent.bench.runner import BenchReport


def _text(item: str, persons: int) -> Example:
    names = [f"Zed{item}x{j}" for j in range(persons)]
    text, entities = "", []
    for name in names:
        entities.append(GoldEntity(len(text), len(text) + len(name), "PERSON", name, None))
        text += name + " met us. "
    return Example(item, text, tuple(entities))


def _score(dataset: str, texts: list[tuple[Example, bool]]) -> DatasetScore:
    """Every entity of a text protected (sent as nothing) or leaked (sent as is)."""
    score = DatasetScore(dataset)
    for example, protected in texts:
        sent = "" if protected else example.text
        score_protection(score, example, sent)
        record_text(score, example, sent, None)
    return score


def _width(bounds: dict, half: str, key: str) -> float:
    low, high = bounds[half][key]
    return high - low


def test_interval_resamples_texts_not_entities():
    # 20 texts of 10 persons each; a text's persons are all protected or all leaked, as
    # one prompt's context decides for all its names. Texts are the independent units:
    # recall is a mean of 20 coin flips (95% width ~0.44); over 200 entities taken as
    # independent it would be ~0.14, and with no resampling 0.
    texts = [(_text(f"t{i}", 10), i % 2 == 0) for i in range(20)]
    bounds = intervals({}, {"presidio_synth": _score("presidio_synth", texts)})
    assert bounds["validation"]["person_recall"][0] < 0.5 < bounds["validation"]["person_recall"][1]
    assert _width(bounds, "validation", "person_recall") > 0.3


def test_one_text_has_no_sampling_spread_whatever_its_entity_count():
    # One text, 40 persons, half protected: resampling texts always draws that one text,
    # so the interval is a point; resampling its 40 entities would give a width near 0.3.
    example = _text("solo", 40)
    half = len(example.entities) // 2
    score = DatasetScore("presidio_synth")
    sent = " ".join(e.text for e in example.entities[half:])  # the second half leaks
    score_protection(score, example, sent)
    record_text(score, example, sent, None)
    bounds = intervals({}, {"presidio_synth": score})
    assert bounds["validation"]["person_recall"] == [0.5, 0.5]


def test_point_values_match_the_headline_and_summary():
    gold = [GoldEntity(4, 12, "PERSON", "Tom Reed", False), GoldEntity(19, 24, "LOCATION", "Paris", True),
            GoldEntity(31, 39, "PERSON", "Ann Bell", False)]
    text = "Ask Tom Reed about Paris. Then Ann Bell."
    lopsided = DatasetScore("lopsided")
    for i, sent in enumerate(["Ask Max Reed about Paris. Then Ann Bell.", "Ask Max Lee about Rome. Then Al Bo."]):
        example = Example(f"l{i}", text, tuple(gold))
        score_protection(lopsided, example, sent)
        record_text(lopsided, example, sent, None)
    pupa = _score("pupa", [(_text(f"p{i}", 3), i < 2) for i in range(3)])
    scores = {"lopsided": lopsided, "pupa": pupa}
    summary = BenchReport(engine=scores).summary(scores)
    values = dict(zip(KEYS, point(scores)))
    for key in ("person_recall", "person_strict_recall", "all_pii_recall", "pupa_recall",
                "lopsided_utility_error", "lopsided_privacy_error"):
        assert round(values[key], 4) == summary[key], key


def test_gap_interval_tells_noise_from_a_real_difference():
    same = [(_text(f"s{i}", 2), i % 3 != 0) for i in range(30)]
    noise = intervals({"pupa": _score("pupa", same)}, {"pupa": _score("pupa", same)})
    assert noise["gap"]["pupa_recall"]["gap"] == 0.0
    assert noise["gap"]["pupa_recall"]["interval"][0] < 0 < noise["gap"]["pupa_recall"]["interval"][1]
    fit = _score("pupa", [(_text(f"f{i}", 2), True) for i in range(40)])
    val = _score("pupa", [(_text(f"v{i}", 2), i % 2 == 0) for i in range(40)])
    real = intervals({"pupa": fit}, {"pupa": val})
    assert real["gap"]["pupa_recall"]["gap"] == 0.5
    assert real["gap"]["pupa_recall"]["interval"][0] > 0.2
    cell = gap_cell("pupa_recall", {"pupa_recall": 0.5}, real)
    assert cell.startswith("**0.500 > 0.03** (95% ") and "within noise" not in cell
    assert "within noise" in gap_cell("pupa_recall", {}, noise)
    rows = headline_table({"pupa_recall": 1.0}, {"pupa_recall": 0.5}, {}, {}, real)
    assert any(r.startswith("| All labelled PII recall, PUPA") and "(95% " in r for r in rows)


def test_intervals_are_reproducible():
    texts = [(_text(f"r{i}", 3), i % 2 == 0) for i in range(25)]
    a = intervals({}, {"pupa": _score("pupa", texts)})
    b = intervals({}, {"pupa": _score("pupa", texts)})
    assert a == b


def _run(protected_of) -> dict:
    """A bench.json of one PUPA-like set: 60 texts of 3 persons, protected as told."""
    texts = [(_text(f"q{i}", 3), protected_of(i)) for i in range(60)]
    return BenchReport(engine={"pupa": _score("pupa", texts)}).to_json()


def test_paired_comparison_resamples_both_runs_alike():
    from agent.bench.bootstrap import paired

    before = _run(lambda i: i % 2 == 0)
    assert paired(before, before)["pupa_recall"] == {"before": 0.5, "after": 0.5, "difference": 0.0, "interval": [0.0, 0.0]}
    # Three more texts protected out of 60: +0.05, never a loss on any resample; an
    # unpaired view of two runs whose intervals each span ~0.25 could not tell.
    after = _run(lambda i: i % 2 == 0 or i in (1, 3, 5))
    row = paired(before, after)["pupa_recall"]
    assert row["difference"] == 0.05
    assert 0.0 <= row["interval"][0] < 0.05 < row["interval"][1] < 0.15
    alone = intervals({}, {"pupa": _score("pupa", [(_text(f"q{i}", 3), i % 2 == 0) for i in range(60)])})
    assert _width(alone, "validation", "pupa_recall") > 0.2


def test_the_paired_report_shows_the_validation_half_only_when_asked(tmp_path, capsys):
    import json

    from agent.bench.bootstrap import main

    run = {"veil": {"datasets": {}}, "fit": {"veil": {"datasets": {}}}}
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps(run))
    main([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    shown = capsys.readouterr().out
    assert "fit:" in shown and "validation:" not in shown
    main([str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--validation"])
    shown = capsys.readouterr().out
    assert shown.index("fit:") < shown.index("validation:")
