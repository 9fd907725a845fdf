"""Restore: the reverse map applied to an LLM's answer (exact, other casing, possessives,
partial names, re-formatted numbers, label forms), correct span offsets, leftovers
flagged; and the streaming restorer, split at every position and at random positions.
"""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.detect.validators import digits_of
from agent.entities import Action, Label, RestoreResult
from agent.session.conversation import Conversation, MapEntry

prop = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# A fixed map, so the expected answers can be written out.
MAP = [
    ("Sarah Mitchell", "Emma Clarke", Label.PERSON),
    ("John Baker", "Tom Reed", Label.PERSON),
    ("sarah.mitchell@globaltech.com", "emma.clarke@northwind.io", Label.EMAIL),
    ("+1 415-555-2671", "+1 415-555-0147", Label.PHONE),
    ("4111 1111 1111 1111", "4532 0151 1283 0366", Label.CREDIT_CARD),
    ("DE89 3704 0044 0532 0130 00", "DE44 5001 0517 5407 3249 31", Label.IBAN),
    ("Globex GmbH", "Hartley GmbH", Label.ORG),
]


def mapped_conversation(entries=MAP, action=Action.REPLACE) -> Conversation:
    conversation = Conversation(seed=1)  # a fresh id: restorers are cached per conversation id
    for real, stand_in, label in entries:
        conversation.add_entry(MapEntry(real=real, stand_in=stand_in, label=label, action=action))
    return conversation


def check_spans(result: RestoreResult) -> RestoreResult:
    for span in result.spans:
        assert result.text[span.start : span.end] == span.real, span
    for a, b in itertools.pairwise(result.spans):
        assert a.end <= b.start
    return result


def restore(engine, text, conversation) -> RestoreResult:
    return check_spans(engine.restore(text, conversation))


@pytest.fixture
def conversation():
    return mapped_conversation()


# -- one-shot restore ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "answer, expected",
    [
        ("Dear Emma Clarke, thanks.", "Dear Sarah Mitchell, thanks."),
        ("EMMA CLARKE WILL CALL.", "SARAH MITCHELL WILL CALL."),
        ("emma clarke will call.", "sarah mitchell will call."),
        ("Emma Clarke's report and Tom Reed’s reply.", "Sarah Mitchell's report and John Baker’s reply."),
        ("Clarke's report is late.", "Mitchell's report is late."),
        ("Emma said yes; Reed said no.", "Sarah said yes; Baker said no."),
        ("Thank you, Ms. Clarke.", "Thank you, Ms. Mitchell."),
        ("Hi Mr. Reed!", "Hi Mr. Baker!"),
        ("Write to emma.clarke@northwind.io today.", "Write to sarah.mitchell@globaltech.com today."),
        ("EMMA.CLARKE@NORTHWIND.IO", "SARAH.MITCHELL@GLOBALTECH.COM"),
        ("Hartley GmbH pays.", "Globex GmbH pays."),
        ("Emma\nClarke signed.", "Sarah Mitchell signed."),
        ("Nothing to restore here.", "Nothing to restore here."),
    ],
)
def test_restore_forms(privacy_engine, conversation, answer, expected):
    result = restore(privacy_engine, answer, conversation)
    assert result.text == expected
    assert result.unrestored == []


@pytest.mark.parametrize(
    "answer, restored",
    [
        ("Call 415-555-0147.", "Call 415-555-2671."),
        ("Call (415) 555-0147.", "Call (415) 555-2671."),
        ("Call 415.555.0147.", "Call 415.555.2671."),
        ("Call 4155550147.", "Call 4155552671."),
        ("Call +14155550147.", "Call +14155552671."),
        ("Call 1 415 555 0147.", "Call 1 415 555 2671."),
    ],
)
def test_phone_reformatted_by_the_llm(privacy_engine, conversation, answer, restored):
    # The real number, written the way the LLM wrote the stand-in (issue 12 item 6).
    result = restore(privacy_engine, answer, conversation)
    assert result.text == restored
    assert [s.label for s in result.spans] == [Label.PHONE]
    assert digits_of(result.spans[0].real)[-10:] == digits_of("+1 415-555-2671")[-10:]


