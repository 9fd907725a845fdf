"""The llama.cpp runtime wrapper, with the real tiny model (short prompts, few tokens)."""

from __future__ import annotations

import threading
import time

import pytest
from timing_checks import timed

from models.runtime import LocalModel, ModelLoadError, get_model, release_models


def test_metadata_is_read_without_loading(tiny_model_path):
    model = LocalModel(tiny_model_path, n_ctx=1024)
    assert not model.is_loaded
    assert model.name == "Gemma 3 270m" and not model.has_chat_template
    assert model.n_ctx == 1024 and model.n_threads >= 1


def test_completion_is_deterministic_and_stops(tiny_model):
    prompt = "Q: What is the capital of France?\nA:"
    first = tiny_model.complete(prompt, max_tokens=12, stop=["\n"])
    assert first.ok and "Paris" in first.text and "\n" not in first.text
    other = tiny_model.complete("Q: What is 2 + 2?\nA:", max_tokens=6)
    again = tiny_model.complete(prompt, max_tokens=12, stop=["\n"])
    assert again.text == first.text  # the KV-cache prefix reuse does not change results
    assert other.completion_tokens <= 6


def test_token_budget(tiny_model):
    gen = tiny_model.complete("Count: 1, 2, 3,", max_tokens=5)
    assert gen.finish == "length" and gen.completion_tokens == 5


def test_time_budget_stops_generation(tiny_model):
    # 2000 tokens would take minutes: a budget that is not honoured cannot pass.
    with timed("a 0.3 s budget on a 2000-token completion", 15):
        gen = tiny_model.complete("Count: 1, 2, 3,", max_tokens=2000, time_budget_s=0.3)
    assert gen.finish == "time" and not gen.ok
    assert gen.completion_tokens < 2000


def test_time_budget_covers_a_long_prompt(tiny_model):
    gen = tiny_model.complete("word " * 1800 + "\nSummary:", max_tokens=20, time_budget_s=0.2)
    assert gen.finish == "time"
    # Evaluation stopped part-way through the prompt (it is done in chunks between which
    # the clock is checked), whatever the machine's speed.
    assert tiny_model._llm.n_tokens < gen.prompt_tokens - 1


def test_prompt_longer_than_the_context(tiny_model):
    gen = tiny_model.complete("word " * 3000, max_tokens=10)
    assert gen.finish == "too_long" and gen.text == ""


def test_json_schema_constrained_output(tiny_model):
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string", "maxLength": 30}, "age": {"type": "integer"}},
        "required": ["name", "age"],
    }
    result = tiny_model.complete_json("Person: John Smith, age 42.\nJSON:", schema, max_tokens=40)
    assert isinstance(result.value, dict) and set(result.value) == {"name", "age"}
    assert isinstance(result.value["age"], int)


def test_json_cut_by_the_token_budget_is_no_answer(tiny_model):
    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    result = tiny_model.complete_json("Write a long story.\nJSON:", schema, max_tokens=3)
    assert result.value is None and result.generation.finish == "length"


def test_choose_picks_one_of_the_options(tiny_model):
    choice = tiny_model.choose("Is Paris in France? Answer yes or no.\nAnswer:", [" yes", " no"])
    assert choice.best in (" yes", " no") and set(choice.logits) == {" yes", " no"}
    assert choice.margin(" yes", " no") == -choice.margin(" no", " yes")
    with pytest.raises(ValueError, match="first token"):
        tiny_model.choose("x", [" yes", " yes please"])


def test_one_inference_at_a_time(tiny_model):
    results = []

    def worker(i: int) -> None:
        results.append(tiny_model.complete(f"Q: What is {i} + {i}?\nA:", max_tokens=4))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 3 and all(r.ok for r in results)


def test_busy_model_answers_busy_within_the_budget(tiny_model):
    long_call = threading.Thread(
        target=tiny_model.complete, args=("Count: 1, 2, 3,",), kwargs={"max_tokens": 2000, "time_budget_s": 1.5}
    )
    long_call.start()
    time.sleep(0.2)
    gen = tiny_model.complete("Hi", max_tokens=2, time_budget_s=0.2)
    long_call.join()
    assert gen.finish == "busy"


def test_stream_yields_text_and_honours_cancel(tiny_model):
    cancel = threading.Event()
    pieces = []
    for piece in tiny_model.stream([{"role": "user", "content": "Tell me about cats."}], max_tokens=200, cancel=cancel):
        pieces.append(piece)
        if len(pieces) == 3:
            cancel.set()
    assert 3 <= len(pieces) <= 4


def test_chat_template_from_the_gguf_metadata(chat_model):
    assert chat_model.has_chat_template
    prompt, _stops = chat_model.render_chat([{"role": "user", "content": "Hi"}])
    assert prompt.startswith("<bos><start_of_turn>user\nHi<end_of_turn>") and prompt.endswith("model\n")
    gen = chat_model.chat([{"role": "user", "content": "Say hello."}], max_tokens=5)
    assert gen.finish in ("stop", "length")
    choice = chat_model.choose([{"role": "user", "content": "Is Paris in France?"}], ["yes", "no"])
    assert choice.best in ("yes", "no")


def test_loading_happens_in_the_background_and_calls_wait(tiny_model_path):
    model = LocalModel(tiny_model_path, n_ctx=512)
    thread = model.start_loading()
    gen = model.complete("Q: Hi\nA:", max_tokens=2, time_budget_s=30)
    thread.join()
    assert model.is_loaded and gen.ok
    model.close()
    assert not model.is_loaded


def test_corrupt_model_fails_cleanly(tmp_path, tiny_model_path):
    bad = tmp_path / "bad.gguf"
    with open(tiny_model_path, "rb") as f:
        bad.write_bytes(f.read(tiny_model_path.stat().st_size // 2))  # weights cut in half
    model = LocalModel(bad)
    with pytest.raises(ModelLoadError):
        model.load()
    gen = model.complete("Hi", max_tokens=2)
    assert gen.finish == "error" and "could not load" in gen.error
    with pytest.raises(ModelLoadError):
        LocalModel(tmp_path / "missing.gguf")


def test_shared_instances(tiny_model_path):
    a = get_model(tiny_model_path, n_ctx=512)
    assert get_model(tiny_model_path, n_ctx=512) is a
    release_models(tiny_model_path)
    assert get_model(tiny_model_path, n_ctx=512) is not a
    release_models(tiny_model_path)


def test_idle_model_frees_its_weights_and_loads_again(tiny_model_path):
    """`release_after_minutes`: unused for that long, the weights are freed (the tray app
    should not hold ~330 MB for nothing); the next call loads them again and answers the
    same; a call in progress is never cut off by the timer."""
    model = LocalModel(tiny_model_path, n_ctx=1024)
    model.idle_release_s = 0.4
    try:
        prompt = "Q: What is the capital of France?\nA:"
        first = model.complete(prompt, max_tokens=8, stop=["\n"])
        assert first.ok and model.is_loaded
        deadline = time.monotonic() + 10
        while model.is_loaded and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not model.is_loaded, "the idle timer did not free the model"
        again = model.complete(prompt, max_tokens=8, stop=["\n"])
        assert again.ok and again.text == first.text and model.is_loaded
        # Calls longer than the idle time, back to back: each one finishes whole.
        for _ in range(3):
            long = model.complete("Count: 1, 2, 3,", max_tokens=40)
            assert long.ok and long.completion_tokens == 40
        assert model.count_tokens("hello world") >= 2
    finally:
        model.close()
    assert not model.is_loaded
