"""The bench's honest protocol: a fixed fit/validation split and strict recall."""

from __future__ import annotations

from agent.bench.data import Example, GoldEntity
from agent.bench.headline import gaps, headline
from agent.bench.metrics import DatasetScore, name_words, score_protection, still_present, strictly_protected
from agent.bench.split import half_of, split_datasets


def _example(item_id: str, group: str = "", text: str = "x", entities=()) -> Example:
    return Example(item_id, text, tuple(entities), group)


def test_split_is_fixed_and_roughly_even():
    examples = [_example(f"item-{i:04d}") for i in range(400)]
    halves = [half_of("someset", e) for e in examples]
    assert halves == [half_of("someset", e) for e in examples]  # same answer every time
    assert 150 < halves.count("validation") < 250
    # An item keeps its side when others are added or removed.
    assert half_of("someset", examples[7]) == half_of("someset", _example("item-0007"))


def test_split_keeps_a_group_on_one_side():
    parts = [_example(f"doc-1-{i}", group="doc-1") for i in range(20)]
    split = split_datasets({"court": parts})
    assert sorted(len(v.get("court", [])) for v in split.values()) == [0, 20]


def test_strict_recall_counts_a_surviving_name_word_as_a_leak():
    assert name_words("Dr. Sarah van Mitchell") == ["Sarah", "Mitchell"]
    assert strictly_protected("Sarah Mitchell", "Email Emma Clarke today")
    assert not strictly_protected("Sarah Mitchell", "Email Sarah Clarke today")
    assert not strictly_protected("Sarah Mitchell", "Email MITCHELL today")
    assert strictly_protected("Al Li", "Al and Li were there")  # words under 3 letters do not count


def test_a_one_letter_value_is_not_found_in_an_apostrophe_s():
    # "S" of a relation puzzle swapped for "V": the "s" of "Q's" is not it.
    assert not still_present("S", "Q's aunt is V. V is the sister of P.")
    assert still_present("S", "Q's aunt is S. S is the sister of P.")
    assert not still_present("S", "yes s")  # a one-letter value is matched as written
    assert still_present("Sarah", "sarah said so")  # longer values: case does not matter


def test_headline_counts_persons_safe_to_swap_and_flags_gaps():
    text = "Ask Tom Reed about Paris. Then Ann Bell."
    gold = [
        GoldEntity(4, 12, "PERSON", "Tom Reed", False),
        GoldEntity(19, 24, "LOCATION", "Paris", True),
        GoldEntity(31, 39, "PERSON", "Ann Bell", False),
    ]
    score = DatasetScore("lopsided")
    score_protection(score, _example("a", text=text, entities=gold), "Ask Max Reed about Paris. Then Ann Bell.")
    numbers = headline({"lopsided": score})
    assert numbers["person_n"] == 2
    assert numbers["person_recall"] == 0.5  # "Tom Reed" is gone as a whole, "Ann Bell" is not
    assert numbers["person_strict_recall"] == 0.0  # "Reed" survived
    assert gaps({"person_recall": 0.9}, {"person_recall": 0.95}) == {"person_recall": 0.05}
    assert gaps({"person_recall": 0.9}, {"person_recall": 0.92}) == {}
