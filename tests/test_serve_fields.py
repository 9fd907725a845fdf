"""`veil serve` sanitizes every string of a request a provider reads, not only message
content: tool and parameter descriptions, stop sequences, response_format schemas,
reasoning an assistant turn carries, extra keys on text parts, fields it does not know.
A relay in front of the fake upstream records every byte that leaves the proxy; no
planted real value may be in it. Answers come back restored in every text field, tool-call
arguments written with JSON escapes included, and the audit log names each field that left.
"""

from __future__ import annotations

import json

import httpx
import pytest
from provider_fakes import FakeProvider
from serve_support import ByteTap, ScriptedOpenAI, leaked

from agent.entities import Label
from agent.providers import ProviderConfig, create_provider
from agent.serve import CONVERSATION_HEADER, ProxyServer
from agent.session.conversation import MapEntry
from agent.vault import VaultStore

TOKEN = "veil-fields-token-0123456789"
UPSTREAM_KEY = "sk-fields-upstream-0123456789"

USER = "Draft a refund letter for my client Anjali Gupta (anjali.gupta@globaltech.com)."
PART_NOTE = "Notes on Mrs. Rosalind Thistlewood, SSN 390-58-1142."
REASONING = "The user is Ignatius Fairweather, email ignatius.fairweather@lumenpost.org."
TOOL_DESCRIPTION = "Send a refund note to Dolores Haverbrook at dolores.haverbrook@quillmail.net."
PARAMETER_DESCRIPTION = "Who to call, e.g. Tobias Quennell on +1 415 555 0173."
STOPS = ["Regards, Marguerite Ellsworth", "SSN 536-22-8841"]
SCHEMA_DESCRIPTION = "A letter for Bartholomew Pennington (SSN 271-44-9023)."
PROPERTY_DESCRIPTION = "Her name, as on file: Cordelia Ashgrove."
INSTRUCTIONS = "The customer is Edmund Larkspur; his SSN is 412-63-7788 and his phone 617-555-0149."

PLANTED = (
    "Anjali", "Gupta", "anjali.gupta@globaltech.com", "Rosalind", "Thistlewood", "390-58-1142",
    "Ignatius", "Fairweather", "ignatius.fairweather@lumenpost.org", "Dolores", "Haverbrook",
    "dolores.haverbrook@quillmail.net", "Tobias", "Quennell", "555 0173", "Marguerite", "Ellsworth",
    "536-22-8841", "Bartholomew", "Pennington", "271-44-9023", "Cordelia", "Ashgrove", "Edmund", "Larkspur",
    "412-63-7788", "617-555-0149",
)

# Where each planted text sits in the request, as the audit log names it.
TEXT_FIELDS = {
    "messages[1].content[0].note": PART_NOTE,
    "messages[2].reasoning_content": REASONING,
    "tools[0].function.description": TOOL_DESCRIPTION,
    "tools[0].function.parameters.properties.to.description": PARAMETER_DESCRIPTION,
    "stop[0]": STOPS[0],
    "stop[1]": STOPS[1],
    "response_format.json_schema.description": SCHEMA_DESCRIPTION,
    "response_format.json_schema.schema.properties.greeting.description": PROPERTY_DESCRIPTION,
    "instructions": INSTRUCTIONS,
}


def request_body(**extra) -> dict:
    return {
        "model": "up-model",
        "messages": [
            {"role": "system", "content": "You are a careful assistant."},
            {"role": "user", "content": [{"type": "text", "text": USER, "note": PART_NOTE}]},
            {"role": "assistant", "content": "Here is a draft.", "reasoning_content": REASONING},
            {"role": "user", "content": "Make it shorter."},
        ],
        "tools": [{"type": "function", "function": {
            "name": "send_note", "description": TOOL_DESCRIPTION,
            "parameters": {"type": "object", "required": ["to"],
                           "properties": {"to": {"type": "string", "description": PARAMETER_DESCRIPTION}}}}}],
        "tool_choice": "auto",
        "stop": STOPS,
        "response_format": {"type": "json_schema", "json_schema": {
            "name": "letter", "description": SCHEMA_DESCRIPTION, "strict": True,
            "schema": {"type": "object", "properties": {
                "greeting": {"type": "string", "description": PROPERTY_DESCRIPTION}}}}},
        "instructions": INSTRUCTIONS,
        **extra,
    }


def echo_fields(body: dict) -> dict:
    """The upstream's answer quotes what it was sent: the restored answer must have the
    real values back, in content and in reasoning_content."""
    return {"content": f"Instructions: {body.get('instructions')}",
            "reasoning_content": body["tools"][0]["function"]["description"]}


@pytest.fixture
def vault(veil_home):
    store = VaultStore(veil_home / "data" / "vault.db", passphrase="fields tests", mode="passphrase", scrypt_n=2**12)
    yield store
    store.close()