@pytest.mark.parametrize("answer", ["Call (415) 555-0147.", "Call +14155550147."])
def test_reformatted_phone_is_restored_without_stray_punctuation(privacy_engine, conversation, answer):
    text = restore(privacy_engine, answer, conversation).text
    assert "++" not in text and text.count("(") == text.count(")")


@pytest.mark.parametrize(
    "answer, real",
    [
        ("Card 4532015112830366 works.", "4111 1111 1111 1111"),
        ("Card 4532-0151-1283-0366 works.", "4111 1111 1111 1111"),
        ("IBAN DE44500105175407324931 works.", "DE89 3704 0044 0532 0130 00"),
    ],
)
def test_numbers_regrouped_by_the_llm(privacy_engine, conversation, answer, real):
    # Restored in the grouping the LLM used: "4111111111111111" for "4532015112830366".
    result = restore(privacy_engine, answer, conversation)
    said = answer.split()[1]
    layout = "".join(ch if not ch.isalnum() else "#" for ch in said)
    chars = iter(real.replace(" ", ""))
    written = "".join(next(chars) if ch == "#" else ch for ch in layout)
    assert written in result.text and [s.real for s in result.spans] == [written]


def test_label_forms(privacy_engine, label_engine):
    conversation = Conversation(seed=1)
    original = "Sarah Mitchell and John Baker emailed sarah@globaltech.com."
    sanitized = label_engine.sanitize(original, conversation).sanitized
    assert sanitized == "[PERSON_1] and [PERSON_2] emailed [EMAIL_1]."
    answer = "[PERSON_1] thanks PERSON_2 for EMAIL_1 and [EMAIL_1]; person_1 agrees."
    result = restore(label_engine, answer, conversation)
    assert result.text == (
        "Sarah Mitchell thanks John Baker for sarah@globaltech.com and sarah@globaltech.com; sarah mitchell agrees."
    )
    assert [s.stand_in for s in result.spans] == ["[PERSON_1]", "PERSON_2", "EMAIL_1", "[EMAIL_1]", "person_1"]
    # PERSON_10 is not PERSON_1.
    assert restore(label_engine, "PERSON_10 and [PERSON_12]", conversation).text == "PERSON_10 and [PERSON_12]"


def test_restored_spans_describe_the_restored_text(privacy_engine, conversation):
    answer = "Emma Clarke (emma.clarke@northwind.io, +1 415-555-0147) and Reed's card 4532 0151 1283 0366."
    result = restore(privacy_engine, answer, conversation)
    assert [(s.real, s.stand_in, s.label) for s in result.spans] == [
        ("Sarah Mitchell", "Emma Clarke", Label.PERSON),
        ("sarah.mitchell@globaltech.com", "emma.clarke@northwind.io", Label.EMAIL),
        ("+1 415-555-2671", "+1 415-555-0147", Label.PHONE),
        ("Baker", "Reed", Label.PERSON),
        ("4111 1111 1111 1111", "4532 0151 1283 0366", Label.CREDIT_CARD),
    ]


@pytest.mark.parametrize(
    "answer, leftover",
    [("The Clarkes arrived.", "clarke"), ("EmmaClarke is a username now.", "emma"), ("Reedsville is far.", "reed")],
)
def test_unrestored_stand_ins_are_reported(privacy_engine, conversation, answer, leftover):
    result = restore(privacy_engine, answer, conversation)
    assert leftover in result.unrestored


def test_words_that_merely_contain_a_stand_in_are_left_alone(privacy_engine, conversation):
    answer = "Reeds and reedy marshes; the emmaculate xemma."
    assert restore(privacy_engine, answer, conversation).text == answer


