"""The official `openai` client -> `veil serve` (in-process, uvicorn on 127.0.0.1) -> the
real llama.cpp OpenAI-compatible server running the tiny Gemma model."""

from __future__ import annotations

import openai
import pytest
from provider_fakes import wait_until
from serve_support import mentions

from agent.providers import ProviderConfig, create_provider
from agent.serve import CONVERSATION_HEADER, ProxyServer
from agent.vault import VaultStore

pytestmark = pytest.mark.slow

TOKEN = "veil-llama-test-token-0123456789"
PROMPT = "Write one sentence to Anjali Gupta (anjali.gupta@globaltech.com) about the weather."
REALS = ("Anjali", "Gupta", "anjali.gupta@globaltech.com")


@pytest.fixture
def proxied_llama(llama_server_url, privacy_engine, veil_home):
    vault = VaultStore(veil_home / "data" / "vault.db", passphrase="llama tests", mode="passphrase", scrypt_n=2**12)
    provider = create_provider(ProviderConfig("openai", base_url=llama_server_url, model="tiny", max_attempts=2))
    server = ProxyServer(privacy_engine, vault, provider, port=0, token=TOKEN).start()
    yield openai.OpenAI(base_url=server.url, api_key=TOKEN, max_retries=0, timeout=120), vault
    server.stop()
    provider.close()
    vault.close()


def test_openai_client_through_the_proxy_to_llama_cpp(proxied_llama):
    client, vault = proxied_llama
    messages = [{"role": "user", "content": PROMPT}]

    whole = client.chat.completions.with_raw_response.create(model="tiny", messages=messages, max_tokens=8,
                                                             temperature=0)
    completion = whole.parse()
    assert completion.object == "chat.completion"
    assert completion.choices[0].message.content.strip()
    assert completion.choices[0].finish_reason in ("length", "stop")
    assert completion.usage.completion_tokens > 0

    streamed = client.chat.completions.with_raw_response.create(model="tiny", messages=messages, max_tokens=8,
                                                                temperature=0, stream=True)
    chunks = list(streamed.parse())
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert len(chunks) >= 3 and text.strip()
    assert chunks[-1].choices[0].finish_reason in ("length", "stop")

    # What reached llama.cpp, per the audit log: stand-ins only, and both requests in one
    # conversation: the same opening with no answer yet (a retry, a regenerated answer)
    # is sent with the same stand-ins, so the upstream cannot tell them by comparing.
    # A stream's entry is updated just after [DONE] went out.
    assert wait_until(lambda: [a.status for a in vault.list_audit()] == ["answered", "answered"])
    audit = vault.list_audit()
    conversation = whole.headers[CONVERSATION_HEADER]
    assert streamed.headers[CONVERSATION_HEADER] == conversation
    assert [a.conversation_id for a in audit] == [conversation, conversation]
    assert vault.load_conversation(conversation).lookup_real("Anjali Gupta") is not None
    for entry in audit:
        assert 'messages[0].content: "Write one sentence to ' in entry.sent_text
        assert not any(mentions(entry.sent_text, value) for value in REALS)
    sent = [[line for line in a.sent_text.splitlines() if line.startswith("messages")] for a in audit]
    assert sent[0] == sent[1]
