"""`veil serve`, the local OpenAI-compatible proxy: the official `openai` client against a
real proxy (uvicorn on 127.0.0.1) in front of recording upstreams on 127.0.0.1, with a
real encrypted vault. What reached the upstream is checked for real values; what came
back to the client for restored values."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import openai
import pytest
from provider_fakes import Fail, FakeProvider, Reply, wait_until
from serve_support import ScriptedOpenAI, last_user, mentions, start_veil_serve, stop_veil_serve

from agent.entities import Label, RestoredSpan
from agent.providers import ProviderConfig, create_provider
from agent.serve import (
    CONVERSATION_HEADER,
    ProxyServer,
    RemoteBindRefused,
    ServeError,
    is_loopback,
    load_or_create_token,
)
from agent.serve.restoring import json_escaped
from agent.vault import VaultStore

REPO = Path(__file__).resolve().parent.parent
UPSTREAM_KEY = "sk-upstream-key-0123456789abcdef"
TOKEN = "veil-test-token-0123456789"
PROMPT = "Write to Anjali Gupta at anjali.gupta@globaltech.com about her refund."
REALS = ("Anjali", "Gupta", "anjali.gupta@globaltech.com", "globaltech")


@pytest.fixture
def vault(veil_home):
    store = VaultStore(veil_home / "data" / "vault.db", passphrase="serve tests", mode="passphrase", scrypt_n=2**12)
    yield store
    store.close()


@pytest.fixture
def serve(privacy_engine, vault):
    """serve(upstream_base_url, kind="openai", **config) -> (ProxyServer, openai.OpenAI)"""
    servers = []

    def start(base_url: str, kind: str = "openai", **config):
        config.setdefault("max_attempts", 1)
        provider = create_provider(ProviderConfig(kind, base_url=base_url, model=config.pop("model", "up-model"),
                                                  api_key=UPSTREAM_KEY, **config))
        server = ProxyServer(privacy_engine, vault, provider, port=0, token=TOKEN).start()
        servers.append((server, provider))
        return server, openai.OpenAI(base_url=server.url, api_key=TOKEN, max_retries=0, timeout=30)

    yield start
    for server, provider in servers:
        server.stop()
        provider.close()


def assert_nothing_real_sent(upstream) -> None:
    bodies = upstream.all_bodies()
    for value in REALS:
        assert not mentions(bodies, value)


def stream_text(stream) -> str:
    return "".join(c.choices[0].delta.content or "" for c in stream if c.choices)


# -- the openai client, streaming and not ---------------------------------------------------------
def test_openai_client_gets_restored_answers_and_the_upstream_only_stand_ins(serve, vault):
    with FakeProvider("openai", key=UPSTREAM_KEY) as upstream:
        _, client = serve(upstream.base_url)
        whole = client.chat.completions.create(model="up-model", messages=[{"role": "user", "content": PROMPT}])
        assert whole.choices[0].message.content == f"You wrote: {PROMPT}"
        assert whole.usage.total_tokens == 17
        streamed = client.chat.completions.create(
            model="up-model", messages=[{"role": "user", "content": PROMPT}], stream=True)
        assert stream_text(streamed) == f"You wrote: {PROMPT}"

        assert_nothing_real_sent(upstream)
        sent = upstream.requests[0].json["messages"][0]["content"]
        assert sent != PROMPT and "@" in sent
        for request in upstream.requests:
            # The upstream gets Veil's key for it, never the client's token for the proxy.
            assert request.headers["authorization"] == f"Bearer {UPSTREAM_KEY}"
            assert TOKEN not in request.text
            assert request.json["model"] == "up-model"


def test_the_stream_is_openai_server_sent_events_ending_with_done(serve):
    with FakeProvider("openai", key=UPSTREAM_KEY) as upstream:
        upstream.plan(Reply(text=lambda body: f"Dear {body['messages'][-1]['content'].split()[2]}, noted.", chunk_size=2))
        server, _ = serve(upstream.base_url)
        with httpx.stream("POST", f"{server.url}/chat/completions", headers={"authorization": f"Bearer {TOKEN}"},
                          json={"model": "up-model", "stream": True, "messages": [{"role": "user", "content": PROMPT}]},
                          timeout=30) as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            assert response.headers[CONVERSATION_HEADER]
            raw = response.read().decode()
        events = raw.split("\n\n")
        assert events[-2:] == ["data: [DONE]", ""]
        chunks = [json.loads(e.removeprefix("data: ")) for e in events[:-2]]
        assert all(e.startswith("data: {") for e in events[:-2])
        assert all(c["object"] == "chat.completion.chunk" and "delta" in c["choices"][0] for c in chunks)
        assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
        assert chunks[-1]["choices"][0]["finish_reason"] == "stop"
        text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks)
        assert text == "Dear Anjali, noted."
        # Never half a stand-in: every piece that went out is already restored text.
        stand_in = upstream.requests[0].json["messages"][0]["content"].split()[2]
        assert all(not (c["choices"][0]["delta"].get("content") or "").strip() or
                   (c["choices"][0]["delta"].get("content") or "") in text for c in chunks)
        assert not any(stand_in[:3] in (c["choices"][0]["delta"].get("content") or "") for c in chunks)


# -- tool calls ------------------------------------------------------------------------------------
def _tool_answer(body: dict) -> dict:
    """Calls send_email with the user's (sanitized) text, and says whom it writes to."""
    text = last_user(body)
    to = re.search(r"\S+@\S+[a-z]", text)
    return {"content": "Sending now.", "tool_calls": [{
        "id": "call_1", "name": "send_email",
        "arguments": json.dumps({"to": to.group(0) if to else "", "text": text, "tags": ["refund"]}),
    }]}


