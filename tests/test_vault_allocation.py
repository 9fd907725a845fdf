# ruff: noqa: F811  (pytest fixtures imported from vault_support are redefined as arguments)
"""One stand-in per real value and one real value per stand-in, per conversation, across
processes that share the vault (the tray app, `veil serve`, the CLI).

The processes here are real `veil sanitize` processes on a real SQLCipher file: one-shot
runs started together (each loads the map, sanitizes, stores) and long-running `--jsonl`
runs that loaded the map once and keep sanitizing while the others write.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from vault_support import FAST_N, REPO, _vault_env, vault_path  # noqa: F401

from agent.entities import Action, Label
from agent.session.conversation import Conversation, MapEntry, fold
from agent.vault import VaultStore

PASS = "allocation passphrase"
CONVERSATION = "shared-map"
VEIL = Path(sys.executable).parent / "veil"

# Made-up people and numbers.
FIRST = ["Maria", "Tomas", "Ingrid", "Kofi", "Leila", "Anders", "Priya", "Mateo", "Hana", "Jonas", "Amara", "Felix"]
LAST = ["Lindqvist", "Okonkwo", "Brandt", "Moreau", "Castillo", "Novak", "Haddad", "Ferreira", "Sato", "Kowal",
        "Mensah", "Richter"]


def _phones(start: int, count: int) -> list[str]:
    out = []
    for n in range(start, start + count):
        area = ("415", "628")[n % 2]
        out.append(f"+1 {area}-720-{3300 + n:04d}")
    return out


def _text(person: int, phones: list[str]) -> str:
    name = f"{FIRST[person % len(FIRST)]} {LAST[(person * 5) % len(LAST)]}"
    return f"Please call {name} at {phones[0]}. Her office lines are {phones[1]} and {phones[2]}."


def _env(home: Path) -> dict[str, str]:
    return {
        "VEIL_HOME": str(home),
        "VEIL_PASSPHRASE": PASS,
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(REPO),
        "HOME": os.environ.get("HOME", str(home)),
    }


def _sanitize_line(proc: subprocess.Popen, text: str, line_id: str) -> str:
    proc.stdin.write(json.dumps({"id": line_id, "text": text, "conversation": CONVERSATION}) + "\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    assert line, proc.stderr.read()
    out = json.loads(line)
    assert "sanitized" in out, out
    return out["sanitized"]


def _map_problems(entries: list[MapEntry]) -> tuple[list[str], list[str]]:
    """(stand-ins that stand for more than one value, values with more than one stand-in)."""
    values_of: dict[str, set[str]] = defaultdict(set)
    stand_ins_of: dict[tuple[str, Action], set[str]] = defaultdict(set)
    for e in entries:
        values_of[fold(e.stand_in)].add(fold(e.real))
        stand_ins_of[(fold(e.real), e.action)].add(fold(e.stand_in))
    shared = sorted(s for s, values in values_of.items() if len(values) > 1)
    split = sorted(f"{real} ({action.value})" for (real, action), s in stand_ins_of.items() if len(s) > 1)
    return shared, split


def test_processes_writing_one_conversation_keep_one_stand_in_per_value(vault_path, veil_home):
    """In label mode ([PHONE_1], [PHONE_2], ...), where each process numbers what it knows:
    processes that do not see each other's entries always pick the same labels, whatever
    the realistic stand-in generators do."""
    with VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N) as store:
        store.create_conversation("shared", conversation_id=CONVERSATION)
    (veil_home / "config").mkdir(parents=True, exist_ok=True)
    (veil_home / "config" / "config.toml").write_text("substitution_level = 0\n")
    env = _env(veil_home)
    inputs: dict[str, str] = {}
    outputs: dict[str, str] = {}

    # Two long-running processes load the map once (on their first line) and keep it.
    long_running = [
        subprocess.Popen([str(VEIL), "sanitize", "--jsonl"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
        for _ in range(2)
    ]
    try:
        for k, proc in enumerate(long_running):
            key = f"long{k}-0"
            inputs[key] = _text(20 + k, _phones(100 + 3 * k, 3))
            outputs[key] = _sanitize_line(proc, inputs[key], key)

        # Six one-shot processes at once, each with its own people and numbers.
        one_shot = {}
        for k in range(6):
            key = f"once{k}"
            inputs[key] = _text(k, _phones(3 * k, 3))
            one_shot[key] = subprocess.Popen(
                [str(VEIL), "sanitize", "--conversation", CONVERSATION], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO,
            )
        for key, proc in one_shot.items():
            out, err = proc.communicate(inputs[key], timeout=300)
            assert proc.returncode == 0, err
            outputs[key] = out

        # The long-running processes go on with what they loaded at the start.
        for k, proc in enumerate(long_running):
            for line in range(1, 5):
                key = f"long{k}-{line}"
                inputs[key] = _text(30 + 4 * k + line, _phones(200 + 30 * k + 3 * line, 3))
                outputs[key] = _sanitize_line(proc, inputs[key], key)
        for proc in long_running:
            proc.stdin.close()
            assert proc.wait(timeout=120) == 0, proc.stderr.read()
    finally:
        for proc in long_running:
            if proc.poll() is None:
                proc.kill()

    with VaultStore(vault_path, passphrase=PASS) as store:
        conversation = store.load_conversation(CONVERSATION)
    entries = conversation.entries
    shared, split = _map_problems(entries)
    phones_in = {p for text in inputs.values() for p in _phone_values(text)}
    phones_mapped = {fold(e.real) for e in entries if e.label is Label.PHONE}
    print(f"\n{len(inputs)} texts from 8 processes, {len(phones_in)} real phone numbers, "
          f"{len(entries)} map rows; stand-ins with 2+ values: {len(shared)}, values with 2+ stand-ins: {len(split)}")
    assert phones_in <= phones_mapped, "every real number was replaced and is in the map"
    assert shared == [], f"a stand-in stands for two values: {shared}"
    assert split == [], f"a value has two stand-ins: {split}"

    # What each process printed agrees with the vault: restoring it gives back its own input.
    from agent.restore.restorer import Restorer

    restorer = Restorer()
    wrong = {key: restorer.restore(outputs[key], conversation).text for key in inputs}
    wrong = {key: text for key, text in wrong.items() if text != inputs[key]}
    assert wrong == {}, f"{len(wrong)} of {len(inputs)} outputs restore to another text: {wrong}"
    for key, text in outputs.items():
        for phone in _phone_values(inputs[key]):
            assert phone not in text


def _phone_values(text: str) -> list[str]:
    import re

    return re.findall(r"\+1 \d{3}-\d{3}-\d{4}", text)


def test_map_helpers_see_a_split_value():
    """The checker itself can fail: a map with one value under two stand-ins."""
    conversation = Conversation("x")
    conversation.add_entry(MapEntry("+1 415-720-3301", "+1 415-555-0101", Label.PHONE))
    entries = [*conversation.entries, MapEntry("+1 415-720-3301", "+1 415-555-0102", Label.PHONE)]
    assert _map_problems(entries) == ([], ["+1 415-720-3301 (replace)"])


# -- the same rules in one process, two stores (as two processes see the file) ------------------

PHONE_A, PHONE_B = "+1 415-720-3301", "+1 628-720-3302"


def _two_stores(vault_path):
    first = VaultStore(vault_path, passphrase=PASS, scrypt_n=FAST_N)
    first.create_conversation("c", conversation_id="c")
    return first, VaultStore(vault_path, passphrase=PASS)


def test_a_stand_in_stored_by_another_process_is_refused_and_learnt(vault_path):
    from agent.session.conversation import MapConflict

    first, second = _two_stores(vault_path)
    mine, theirs = first.load_conversation("c"), second.load_conversation("c")
    mine.add_entry(MapEntry(PHONE_A, "+1 415-555-0101", Label.PHONE))
    first.save_conversation(mine)
    theirs.add_entry(MapEntry(PHONE_B, "+1 415-555-0101", Label.PHONE))  # the same stand-in
    theirs.set_choice("Globex", Label.ORG, Action.KEEP)
    with pytest.raises(MapConflict, match="given to another value"):
        second.save_conversation(theirs)
    # Nothing of it was stored; the copy forgot its entry and learnt the stored one.
    assert theirs.lookup_stand_in("+1 415-555-0101").real == PHONE_A
    assert theirs.lookup_real(PHONE_B) is None
    assert theirs.take_unsaved() == []
    assert [e.real for e in first.load_conversation("c").entries] == [PHONE_A]
    # The choice was not lost: it goes with the next save.
    second.save_conversation(theirs)
    assert first.load_conversation("c").choice_for("Globex") is Action.KEEP
    first.close()
    second.close()


def test_a_value_mapped_by_another_process_gets_its_stand_in_on_the_next_render(vault_path):
    from agent.session.stores import render_and_store

    first, second = _two_stores(vault_path)
    mine, theirs = first.load_conversation("c"), second.load_conversation("c")
    mine.add_entry(MapEntry(PHONE_A, "+1 415-555-0101", Label.PHONE))
    first.save_conversation(mine)
    renders: list[str] = []

    def render() -> str:  # what the substituter does: reuse a known value, else allocate
        known = theirs.lookup_real(PHONE_A)
        entry = known or theirs.add_entry(MapEntry(PHONE_A, f"+1 415-555-01{len(renders) + 50}", Label.PHONE))
        renders.append(entry.stand_in)
        return f"call {entry.stand_in}"

    # A result rendered before (a preview) with its own stand-in: it clashes, so it is
    # rendered again, and the second render finds the stored stand-in.
    theirs.add_entry(MapEntry(PHONE_A, "+1 415-555-0177", Label.PHONE))
    sent = render_and_store(second, theirs, render, lambda _text: second.save_conversation(theirs),
                            first="call +1 415-555-0177")
    assert sent == "call +1 415-555-0101"
    assert renders == ["+1 415-555-0101"]
    stored = first.load_conversation("c")
    assert [(e.real, e.stand_in) for e in stored.entries] == [(PHONE_A, "+1 415-555-0101")]
    first.close()
    second.close()


def test_a_long_running_copy_learns_what_others_stored_before_it_allocates(vault_path):
    first, second = _two_stores(vault_path)
    early = second.load_conversation("c")  # loaded once, kept open
    mine = first.load_conversation("c")
    mine.add_entry(MapEntry("Sarah Mitchell", "Jane Doe", Label.PERSON))
    first.save_conversation(mine)
    revision = early.revision
    assert second.refresh_conversation(early) == 1
    assert early.revision > revision  # caches of the compiled map see the change
    assert early.is_taken("Jane Doe") and early.lookup_real("sarah mitchell").stand_in == "Jane Doe"
    assert second.refresh_conversation(early) == 0
    # Storing its own entries also teaches it what was stored meanwhile.
    mine.add_entry(MapEntry("Globex", "Initech", Label.ORG))
    first.save_conversation(mine)
    early.add_entry(MapEntry(PHONE_B, "+1 628-555-0111", Label.PHONE))
    second.save_conversation(early)
    assert {e.real for e in early.entries} == {"Sarah Mitchell", "Globex", PHONE_B}
    first.close()
    second.close()


def test_partials_and_case_variants_are_stored_beside_their_value(vault_path):
    first, second = _two_stores(vault_path)
    mine = first.load_conversation("c")
    full = mine.add_entry(MapEntry("Sarah Mitchell", "Jane Doe", Label.PERSON))
    partial = mine.add_entry(MapEntry("Mitchell", "Doe", Label.PERSON, parent="Sarah Mitchell"))
    mine.add_variant(partial, "MITCHELL", "DOE")
    mine.add_variant(full, "SARAH MITCHELL", "JANE DOE")
    mine.add_entry(MapEntry("Sarah Mitchell", "[PERSON_1]", Label.PERSON, Action.LABEL))  # the other action
    first.save_conversation(mine)
    # Another process that made the same choices stores them without a clash.
    theirs = second.load_conversation("c")
    theirs.forget(theirs.entries)
    theirs.add_entry(MapEntry("Mitchell", "Doe", Label.PERSON, parent="Sarah Mitchell"))
    theirs.add_variant(MapEntry("Mitchell", "Doe", Label.PERSON), "mitchell", "doe")
    second.save_conversation(theirs)
    export = first.export_conversation("c", include_real=True)
    roles = [(e["real"], e["stand_in"], e["role"]) for e in export["entities"]]
    assert roles == [
        ("Sarah Mitchell", "Jane Doe", "value"), ("Mitchell", "Doe", "value"), ("MITCHELL", "DOE", "variant"),
        ("SARAH MITCHELL", "JANE DOE", "variant"), ("Sarah Mitchell", "[PERSON_1]", "value"),
        ("mitchell", "doe", "variant"),
    ]
    from agent.restore.restorer import Restorer

    restored = Restorer().restore("JANE DOE said Doe and DOE.", first.load_conversation("c")).text
    assert restored == "SARAH MITCHELL said Mitchell and MITCHELL."
    first.close()
    second.close()


def test_the_vault_file_itself_refuses_a_second_value_for_a_stand_in(vault_path):
    import sqlcipher3

    first, second = _two_stores(vault_path)
    mine = first.load_conversation("c")
    mine.add_entry(MapEntry(PHONE_A, "+1 415-555-0101", Label.PHONE))
    first.save_conversation(mine)
    insert = ("INSERT INTO entities (conversation_id, real, stand_in, label, action, first_seen, real_key, "
              "stand_in_key, role) VALUES ('c', ?, ?, 'PHONE', 'replace', 1.0, ?, ?, ?)")
    with first._write_lock, first._session() as conn:
        for real, stand_in, role in ((PHONE_B, "+1 415-555-0101", "variant"),   # trigger
                                     (PHONE_B, "+1 415-555-0101", "value"),     # unique stand-in
                                     (PHONE_A, "+1 415-555-0199", "value")):    # unique value
            with pytest.raises(sqlcipher3.IntegrityError):
                conn.execute(insert, (real, stand_in, fold(real), fold(stand_in), role))
    first.close()
    second.close()


def test_a_send_in_label_mode_is_sanitized_again_when_another_process_took_the_label(vault_path):
    """Label mode numbers [PHONE_1], [PHONE_2] by what the copy knows: two processes that
    loaded the map at the same time would both say [PHONE_1]."""
    from provider_fakes import FakeProvider, Reply

    from agent.config import default_settings
    from agent.engine.core import Engine
    from agent.providers import GenerationParams, ProviderConfig, create_provider
    from agent.session.sender import Sender

    settings = default_settings()
    settings.substitution_level = 0
    engine = Engine(settings)
    first, second = _two_stores(vault_path)
    mine, theirs = first.load_conversation("c"), second.load_conversation("c")
    with FakeProvider("openai", key="sk-test-key-0123456789") as fake:
        fake.plan(Reply(), Reply())
        provider = create_provider(ProviderConfig(kind="openai", base_url=fake.base_url, model="m",
                                                  api_key="sk-test-key-0123456789", max_attempts=1))
        params = GenerationParams(max_tokens=50, temperature=0)
        one = Sender(engine, first, provider, params=params).send(mine, f"Call {PHONE_A} today.")
        other = Sender(engine, second, provider, params=params).send(theirs, f"Call {PHONE_B} today.")
        answers = ["".join(chunk.text for chunk in reply) for reply in (one, other)]
        bodies = fake.all_bodies()
    import re

    assert re.findall(r"\[PHONE_\d+\]", one.message.sent) == ["[PHONE_1]"]
    assert re.findall(r"\[PHONE_\d+\]", other.message.sent) == ["[PHONE_2]"]  # not a second [PHONE_1]
    assert PHONE_A not in bodies and PHONE_B not in bodies and "[PHONE_2]" in bodies
    assert PHONE_B in answers[1] and PHONE_A not in answers[1]
    stored = first.load_conversation("c")
    assert {e.stand_in: e.real for e in stored.entries} == {"[PHONE_1]": PHONE_A, "[PHONE_2]": PHONE_B}
    first.close()
    second.close()


def test_engine_host_commit_refuses_a_draft_when_the_map_changed_without_growing():
    from agent.config import default_settings
    from agent.engine.host import DryRun, EngineHost
    from agent.entities import SanitizeResult

    conversation = Conversation("c")
    unsaved = conversation.add_entry(MapEntry(PHONE_A, "+1 415-555-0101", Label.PHONE))
    draft = DryRun(SanitizeResult("t", "t", [], None, []), [], "c", len(conversation.entries),
                   base_revision=conversation.revision)
    conversation.forget([unsaved])  # the store could not keep it...
    conversation.absorb([MapEntry(PHONE_B, "+1 415-555-0101", Label.PHONE)], 7)  # ...another process's is there
    assert len(conversation.entries) == draft.base_entries
    host = EngineHost(default_settings(), isolated=False, start=False)
    assert host.commit(conversation, draft) is False


def test_two_proxies_on_one_vault_forward_only_stand_ins_the_vault_holds(vault_path, label_engine, monkeypatch):
    """Two `veil serve` (each its own store on the same file, as two processes) in label
    mode, one conversation. The second proxy's copy of the map is stale when its second
    request comes; it must not forward a label the first proxy gave to another number."""
    import httpx
    from serve_support import ScriptedOpenAI, last_user

    from agent.providers import ProviderConfig, create_provider
    from agent.serve import CONVERSATION_HEADER, ProxyServer

    first, second = _two_stores(vault_path)
    token = "veil-allocation-token-0123456789"
    phone_c = "+1 212-720-3303"
    with ScriptedOpenAI(lambda body: {"content": "Noted: " + last_user(body)}) as upstream:
        providers = [create_provider(ProviderConfig("openai", base_url=upstream.base_url, model="m",
                                                    api_key="sk-up-0123456789abcdef", max_attempts=1))
                     for _ in range(2)]
        proxies = [ProxyServer(label_engine, store, provider, port=0, token=token).start()
                   for store, provider in zip((first, second), providers)]

        def ask(proxy: ProxyServer, text: str) -> str:
            answer = httpx.post(f"{proxy.url}/chat/completions", timeout=60,
                                headers={"authorization": f"Bearer {token}", CONVERSATION_HEADER: "c"},
                                json={"model": "m", "messages": [{"role": "user", "content": text}]})
            assert answer.status_code == 200, answer.text
            return answer.json()["choices"][0]["message"]["content"]

        try:
            assert ask(proxies[1], f"Call {phone_c}.") == f"Noted: Call {phone_c}."  # its map: [PHONE_1]
            assert ask(proxies[0], f"Call {PHONE_A}.") == f"Noted: Call {PHONE_A}."  # [PHONE_2]
            # The second proxy re-reads before it allocates...
            assert ask(proxies[1], f"Call {PHONE_B}.") == f"Noted: Call {PHONE_B}."
            # ...and when another process wins the race between that read and its write, it
            # sanitizes again instead of forwarding a clashing label.
            monkeypatch.setattr(second, "refresh_conversation", lambda conversation: 0)
            assert ask(proxies[0], "Call +1 212-720-3304.") == "Noted: Call +1 212-720-3304."
            assert ask(proxies[1], "Call +1 212-720-3305.") == "Noted: Call +1 212-720-3305."
            assert ask(proxies[1], "Call +1 212-720-3305.") == "Noted: Call +1 212-720-3305."  # memo
        finally:
            for proxy in proxies:
                proxy.stop()
            for provider in providers:
                provider.close()
        sent = [last_user(r.json) for r in upstream.requests]
    assert sent == ["Call [PHONE_1].", "Call [PHONE_2].", "Call [PHONE_3].", "Call [PHONE_4].",
                    "Call [PHONE_5].", "Call [PHONE_5]."]
    stored = first.load_conversation("c")
    assert {e.stand_in: e.real for e in stored.entries} == {
        "[PHONE_1]": phone_c, "[PHONE_2]": PHONE_A, "[PHONE_3]": PHONE_B, "[PHONE_4]": "+1 212-720-3304",
        "[PHONE_5]": "+1 212-720-3305",
    }
    first.close()
    second.close()
