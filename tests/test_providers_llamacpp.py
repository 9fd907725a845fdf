"""The OpenAI-compatible provider against the real llama.cpp server (llama_cpp.server)
running the tiny Gemma model, and the "local" provider on the same model in-process."""

from __future__ import annotations

import time

import pytest
from timing_checks import no_runaway

from agent.providers import (
    BadRequest,
    Cancelled,
    CancelToken,
    ChatMessage,
    GenerationParams,
    ProviderConfig,
    create_provider,
)

pytestmark = pytest.mark.slow

PROMPT = [ChatMessage("user", "Write one sentence about the weather.")]


@pytest.fixture
def llama(llama_server_url):
    provider = create_provider(ProviderConfig("openai", base_url=llama_server_url, model="tiny", max_attempts=2))
    yield provider
    provider.close()


def test_streams_from_the_llama_cpp_server(llama):
    stream = llama.stream(PROMPT, params=GenerationParams(max_tokens=12, temperature=0))
    chunks = list(stream)
    assert len(chunks) >= 3
    assert "".join(chunks).strip()
    assert stream.finish_reason in ("length", "stop")


def test_non_streaming_from_the_llama_cpp_server(llama):
    completion = llama.complete(PROMPT, params=GenerationParams(max_tokens=8, temperature=0))
    assert completion.text.strip()
    assert completion.usage.get("completion_tokens", 0) > 0


def test_cancel_mid_stream_on_the_llama_cpp_server(llama):
    token = CancelToken()
    received = []
    with pytest.raises(Cancelled) as info:
        for chunk in llama.stream(PROMPT, params=GenerationParams(max_tokens=400, temperature=0.8), cancel=token):
            received.append(chunk)
            if len(received) == 3:
                token.cancel()
                cancelled_at = time.monotonic()
    # The rest of 400 tokens would take tens of seconds.
    no_runaway("cancel after 3 of 400 tokens", time.monotonic() - cancelled_at, 3)
    assert len(received) == 3 and info.value.partial == "".join(received)


def test_a_prompt_longer_than_the_context_is_a_bad_request_with_the_servers_words(llama):
    too_long = [ChatMessage("user", "word " * 5000)]
    with pytest.raises(BadRequest) as info:
        "".join(llama.stream(too_long, params=GenerationParams(max_tokens=4)))
    assert info.value.status_code == 400
    assert "context" in info.value.provider_message.lower()


def test_the_local_provider_answers_with_the_local_model(tiny_model_path, veil_home):
    provider = create_provider(ProviderConfig("local", local_model_path=str(tiny_model_path), local_threads=2))
    stream = provider.stream(PROMPT, params=GenerationParams(max_tokens=10, temperature=0))
    text = "".join(stream)
    assert text.strip() and not text.startswith(" ")
    assert stream.finish_reason in ("stop", "length")
    # The base model gets a few-shot transcript (no chat template).
    rendered = provider.prompt_messages(PROMPT)
    assert rendered[0]["content"] == "What is the capital of France?" and rendered[-1] == {"role": "user", "content": PROMPT[0].content}

    token = CancelToken()
    received = []
    with pytest.raises(Cancelled):
        for chunk in provider.stream(PROMPT, params=GenerationParams(max_tokens=200, temperature=0.8), cancel=token):
            received.append(chunk)
            if len(received) == 2:
                token.cancel()
    # The model is free again right away (the generation stopped at the next token).
    assert provider.complete(PROMPT, params=GenerationParams(max_tokens=4, temperature=0)).text


def test_end_to_end_send_through_the_llama_cpp_server(llama_server_url, veil_home):
    """The whole pipeline with a real model behind a real server. What left the process is
    recorded by an httpx request hook on the provider's own client."""
    import httpx

    from agent.config import default_settings
    from agent.engine.core import Engine
    from agent.session.conversation import MessageState
    from agent.session.sender import Sender
    from agent.session.stores import MemoryStore

    sent: list[bytes] = []
    client = httpx.Client(timeout=30, event_hooks={"request": [lambda request: sent.append(request.read())]})
    provider = create_provider(ProviderConfig("openai", base_url=llama_server_url, model="tiny"), client=client)
    store = MemoryStore()
    conversation = store.create_conversation()
    sender = Sender(Engine(default_settings()), store, provider, params=GenerationParams(max_tokens=16, temperature=0))
    prompt = "Say hello to Anjali Gupta and write to anjali.gupta@globaltech.com."
    for text in (prompt, "Now greet Anjali again."):
        reply = sender.send(conversation, text)
        shown = "".join(chunk.text for chunk in reply)
        assert reply.message.state is MessageState.ANSWERED
        assert shown == reply.result.text
        # The streamed restore agrees with restoring the whole answer at once.
        assert sender.engine.restore(reply.message.received, conversation).text == shown
        for stand_in in (e.sent for e in reply.sanitized.entities if e.real == "Anjali Gupta"):
            if stand_in in reply.message.received:
                assert "Anjali Gupta" in shown
    assert len(sent) == 2
    body = b"".join(sent).decode()
    for real in ("Anjali", "Gupta", "anjali.gupta@globaltech.com", "globaltech"):
        assert real not in body
    client.close()


def test_end_to_end_send_with_the_local_provider(tiny_model_path, veil_home):
    from agent.config import default_settings
    from agent.engine.core import Engine
    from agent.session.conversation import MessageState
    from agent.session.sender import Sender
    from agent.session.stores import MemoryStore

    provider = create_provider(ProviderConfig("local", local_model_path=str(tiny_model_path), local_threads=2))
    store = MemoryStore()
    conversation = store.create_conversation()
    sender = Sender(Engine(default_settings()), store, provider, params=GenerationParams(max_tokens=16, temperature=0))
    reply = sender.send(conversation, "Write one line to Anjali Gupta about her invoice.")
    assert reply.text().strip()
    assert "Anjali" not in reply.message.sent
    assert store.list_messages(conversation.id)[0].state is MessageState.ANSWERED