TOOLS = [{"type": "function", "function": {"name": "send_email", "parameters": {"type": "object", "properties": {
    "to": {"type": "string"}, "text": {"type": "string"}}}}}]


def test_tool_call_arguments_come_back_restored_streamed_and_whole(serve):
    with ScriptedOpenAI(_tool_answer) as upstream:
        _, client = serve(upstream.base_url)
        messages = [{"role": "user", "content": PROMPT}]
        whole = client.chat.completions.create(model="up-model", messages=messages, tools=TOOLS)
        call = whole.choices[0].message.tool_calls[0]
        assert call.function.name == "send_email" and call.id == "call_1"
        assert json.loads(call.function.arguments) == {"to": "anjali.gupta@globaltech.com", "text": PROMPT, "tags": ["refund"]}
        assert whole.choices[0].finish_reason == "tool_calls"

        arguments, names = {}, {}
        for chunk in client.chat.completions.create(model="up-model", messages=messages, tools=TOOLS, stream=True):
            for delta_call in (chunk.choices[0].delta.tool_calls or []) if chunk.choices else []:
                arguments[delta_call.index] = arguments.get(delta_call.index, "") + (delta_call.function.arguments or "")
                if delta_call.function.name:
                    names[delta_call.index] = delta_call.function.name
        assert names == {0: "send_email"}
        assert json.loads(arguments[0]) == {"to": "anjali.gupta@globaltech.com", "text": PROMPT, "tags": ["refund"]}

        assert upstream.requests[0].json["tools"] == TOOLS  # the request itself goes through as it was
        assert_nothing_real_sent(upstream)


def test_a_tool_round_trip_sends_the_history_as_the_upstream_wrote_it(serve):
    with ScriptedOpenAI(_tool_answer) as upstream:
        _, client = serve(upstream.base_url)
        first = client.chat.completions.create(model="up-model", tools=TOOLS,
                                               messages=[{"role": "user", "content": PROMPT}])
        call = first.choices[0].message.tool_calls[0]
        upstream.answer = lambda body: {"content": "Done."}
        client.chat.completions.create(model="up-model", tools=TOOLS, messages=[
            {"role": "user", "content": PROMPT},
            {"role": "assistant", "content": first.choices[0].message.content, "tool_calls": [call.model_dump()]},
            {"role": "tool", "tool_call_id": call.id, "content": "Sent to anjali.gupta@globaltech.com (Anjali Gupta)."},
            {"role": "user", "content": "Thanks. Did Anjali get it?"},
        ])
        assert_nothing_real_sent(upstream)
        before, after = upstream.requests[0].json["messages"], upstream.requests[1].json["messages"]
        assert after[0] == before[0]  # the first turn exactly as sent the first time
        wrote = json.loads(_tool_answer(upstream.requests[0].json)["tool_calls"][0]["arguments"])
        assert json.loads(after[1]["tool_calls"][0]["function"]["arguments"]) == wrote
        stand_in_email = wrote["to"]
        assert stand_in_email in after[2]["content"]  # the tool's result: same stand-ins


