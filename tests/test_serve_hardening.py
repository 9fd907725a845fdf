"""`veil serve` against bad input and hostile pages: malformed bodies of any kind get a
400 (never a 500, never forwarded), requests for another host name (DNS rebinding) or
from a web page's origin are refused, and two chats that begin the same way share the
opening's stand-ins but not one conversation. A real proxy on 127.0.0.1, a real encrypted vault, a recording
upstream."""

from __future__ import annotations

import json

import httpx
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from serve_support import ByteTap, ScriptedOpenAI

from agent.providers import ProviderConfig, create_provider
from agent.serve import CONVERSATION_HEADER, ProxyServer
from agent.vault import VaultStore

TOKEN = "veil-hardening-token-0123456789"
AUTH = {"authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def running(privacy_engine, tmp_path_factory):
    """One proxy for the module: (base URL, upstream, tap, vault)."""
    home = tmp_path_factory.mktemp("hardening")
    vault = VaultStore(home / "vault.db", passphrase="hardening tests", mode="passphrase", scrypt_n=2**12)
    answers = iter(range(1, 1_000_000))
    # Each answer is new text, as a model's would be.
    with ScriptedOpenAI(lambda body: {"content": f"Answer number {next(answers)}."}) as upstream, \
            ByteTap(upstream.base_url) as tap:
        provider = create_provider(ProviderConfig("openai", base_url=tap.base_url, model="up-model", max_attempts=1))
        server = ProxyServer(privacy_engine, vault, provider, port=0, token=TOKEN).start()
        yield server, upstream, tap, vault
        server.stop()
        provider.close()
    vault.close()


def post_raw(url: str, content: bytes, **headers) -> httpx.Response:
    return httpx.post(f"{url}/chat/completions", content=content, timeout=60,
                      headers={**AUTH, "content-type": "application/json", **headers})


# -- malformed bodies ------------------------------------------------------------------------------
GOOD = b'{"model":"m","messages":[{"role":"user","content":"Hello there."}]}'
MALFORMED = {
    "half a surrogate pair in a text": b'{"messages":[{"role":"user","content":"Hi \\ud800 there"}]}',
    "half a surrogate pair in a key": b'{"messages":[{"role":"user","content":"Hi"}],"\\udc00":1}',
    "990 levels of nesting": b'{"messages":[{"role":"user","content":"Hi"}],"x":' + b"[" * 990 + b"]" * 990 + b"}",
    "990 levels in a content": b'{"messages":[{"role":"user","content":' + b"[" * 990 + b"]" * 990 + b"}]}",
    "100 levels in an unknown field": b'{"messages":[{"role":"user","content":"Hi"}],"x":' + b'{"a":' * 100 + b"1" + b"}" * 100 + b"}",
    "NaN": b'{"messages":[{"role":"user","content":"Hi"}],"temperature":NaN}',
    "an infinite number": b'{"messages":[{"role":"user","content":"Hi"}],"temperature":1e999}',
    "a 5000-digit integer": b'{"messages":[{"role":"user","content":"Hi"}],"seed":' + b"9" * 5000 + b"}",
    "bytes that are not UTF-8": b'{"messages":[{"role":"user","content":"Hi \xff"}]}',
    "not JSON": b"{messages: [}",
    "an empty body": b"",
    "an array": b"[]",
    "tool-call arguments nested 990 deep": json.dumps({"messages": [
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "type": "function", "function": {
            "name": "f", "arguments": "[" * 990 + "]" * 990}}]}, {"role": "user", "content": "Go."}]}).encode(),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_bodies_get_400_and_nothing_is_forwarded(running, name):
    server, _, tap, _ = running
    before = tap.received()
    response = post_raw(server.url, MALFORMED[name])
    assert response.status_code == 400, response.text
    assert response.json()["error"]["message"]
    assert tap.received() == before


# Text of any characters, half surrogate pairs included (JSON carries them as \ud800 escapes).
TEXTS = st.text(st.characters(codec=None, exclude_categories=()) | st.sampled_from(["\ud800", "\udc00", "é", "A", " "]),
                max_size=30)
JSON_LEAVES = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | TEXTS
JSON_VALUES = st.recursive(JSON_LEAVES, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(TEXTS, inner, max_size=4), max_leaves=12)

