"""The local-model tasks with the real tiny model: every answer is validated, and junk,
slowness or a missing model mean "no opinion", never a crash or a wrong offset.

The model runs greedily (temperature 0, next-token logits), so its answers on these
sentences (written for these tests) are the same on every run: the tests say what the tiny
model does with them, and what the validation layer lets through."""

from __future__ import annotations

import pytest

from agent.detect.base import DetectionContext, Detector
from agent.engine.local_tasks import FallbackRestorer, RelevanceJudge, SurrogateProposer
from agent.entities import Label, Span
from agent.session.conversation import Conversation, MapEntry
from models.tasks import tasks_for_model, tasks_from_model
from models.tasks.detect import LocalLLMDetector
from models.tasks.relevance import LocalRelevanceJudge
from models.tasks.restore import LocalFallbackRestorer
from models.tasks.surrogates import LocalSurrogateProposer, validate_surrogate

ODD_TEXTS = ["", "   ", "\x00\x01\x02 binary \xff", "🙂🙂 emoji only", "مرحبا بالعالم يا صديقي", "a" * 3000]


def span_of(text: str, value: str, label: Label) -> Span:
    start = text.index(value)
    return Span(start, start + len(value), label, value, 0.9, "test")


def test_the_tasks_implement_the_engine_protocols(tiny_model):
    tasks, detectors = tasks_from_model(tiny_model, ["relevance", "detect", "surrogates", "restore"])
    assert isinstance(tasks.judge, RelevanceJudge)
    assert isinstance(tasks.surrogates, SurrogateProposer)
    assert isinstance(tasks.restorer, FallbackRestorer)
    assert len(detectors) == 1 and isinstance(detectors[0], Detector) and detectors[0].name == "local_llm"
    with pytest.raises(ValueError, match="unknown"):
        tasks_from_model(tiny_model, ["telepathy"])


def test_relevance_judge_answers_one_verdict_per_span(tiny_model):
    judge = LocalRelevanceJudge(tiny_model, time_budget_s=20)
    text = "Explain how Microsoft Windows handles memory, as William Shakespeare would have."
    spans = [span_of(text, "Microsoft", Label.ORG), span_of(text, "William Shakespeare", Label.PERSON)]
    margins = [judge.margin(text, s) for s in spans]
    assert all(isinstance(m, float) for m in margins)
    # The model wants to keep both (calibrated margins ~2.0 and ~1.9, past the keep bar of
    # 1.0). The company is kept; a base model may never keep a person (a wrongly kept name
    # is sent in clear), so the person gets no opinion and the engine's rules decide.
    assert margins[0] > 1.0 and margins[1] > 1.0
    assert judge.judge(text, spans) == [True, None]


def test_relevance_judge_out_of_time_has_no_opinion(tiny_model):
    judge = LocalRelevanceJudge(tiny_model, time_budget_s=0.0)
    text = "Who founded Microsoft?"
    assert judge.judge(text, [span_of(text, "Microsoft", Label.ORG)]) == [None]


def test_relevance_judge_with_a_chat_template(chat_model):
    judge = LocalRelevanceJudge(chat_model, time_budget_s=20)
    text = "What is the tallest building in Paris?"
    span = span_of(text, "Paris", Label.LOCATION)
    # Through the chat template (no few-shot calibration): "keep", by a margin (~1.4)
    # past the chat models' bar of 0.5.
    assert judge.margin(text, span) > 0.5
    assert judge.judge(text, [span]) == [True]


@pytest.mark.parametrize("model_fixture", ["tiny_model", "chat_model"])
def test_detector_spans_always_match_the_text(request, model_fixture):
    model = request.getfixturevalue(model_fixture)
    # Chat models extract JSON (grammar-constrained, slower): a short answer is enough here.
    detector = LocalLLMDetector(model, time_budget_s=20, max_output_tokens=48)
    text = "Hi team, please add jsmith_42 to the repo and ping @lena.k about Project Nightjar."
    spans = detector.detect(text, DetectionContext())
    assert spans, "the model names at least one of the handles or the project"
    for s in spans:
        assert text[s.start : s.end] == s.text and s.detector == "local_llm"
        assert s.label in detector.labels
    # Only what the text says, at its place (the model's words are matched back verbatim).
    assert {s.text for s in spans} <= {"jsmith_42", "@lena.k", "Project Nightjar"}
    if model_fixture == "tiny_model":
        assert [(s.text, s.label) for s in spans] == [("@lena.k", Label.USERNAME)]
    odd_texts = ODD_TEXTS if model_fixture == "tiny_model" else ODD_TEXTS[2:3]
    for odd in odd_texts:
        for s in detector.detect(odd, DetectionContext()):
            assert odd[s.start : s.end] == s.text


def test_detector_respects_the_allow_list_and_the_budget(tiny_model):
    detector = LocalLLMDetector(tiny_model, time_budget_s=20)
    text = "My login is kevin88 and my friend is @mara_b."
    assert "kevin88" in [s.text for s in detector.detect(text, DetectionContext())]
    allowed = detector.detect(text, DetectionContext(allow=frozenset({"kevin88", "@mara_b"})))
    assert allowed == []
    assert LocalLLMDetector(tiny_model, time_budget_s=0.0).detect(text, DetectionContext()) == []


