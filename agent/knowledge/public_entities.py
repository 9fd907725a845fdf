"""The list of well-known organisations, people, works and places that ships with Veil
(resources/public_entities.json; its "_about" entry says where each part comes from):
names whose meaning a remote LLM needs in order to answer about them. Read by the
relevance rules (agent/decide/relevance.py), by the detectors that tell a firm from a person
(agent/detect/ner.py, person_names.py) and by the test of whether a name is one
nobody writes about (agent/decide/unknown_names.py)."""

from __future__ import annotations

import json
import re
from functools import lru_cache

from agent import paths


@lru_cache(maxsize=1)
def public_entities() -> dict[str, frozenset[str]]:
    """{kind: casefolded names}; empty when the resource is missing."""
    try:
        with open(paths.resource("public_entities.json"), encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        return {}
    out = {kind: frozenset(n.casefold() for n in names) for kind, names in data.items() if isinstance(names, list)}
    if "people" in out:
        out["people"] = out["people"] | {_without_middle_initials(n) for n in out["people"]}
    return out


def _without_middle_initials(name: str) -> str:
    """"donald j. trump" -> "donald trump", "john f. kennedy jr." -> "john kennedy jr.": how
    people write a public figure whose list entry has a middle initial."""
    words = name.split()
    if len(words) < 3:
        return name
    kept = [words[0]] + [w for w in words[1:-1] if not re.fullmatch(r"\w\.", w)] + [words[-1]]
    return " ".join(kept)


def is_known_organisation(name: str) -> bool:
    """One of the well-known organisations of the list ("Bosch"), any case."""
    return name.casefold() in public_entities().get("organisations", ())