def test_restored_values_are_escaped_inside_json_arguments():
    span = RestoredSpan(start=8, end=20, real='Ann "Jo" Li', stand_in="Mia Clarke", label=Label.PERSON)
    text = '{"who": Ann "Jo" Li!"}'
    assert json_escaped(text, 0, [span])[:8] == '{"who": '
    assert json_escaped(text, 0, [span]) == '{"who": Ann \\"Jo\\" Li!"}'
    assert json_escaped("plain", 0, []) == "plain"


# -- conversations ---------------------------------------------------------------------------------
def test_a_continued_chat_reuses_its_stand_ins_and_sends_its_history_unchanged(serve, vault):
    with FakeProvider("openai", key=UPSTREAM_KEY) as upstream:
        _, client = serve(upstream.base_url)
        first = client.chat.completions.with_raw_response.create(
            model="up-model", messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": PROMPT}],
            stream=True)
        answer = stream_text(first.parse())
        assert answer == f"You wrote: {PROMPT}"  # real values: what the client sends back, at once
        second = client.chat.completions.with_raw_response.create(model="up-model", messages=[
            {"role": "system", "content": "Be brief."}, {"role": "user", "content": PROMPT},
            {"role": "assistant", "content": answer}, {"role": "user", "content": "Also cc Anjali Gupta, please."}])
        assert second.headers[CONVERSATION_HEADER] == first.headers[CONVERSATION_HEADER]
        assert second.parse().choices[0].message.content == "You wrote: Also cc Anjali Gupta, please."

        one, two = (r.json["messages"] for r in upstream.requests)
        assert two[:2] == one  # system prompt and first turn exactly as sent before
        assert two[2]["content"] == f"You wrote: {one[1]['content']}"  # the answer as the upstream wrote it
        stand_in = " ".join(one[1]["content"].split()[2:4])
        assert two[3]["content"] == f"Also cc {stand_in}, please."
        assert_nothing_real_sent(upstream)

        # Another chat (another opening): another conversation, with its own map and seed.
        other = client.chat.completions.with_raw_response.create(
            model="up-model", messages=[{"role": "user", "content": f"Hello. {PROMPT}"}])
        assert other.headers[CONVERSATION_HEADER] != first.headers[CONVERSATION_HEADER]
        mine, theirs = (vault.load_conversation(r.headers[CONVERSATION_HEADER]) for r in (first, other))
        assert theirs.lookup_real("Anjali Gupta") is not None and mine.seed != theirs.seed


def test_the_conversation_header_ties_requests_together(serve, vault):
    with FakeProvider("openai", key=UPSTREAM_KEY) as upstream:
        _, client = serve(upstream.base_url)
        for text in (PROMPT, "A new thread: call Anjali Gupta tomorrow."):
            client.chat.completions.create(model="up-model", messages=[{"role": "user", "content": text}],
                                           extra_headers={CONVERSATION_HEADER: "editor-1"})
        one, two = (r.json["messages"][0]["content"] for r in upstream.requests)
        assert " ".join(one.split()[2:4]) in two
        assert vault.load_conversation("editor-1").lookup_real("Anjali Gupta") is not None
        bad = httpx.post(f"{_url(client)}/chat/completions", headers={"authorization": f"Bearer {TOKEN}",
                         CONVERSATION_HEADER: "no spaces allowed"},
                         json={"model": "m", "messages": [{"role": "user", "content": "hi"}]})
        assert bad.status_code == 400 and CONVERSATION_HEADER in bad.json()["error"]["message"]


def _url(client: openai.OpenAI) -> str:
    return str(client.base_url).rstrip("/")