SURROGATE_TEXT = "Please ask Hiroshi Tanaka from the Osaka office about Brightwave Ltd."
SURROGATE_ITEMS = [("Hiroshi Tanaka", Label.PERSON), ("Osaka", Label.LOCATION), ("Brightwave Ltd", Label.ORG)]


@pytest.mark.parametrize("model_fixture", ["tiny_model", "chat_model"])
def test_surrogates_from_the_tiny_model_are_rejected(request, model_fixture):
    # What the 270M model writes here: the base model copies an entity of the text
    # (" Hiroshi Tanaka" for all three), the chat-template one echoes the marked text
    # ("Text: Please ask [Hiroshi Tanaka] ..."). Neither may stand in for anything.
    model = request.getfixturevalue(model_fixture)
    proposer = LocalSurrogateProposer(model, time_budget_s=20)
    for value, label in SURROGATE_ITEMS:
        assert proposer.propose(SURROGATE_TEXT, span_of(SURROGATE_TEXT, value, label)) is None


@pytest.mark.parametrize(
    "original, label, proposal, expected",
    [
        ("Hiroshi Tanaka", Label.PERSON, " Hiroshi Tanaka", None),  # a copy
        ("Osaka", Label.LOCATION, " Hiroshi Tanaka", None),  # another entity of the text
        ("Osaka", Label.LOCATION, "[Osaka]", None),
        ("Brightwave Ltd", Label.ORG, "Text: Please ask Hiroshi Tanaka about [Brightwave Ltd].", None),
        ("Hiroshi Tanaka", Label.PERSON, "Kenji Tanaka", None),  # shares the surname
        ("Hiroshi Tanaka", Label.PERSON, "Kenji Sato", "Kenji Sato"),
        ("Osaka", Label.LOCATION, "Kobe", "Kobe"),
        ("Brightwave Ltd", Label.ORG, "Nordlicht", "Nordlicht Ltd"),  # keeps the legal form
        ("Dr. Hiroshi Tanaka", Label.PERSON, "Kenji Sato", "Dr. Kenji Sato"),  # and the title
    ],
)
def test_the_validator_lets_through_only_real_stand_ins(original, label, proposal, expected):
    assert validate_surrogate(original, proposal, label, SURROGATE_TEXT) == expected


def test_surrogates_are_not_asked_for_formatted_identifiers_or_bad_spans(tiny_model):
    proposer = LocalSurrogateProposer(tiny_model, time_budget_s=20)
    text = "Mail jane@example.org or call +44 20 7946 0958."
    assert proposer.propose(text, span_of(text, "jane@example.org", Label.EMAIL)) is None
    assert proposer.propose(text, Span(0, 4, Label.PERSON, "John", 0.9, "test")) is None  # not the text
    assert LocalSurrogateProposer(tiny_model, time_budget_s=0.0).propose(
        "Ask Maria.", span_of("Ask Maria.", "Maria", Label.PERSON)
    ) is None


def test_fallback_restorer_fixes_inflected_stand_ins(tiny_model):
    restorer = LocalFallbackRestorer(tiny_model, time_budget_s=20)
    entries = [MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON)]
    answer = "Here is a card for PRIYA SHARMA. Priyas team will love it."
    repaired = restorer.restore(answer, entries)
    assert repaired is not None and "ANJALI GUPTA" in repaired  # exact (case) form: no model needed
    assert "Priya Sharma" not in repaired and repaired.endswith("team will love it.")
    assert restorer.restore("Nothing to see here.", entries) is None
    assert restorer.restore(answer, []) is None


def test_fallback_restorer_out_of_time_keeps_only_certain_fixes(tiny_model):
    restorer = LocalFallbackRestorer(tiny_model, time_budget_s=0.0)
    entries = [MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON)]
    assert restorer.restore("Priyas team will love it.", entries) is None


def test_tasks_for_model_by_catalog_name(veil_home):
    tasks, detectors = tasks_for_model("gemma3-270m-q4", ["relevance"], time_budget_s=5)
    assert tasks.judge is not None and tasks.surrogates is None and detectors == []


@pytest.mark.slow
def test_engine_runs_with_the_local_tasks(tiny_model, veil_home):
    engine_module = pytest.importorskip("agent.engine.core")
    from agent.config import default_settings

    settings = default_settings()
    settings.substitution_level = 2
    tasks, detectors = tasks_from_model(tiny_model, ["relevance", "detect", "surrogates", "restore"], time_budget_s=10)
    engine = engine_module.Engine(settings, local_tasks=tasks, extra_detectors=detectors)
    conversation = Conversation("c1", seed=7)
    text = "Ask Hiroshi Tanaka (user hiro_t88) what the population of Chicago is."
    result = engine.sanitize(text, conversation)
    assert "Hiroshi Tanaka" not in result.sanitized
    for r in result.entities:
        assert text[r.start : r.end] == r.real
        assert result.sanitized[r.sanitized_start : r.sanitized_end] == r.sent
    restored = engine.restore(result.sanitized, conversation)
    assert "Hiroshi Tanaka" in restored.text
