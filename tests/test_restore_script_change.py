"""Restore where an answer glues a stand-in to Korean, Japanese or Chinese letters: the
change of script is a word boundary ("<stand-in>은", "<stand-in>さん", "<stand-in>先生"),
in one-shot and streaming restore alike, while a stand-in inside a longer Latin word is
still left alone. Stand-ins written in Hangul, Katakana or Han characters come back with
the particles and honorifics their language glues to them."""

from __future__ import annotations

import itertools

import pytest

from agent.entities import Label
from agent.session.conversation import Conversation
from tests.test_engine_restore import mapped_conversation, restore, stream

LATIN_MAP = [
    ("Helga Brandt", "Nora Quist", Label.PERSON),
    ("Bruno Amsel", "Felix Varga", Label.PERSON),
    ("Tallowby Press", "Mirefield Press", Label.ORG),
]
CJK_MAP = [
    ("김하늘", "이도윤", Label.PERSON),
    ("ヘルガ", "マルタ", Label.PERSON),
    ("陈思远", "刘一鸣", Label.PERSON),
]


@pytest.fixture
def latin():
    return mapped_conversation(LATIN_MAP)


@pytest.fixture
def cjk():
    return mapped_conversation(CJK_MAP)


@pytest.mark.parametrize(
    "answer, expected",
    [
        ("Nora Quist은 다음 주에 옵니다.", "Helga Brandt은 다음 주에 옵니다."),
        ("Quist에게 전화하세요.", "Brandt에게 전화하세요."),
        ("Felix Vargaさんに渡してください。", "Bruno Amselさんに渡してください。"),
        ("Varga先生の本です。", "Amsel先生の本です。"),
        ("请转告Nora，明天开会。", "请转告Helga，明天开会。"),
        ("我们和Mirefield Press签了合同。", "我们和Tallowby Press签了合同。"),
        ("NORA QUIST는 OK.", "HELGA BRANDT는 OK."),
    ],
)
def test_latin_stand_in_glued_to_cjk_letters_comes_back(privacy_engine, latin, answer, expected):
    result = restore(privacy_engine, answer, latin)
    assert result.text == expected
    assert result.unrestored == []


@pytest.mark.parametrize(
    "answer, expected",
    [
        ("NoraQuist은 아니고 Nora는 맞아요.", "NoraQuist은 아니고 Helga는 맞아요."),
        ("Quistadorさんではなく Quistさんです。", "Quistadorさんではなく Brandtさんです。"),
        ("xFelix先生とFelix先生", "xFelix先生とBruno先生"),
        ("Vargas에게 말고 Varga에게", "Vargas에게 말고 Amsel에게"),
    ],
)
def test_stand_in_inside_a_longer_latin_word_is_left_alone(privacy_engine, latin, answer, expected):
    # The glued stand-in comes back; the one inside a longer Latin word does not.
    assert restore(privacy_engine, answer, latin).text == expected


@pytest.mark.parametrize(
    "answer, expected",
    [
        ("이도윤은 회의에 늦었습니다.", "김하늘은 회의에 늦었습니다."),
        ("어제 이도윤씨를 만났어요.", "어제 김하늘씨를 만났어요."),
        ("マルタさんに連絡しました。", "ヘルガさんに連絡しました。"),
        ("我昨天见到了刘一鸣老师。", "我昨天见到了陈思远老师。"),
        ("Ask 刘一鸣和マルタさん today.", "Ask 陈思远和ヘルガさん today."),
    ],
)
def test_cjk_stand_ins_come_back_with_their_particles(privacy_engine, cjk, answer, expected):
    result = restore(privacy_engine, answer, cjk)
    assert result.text == expected
    assert result.unrestored == []


@pytest.mark.parametrize(
    "answer, expected",
    [
        ("그이도윤은 아니고 이도윤은 맞아요.", "그이도윤은 아니고 김하늘은 맞아요."),
        ("アマルタではなくマルタさん", "アマルタではなくヘルガさん"),
        ("マルタリアとマルタさん", "マルタリアとヘルガさん"),
    ],
)
def test_cjk_stand_in_inside_a_longer_word_of_its_script_is_left_alone(privacy_engine, cjk, answer, expected):
    # Hangul and Katakana runs continue with letters of their own script.
    assert restore(privacy_engine, answer, cjk).text == expected