# Forms an LLM uses when it repeats a stand-in, as functions of (full stand-in, real).
def _echo_forms(stand_in: str) -> list[str]:
    parts = stand_in.split()
    forms = [stand_in, stand_in.upper(), stand_in.lower(), stand_in + "'s"]
    if len(parts) == 2 and parts[0][0].isupper():
        forms += [parts[0], parts[1], f"Ms. {parts[1]}", parts[1] + "'s", parts[1].upper()]
    return forms


_FILLER = ["Sure,", "the", "answer", "is", "that", "(", ")", "and", "—", "\n", "said", "so:", "ok."]


@st.composite
def echo_answers(draw):
    forms = [f for _, stand_in, _ in MAP for f in _echo_forms(stand_in)]
    pieces = draw(st.lists(st.one_of(st.sampled_from(forms), st.sampled_from(_FILLER)), min_size=1, max_size=14))
    return " ".join(pieces)


@prop
@given(answer=echo_answers())
def test_property_every_span_matches_and_no_stand_in_survives(privacy_engine, answer):
    conversation = mapped_conversation()
    result = restore(privacy_engine, answer, conversation)  # offsets checked in restore()
    folded = result.text.casefold()
    for _, stand_in, _ in MAP:
        for part in stand_in.split():
            if len(part) > 2 and part not in ("GmbH",):
                assert not re.search(rf"(?<!\w){re.escape(part.casefold())}(?!\w)", folded), (part, result.text)
    assert result.unrestored == []


ORIGINALS = [
    "Please email Sarah Mitchell (sarah.mitchell@globaltech.com, +1 415-555-2671) about order 3348917502.",
    "Ms. Mitchell's card is 4111 1111 1111 1111 and her IBAN is DE89 3704 0044 0532 0130 00, thanks.",
    "John Baker lives at 123 Main Street, Apt 4B, Springfield, IL 62704 with Anjali Gupta.",
    "My SSN is 536-22-8473 and my server 10.0.0.5 runs with key sk-proj-abcDEF123ghiJKL456mnoPQR789stuVWX0yz today.",
]


@pytest.mark.parametrize("original", ORIGINALS)
def test_round_trip(privacy_engine, original):
    conversation = Conversation(seed=17)
    sanitized = privacy_engine.sanitize(original, conversation).sanitized
    assert sanitized != original
    result = restore(privacy_engine, sanitized, conversation)
    assert result.text == original and result.unrestored == []


def test_conversations_with_a_reused_id_do_not_share_a_restorer(privacy_engine):
    first = Conversation("reused-id")
    first.add_entry(MapEntry("Sarah Mitchell", "Emma Clarke", Label.PERSON))
    assert privacy_engine.restore("Emma Clarke", first).text == "Sarah Mitchell"
    second = Conversation("reused-id")  # e.g. deleted and created again with the same id
    second.add_entry(MapEntry("John Baker", "Tom Reed", Label.PERSON))
    assert privacy_engine.restore("Emma Clarke and Tom Reed", second).text == "Emma Clarke and John Baker"


# -- streaming -----------------------------------------------------------------------------------------------
def stream(engine, conversation, chunks: list[str]) -> tuple[list[str], RestoreResult]:
    """Feed the chunks; check after every step that what was shown is a prefix of the
    one-shot restore (nothing shown is ever taken back: no half stand-in was shown)."""
    whole = "".join(chunks)
    expected = engine.restore(whole, conversation)
    restorer = engine.streaming_restorer(conversation)
    shown: list[str] = []
    for chunk in chunks:
        out = restorer.feed(chunk)
        shown.append(out.text)
        assert expected.text.startswith("".join(shown)), (chunks, shown)
        for span in out.spans:  # spans of a chunk are in whole-answer offsets
            assert "".join(shown)[span.start : span.end] == span.real
    shown.append(restorer.finish().text)
    joined = "".join(shown)
    assert joined == expected.text
    # Every emitted chunk boundary lies outside the restored values.
    boundary = 0
    for piece in shown:
        boundary += len(piece)
        for span in expected.spans:
            assert not (span.start < boundary < span.end), (chunks, boundary, span)
    result = restorer.result()
    assert result.text == expected.text
    assert [(s.start, s.end, s.real, s.label) for s in result.spans] == [
        (s.start, s.end, s.real, s.label) for s in expected.spans
    ]
    assert result.unrestored == expected.unrestored
    assert restorer.received == whole
    return shown, result