# Requests of the right shape, with any text in every text slot and any JSON in
# unknown fields: these reach the engine and the upstream.
ROLES = st.sampled_from(["system", "developer", "user", "assistant", "tool"])
WELL_FORMED = st.fixed_dictionaries(
    {"model": st.just("up-model"),
     "messages": st.lists(st.fixed_dictionaries({"role": ROLES, "content": TEXTS},
                                                optional={"reasoning_content": TEXTS, "x_note": JSON_VALUES}),
                          min_size=1, max_size=3)},
    optional={
        "stream": st.booleans(), "stop": TEXTS | st.lists(TEXTS, max_size=3), "temperature": st.floats(0, 2),
        "tools": st.lists(st.fixed_dictionaries({"type": st.just("function"), "function": st.fixed_dictionaries(
            {"name": st.sampled_from(["lookup", "send_note"]), "description": TEXTS, "parameters": JSON_VALUES})}),
            max_size=2),
        "response_format": st.fixed_dictionaries({"type": st.just("json_schema"), "json_schema": st.fixed_dictionaries(
            {"name": st.just("out"), "schema": JSON_VALUES})}),
        "instructions": JSON_VALUES, "metadata": JSON_VALUES,
    })
# Anything at all: other shapes, other types, wrong values.
ANY_SHAPE = st.dictionaries(st.sampled_from(["messages", "model", "stream", "stop", "tools", "tool_choice", "n",
                                             "response_format", "logit_bias", "stream_options", "instructions"])
                            | TEXTS, JSON_VALUES, max_size=5) | JSON_VALUES


def check(server, raw: bytes) -> None:
    response = post_raw(server.url, raw)
    said = response.json()["error"]["message"][:40] if response.status_code != 200 else ""
    event(f"status {response.status_code} {said}")
    assert response.status_code in (200, 400, 413), response.text
    if response.status_code != 200:
        assert response.json()["error"]["message"]


FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))


@FUZZ
@given(body=WELL_FORMED)
def test_well_formed_requests_with_any_text_get_an_answer_or_a_400_never_a_500(running, body):
    check(running[0], json.dumps(body).encode())  # half a surrogate pair goes as a \ud800 escape


@FUZZ
@given(body=st.one_of(WELL_FORMED, ANY_SHAPE), mangle=st.sampled_from(["none", "cut", "surrogate", "deep", "nan"]),
       where=st.integers(0, 10_000))
def test_any_body_gets_an_answer_or_a_400_never_a_500(running, body, mangle, where):
    raw = json.dumps(body).encode()
    quotes = [i for i, c in enumerate(raw) if c == ord('"')]
    if mangle == "cut":
        raw = raw[: where % (len(raw) + 1)]
    elif mangle == "surrogate" and quotes:  # half a pair just inside (or outside) some string
        at = quotes[where % len(quotes)]
        raw = raw[:at] + b"\\udbff" + raw[at:] if raw[at - 1 : at] != b"\\" else raw
    elif mangle == "deep" and raw.startswith(b"{") and len(raw) > 2:
        raw = b'{"deep":' + b"[" * 990 + b"]" * 990 + b"," + raw[1:]
    elif mangle == "nan" and raw.startswith(b"{") and len(raw) > 2:
        raw = b'{"temperature":NaN,' + raw[1:]
    check(running[0], raw)


# -- DNS rebinding -------------------------------------------------------------------------------
def test_requests_naming_another_host_or_from_a_web_origin_are_refused(running):
    server, _, tap, _ = running
    port = server.port
    before = tap.received()
    for host in (f"attacker.example:{port}", f"127.0.0.1.nip.io:{port}", "attacker.example", f"127.0.0.1:{port + 1}",
                 f"localhost:{port}@attacker.example", ""):
        response = post_raw(server.url, GOOD, host=host)
        assert response.status_code == 403, host
        assert response.json()["error"]["code"] == "forbidden_host"
    for origin in ("http://attacker.example", f"http://attacker.example:{port}", "null", f"https://127.0.0.1:{port}"):
        response = post_raw(server.url, GOOD, origin=origin)
        assert response.status_code == 403, origin
        assert response.json()["error"]["code"] == "forbidden_origin"
    # Refused before the token is checked: a page learns nothing about it.
    response = httpx.get(f"{server.url}/models", headers={"host": f"attacker.example:{port}"})
    assert response.status_code == 403
    assert tap.received() == before  # nothing forwarded
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
        assert post_raw(server.url, GOOD, host=host).status_code == 200, host
    assert post_raw(server.url, GOOD, origin=f"http://localhost:{port}").status_code == 200


def test_a_remote_setup_names_its_extra_host_names(privacy_engine, running):
    _, upstream, _, vault = running
    provider = create_provider(ProviderConfig("openai", base_url=upstream.base_url, model="up-model", max_attempts=1))
    # Bound to loopback here (tests never listen elsewhere), with one more name allowed.
    with ProxyServer(privacy_engine, vault, provider, port=0, token=TOKEN, extra_hosts=("veil.lan",)) as server:
        assert post_raw(server.url, GOOD, host=f"veil.lan:{server.port}").status_code == 200
        assert post_raw(server.url, GOOD, host=f"other.lan:{server.port}").status_code == 403
    provider.close()


