"""Corpus swapping (an option of a project): the stand-in for an organisation or a place
is an entity of the same kind that occurs in ANOTHER document of the project, so it is a
real-looking name of the right kind ("Hartley & Sons" for "Acme Corp"), never one from
the same document.

A first pass collects the organisations and places each document mentions; before a
document is sanitized, its own ones that have no stand-in yet are given one drawn from
the other documents' (deterministic from the project's seed). A value that is already a
real value of the map cannot be a stand-in (the map forbids it), so what is left over
falls back to the engine's generated stand-ins.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import dataclass, field

from agent.entities import Action, Label
from agent.knowledge.places import place_kind
from agent.session.conversation import Conversation, MapEntry, fold

SWAPPED = (Label.ORG, Label.LOCATION)
_LEGAL = re.compile(r"\b(?:inc|ltd|llc|plc|gmbh|corp|co|sa|ag|bv|llp|limited|corporation|company)\.?$", re.IGNORECASE)


@dataclass
class CorpusPool:
    # label -> folded value -> (value as written, documents it occurs in)
    values: dict[Label, dict[str, tuple[str, set[str]]]] = field(default_factory=lambda: defaultdict(dict))
    by_document: dict[str, list[tuple[Label, str]]] = field(default_factory=lambda: defaultdict(list))

    def add(self, document_id: str, label: Label, value: str) -> None:
        if label not in SWAPPED or len(value) < 3 or not value[:1].isupper():
            return
        key = fold(value)
        _, documents = self.values[label].setdefault(key, (value, set()))
        documents.add(document_id)
        if (label, value) not in self.by_document[document_id]:
            self.by_document[document_id].append((label, value))

    def assign(self, document_id: str, conversation: Conversation) -> list[MapEntry]:
        """Map entries for this document's organisations and places that have none yet."""
        own = {fold(v) for _, v in self.by_document.get(document_id, [])}
        added = []
        for label, value in self.by_document.get(document_id, []):
            if conversation.lookup_real(value) is not None:
                continue
            candidates = [
                written for key, (written, documents) in sorted(self.values[label].items())
                if key not in own and document_id not in documents and not conversation.is_taken(written)
                and _same_kind(label, value, written)
            ]
            if not candidates:
                continue
            rng = random.Random(f"{conversation.seed}:{label.value}:{fold(value)}")
            choice = rng.choice(candidates)
            try:
                added.append(conversation.add_entry(MapEntry(value, choice, label, Action.REPLACE)))
            except ValueError:
                continue
        return added


def _same_kind(label: Label, real: str, candidate: str) -> bool:
    if label is Label.ORG:
        return bool(_LEGAL.search(real)) == bool(_LEGAL.search(candidate))
    real_kind, candidate_kind = place_kind(real)[0], place_kind(candidate)[0]
    return real_kind == candidate_kind