@pytest.fixture
def proxy(privacy_engine, vault):
    """proxy(upstream_base_url, kind="openai", **server_options) -> base URL of a running proxy"""
    started = []

    def start(base_url: str, kind: str = "openai", **options):
        provider = create_provider(ProviderConfig(kind, base_url=base_url, model="up-model", api_key=UPSTREAM_KEY,
                                                  max_attempts=1))
        server = ProxyServer(privacy_engine, vault, provider, port=0, token=TOKEN, **options).start()
        started.append((server, provider))
        return server.url

    yield start
    for server, provider in started:
        server.stop()
        provider.close()


def post(url: str, body: dict, **headers) -> httpx.Response:
    return httpx.post(f"{url}/chat/completions", json=body, timeout=60,
                      headers={"authorization": f"Bearer {TOKEN}", **headers})


def streamed(url: str, body: dict, **headers) -> tuple[httpx.Response, list[dict]]:
    with httpx.stream("POST", f"{url}/chat/completions", json={**body, "stream": True}, timeout=60,
                      headers={"authorization": f"Bearer {TOKEN}", **headers}) as response:
        raw = response.read().decode()
    events = [e.removeprefix("data: ") for e in raw.split("\n\n") if e.startswith("data: ")]
    return response, [json.loads(e) for e in events if e != "[DONE]"]


def joined(chunks: list[dict], field: str) -> str:
    return "".join(c["choices"][0]["delta"].get(field) or "" for c in chunks if c.get("choices"))


def tool_arguments(chunks: list[dict]) -> str:
    return "".join((call.get("function") or {}).get("arguments") or ""
                   for c in chunks if c.get("choices") for call in c["choices"][0]["delta"].get("tool_calls") or [])


# -- nothing real leaves, from any field ------------------------------------------------------------
def test_no_planted_value_from_any_field_reaches_the_upstream_and_answers_come_back_restored(proxy):
    with ScriptedOpenAI(echo_fields) as upstream, ByteTap(upstream.base_url) as tap:
        url = proxy(tap.base_url)
        whole = post(url, request_body())
        assert whole.status_code == 200, whole.text
        message = whole.json()["choices"][0]["message"]
        assert message["content"] == f"Instructions: {INSTRUCTIONS}"
        assert message["reasoning_content"] == TOOL_DESCRIPTION

        response, chunks = streamed(url, request_body())
        assert response.status_code == 200
        assert joined(chunks, "content") == f"Instructions: {INSTRUCTIONS}"
        assert joined(chunks, "reasoning_content") == TOOL_DESCRIPTION

        raw = tap.received()
        assert raw.count(b"POST ") == 2
        assert leaked(raw, PLANTED) == []
        sent = upstream.requests[0].json
        # The request still works: structure kept, texts swapped, not dropped.
        assert sent["tools"][0]["function"]["name"] == "send_note"
        assert sent["tools"][0]["function"]["parameters"]["required"] == ["to"]
        assert sent["tool_choice"] == "auto" and sent["response_format"]["json_schema"]["strict"] is True
        assert sent["messages"][1]["content"][0]["type"] == "text"
        assert "SSN" in sent["instructions"] and sent["instructions"] != INSTRUCTIONS
        assert len(sent["stop"]) == 2 and sent["stop"][0].startswith("Regards, ")


def test_the_audit_entry_names_every_field_that_left_with_sanitized_values_only(proxy, vault):
    with ScriptedOpenAI(echo_fields) as upstream:
        url = proxy(upstream.base_url)
        assert post(url, request_body()).status_code == 200
        sent = upstream.requests[0].json
    entry = vault.list_audit()[0]
    assert leaked(entry.sent_text.encode(), PLANTED) == []
    lines = entry.sent_text.splitlines()
    for path in TEXT_FIELDS:
        assert any(line.startswith(f"{path}: ") for line in lines), path
    # Structure is listed too: everything that left.
    for path in ("model", "messages[0].role", "tools[0].function.name", "tool_choice", "response_format.type"):
        assert any(line.startswith(f"{path}: ") for line in lines), path
    instructions = next(line for line in lines if line.startswith("instructions: "))
    assert json.loads(instructions.removeprefix("instructions: ")) == sent["instructions"]


def test_unknown_fields_are_refused_when_the_setting_says_so(proxy):
    with ScriptedOpenAI(echo_fields) as upstream, ByteTap(upstream.base_url) as tap:
        url = proxy(tap.base_url, unknown_fields="refuse")
        refused = post(url, request_body())
        assert refused.status_code == 400
        error = refused.json()["error"]
        assert error["code"] == "unknown_field" and error["param"] in ("messages[1].content[0].note", "instructions",
                                                                        "messages[2].reasoning_content")
        body = request_body()
        del body["instructions"]
        body["messages"][1]["content"][0].pop("note")
        body["messages"][2].pop("reasoning_content")
        assert tap.received() == b""  # nothing was forwarded
        assert post(url, body).status_code == 200
        assert leaked(tap.received(), PLANTED) == []


