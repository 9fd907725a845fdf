"""The registry composes detectors from configuration (spaCy-style: config is data) and
runs them all over a text, then resolves overlaps once."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence

from agent.config import Settings
from agent.conversation import Conversation, fold
from agent.detect.base import DetectionContext, Detector
from agent.detect.memory import ConversationMemoryDetector
from agent.detect.merge import resolve_overlaps
from agent.detect.ner import SpacyNerDetector
from agent.detect.nlp import LazyAnalysis, ModelMissing, SpacyPipeline, shared_pipeline
from agent.detect.patterns import pattern_detectors
from agent.detect.person_names import PersonNameDetector
from agent.detect.secrets import SecretDetector
from agent.detect.user_lists import AlwaysProtectDetector, CustomPatternDetector
from agent.entities import Label, Span

log = logging.getLogger(__name__)


@dataclass
class Detection:
    spans: list[Span]
    warnings: list[str] = field(default_factory=list)


class DetectorRegistry:
    def __init__(
        self,
        detectors: Iterable[Detector] = (),
        *,
        allow: Iterable[str] = (),
        min_score: float = 0.35,
        pipeline: SpacyPipeline | None = None,
    ):
        self.detectors: list[Detector] = list(detectors)
        self.allow = frozenset(fold(a) for a in allow if a.strip())
        self.min_score = min_score
        self.pipeline = pipeline

    def add(self, detector: Detector) -> None:
        self.detectors.append(detector)

    def names(self) -> list[str]:
        return [d.name for d in self.detectors]

    def detect(self, text: str, conversation: Conversation | None = None) -> Detection:
        analysis = LazyAnalysis(self.pipeline, text) if self.pipeline else None
        context = DetectionContext(conversation=conversation, allow=self.allow, analysis=analysis)
        spans: list[Span] = []
        warnings: list[str] = []
        for detector in self.detectors:
            try:
                found = detector.detect(text, context)
            except ModelMissing as exc:
                warnings.append(str(exc))
                continue
            except Exception as exc:  # one broken detector must not stop the others
                log.exception("detector %s failed", detector.name)
                warnings.append(f"detector {detector.name} failed: {exc.__class__.__name__}")
                continue
            for span in found:
                if not (0 <= span.start < span.end <= len(text)) or text[span.start : span.end] != span.text:
                    continue  # a detector's offsets are checked, never trusted
                spans.append(_without_possessive(span))
        kept = [s for s in spans if s.score >= self.min_score and fold(s.text) not in self.allow]
        return Detection(resolve_overlaps(kept), warnings)


def _without_possessive(span: Span) -> Span:
    """"Mitchell's" is a mention of "Mitchell": the "'s" stays in the text as written."""
    if span.label in (Label.PERSON, Label.ORG, Label.LOCATION) and len(span.text) > 3 and span.text.endswith(("'s", "’s")):
        return replace(span, end=span.end - 2, text=span.text[:-2])
    return span


def build_registry(settings: Settings, extra: Sequence[Detector] = ()) -> DetectorRegistry:
    cfg = settings.detectors
    pipeline = shared_pipeline(cfg.spacy_model) if cfg.ner else None
    detectors: list[Detector] = []
    if cfg.secrets:
        detectors.append(SecretDetector())
    if cfg.patterns:
        detectors.extend(pattern_detectors())
    if pipeline is not None:
        detectors.append(SpacyNerDetector(pipeline))
    detectors.append(PersonNameDetector(pipeline))
    if cfg.memory:
        detectors.append(ConversationMemoryDetector())
    if settings.lists.always_protect:
        detectors.append(AlwaysProtectDetector(settings.lists.always_protect))
    for pattern in settings.lists.custom_patterns:
        detectors.append(CustomPatternDetector(Label.parse(pattern.label), pattern.pattern, pattern.name))
    detectors.extend(extra)
    return DetectorRegistry(
        detectors, allow=settings.lists.never_protect, min_score=cfg.min_score, pipeline=pipeline
    )
