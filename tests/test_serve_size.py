"""`veil serve` and big requests: what it cannot take is refused before any work and
before anything is forwarded (413), earlier turns it already sanitized do not count
again, and an answer of any size is restored (it used to fail with 413 after the request
had gone out). A relay records every byte sent upstream."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from serve_support import ByteTap, ScriptedOpenAI, leaked

from agent.entities import Label
from agent.providers import ProviderConfig, create_provider
from agent.serve import CONVERSATION_HEADER, ProxyServer
from agent.serve.proxy import MAX_NEW_TEXT_CHARS
from agent.session.conversation import MapEntry
from agent.vault import VaultStore

TOKEN = "veil-size-token-0123456789"
AUTH = {"authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def vault(veil_home):
    store = VaultStore(veil_home / "data" / "vault.db", passphrase="size tests", mode="passphrase", scrypt_n=2**12)
    yield store
    store.close()


@pytest.fixture
def proxy(privacy_engine, vault):
    """proxy(answer) -> (server, upstream, tap)"""
    opened = []

    def start(answer):
        upstream = ScriptedOpenAI(answer).__enter__()
        tap = ByteTap(upstream.base_url).__enter__()
        provider = create_provider(ProviderConfig("openai", base_url=tap.base_url, model="up-model", max_attempts=1))
        server = ProxyServer(privacy_engine, vault, provider, port=0, token=TOKEN).start()
        opened.append((server, provider, tap, upstream))
        return server, upstream, tap

    yield start
    for server, provider, tap, upstream in opened:
        server.stop()
        provider.close()
        tap.__exit__()
        upstream.__exit__()


def paragraphs(n: int, who: str = "Oswin Tallabrook") -> str:
    return "".join(f"Note {i}: {who} asked for the invoice of order {i} to be sent again.\n\n" for i in range(n))


def post(url: str, messages: list[dict], **headers) -> httpx.Response:
    return httpx.post(f"{url}/chat/completions", headers={**AUTH, **headers}, timeout=600,
                      json={"model": "up-model", "messages": messages})


def test_more_new_text_than_a_request_may_bring_is_refused_before_anything_is_forwarded(proxy, vault):
    server, _, tap = proxy(lambda body: {"content": "ok"})
    too_big = "x" * (MAX_NEW_TEXT_CHARS - 10) + " " + paragraphs(1)
    response = post(server.url, [{"role": "user", "content": too_big}])
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "request_too_large"
    assert f"{MAX_NEW_TEXT_CHARS:,}" in response.json()["error"]["message"]
    assert tap.received() == b"" and vault.list_audit() == []
    assert vault.list_conversations() == []  # nothing stored for a refused new chat


def test_earlier_turns_do_not_count_again(proxy, vault):
    server, upstream, tap = proxy(lambda body: {"content": "Noted."})
    server.proxy.max_new_chars = 12_000  # small, so the test needs little sanitizing
    first = paragraphs(120)  # ~9,000 characters
    assert 8_000 < len(first) < 12_000
    opening = [{"role": "user", "content": first}]
    answered = post(server.url, opening)
    assert answered.status_code == 200
    conversation = answered.headers[CONVERSATION_HEADER]
    # The same history and 8,000 more characters: only the new text counts.
    more = [*opening, {"role": "assistant", "content": "Noted."}, {"role": "user", "content": paragraphs(100, "Ysolde Marrin")}]
    again = post(server.url, more)
    assert again.status_code == 200 and again.headers[CONVERSATION_HEADER] == conversation
    # Two new texts that together are over the limit: refused, nothing forwarded.
    sent_before = len(tap.received())
    both = [*more, {"role": "assistant", "content": "Noted."}, {"role": "user", "content": paragraphs(100, "Perrin Vosk")},
            {"role": "user", "content": paragraphs(80, "Perrin Vosk")}]
    refused = post(server.url, both)
    assert refused.status_code == 413 and len(tap.received()) == sent_before
    assert leaked(tap.received(), ["Tallabrook", "Ysolde", "Marrin"]) == []


def test_an_answer_longer_than_the_sanitize_limit_is_restored(proxy, vault, privacy_engine):
    from agent.engine.core import MAX_TEXT_CHARS

    conversation = vault.create_conversation(conversation_id="big-answer")
    conversation.add_entry(MapEntry("Oswin Tallabrook", "Piers Laneway", Label.PERSON))
    vault.save_conversation(conversation)
    filler = "All good. " * (MAX_TEXT_CHARS // 10 + 1000)
    server, _, _ = proxy(lambda body: {"content": f"Piers Laneway wrote: {filler}Thanks, Piers Laneway."})
    response = post(server.url, [{"role": "user", "content": "Summarise for Oswin Tallabrook."}],
                    **{CONVERSATION_HEADER: "big-answer"})
    assert response.status_code == 200, response.text[:300]
    content = response.json()["choices"][0]["message"]["content"]
    assert len(content) > MAX_TEXT_CHARS
    assert content.startswith("Oswin Tallabrook wrote: All good.") and content.endswith("Thanks, Oswin Tallabrook.")


@pytest.mark.slow
def test_veil_serve_takes_the_largest_request_it_accepts_under_400_mb(tmp_path):
    """A real `veil serve` process, 990,000 characters of new text with thousands of
    people, e-mails and phones: answered, restored, and the process's peak RSS (VmHWM)
    stays under 400 MB. (Restore used to compile one regex of every stand-in: +170 MB.)"""
    from serve_support import last_user, start_veil_serve, stop_veil_serve
    from test_engine_chunks import letters

    text = letters(6000)[:990_000]
    with ScriptedOpenAI(lambda body: {"content": "Noted: " + last_user(body)[:3000]}) as upstream:
        process, url, token = start_veil_serve(tmp_path, upstream.base_url, key="sk-upstream-size")
        try:
            response = httpx.post(f"{url}/chat/completions", headers={"authorization": f"Bearer {token}"}, timeout=900,
                                  json={"model": "up-model", "messages": [{"role": "user", "content": text}]})
            status = Path(f"/proc/{process.pid}/status").read_text()
        finally:
            stop_veil_serve(process)
    assert response.status_code == 200, response.text[:500]
    restored = response.json()["choices"][0]["message"]["content"]
    # The upstream echoed 3,000 characters of what it got; restored, that is the user's text
    # (the last stand-in may be cut in half by the echo, so compare a little less).
    assert restored.startswith("Noted: ") and text.startswith(restored[7:2500]) and "Orla Brennigan" in restored
    assert "Orla Brennigan" not in upstream.requests[-1].body.decode()
    peak_mb = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM"))) // 1024
    print(f"veil serve with 990,000 characters of new text: peak RSS {peak_mb} MB")
    assert peak_mb < 400