# -- security ----------------------------------------------------------------------------------------
def test_requests_without_the_token_get_401(serve):
    with FakeProvider("openai", key=UPSTREAM_KEY) as upstream:
        server, _ = serve(upstream.base_url)
        body = {"model": "m", "messages": [{"role": "user", "content": PROMPT}]}
        for headers in ({}, {"authorization": "Bearer wrong-token-0123456789"}, {"authorization": TOKEN},
                        {"x-api-key": TOKEN}):
            for method, path in (("POST", "/chat/completions"), ("GET", "/models"), ("GET", "/nothing")):
                response = httpx.request(method, server.url + path, headers=headers, json=body)
                assert response.status_code == 401
                assert response.json()["error"]["code"] == "invalid_api_key"
                assert response.headers["www-authenticate"] == "Bearer"
        with pytest.raises(openai.AuthenticationError):
            openai.OpenAI(base_url=server.url, api_key="wrong-token-0123456789", max_retries=0).chat.completions.create(
                model="m", messages=[{"role": "user", "content": PROMPT}])
        assert upstream.requests == []  # nothing was forwarded


def test_a_non_loopback_address_is_refused_unless_allowed(privacy_engine, vault):
    provider = create_provider(ProviderConfig("openai", base_url="http://127.0.0.1:9/v1", model="m"))
    for host in ("0.0.0.0", "::", "192.0.2.10"):
        assert not is_loopback(host)
        with pytest.raises(RemoteBindRefused, match="--allow-remote"):
            ProxyServer(privacy_engine, vault, provider, host=host, port=0, token=TOKEN)
    for host in ("127.0.0.1", "::1", "localhost", "127.0.0.2"):
        assert is_loopback(host)
    # Allowed explicitly: the check passes (not started here: tests listen on loopback only).
    ProxyServer(privacy_engine, vault, provider, host="0.0.0.0", port=0, token=TOKEN, allow_remote=True).upstream.close()
    with pytest.raises(ServeError, match="token"):
        ProxyServer(privacy_engine, vault, provider, port=0, token="short")


def test_a_port_in_use_is_a_clear_error_and_stop_frees_the_port(privacy_engine, vault):
    provider = create_provider(ProviderConfig("openai", base_url="http://127.0.0.1:9/v1", model="m", max_attempts=1))
    first = ProxyServer(privacy_engine, vault, provider, port=0, token=TOKEN).start()
    assert first.running and first.url == f"http://127.0.0.1:{first.port}/v1"
    with pytest.raises(ServeError, match="cannot listen"):
        ProxyServer(privacy_engine, vault, provider, port=first.port, token=TOKEN).start()
    first.stop()
    assert not first.running
    again = ProxyServer(privacy_engine, vault, provider, port=first.port, token=TOKEN).start()
    assert httpx.get(f"{again.url}/models", headers={"authorization": f"Bearer {TOKEN}"}).json()["data"][0]["id"] == "m"
    again.stop()


def test_the_token_is_kept_in_the_vault(vault):
    first = load_or_create_token(vault)
    assert len(first) >= 32 and load_or_create_token(vault) == first
    assert vault.get_setting("serve.token") == first
    rotated = load_or_create_token(vault, rotate=True)
    assert rotated != first and vault.get_setting("serve.token") == rotated
    assert load_or_create_token(vault, token="my-own-token-0123456789") == "my-own-token-0123456789"
    assert load_or_create_token(vault) == "my-own-token-0123456789"


