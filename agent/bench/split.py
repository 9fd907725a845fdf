"""The honest protocol: every dev source is cut into a *fit* half and a *validation* half by
a fixed hash of the item id (of the document, for sources whose items are pieces of one
document). Whatever is fitted (rules, word lists, thresholds, trained heads) may look at
the fit half only; the validation half is what the README and the closing notes quote.

The hash is fixed (salted with the split's version and the dataset name), so every run,
every machine and the training script agree on which item is where, and an item never
changes sides when others are added.
"""

from __future__ import annotations

import hashlib
from typing import Literal

from agent.bench.data import Example

Half = Literal["fit", "validation"]
HALVES: tuple[Half, Half] = ("fit", "validation")
SPLIT_VERSION = "veil-split-v1"


def half_of(dataset: str, example: Example) -> Half:
    key = example.group or example.id
    digest = hashlib.sha256(f"{SPLIT_VERSION}:{dataset}:{key}".encode()).hexdigest()
    return "validation" if int(digest[:8], 16) % 2 else "fit"


def split_datasets(datasets: dict[str, list[Example]]) -> dict[Half, dict[str, list[Example]]]:
    """{half: {dataset: its examples in that half}}; a dataset with no item in a half is
    left out of that half."""
    out: dict[Half, dict[str, list[Example]]] = {half: {} for half in HALVES}
    for name, examples in datasets.items():
        for example in examples:
            out[half_of(name, example)].setdefault(name, []).append(example)
    return out