def test_what_cannot_be_sanitized_is_refused_and_nothing_is_forwarded(proxy):
    with ScriptedOpenAI(echo_fields) as upstream, ByteTap(upstream.base_url) as tap:
        url = proxy(tap.base_url)
        # Free text where an identifier belongs (a tool name the model must echo back).
        body = request_body(tool_choice={"type": "function", "function": {"name": "call Edmund Larkspur now"}})
        response = post(url, body)
        assert response.status_code == 400 and response.json()["error"]["param"] == "tool_choice.function.name"
        # A key of an unknown object that is text, not a name.
        response = post(url, request_body(extra={"Edmund Larkspur, 412-63-7788": 1}))
        assert response.status_code == 400 and response.json()["error"]["param"] == "extra"
        # A schema nested deeper than any real one.
        deep: dict = {"type": "string", "description": INSTRUCTIONS}
        for _ in range(100):
            deep = {"type": "object", "properties": {"x": deep}}
        body = request_body()
        body["tools"][0]["function"]["parameters"] = deep
        response = post(url, body)
        assert response.status_code == 400 and "deep" in response.json()["error"]["message"]
        assert tap.received() == b""


# -- answers: every string restored ----------------------------------------------------------------
def test_streamed_tool_call_arguments_written_with_unicode_escapes_are_restored(proxy, vault):
    conversation = vault.create_conversation(conversation_id="escapes-1")
    conversation.add_entry(MapEntry("Anjali Gupta", "Nanný Okafor", Label.PERSON))
    vault.save_conversation(conversation)
    arguments = {"to": "Nanný Okafor", "note": "Refund for Nanný Okafor, \"as agreed\"."}

    def answer(body: dict) -> dict:
        # json.dumps writes ý as \u00fd, as many servers do; streamed 5 characters a piece,
        # so the escape itself is cut in two.
        return {"content": None, "tool_calls": [{"id": "call_1", "name": "send_note",
                                                 "arguments": json.dumps(arguments)}]}

    with ScriptedOpenAI(answer) as upstream:
        url = proxy(upstream.base_url)
        body = {"model": "up-model", "tools": request_body()["tools"],
                "messages": [{"role": "user", "content": "Write to Anjali Gupta."}]}
        assert "\\u00fd" in json.dumps(arguments)
        _, chunks = streamed(url, body, **{CONVERSATION_HEADER: "escapes-1"})
        restored = json.loads(tool_arguments(chunks))
        assert restored == {"to": "Anjali Gupta", "note": 'Refund for Anjali Gupta, "as agreed".'}
        whole = post(url, body, **{CONVERSATION_HEADER: "escapes-1"}).json()
        call = whole["choices"][0]["message"]["tool_calls"][0]
        assert json.loads(call["function"]["arguments"]) == restored
        assert upstream.requests[0].json["messages"][0]["content"] == "Write to Nanný Okafor."


# -- the other upstreams ----------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["anthropic", "gemini"])
def test_anthropic_and_gemini_get_sanitized_stop_sequences_and_no_unknown_fields(proxy, kind):
    with FakeProvider(kind, key=UPSTREAM_KEY) as upstream, ByteTap(upstream.base_url) as tap:
        url = proxy(tap.base_url, kind=kind)
        body = {"model": "up-model", "stop": STOPS, "instructions": INSTRUCTIONS, "messages": [
            {"role": "system", "content": PROPERTY_DESCRIPTION},
            {"role": "user", "content": [{"type": "text", "text": USER, "note": PART_NOTE}]},
            {"role": "assistant", "content": "Noted.", "reasoning_content": REASONING},
            {"role": "user", "content": "Go on."}]}
        whole = post(url, body)
        assert whole.status_code == 200, whole.text
        response, chunks = streamed(url, body)
        assert response.status_code == 200 and joined(chunks, "content") == "You wrote: Go on."
        raw = tap.received()
        assert raw.count(b"POST ") == 2
        assert leaked(raw, PLANTED) == []
        sent = upstream.requests[0].json
        stops = sent.get("stop_sequences") or sent.get("generationConfig", {}).get("stopSequences")
        assert stops and len(stops) == 2 and stops[0].startswith("Regards, ") and stops != STOPS


def test_the_unknown_fields_setting_takes_sanitize_or_refuse(privacy_engine, vault):
    from agent.config import ConfigError, default_settings, settings_from_dict
    from agent.serve import ServeError

    assert default_settings().server.unknown_fields == "sanitize"
    with pytest.raises(ConfigError, match="unknown_fields"):
        settings_from_dict({"server": {"unknown_fields": "forward"}})
    provider = create_provider(ProviderConfig("openai", base_url="http://127.0.0.1:9/v1", model="m"))
    with pytest.raises((ValueError, ServeError), match="unknown_fields"):
        ProxyServer(privacy_engine, vault, provider, port=0, token=TOKEN, unknown_fields="forward")
    provider.close()