# -- failures ----------------------------------------------------------------------------------------
def test_upstream_failures_become_openai_errors_with_sensible_statuses(serve):
    with FakeProvider("openai", key=UPSTREAM_KEY) as upstream:
        server, client = serve(upstream.base_url)
        messages = [{"role": "user", "content": PROMPT}]

        upstream.plan(Fail(401, "invalid api key", echo_auth=True))
        with pytest.raises(openai.APIStatusError) as info:
            client.chat.completions.create(model="up-model", messages=messages)
        assert info.value.status_code == 502
        assert "rejected Veil's API key" in info.value.message and UPSTREAM_KEY not in info.value.response.text

        upstream.plan(Fail(429, "slow down", retry_after=7))
        with pytest.raises(openai.RateLimitError) as info:
            client.chat.completions.create(model="up-model", messages=messages, stream=True)
        assert info.value.response.headers["retry-after"] == "7"

        upstream.plan(Fail(404, "model 'nope' does not exist"))
        with pytest.raises(openai.NotFoundError, match="does not exist"):
            client.chat.completions.create(model="nope", messages=messages)

        upstream.plan(Fail(500))
        with pytest.raises(openai.APIStatusError) as info:
            client.chat.completions.create(model="up-model", messages=messages, stream=True)
        assert info.value.status_code == 502

        # Broken mid-stream: the client has the start, then an error event (the SDK raises it).
        upstream.plan(Reply(error_event_after=3))
        received = []
        with pytest.raises(openai.APIError):
            for chunk in client.chat.completions.create(model="up-model", messages=messages, stream=True):
                received.append(chunk.choices[0].delta.content or "" if chunk.choices else "")
        assert "".join(received).startswith("You wrote"[: len("".join(received))])

        # The client's own mistakes.
        for body, code in (({"messages": []}, 400), ({"messages": [{"role": "user", "content": [
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}]}, 400)):
            response = httpx.post(f"{server.url}/chat/completions", headers={"authorization": f"Bearer {TOKEN}"}, json=body)
            assert response.status_code == code and response.json()["error"]["message"]
        response = httpx.post(f"{server.url}/chat/completions", headers={"authorization": f"Bearer {TOKEN}"},
                              content=b"{not json")
        assert response.status_code == 400
        assert_nothing_real_sent(upstream)


def test_a_remote_upstream_without_a_key_is_a_clear_502(privacy_engine, vault):
    provider = create_provider(ProviderConfig("openai", base_url="https://api.example.invalid/v1", model="m"))
    with ProxyServer(privacy_engine, vault, provider, port=0, token=TOKEN) as server:
        client = openai.OpenAI(base_url=server.url, api_key=TOKEN, max_retries=0)
        with pytest.raises(openai.APIStatusError) as info:
            client.chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}])
    assert info.value.status_code == 502 and "no API key" in info.value.message


# -- the vault ---------------------------------------------------------------------------------------
def test_every_request_is_in_the_audit_log_with_sanitized_text_only(serve, vault):
    with FakeProvider("openai", key=UPSTREAM_KEY) as upstream:
        _, client = serve(upstream.base_url)
        upstream.plan(Reply(), Fail(401))
        response = client.chat.completions.with_raw_response.create(
            model="up-model", messages=[{"role": "user", "content": PROMPT}], stream=True)
        "".join(c.choices[0].delta.content or "" for c in response.parse() if c.choices)
        with pytest.raises(openai.APIStatusError):
            client.chat.completions.create(model="up-model", messages=[{"role": "user", "content": PROMPT + " Now!"}])
        conversation = response.headers[CONVERSATION_HEADER]
    # A stream's entry is updated just after [DONE] went out.
    assert wait_until(lambda: [a.status for a in vault.list_audit()] == ["failed", "answered"])
    audit = vault.list_audit()
    for entry in audit:
        assert entry.provider == "openai" and entry.model == "up-model"
        assert 'messages[0].role: "user"\nmessages[0].content: "Write to ' in entry.sent_text
        assert not any(mentions(entry.sent_text, v) for v in REALS)
    assert audit[1].conversation_id == conversation and audit[1].received_chars > 0
    messages = vault.list_messages(conversation)
    assert messages[0].typed == PROMPT and messages[0].shown == f"You wrote: {PROMPT}"
    assert messages[0].state.value == "answered" and not mentions(messages[0].sent + messages[0].received, "Anjali")


def test_a_client_that_leaves_mid_stream_cancels_the_upstream_request(serve, vault):
    with FakeProvider("openai", key=UPSTREAM_KEY) as upstream:
        upstream.plan(Reply(text="word " * 400, chunk_size=5, chunk_delay=0.05))
        server, _ = serve(upstream.base_url)
        with httpx.stream("POST", f"{server.url}/chat/completions", headers={"authorization": f"Bearer {TOKEN}"},
                          json={"model": "m", "stream": True, "messages": [{"role": "user", "content": PROMPT}]},
                          timeout=30) as response:
            lines = response.iter_lines()
            assert next(lines).startswith("data: ")
        assert wait_until(lambda: vault.list_audit() and vault.list_audit()[0].status == "cancelled", timeout=10)


