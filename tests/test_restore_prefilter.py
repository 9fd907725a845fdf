"""The restorer compiles only the patterns of the stand-ins an answer may hold (a substring
test on keys the regex cannot tell apart, agent/restore/probes.py). Leaving a pattern out
must never lose a restore: the prefiltered restorer gives exactly what the restorer that
compiles every pattern gives, for case changes (including the characters Python's
case-insensitive matching treats specially), possessives, name parts, any white space
between words, re-formatted numbers, dates in other forms, labels without brackets, CJK
letters glued to a stand-in, and stand-ins split across streamed chunks."""

from __future__ import annotations

import _sre
import random
import re
import sys

import pytest

from agent.entities import Action, Label
from agent.restore import probes, restorer
from agent.restore.probes import AnswerKeys, Prefilter, Probe, regex_fold
from agent.restore.restorer import CompiledRestorer, StreamingRestorer
from agent.session.conversation import MapEntry

# (real, stand-in, label, action): one of each kind of pattern the restorer builds.
ENTRIES = [
    ("Helga Brandt", "Nora Quist", Label.PERSON, Action.REPLACE),
    ("Arda Kaya", "İlkay Işık", Label.PERSON, Action.REPLACE),  # dotted capital I, dotless i
    ("Ζωή Παππά", "Σοφία Αλεξίου", Label.PERSON, Action.REPLACE),  # Greek sigma: Σ, σ, ς
    ("Tallowby Kessel GmbH", "Mirefield Strauss GmbH", Label.ORG, Action.REPLACE),  # ß vs ss
    ("+1 415-555-2671", "+1 415-555-0147", Label.PHONE, Action.REPLACE),
    ("(212) 555-0199", "(646) 555-0123", Label.PHONE, Action.REPLACE),  # E.164 form added
    ("DE89 3704 0044 0532 0130 00", "DE44 5001 0517 5407 3249 31", Label.IBAN, Action.REPLACE),
    ("3 March 1990", "17 June 1991", Label.DATE, Action.REPLACE),
    ("Bruno Amsel", "[PERSON_1]", Label.PERSON, Action.LABEL),
    ("김하늘", "이도윤", Label.PERSON, Action.REPLACE),
    ("陈思远", "刘一鸣", Label.PERSON, Action.REPLACE),
]

# Ways an answer may write the stand-ins: other case, possessive, parts, other spacing,
# numbers regrouped, other date forms, CJK particles glued on; and near misses.
PIECES = [
    "Nora Quist", "NORA QUIST", "nora quist", "Nora  Quist", "Nora\nQuist", "Nora\u00a0Quist", "Quist's", "Nora",
    "QUIST", "Quiſt", "NoraQuist", "Quists", "Noras", "İlkay Işık", "ilkay ışık", "ILKAY IŞIK", "İLKAY", "Işık",
    "Ilkay Isik", "Σοφία Αλεξίου", "ΣΟΦΊΑ ΑΛΕΞΊΟΥ", "σοφία", "Αλεξίου's", "ΑΛΕΞΊΟΥ", "Mirefield Strauss GmbH",
    "MIREFIELD STRAUSS GMBH", "Mirefield Strauß GmbH", "Strauss", "Mirefield", "\u212aessel", "+1 415-555-0147",
    "415.555.0147", "(415) 555 0147", "14155550147", "+1 (415) 555-0147", "646-555-0123", "+16465550123",
    "+1 646 555 0123", "DE44500105175407324931", "DE44 5001 0517 5407 3249 31", "de44-5001-0517-5407-3249-31",
    "17 June 1991", "June 17, 1991", "1991-06-17", "17 Jun 1991", "06/17/1991", "17.06.1991", "17 june  1991",
    "[PERSON_1]", "PERSON_1", "person_1", "PERSON_10", "이도윤", "이도윤은", "이도윤에게", "Nora Quist은", "Quistさん",
    "刘一鸣", "刘一鸣先生", "请转告Nora", "Nora@x.org", "@Quist", "x-Nora", "Quist2", "555", "0147", " ", " ", ", ",
    ". ", "\n", "-", "'", "(", ")", "é", "ß", "_", "Ω", "K", "s", "ı", "İ", "ς", "σ",
]


def _map() -> list[MapEntry]:
    return [MapEntry(real, stand_in, label, action) for real, stand_in, label, action in ENTRIES]


def _answer(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 24)))


def _with_every_pattern(call):
    """call() with every pattern compiled, as the restorer did before the prefilter."""
    real_present = Prefilter.present
    Prefilter.present = lambda self, text: tuple(range(len(self._probes)))
    try:
        return call()
    finally:
        Prefilter.present = real_present


@pytest.mark.parametrize("seed", range(30))
def test_prefiltered_and_full_restore_agree_on_random_answers(seed):
    rng = random.Random(1000 + seed)
    prefiltered, reference = CompiledRestorer(_map()), CompiledRestorer(_map())
    for _ in range(15):
        answer = _answer(rng)
        expected = _with_every_pattern(lambda: reference.restore(answer))  # noqa: B023
        assert prefiltered.restore(answer) == expected, answer


@pytest.mark.parametrize(
    "answer, real",
    [
        ("İlkay Işık's turn", "Arda Kaya's"),
        ("Quiſt's turn", "Brandt's"),  # long s matches s
        ("ΣΟΦΊΑ ΑΛΕΞΊΟΥ", "ΖΩΉ ΠΑΠΠΆ"),
        ("person_1 agrees", "bruno amsel"),
        ("1991-06-17", "1990-03-03"),
        ("+16465550123", "+12125550199"),
        ("이도윤에게", "김하늘"),
    ],
)
def test_stand_ins_written_otherwise_are_still_compiled_and_restored(answer, real):
    restored, spans = CompiledRestorer(_map()).restore(answer)
    assert real in restored, restored
    assert spans


