"""Detectors the files pipeline adds to the engine (through its `extra_detectors`):

- PreparedSpans: spans the pipeline worked out before calling Engine.sanitize for one
  chunk (spoken identifiers whose spoken stand-ins are already in the map, whole cells of
  an "always" column, corpus-swapped organisations and places). Score 1.0, so they win
  over partial detections inside them ("gmail" in "john dot baker at gmail dot com").
- ProjectHotwords: a written number or code right after one of the project's hotwords
  ("policy number 88-2214-7") is an entity of the hotword's type.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence

from agent.detect.base import DetectionContext
from agent.entities import Label, Span
from agent.files.policy import Hotword


class PreparedSpans:
    name = "files"
    labels = frozenset(Label)

    def __init__(self) -> None:
        self._local = threading.local()

    def prepare(self, text: str, spans: Sequence[Span]) -> None:
        self._local.prepared = (text, list(spans))

    def clear(self) -> None:
        self._local.prepared = None

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        prepared = getattr(self._local, "prepared", None)
        if not prepared or prepared[0] is not text and prepared[0] != text:
            return []
        return list(prepared[1])


_CODE = r"[A-Z0-9](?:[A-Z0-9]|[\-/. ](?=[A-Z0-9])){2,30}"


class ProjectHotwords:
    name = "hotword_id"
    labels = frozenset(Label)

    def __init__(self, hotwords: Sequence[Hotword]):
        self.hotwords = list(hotwords)
        self._patterns = [
            (re.compile(rf"(?i:(?<!\w){re.escape(h.phrase)}(?!\w))(?:[ \t]*(?i:number|no\.?|#|id|is|was|:|-))*[ \t]*({_CODE})"), h.label)
            for h in self.hotwords if h.phrase.strip()
        ]

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans = []
        for pattern, label in self._patterns:
            for match in pattern.finditer(text):
                value = match.group(1).rstrip(" .-/")
                if sum(ch.isdigit() for ch in value) < 2:
                    continue
                start = match.start(1)
                spans.append(Span(start, start + len(value), label, value, 0.95, self.name))
        return spans
