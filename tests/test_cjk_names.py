"""Names in and beside Chinese, Japanese and Korean text, end to end: a Latin name glued
to a Korean particle or a Japanese honorific is swapped without the particle (the
particle stays in the text the LLM reads), found again where a later sentence or message
glues it to another particle, and put back in the answer."""

from __future__ import annotations

import pytest

from agent.detect.cjk_names import trim_at_script_change
from agent.entities import Label, Span
from agent.session.conversation import Conversation


def _span(text: str, label: Label = Label.PERSON, start: int = 0) -> Span:
    return Span(start, start + len(text), label, text, 0.8, "spacy")


@pytest.mark.parametrize(
    "found, name",
    [
        ("Velmora은", "Velmora"),
        ("Ines Varga先生は来週", "Ines Varga"),
        ("给Ingrid", "Ingrid"),
        ("후에 Ingrid에게", "Ingrid"),
        ("Tarsk Labs의 연구", "Tarsk Labs"),
    ],
)
def test_a_span_is_cut_where_the_script_changes(found, name):
    span = trim_at_script_change(_span(found, start=5))
    assert span.text == name
    assert (span.start, span.end) == (5 + found.index(name), 5 + found.index(name) + len(name))


@pytest.mark.parametrize(
    "span",
    [_span("이서연"), _span("Ingrid Solberg"), _span("2024年3月", Label.DATE), _span("田中さん")],
)
def test_spans_in_one_script_or_without_a_latin_name_stay(span):
    assert trim_at_script_change(span) == span


def _persons(conversation: Conversation) -> dict[str, str]:
    return {e.real: e.stand_in for e in conversation.entries if e.label is Label.PERSON}


@pytest.mark.parametrize(
    "text, name, glued",
    [
        ("Greta Lindqvist은 내일 오후에 도착합니다.", "Greta Lindqvist", "은 내일"),
        ("어제 Tobias Reinholt에게 메일을 보냈어요.", "Tobias Reinholt", "에게 메일"),
        ("Lukas Brennerさんに会いました。", "Lukas Brenner", "さんに"),
        ("Henrik Aalto先生は来週来ます。", "Henrik Aalto", "先生は"),
    ],
)
def test_glued_name_is_swapped_and_its_particle_stays(privacy_engine, text, name, glued):
    conversation = Conversation(seed=41)
    result = privacy_engine.sanitize(text, conversation)
    persons = _persons(conversation)
    assert name in persons, persons
    assert persons[name] + glued in result.sanitized
    back = privacy_engine.restore(result.sanitized, conversation)
    assert back.text == text and back.unrestored == []


def test_surname_glued_later_in_the_text_is_the_same_person(privacy_engine):
    text = "Greta Lindqvist은 내일 서울에 옵니다. 회의 후에 Lindqvist에게 자료를 보내세요."
    conversation = Conversation(seed=43)
    result = privacy_engine.sanitize(text, conversation)
    persons = _persons(conversation)
    assert "Lindqvist" in persons
    surname = persons["Greta Lindqvist"].split()[-1]
    assert persons["Lindqvist"] == surname
    assert f"후에 {surname}에게" in result.sanitized and "Lindqvist" not in result.sanitized
    assert privacy_engine.restore(result.sanitized, conversation).text == text


def test_a_name_from_an_earlier_message_is_found_glued_to_a_particle(privacy_engine):
    conversation = Conversation(seed=47)
    privacy_engine.sanitize("Please book a table for Oskar Brandvold on Friday.", conversation)
    stand_in = _persons(conversation)["Oskar Brandvold"]
    later = privacy_engine.sanitize("Brandvold에게 예약 확인을 보내 주세요.", conversation)
    assert "Brandvold" not in later.sanitized
    assert later.sanitized.startswith(stand_in.split()[-1] + "에게")


# -- names written in Hangul, Han characters or Katakana ------------------------------------------------
def _script_of_letters(text: str) -> set[str | None]:
    from agent.knowledge.scripts import cjk_script

    return {cjk_script(c) for c in text if not c.isspace()}


@pytest.mark.parametrize(
    "text, name, after, script",
    [
        ("이번 주에 최다은 교수님께 논문을 보내야 해요.", "최다은", " 교수님께", "HANGUL"),
        ("기자 한지성이 쓴 기사를 정리해 줘.", "한지성", "이 쓴", "HANGUL"),
        ("어제 윤재석씨를 역에서 만났어요.", "윤재석", "씨를", "HANGUL"),
        ("来週、山本健太さんと打ち合わせがあります。", "山本健太", "さんと", "HAN"),
        ("受付でタカハシ ケンイチ様とお呼びします。", "タカハシ ケンイチ", "様と", "KATAKANA"),
        ("請幫我寫信給林志豪先生。", "林志豪", "先生", "HAN"),
        ("请帮我给刘建国老师写一封感谢信。", "刘建国", "老师", "HAN"),
        ("联系人：周晓梅，电话在附件里。", "周晓梅", "，电话", "HAN"),
    ],
)
def test_cjk_name_beside_a_role_word_is_swapped_for_a_name_in_its_script(privacy_engine, text, name, after, script):
    conversation = Conversation(seed=53)
    result = privacy_engine.sanitize(text, conversation)
    persons = _persons(conversation)
    assert list(persons) == [name]
    stand_in = persons[name]
    assert _script_of_letters(stand_in) == {script} and stand_in != name
    assert len(stand_in.split()) == len(name.split())  # surname and given name, written as the real one
    if script != "KATAKANA":  # readings in Katakana differ in length
        assert len(stand_in) == len(name)
    assert stand_in + after in result.sanitized
    back = privacy_engine.restore(result.sanitized, conversation)
    assert back.text == text and back.unrestored == []