# -- other providers, through the text interface ---------------------------------------------------------
def test_an_anthropic_upstream_streams_restored_answers_and_refuses_tools(serve, vault):
    with FakeProvider("anthropic", key=UPSTREAM_KEY) as upstream:
        _, client = serve(upstream.base_url, kind="anthropic", model="claude-test")
        messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": PROMPT}]
        whole = client.chat.completions.create(model="claude-test", messages=messages, max_tokens=50)
        assert whole.choices[0].message.content == f"You wrote: {PROMPT}"
        assert whole.choices[0].finish_reason == "stop"
        assert whole.usage.prompt_tokens == 12
        chunks = list(client.chat.completions.create(model="claude-test", messages=messages, stream=True,
                                                     stream_options={"include_usage": True}))
        assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == f"You wrote: {PROMPT}"
        assert chunks[-1].usage is not None and chunks[-1].usage.prompt_tokens == 12
        assert upstream.requests[0].json["system"] == "Be brief."
        assert upstream.requests[0].json["max_tokens"] == 50
        with pytest.raises(openai.BadRequestError, match="OpenAI-compatible"):
            client.chat.completions.create(model="claude-test", messages=messages, tools=TOOLS)
        assert len(upstream.requests) == 2
        assert len(vault.list_audit()) == 2  # the refused request was not recorded as sent
        assert_nothing_real_sent(upstream)


# -- the command --------------------------------------------------------------------------------------
@pytest.mark.slow
def test_veil_serve_prints_url_and_token_and_keeps_the_token(tmp_path):
    with FakeProvider("openai", key=UPSTREAM_KEY) as upstream:
        process, url, token = start_veil_serve(tmp_path, upstream.base_url, key=UPSTREAM_KEY)
        try:
            client = openai.OpenAI(base_url=url, api_key=token, max_retries=0)
            answer = client.chat.completions.create(model="up-model", messages=[{"role": "user", "content": PROMPT}])
            assert answer.choices[0].message.content == f"You wrote: {PROMPT}"
            assert next(m.id for m in client.models.list()) == "up-model"
        finally:
            assert stop_veil_serve(process) == 0
        process, _, again = start_veil_serve(tmp_path, upstream.base_url, key=UPSTREAM_KEY)
        assert stop_veil_serve(process, signal.SIGTERM) == 0
        assert again == token  # clients set up once keep working
        assert_nothing_real_sent(upstream)

    env = {k: v for k, v in os.environ.items() if not k.startswith("VEIL_")} | {"VEIL_HOME": str(tmp_path)}
    refused = subprocess.run([sys.executable, "-c", "import sys; from agent.cli import main; sys.exit(main(sys.argv[1:]))",
                              "serve", "--host", "0.0.0.0"], check=False, cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "--allow-remote" in refused.stderr


def test_text_held_back_comes_before_the_finish_even_in_the_finishing_chunk(privacy_engine):
    from agent.serve.restoring import ChunkRestorer
    from agent.session.conversation import Conversation, MapEntry

    conversation = Conversation()
    conversation.add_entry(MapEntry("Anjali Gupta", "Priya Sharma", Label.PERSON))

    def chunk(content: str | None, finish: str | None = None, tool_args: str | None = None) -> dict:
        delta = {} if content is None else {"content": content}
        if tool_args is not None:
            delta["tool_calls"] = [{"index": 0, "function": {"arguments": tool_args}}]
        return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    restorer = ChunkRestorer(privacy_engine, conversation)
    sent = []
    for piece in (chunk("Ask Priya"), chunk(" Sha", tool_args='{"to": "Priya Sh'),
                  chunk("rma and Pri", "stop", tool_args='arma", "cc": "Pri"}')):
        sent += restorer.feed(piece)
    sent += restorer.finish()
    content = "".join(c["choices"][0]["delta"].get("content") or "" for c in sent if c["choices"])
    arguments = "".join(t["function"]["arguments"] for c in sent if c["choices"]
                        for t in c["choices"][0]["delta"].get("tool_calls") or [])
    # "Pri" could begin a stand-in: held back until the finish, then sent as it is.
    assert content == "Ask Anjali Gupta and Pri"
    assert json.loads(arguments) == {"to": "Anjali Gupta", "cc": "Pri"}
    finishes = [c["choices"][0]["finish_reason"] for c in sent if c["choices"]]
    assert finishes[-1] == "stop" and finishes.count("stop") == 1  # the finish is the last thing said
    assert not any("Priya" in (c["choices"][0]["delta"].get("content") or "") for c in sent)