@pytest.mark.parametrize("answer", ["Nora Quist은 Felix Varga先生と話します。", "请转告Nora，Quist에게도."])
def test_streamed_glued_stand_ins_split_anywhere(privacy_engine, latin, answer):
    assert restore(privacy_engine, answer, latin).spans
    for i in range(len(answer) + 1):
        stream(privacy_engine, latin, [answer[:i], answer[i:]])
    shown, _ = stream(privacy_engine, latin, list(answer))
    assert "Helga" in "".join(shown) and "Brandt" in "".join(shown)
    assert "Nora" not in "".join(shown) and "Quist" not in "".join(shown)


def test_streamed_cjk_stand_ins_character_by_character(privacy_engine, cjk):
    answer = "이도윤은 マルタさんと刘一鸣老师に会った。"
    shown, result = stream(privacy_engine, cjk, list(answer))
    assert "".join(shown) == "김하늘은 ヘルガさんと陈思远老师に会った。"
    assert [s.label for s in result.spans] == [Label.PERSON] * 3


@pytest.mark.parametrize(
    "original, reply",
    [
        ("Please write a short note to Helga Brandt about the delayed shipment.", "{full}은 배송 지연에 대해 알고 있습니다."),
        ("Translate this for Bruno Amsel: the meeting moved to Friday.", "{last}さん、会議は金曜日に変更されました。"),
        ("Draft an apology to Helga Brandt for the late invoice.", "我们向{first}道歉，发票迟了。"),
    ],
)
def test_echo_round_trip_glued_to_cjk(privacy_engine, original, reply):
    """A real sanitize, then an answer that glues the stand-in to CJK letters."""
    conversation = Conversation(seed=23)
    sanitized = privacy_engine.sanitize(original, conversation).sanitized
    person = next(e for e in conversation.entries if e.label is Label.PERSON)
    assert person.stand_in in sanitized
    first, last = person.stand_in.split()
    answer = reply.format(full=person.stand_in, first=first, last=last)
    result = restore(privacy_engine, sanitized + "\n" + answer, conversation)
    real_first, real_last = person.real.split()
    expected = reply.format(full=person.real, first=real_first, last=real_last)
    assert result.text == original + "\n" + expected
    assert result.unrestored == []
    pieces = [answer[i : i + 3] for i in range(0, len(answer), 3)]
    shown, _ = stream(privacy_engine, conversation, pieces)
    assert "".join(shown) == expected
    assert all(a.end <= b.start for a, b in itertools.pairwise(_.spans))


# An answer without CJK letters is searched with a plain Latin alternation (compiling the
# CJK letter classes into every look-around made restore 10-60 ms per answer); the two
# must find the same stand-ins wherever no CJK letter is near.
_PIECES = ["Nora Quist", "Quist", "Nora", "NORA", "Felix Varga", "Varga's", "Mirefield Press", "Mirefield",
           "NoraQuist", "Vargas", "@Nora", "Nora@x.org", "x-Varga", "Quist2", "42", " ", ", ", ". ", "\n", "-", "'",
           "(", ")", "e", "é", "ß", "_", "Ω"]


@pytest.mark.parametrize("seed", range(40))
def test_plain_latin_search_and_script_aware_search_agree_on_latin_answers(latin, seed):
    import random

    from agent.restore.restorer import Restorer

    rng = random.Random(seed)
    answer = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 30)))
    compiled = Restorer().compiled(latin)
    plain = compiled.restore(answer)
    # A CJK letter after a space in the context makes the search script-aware without
    # touching any word boundary of the answer itself.
    aware = compiled.restore(answer, context_after=" 가")
    assert plain == aware, answer
    # (None: no stand-in of the map is in the answer, nothing is compiled for it)
    assert compiled.regex_for(answer) is None or compiled.regex_for(answer) is not compiled.regex_for(answer + " 가")
