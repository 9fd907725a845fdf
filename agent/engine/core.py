"""The privacy engine: text -> detect -> decide -> substitute -> (LLM) -> restore.

`Engine` is the stages composed in this process; it is an agent.engine.interface
.PrivacyEngine, like the EngineHost that serves one from a helper process. One Engine per
process is enough; it is safe to share between threads (detection and restore keep no
per-call state outside the conversation, which locks itself).
"""

from __future__ import annotations

import gc
import logging
import re
import threading
from collections.abc import Mapping, Sequence

from agent.config import Settings, default_settings
from agent.decide.decider import Decider, residual_risk
from agent.detect.base import Detector
from agent.detect.registry import build_registry
from agent.engine.chunks import CHUNK_CHARS, sanitize_in_chunks
from agent.engine.interface import DryRun, commit_dry_run, dry_run_with
from agent.engine.local_tasks import LocalModels, LocalTasks, find_local_models
from agent.entities import Action, Label, Replacement, RestoreResult, SanitizeResult, Span
from agent.knowledge.places import place_kind
from agent.restore.restorer import Restorer, StreamingRestorer
from agent.session.conversation import Conversation, fold
from agent.substitute.case_forms import mention_form
from agent.substitute.substituter import Substituter

# Bigger inputs are refused with a clear message instead of tying up the machine; 1 MB
# of text takes about a minute on two cores.
MAX_TEXT_CHARS = 2_000_000

log = logging.getLogger(__name__)


class InputRejected(ValueError):
    """The text cannot be sanitized (the message says why); nothing was sent."""


class Engine:
    def __init__(
        self,
        settings: Settings | None = None,
        *,
        local_tasks: LocalTasks | None = None,
        extra_detectors: Sequence[Detector] = (),
    ):
        self.settings = settings or default_settings()
        self.local_tasks = local_tasks or LocalTasks()
        self.registry = build_registry(self.settings, extra=extra_detectors)
        self.decider = Decider(self.settings, judge=self.local_tasks.judge)
        self.substituter = Substituter(self.settings.substitution_level, self.local_tasks.surrogates)
        self.restorer = Restorer()
        self._restore_lock = threading.Lock()

    def warm_up(self) -> None:
        """Load the slow parts (spaCy, name and word lists, gazetteers) now rather than on
        the first message."""
        from agent.knowledge.languages import zipf_in_languages
        from agent.knowledge.words import is_common_word

        is_common_word("warm")
        zipf_in_languages("warm")  # the other languages' word lists (name-shaped words)
        self.sanitize(
            "Warm-up: Jane Doe from Paris works at Globex LLC; the Server told Troi (jane@example.org).",
            Conversation("warm-up"),
        )
        # What is loaded now lives as long as the process: out of the cyclic garbage
        # collector's reach, a full collection (a text's allocations set one off now and
        # then) no longer walks the ~230,000 objects of the lists and the model (~70 ms,
        # in the middle of some text's sanitize). Collected first, so no garbage is kept.
        gc.collect()
        gc.freeze()

    def detect(self, text: str, conversation: Conversation | None = None) -> list[Span]:
        return self.registry.detect(_checked(text), conversation).spans

    def sanitize(
        self,
        text: str,
        conversation: Conversation,
        overrides: Mapping[str, Action] | None = None,
    ) -> SanitizeResult:
        """The text to send, with every entity decided and swapped. New map entries are
        added to the conversation (conversation.take_unsaved() hands them to a store)."""
        warnings = _warnings_for(text)
        text = _checked(text)
        if len(text) > CHUNK_CHARS:  # big texts in bounded pieces (memory, time): agent/engine/chunks.py
            return sanitize_in_chunks(self.sanitize, text, conversation, overrides, warnings)
        detection = self.registry.detect(text, conversation)
        warnings.extend(detection.warnings)
        decisions = self.decider.decide(text, detection.spans, conversation, overrides)
        # People first, so that e-mail addresses and usernames built from a name can be
        # built from the person's stand-in.
        # Full names before their partial mentions, so "Mitchell" can take its surname from
        # the stand-in of "Sarah Mitchell" wherever the two appear.
        # Regions before towns, so that a town written with its state ("Boise, Idaho") can
        # take a town of the state's stand-in.
        order = sorted(range(len(decisions)), key=lambda i: (decisions[i].span.label is not Label.PERSON, _is_partial(decisions[i].span), _is_town(decisions[i].span)))
        sent: dict[int, tuple[str, Action]] = {}
        for i in order:
            decision = decisions[i]
            if decision.action is Action.KEEP:
                sent[i] = (decision.span.text, Action.KEEP)
                continue
            entry = self.substituter.stand_in(decision.span, decision.action, text, conversation)
            form = mention_form(decision.span.text, entry.real, entry.stand_in)
            if decision.span.text != entry.real and entry.action is Action.REPLACE:
                conversation.add_variant(entry, decision.span.text, form)
            sent[i] = (form, entry.action)
        pieces: list[str] = []
        replacements: list[Replacement] = []
        position = 0
        length = 0
        for i, decision in enumerate(decisions):
            span = decision.span
            value, action = sent[i]
            pieces.append(text[position : span.start])
            length += span.start - position
            pieces.append(value)
            replacements.append(
                Replacement(
                    start=span.start, end=span.end, sanitized_start=length, sanitized_end=length + len(value),
                    label=span.label, real=span.text, sent=value, action=action, reason=decision.reason,
                    detector=span.detector, score=span.score,
                )
            )
            length += len(value)
            position = span.end
        pieces.append(text[position:])
        return SanitizeResult(text, "".join(pieces), replacements, residual_risk(decisions), warnings)

    def dry_run(
        self, text: str, conversation: Conversation, overrides: Mapping[str, Action] | None = None
    ) -> DryRun:
        """What sanitize would give, without changing the conversation (for previews)."""
        return dry_run_with(self.sanitize, text, conversation, overrides)

    def commit(self, conversation: Conversation, draft: DryRun) -> bool:
        """Add a dry run's map entries to the conversation; False (nothing added) when the
        conversation changed since, so the caller sanitizes again."""
        return commit_dry_run(conversation, draft)

    def restore(self, text: str, conversation: Conversation) -> RestoreResult:
        text = _checked(text)
        with self._restore_lock:
            result = self.restorer.restore(text, conversation)
        fallback = self.local_tasks.restorer
        if result.unrestored and fallback is not None:
            leftovers = [e for e in conversation.entries if any(f in e.stand_in.casefold() for f in result.unrestored)]
            try:
                repaired = fallback.restore(result.text, leftovers)
            except Exception:
                repaired = None
            if repaired and len(repaired) < 4 * len(result.text) + 200:
                # Re-run the rules so spans are computed for what the model fixed.
                again = self.restorer.restore(repaired, conversation)
                if len(again.unrestored) < len(result.unrestored):
                    return again
        return result

    def streaming_restorer(self, conversation: Conversation) -> StreamingRestorer:
        with self._restore_lock:
            return self.restorer.streaming(conversation)