# -- which conversation ----------------------------------------------------------------------------
def chat(url: str, messages: list[dict], **headers) -> tuple[str, str]:
    """(the answer, the conversation id) of one request."""
    response = httpx.post(f"{url}/chat/completions", headers={**AUTH, **headers}, timeout=60,
                          json={"model": "up-model", "messages": messages})
    assert response.status_code == 200, response.text
    return response.json()["choices"][0]["message"]["content"], response.headers[CONVERSATION_HEADER]


def test_chats_that_begin_alike_share_the_opening_then_get_conversations_of_their_own(privacy_engine, running):
    server, upstream, _, vault = running
    opening = [{"role": "system", "content": "You help with letters."},
               {"role": "user", "content": "Write to Anjali Gupta about her refund."}]
    sent_before = len(upstream.requests)
    first_answer, first = chat(server.url, opening)
    second_answer, opening_again = chat(server.url, opening)
    # The same opening (a retry, a regenerated answer, another chat that begins alike):
    # one conversation, so the upstream gets the same text with the same stand-ins (two
    # sets of stand-ins for one text would show it which words were swapped).
    assert opening_again == first
    sent_openings = [json.dumps(r.json["messages"]) for r in upstream.requests[sent_before:]]
    assert len(sent_openings) == 2 and sent_openings[0] == sent_openings[1] and "Gupta" not in sent_openings[0]
    stand_in = vault.load_conversation(first).lookup_real("Anjali Gupta").stand_in

    # The first answer goes on in that conversation; another first answer to the same
    # opening is another chat: a conversation of its own, which has the opening's
    # stand-ins and nothing else of the first chat.
    turn = [*opening, {"role": "assistant", "content": first_answer},
            {"role": "user", "content": "Now cc Anjali Gupta's manager, Tobias Wenzlau."}]
    assert chat(server.url, turn)[1] == first
    other_turn = [*opening, {"role": "assistant", "content": second_answer},
                  {"role": "user", "content": "Now cc Anjali Gupta's accountant."}]
    second = chat(server.url, other_turn)[1]
    assert second != first
    assert vault.load_conversation(first).seed != vault.load_conversation(second).seed
    forked = vault.load_conversation(second)
    assert forked.lookup_real("Anjali Gupta").stand_in == stand_in
    assert forked.lookup_real("Tobias Wenzlau") is None and vault.load_conversation(first).lookup_real("Tobias Wenzlau")
    assert stand_in in json.dumps(upstream.requests[-1].json["messages"])

    # Each chat keeps its conversation, also when the client trims what it sends back.
    for answer, conversation in ((first_answer, first), (second_answer, second)):
        again = [*opening, {"role": "assistant", "content": answer}, {"role": "user", "content": "Thanks."}]
        assert chat(server.url, again)[1] == conversation
        trimmed = [*opening, {"role": "assistant", "content": f"  {answer}\n"}, {"role": "user", "content": "Shorter."}]
        assert chat(server.url, trimmed)[1] == conversation

    # The index is in the vault: a restarted proxy finds the chat too.
    provider = create_provider(ProviderConfig("openai", base_url=upstream.base_url, model="up-model", max_attempts=1))
    with ProxyServer(privacy_engine, vault, provider, port=0, token=TOKEN) as restarted:
        turn = [*opening, {"role": "assistant", "content": first_answer}, {"role": "user", "content": "Thanks."}]
        assert chat(restarted.url, turn)[1] == first
        assert chat(restarted.url, other_turn)[1] == second
        # The opening keeps its conversation, and a new first answer to it is a new chat.
        third_answer, opening_after = chat(restarted.url, opening)
        assert opening_after == first
        third_turn = [*opening, {"role": "assistant", "content": third_answer}, {"role": "user", "content": "Go."}]
        assert chat(restarted.url, third_turn)[1] not in (first, second)
    provider.close()

    # A history this proxy never answered: a new conversation, found again next turn.
    foreign = [*opening, {"role": "assistant", "content": "Written elsewhere."}, {"role": "user", "content": "Go on."}]
    third = chat(server.url, foreign)[1]
    assert third not in (first, second)
    assert chat(server.url, foreign)[1] == third
    # A client that names its conversation still decides.
    assert chat(server.url, opening, **{CONVERSATION_HEADER: "named-1"})[1] == "named-1"