def test_korean_stand_in_keeps_the_particle_grammatical(privacy_engine):
    # "<name>이" follows a final consonant, "<name>가" a vowel: the stand-in ends alike.
    for text, name in [("기자 한지성이 썼어요.", "한지성"), ("기자 오민재가 썼어요.", "오민재")]:
        for seed in range(5):
            conversation = Conversation(seed=seed)
            privacy_engine.sanitize(text, conversation)
            stand_in = _persons(conversation)[name]
            assert ((ord(stand_in[-1]) - 0xAC00) % 28 == 0) == ((ord(name[-1]) - 0xAC00) % 28 == 0), stand_in


def test_a_korean_name_found_once_is_swapped_where_it_recurs(privacy_engine):
    text = "최다은 교수님의 강의를 들었어요. 다음 학기에도 최다은 교수님 수업을 듣고 싶어요."
    conversation = Conversation(seed=59)
    result = privacy_engine.sanitize(text, conversation)
    assert "최다은" not in result.sanitized
    assert result.sanitized.count(_persons(conversation)["최다은"]) == 2


@pytest.mark.parametrize(
    "text",
    [
        "部長さんは会議中です。",
        "내일 회의는 오후 세 시에 시작합니다. 자료를 미리 읽어 오세요.",
    ],
)
def test_ordinary_cjk_sentences_have_no_person(privacy_engine, text):
    # The English language model reads CJK runs as one word; its guesses there are noise.
    result = privacy_engine.sanitize(text, Conversation(seed=61))
    assert result.sanitized == text and result.entities == []


@pytest.mark.parametrize(
    "ordinary",
    [
        "유명한 작가의 책을 추천해 주세요.",
        "정확한 기자 회견 일정은 아직 없습니다.",
        "지금은 사장님이 바쁘세요.",
        "우리가 교수님께 여쭤볼게요.",
        "한국인 교수가 강연을 했다.",
        "학부모 대표 회의가 열립니다.",
        "お客様と皆さんに感謝します。",
        "我们的老师很好。",
        "高中老师布置了作业。",
        "大学教授说这个问题很难。",
        "우리 팀장님은 회의 중이세요.",
        "이사회 회의가 다음 주로 미뤄졌습니다.",
        "部長と課長が会議室にいます。",
        "お医者さんに相談してください。",
        "店長さんはとても親切です。",
        "我的中文老师很有耐心。",
        "历史老师讲得很好。",
        "音乐老师在教室里。",
    ],
)
def test_role_words_beside_ordinary_words_name_nobody(privacy_engine, ordinary):
    # An ordinary word before or after a role word is no name; the name next to it is.
    text = ordinary + " 최다은 교수님께 전해 주세요."
    conversation = Conversation(seed=67)
    result = privacy_engine.sanitize(text, conversation)
    assert list(_persons(conversation)) == ["최다은"]
    assert result.sanitized.startswith(ordinary)


@pytest.mark.parametrize(
    "text, name, again",
    [
        ("최다은 교수님의 강의를 들었어요. 강의가 끝나고 최다은에게 질문했어요.", "최다은", "에게 질문"),
        ("기자 한지성이 쓴 기사입니다. 한지성은 서울에 삽니다.", "한지성", "은 서울"),
        ("来週、山本健太さんと打ち合わせがあります。山本健太に資料を送ってください。", "山本健太", "に資料"),
    ],
)
def test_a_cjk_name_said_again_without_its_role_word_is_the_same_person(privacy_engine, text, name, again):
    conversation = Conversation(seed=71)
    result = privacy_engine.sanitize(text, conversation)
    assert name not in result.sanitized
    assert _persons(conversation)[name] + again in result.sanitized
    assert privacy_engine.restore(result.sanitized, conversation).text == text


def test_a_korean_name_from_an_earlier_message_is_found_before_its_particle(privacy_engine):
    conversation = Conversation(seed=73)
    privacy_engine.sanitize("최다은 교수님께 논문 초안을 보냈어요.", conversation)
    stand_in = _persons(conversation)["최다은"]
    later = privacy_engine.sanitize("최다은님이 내일 답장을 주신대요. 최다은에게 고맙다고 전해 줘.", conversation)
    assert "최다은" not in later.sanitized
    assert later.sanitized.startswith(stand_in + "님이") and stand_in + "에게" in later.sanitized