def build_engine(settings: Settings, local_models: LocalModels | None = None) -> Engine:
    """The Engine for these settings, with the local-model tasks they ask for, from
    `local_models` (default: the installed plug-in, agent.engine.local_tasks). The model
    is optional: when it cannot be used, that is logged and the engine runs with rules
    and NER."""
    local_tasks, extra = None, []
    wants_model = settings.local_model.tasks or settings.detectors.local_llm or settings.substitution_level == 2
    if wants_model:
        plugin = local_models or find_local_models()
        if plugin is None:
            log.warning("local model not used: no local-model package is installed")
        else:
            try:
                local_tasks, extra = plugin.engine_tasks(settings)
            except Exception as exc:
                log.warning("local model not used: %s", exc)
    return Engine(settings, local_tasks=local_tasks, extra_detectors=extra)


def _is_town(span: Span) -> bool:
    return span.label is Label.LOCATION and place_kind(span.text)[0] != "state"


def _is_partial(span: Span) -> bool:
    return bool(span.canonical) and fold(span.canonical) != fold(span.text)


def _checked(text: object) -> str:
    if not isinstance(text, str):
        raise InputRejected(f"expected text, got {type(text).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        raise InputRejected(
            f"text is {len(text):,} characters; Veil sanitizes at most {MAX_TEXT_CHARS:,} at once. "
            "Split it and send the parts separately."
        )
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")  # NUL breaks spaCy's tokenizer and terminals
    if _SURROGATE.search(text):
        text = _SURROGATE.sub("\ufffd", text)  # half a UTF-16 pair cannot be encoded or sent
    return text


_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")  # below 32, not a tab or a line break


def _warnings_for(text: object) -> list[str]:
    if not isinstance(text, str) or not text:
        return []
    if _SURROGATE.search(text):
        return ["the text had broken characters (half of a UTF-16 pair); they were replaced by \ufffd and not checked"]
    control = len(_CONTROL.findall(text, 0, 10000))  # (a regex: no Python loop over the characters)
    if control > len(text[:10000]) * 0.1:
        return ["the text looks like binary data; only what reads as text was checked"]
    return []