def test_only_the_stand_ins_an_answer_holds_are_compiled():
    compiled = CompiledRestorer(_map())
    assert compiled.regex_for("Nothing of the map is here.") is None
    assert compiled.restore("Nothing of the map is here.") == ("Nothing of the map is here.", [])
    regex = compiled.regex_for("On 17 June 1991 Nora wrote.")
    assert regex is not None
    source = "|".join(r.pattern for r in regex._regexes)
    # One of the date's ten written forms and one name part, not the other patterns.
    assert "Nora" in source and "17\\s+June\\s+1991" in source
    assert "Quist" not in source and "Jun\\s+1991" not in source and "DE44" not in source


@pytest.mark.parametrize("seed", range(15))
def test_streamed_answers_split_anywhere_restore_as_with_every_pattern(seed):
    rng = random.Random(2000 + seed)
    answer = _answer(rng) + " " + _answer(rng)
    cuts = sorted(rng.sample(range(1, len(answer)), min(len(answer) - 1, rng.randint(1, 12))))
    chunks = [answer[a:b] for a, b in zip([0, *cuts], [*cuts, len(answer)])]

    def run(compiled: CompiledRestorer) -> tuple[list[str], list]:
        streaming = StreamingRestorer(compiled)
        shown = [streaming.feed(chunk).text for chunk in chunks] + [streaming.finish().text]
        return shown, streaming.result().spans

    expected = _with_every_pattern(lambda: run(CompiledRestorer(_map())))
    assert run(CompiledRestorer(_map())) == expected, chunks
    # Character by character: every stand-in is split across chunks.
    chunks = list(answer)
    expected = _with_every_pattern(lambda: run(CompiledRestorer(_map())))
    assert run(CompiledRestorer(_map())) == expected, answer


def test_regex_fold_never_separates_characters_that_ignorecase_matches():
    """Every cased character as a one-character pattern, searched case-insensitively in
    every character it could match: a match must have the same regex_fold (else the
    prefilter would drop a stand-in the regex finds)."""
    cased = [c for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000 and _sre.unicode_iscased(c)]
    # An uncased character equals its lower and upper case: it can match only a cased
    # pattern's lower case or one of the extra equivalences (re._casefix).
    others = {_sre.unicode_tolower(c) for c in cased} | set(probes._EXTRA_CASES)
    others |= {v for values in probes._EXTRA_CASES.values() for v in values}
    haystack = "".join(chr(c) for c in sorted(set(cased) | others))
    folded = regex_fold(haystack)
    assert len(folded) == len(haystack)
    for code in cased:
        char = chr(code)
        for match in re.finditer(re.escape(char), haystack, re.IGNORECASE):
            assert folded[match.start()] == regex_fold(char), (hex(code), hex(ord(match.group())))


def test_answer_white_space_is_what_the_pattern_calls_white_space():
    # The probe collapses runs of str.isspace characters; the pattern joins words with \s+.
    assert all(bool(re.match(r"\s", chr(c))) == chr(c).isspace() for c in range(sys.maxunicode + 1))
    keys = AnswerKeys("Nora\u2003\u00a0\nQuist")
    assert Probe.words("Nora Quist").may_match(keys)
    assert not Probe.words("Nora Quist").may_match(AnswerKeys("Nora-Quist"))


def test_numbers_are_probed_on_their_digits_and_ibans_without_separators():
    assert Probe.digits("4155550147").may_match(AnswerKeys("call (415) 555.0147 now"))
    assert not Probe.digits("4155550147").may_match(AnswerKeys("call (415) 555.0148 now"))
    assert Probe.compact("DE44500105175407324931").may_match(AnswerKeys("de44 5001-0517 5407 3249 31"))


def test_long_answers_are_searched_with_every_pattern(monkeypatch):
    # Past _PROBED_MAX_CHARS, testing every needle costs more than compiling every pattern.
    monkeypatch.setattr(restorer, "_PROBED_MAX_CHARS", 40)
    rng = random.Random(5)
    compiled, reference = CompiledRestorer(_map()), CompiledRestorer(_map())
    for _ in range(15):
        answer = _answer(rng)
        assert compiled.restore(answer) == _with_every_pattern(lambda: reference.restore(answer)), answer  # noqa: B023
    long_answer = "Nothing to restore here, " * 3
    assert compiled.regex_for(long_answer) is not None and compiled.regex_for("Nothing here.") is None


def test_case_sensitive_cjk_classes_hold_what_the_case_insensitive_ones_held():
    # restorer writes its CJK look-around classes as (?-i:[...]) to compile them ~3x faster.
    from agent.knowledge.scripts import CJK, HANGUL, HIRAGANA, KATAKANA

    everything = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    for body in (f"^\\W{CJK}", f"{HANGUL}@", f"{KATAKANA}@", f"{HIRAGANA}@"):
        insensitive = re.compile(f"[{body}]", re.IGNORECASE)
        scoped = re.compile(f"(?-i:[{body}])", re.IGNORECASE)
        assert [m.start() for m in scoped.finditer(everything)] == [m.start() for m in insensitive.finditer(everything)]
    assert restorer._NOT_CJK_WORD == f"(?-i:[^\\W{CJK}])"
    assert restorer._SAME_SCRIPT_BEFORE["HANGUL"] == f"(?<!(?-i:[{HANGUL}@]))"