@pytest.fixture(scope="module")
def sanitized_cases(privacy_engine):
    """(conversation, an LLM-style echo of the sanitized text) pairs from real sanitize calls."""
    cases = []
    for i, original in enumerate(ORIGINALS[:3]):
        conversation = Conversation(seed=100 + i)
        result = privacy_engine.sanitize(original, conversation)
        echo = result.sanitized
        people = [e for e in conversation.entries if e.label is Label.PERSON and len(e.stand_in.split()) == 2]
        if people:
            first, last = people[0].stand_in.split()
            echo += f" So {last}'s reply matters, {first.upper()}! Ask {first} and {last}."
        cases.append((conversation, echo))
    return cases


@pytest.mark.parametrize("case", [0, 1, 2])
def test_stream_split_at_every_position(privacy_engine, sanitized_cases, case):
    conversation, echo = sanitized_cases[case]
    assert privacy_engine.restore(echo, conversation).spans, "the echo has stand-ins to restore"
    for i in range(len(echo) + 1):
        stream(privacy_engine, conversation, [echo[:i], echo[i:]])


def test_stream_character_by_character(privacy_engine, sanitized_cases):
    for conversation, echo in sanitized_cases:
        stream(privacy_engine, conversation, list(echo))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_stream_random_multi_chunk_splits(privacy_engine, sanitized_cases, data):
    conversation, echo = data.draw(st.sampled_from(sanitized_cases))
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(echo)), max_size=15))))
    bounds = [0, *cuts, len(echo)]
    stream(privacy_engine, conversation, [echo[a:b] for a, b in itertools.pairwise(bounds)])


@prop
@given(answer=echo_answers(), data=st.data())
def test_stream_random_echoes(privacy_engine, answer, data):
    conversation = mapped_conversation()
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(answer)), max_size=8))))
    bounds = [0, *cuts, len(answer)]
    stream(privacy_engine, conversation, [answer[a:b] for a, b in itertools.pairwise(bounds)])


def test_stream_flags_unrestored(privacy_engine, conversation):
    shown, result = stream(privacy_engine, conversation, ["The Clar", "kes and Emma Cla", "rke came."])
    assert "".join(shown) == "The Clarkes and Sarah Mitchell came."
    assert result.unrestored == ["clarke"]


def test_stream_holds_back_little(privacy_engine, conversation):
    """Text that cannot start a stand-in is shown at once; at most the longest stand-in waits."""
    restorer = privacy_engine.streaming_restorer(conversation)
    longest = max(len(stand_in) for _, stand_in, _ in MAP)
    fed = shown = 0
    for word in ("The quick brown fox jumps over the lazy dog while nobody watches it. " * 4).split(" "):
        chunk = word + " "
        fed += len(chunk)
        shown += len(restorer.feed(chunk).text)
        assert fed - shown <= longest
    # A chunk ending in the start of a stand-in is held back, then released whole.
    first = restorer.feed("Dear Em").text
    assert first.startswith("Dear") and "E" not in first
    second = restorer.feed("ma Clarke, hi").text
    assert second.endswith(("Sarah Mitchell, hi", "Sarah Mitchell,"))
    assert first + second + restorer.finish().text == "Dear Sarah Mitchell, hi"


def test_an_upper_cased_extension_letter_comes_back_upper_cased(privacy_engine):
    # The letter of a phone extension is the number's only letter: "x" said as "X" must
    # come back as the real number's "X", whatever character its word starts with.
    conversation = mapped_conversation([("+1-202-555-0199x731", "+1-303-555-0142x264", Label.PHONE)])
    result = restore(privacy_engine, "Call +1-303-555-0142X264 after five.", conversation)
    assert result.text == "Call +1-202-555-0199X731 after five."
