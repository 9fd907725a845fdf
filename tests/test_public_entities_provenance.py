"""The curated gazetteer of public entities survives only where no well-kept source exists;
this proves it was not derived from the evaluation data: no entry is a gold value of a dev
text, and no entry occurs in only one or two dev texts (what a list entry added for one
prompt looks like)."""

from __future__ import annotations

import json
import re
from collections import defaultdict

import pytest

from agent import paths
from agent.bench.data import default_data_dir

_TOKEN = re.compile(r"[A-Za-zÀ-ÿ0-9]+(?:['’][A-Za-z]+)?")


def _key(text: str) -> tuple[str, ...]:
    return tuple(t.casefold() for t in _TOKEN.findall(text))


@pytest.mark.skipif(default_data_dir() is None, reason="../shared/data/dev is not beside the checkout")
def test_no_entry_comes_from_the_evaluation_data():
    texts, gold = [], set()
    for path in sorted(default_data_dir().glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                texts.append(_key(row["text"]))
                gold.update(_key(e["text"]) for e in row.get("entities") or [])
    entries = json.loads(paths.resource("public_entities.json").read_text(encoding="utf-8"))
    wanted = {_key(n) for names in entries.values() if isinstance(names, list) for n in names}
    seen_in: dict[tuple[str, ...], set[int]] = defaultdict(set)
    for i, words in enumerate(texts):
        for n in {len(k) for k in wanted}:
            for start in range(len(words) - n + 1):
                gram = words[start : start + n]
                if gram in wanted:
                    seen_in[gram].add(i)
    gold_values = sorted(" ".join(k) for k in wanted & gold)
    rare = sorted(" ".join(k) for k, found in seen_in.items() if 1 <= len(found) <= 2)
    assert not gold_values, f"gold values of dev texts in the gazetteer: {gold_values[:20]}"
    assert not rare, f"entries found in only one or two dev texts: {rare[:20]}"
