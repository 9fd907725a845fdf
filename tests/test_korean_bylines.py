"""Korean names where only the place in the text says "a person" (agent/detect/cjk_names.py):
the author of a byline beside its date, the value of a form field or credit with a colon,
the writer before a letter's closing. Ordinary words in the same places (a surname syllable
that starts a common word) name nobody."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.detect.registry import build_registry
from agent.entities import Label


@pytest.fixture(scope="module")
def registry():
    return build_registry(default_settings())


def _persons(registry, text: str) -> list[str]:
    return [s.text for s in registry.detect(text).spans if s.label is Label.PERSON]


@pytest.mark.parametrize(
    "text, name",
    [
        ("2023-11-05 | 박서연 오늘은 새로운 기능을 소개합니다.", "박서연"),
        ("정서진 · 2022.07.14\n여행 후기를 남깁니다.", "정서진"),
        ("2021년 9월 30일 / 윤하람\n가을 산책 이야기", "윤하람"),
        ("이름: 최유진\n연락처: 없음", "최유진"),
        ("성명: 한지민, 연락처는 아래에 있습니다.", "한지민"),
        ("항상 감사합니다.\n강도윤 드림", "강도윤"),
    ],
)
def test_korean_name_in_a_byline_field_or_closing(registry, text, name):
    assert name in _persons(registry, text)


def test_the_byline_name_is_the_same_person_where_it_recurs(registry):
    text = "2023-11-05 | 박서연\n새 기능을 소개합니다.\n\n다음 글에서 박서연의 실험 결과를 이어서 다룹니다."
    found = [s for s in registry.detect(text).spans if s.text == "박서연"]
    assert len(found) == 2 and all(s.label is Label.PERSON for s in found)


@pytest.mark.parametrize(
    "text",
    [
        "2024.03.01 | 신제품 출시 안내",
        "2024-01-01 | 정기점검 안내",
        "오늘은 날씨가 좋습니다. 2024년 5월 3일 | 공지사항",
        "2022-02-02 | 신입생 환영회 일정",
    ],
)
def test_ordinary_words_in_a_byline_name_nobody(registry, text):
    assert _persons(registry, text) == []
