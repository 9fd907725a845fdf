"""Bad input: empty, huge, binary junk, NUL bytes, emoji, right-to-left and mixed
scripts. Sanitize works (and restores) or says clearly why not, in bounded time."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from timing_checks import timed

from agent.engine.core import MAX_TEXT_CHARS, InputRejected
from agent.session.conversation import Conversation

REPO = Path(__file__).resolve().parents[1]


def round_trip(engine, text, seed=1):
    """Sanitize then restore the sanitized text; both must work and give the text back."""
    conversation = Conversation(seed=seed)
    result = engine.sanitize(text, conversation)
    for e in result.entities:
        assert result.original[e.start : e.end] == e.real
        assert result.sanitized[e.sanitized_start : e.sanitized_end] == e.sent
    restored = engine.restore(result.sanitized, conversation)
    return result, restored


def test_empty_text(privacy_engine):
    result, restored = round_trip(privacy_engine, "")
    assert result.sanitized == "" and result.entities == [] and result.warnings == []
    assert result.risk.total == 0
    assert restored.text == "" and restored.spans == []


@pytest.mark.parametrize("text", [" ", "\n\n\n", "\t \r\n", "." * 50, "1234", "\u200b\u200d\ufeff"])
def test_blank_and_trivial_text(privacy_engine, text):
    result, restored = round_trip(privacy_engine, text)
    assert result.sanitized == text and restored.text == text


def test_binary_junk(privacy_engine):
    rng = random.Random(7)
    junk = bytes(rng.randrange(256) for _ in range(10_000)).decode("utf-8", errors="replace")
    with timed("10 kB of binary junk, sanitize + restore", 60):
        result, restored = round_trip(privacy_engine, junk)
    assert any("binary" in w for w in result.warnings)
    assert "\x00" not in result.sanitized
    # Restored exactly (NUL comes back as U+FFFD), or the leftovers are flagged: never
    # silently wrong. (Stand-ins glued to junk letters can miss the word-boundary check.)
    assert restored.text == junk.replace("\x00", "\ufffd") or restored.unrestored


def test_nul_bytes(privacy_engine):
    text = "hello\x00 world, write to sarah@globaltech.com\x00\x00 now"
    result, _ = round_trip(privacy_engine, text)
    assert "\x00" not in result.sanitized  # NUL never reaches a terminal or an HTTP body
    assert "sarah@globaltech.com" not in result.sanitized
    assert [e.label.value for e in result.entities] == ["EMAIL"]


def test_control_characters_only_warn(privacy_engine):
    text = "\x01\x02\x03\x04\x05\x06\x07\x08" * 100 + "call +1 415-555-2671"
    result, _ = round_trip(privacy_engine, text)
    assert any("binary" in w for w in result.warnings)
    assert "+1 415-555-2671" not in result.sanitized


def test_no_warning_for_ordinary_text(privacy_engine):
    result, _ = round_trip(privacy_engine, "Tabs\tand\r\nnew lines are normal.\n")
    assert result.warnings == []


@pytest.mark.parametrize(
    "text, secret_values",
    [
        ("👋 Hi, I'm Sarah Mitchell 😀, email sarah@globaltech.com 🎉🎉", ["Sarah Mitchell", "sarah@globaltech.com"]),
        ("👨‍👩‍👧 family of Sarah Mitchell, café e\u0301 \u200b\u200d", ["Sarah Mitchell"]),
        pytest.param(
            "🇩🇪 IBAN DE89 3704 0044 0532 0130 00 🇩🇪", ["DE89 3704 0044 0532 0130 00"],
        ),
        ("Thanks 🙏 John Baker 🙏 for +1 415-555-2671 📞", ["John Baker", "+1 415-555-2671"]),
    ],
)
def test_emoji(privacy_engine, text, secret_values):
    result, restored = round_trip(privacy_engine, text)
    for value in secret_values:
        assert value not in result.sanitized
    for ch in "👋😀🎉👨👩👧🇩🙏📞":
        assert result.sanitized.count(ch) == text.count(ch)
    assert restored.text == text


@pytest.mark.parametrize(
    "text, secret_values",
    [
        ("مرحبا اسمي أحمد ورقم هاتفي +966 50 123 4567 وبريدي ahmad@example.com", ["+966 50 123 4567", "ahmad@example.com"]),
        ("שלום, שמי דוד. my email is d.cohen@example.org ותודה", ["d.cohen@example.org"]),
        ("\u202eRTL override\u202c then sarah@globaltech.com \u2067isolate\u2069", ["sarah@globaltech.com"]),
    ],
)
def test_right_to_left(privacy_engine, text, secret_values):
    result, restored = round_trip(privacy_engine, text)
    for value in secret_values:
        assert value not in result.sanitized
    assert restored.text == text
    # The RTL words around the values are left as they were.
    kept = [w for w in text.split() if not any(w in v or v in w for v in secret_values)]
    for word in kept:
        if not any(ch.isascii() and ch.isalnum() for ch in word):
            assert word in result.sanitized


def test_mixed_scripts(privacy_engine):
    text = "Иван Петров met 王小明 and Sarah Mitchell in नई दिल्ली; email ivan@mail.ru or call +7 495 123-45-67."
    result, restored = round_trip(privacy_engine, text)
    for value in ("Sarah Mitchell", "ivan@mail.ru", "+7 495 123-45-67"):
        assert value not in result.sanitized
    assert "नई दिल्ली" in result.sanitized or any(e.real == "नई दिल्ली" for e in result.entities)
    assert restored.text == text


def test_lone_surrogate_does_not_crash(privacy_engine):
    """A lone surrogate (e.g. from a bad clipboard conversion) cannot be parsed by spaCy:
    the rules still run, and the user is told that name detection was skipped."""
    text = "abc \ud800 def, mail sarah@globaltech.com"
    result, restored = round_trip(privacy_engine, text)
    assert "sarah@globaltech.com" not in result.sanitized
    assert result.warnings, "the user is told something was not checked"
    # Half a UTF-16 pair cannot be encoded for sending: it is replaced, and said so.
    assert restored.text == text.replace("\ud800", "\ufffd")


@pytest.mark.parametrize(
    "text, unchanged",
    [("a" * 100_000, True), ("\n" * 50_000, True), ("word " * 8_000, True), ("ab-" * 5_000, False), ("x1 " * 10_000, False)],
)
def test_long_degenerate_text(privacy_engine, text, unchanged):
    with timed(f"degenerate text of {len(text):,} characters, sanitize + restore", 60):
        result, restored = round_trip(privacy_engine, text)
    assert restored.text == text
    if unchanged:
        assert result.sanitized == text


def test_over_the_limit_is_rejected_clearly(privacy_engine):
    text = "x" * (MAX_TEXT_CHARS + 1)
    # Refused before any work: sanitizing 2 MB would take minutes.
    with timed("refusing 2 MB", 10), pytest.raises(InputRejected) as info:
        privacy_engine.sanitize(text, Conversation())
    message = str(info.value)
    assert f"{MAX_TEXT_CHARS + 1:,}" in message and f"{MAX_TEXT_CHARS:,}" in message and "Split" in message
    with pytest.raises(InputRejected):
        privacy_engine.restore(text, Conversation())


@pytest.mark.parametrize("value", [None, b"bytes", 42])
def test_not_text_is_rejected(privacy_engine, value):
    with pytest.raises(InputRejected, match="expected text"):
        privacy_engine.sanitize(value, Conversation())


_PROSE = (
    "The quarterly report shows that revenue grew by four percent while costs stayed flat across the region. "
    "Please send questions to support@example.com or call +1 415-555-2671 before the deadline on 2023-10-12 at noon.\n"
)


@pytest.mark.slow
def test_one_megabyte_of_text(privacy_engine):
    text = (_PROSE * (1_000_000 // len(_PROSE) + 1))[:1_000_000]
    # About a minute on two cores (the speed itself is veil bench's); only a runaway
    # (work per entity over the whole text: hours) fails here.
    with timed("1 MB of prose, sanitize + restore", 480):
        result, restored = round_trip(privacy_engine, text)
    assert "support@example.com" not in result.sanitized and "+1 415-555-2671" not in result.sanitized
    assert restored.text == text


def _sanitize_time_in_subprocess(text_expression: str, budget_s: float) -> float | None:
    """Seconds one sanitize of the text takes in a fresh process (printed), or None when it
    is still running after budget_s (the process is then killed: a runaway never holds the
    CI). Budgets are several times a loaded machine's time: speed itself is veil bench's."""
    code = (
        "import sys, time\n"
        "from agent.engine.core import Engine\n"
        "from agent.session.conversation import Conversation\n"
        "engine = Engine(); engine.warm_up()\n"
        f"text = {text_expression}\n"
        "print('ready', flush=True)\n"
        "started = time.monotonic(); engine.sanitize(text, Conversation(seed=1))\n"
        "print(time.monotonic() - started, flush=True)\n"
    )
    process = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "ready"
        try:
            out, _ = process.communicate(timeout=budget_s)
        except subprocess.TimeoutExpired:
            return None
        seconds = float(out.strip())
        print(f"\n[time] sanitize of {text_expression[:40]}: {seconds:.2f} s (fails past {budget_s:g} s)")
        return seconds
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.slow
@pytest.mark.parametrize("expression", ["'😀🎉👋' * 5000", "'ab-' * 20000"])
def test_long_run_without_spaces_in_bounded_time(expression):
    # A catastrophic regex backtracks for minutes on these; the rules take ~1 s.
    assert _sanitize_time_in_subprocess(expression, budget_s=30) is not None


@pytest.mark.slow
def test_name_dense_text_in_bounded_time():
    # 100 kB with ~1,100 person mentions: ~9 s on an idle machine, up to ~25 s on a loaded
    # one. Per-mention work over the whole text once took ~40 s idle: that kind of slowdown
    # is for veil bench to show; this fails only on a runaway (minutes).
    paragraph = (
        "Dear Sarah Mitchell, please call +1 415-555-2671 or email sarah.mitchell@globaltech.com about "
        "invoice 3348917502. John Baker met us in Chicago. "
    )
    assert _sanitize_time_in_subprocess(f"({paragraph!r} * 1000)[:100_000]", budget_s=120) is not None
