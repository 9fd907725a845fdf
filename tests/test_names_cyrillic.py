"""Person names written in Cyrillic (agent/detect/cyrillic_names.py, the declension in
agent/knowledge/cyrillic_names.py, stand-ins in agent/substitute/cyrillic_names.py): a
first name in any case form next to a surname or a patronymic, initials next to a surname,
a first name alone after an introduction or address; greetings and ordinary words are no
names; a declined name gets a stand-in of the same gender and list in the same case, and
an answer that declines the stand-in otherwise is restored."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.detect.registry import build_registry
from agent.engine.core import Engine
from agent.entities import Label
from agent.knowledge.cyrillic_names import inflect, read_first, read_surname
from agent.session.conversation import Conversation
from agent.substitute.cyrillic_names import declined, read_name


@pytest.fixture(scope="module")
def registry():
    return build_registry(default_settings())


@pytest.fixture(scope="module")
def engine():
    return Engine(default_settings())


def _persons(registry, text: str) -> list[str]:
    return [s.text for s in registry.detect(text).spans if s.label is Label.PERSON]


@pytest.mark.parametrize(
    "text, name",
    [
        ("Привет! Я Ксения Белова, помоги составить резюме.", "Ксения Белова"),
        ("Сегодня встречаюсь с Павлом Егоровым и Кириллом Захаровым.", "Павлом Егоровым"),
        ("Мы ездили на дачу к Ольге Николаевне Зуевой.", "Ольге Николаевне Зуевой"),
        ("Напиши поздравление для Анастасии Сергеевны, нашей учительницы.", "Анастасии Сергеевны"),
        ("Письмо для Бориса Аркадьевича Левина.", "Бориса Аркадьевича Левина"),
        ("ФИО: Гусева Алёна Игоревна", "Гусева Алёна Игоревна"),
        ("Отчёт подготовил Смирнов В. П. по просьбе отдела.", "Смирнов В. П."),
        ("Скажи Оксані Мельник, що звіт готовий.", "Оксані Мельник"),
        ("Казвам се Десислава Петрова, на 25 години съм.", "Десислава Петрова"),
        ("Моя жена Екатерина хочет сюрприз на день рождения.", "Екатерина"),
        ("Дорогая Людмила, поздравляем с юбилеем!", "Людмила"),
    ],
)
def test_cyrillic_names_are_found(registry, text, name):
    assert name in _persons(registry, text)


@pytest.mark.parametrize(
    "text, names",
    [
        ("Привет, меня зовут Маргарита Осипова.", ["Маргарита Осипова"]),
        ("Здравствуйте, меня зовут Полина Зайцева, у меня вопрос по доставке.", ["Полина Зайцева"]),
    ],
)
def test_only_the_name_beside_a_greeting(registry, text, names):
    assert _persons(registry, text) == names


def test_other_case_forms_of_a_found_name(registry):
    text = "Моя подруга Светлана Волкова переезжает. Светлане нужна помощь с коробками."
    found = _persons(registry, text)
    assert "Светлана Волкова" in found and "Светлане" in found


@pytest.mark.parametrize(
    "text",
    [
        "Привет, как дела? Помоги мне составить план тренировок на неделю.",
        "Здравствуйте! Объясните, пожалуйста, как работает сортировка слиянием.",
        "Привет! Помоги мне написать письмо начальнику.",
        "Моя жена хочет сюрприз на день рождения.",
    ],
)
def test_greetings_and_ordinary_words_are_no_names(registry, text):
    assert _persons(registry, text) == []


def test_reading_declined_forms():
    assert {(r.nominative, r.gender) for r in read_first("Сергеем")} == {("Сергей", "male")}
    assert "ins" in read_first("Сергеем")[0].cases
    assert any(r.nominative == "Морозова" and "dat" in r.cases for r in read_surname("Морозовой"))
    assert inflect("Олег", "first", "male", "ru", "dat") == "Олегу"
    assert inflect("Ковалёв", "last", "male", "ru", "ins") == "Ковалёвым"
    name = read_name("Дмитрием Соколовым")
    assert name is not None and name.case == "ins" and name.gender == "male"
    assert [p.nominative for p in name.parts] == ["Дмитрий", "Соколов"]


def test_stand_in_keeps_gender_list_and_case(engine):
    conversation = Conversation("cyr-standin")
    text = "Завтра я обедаю с Дмитрием Соколовым, а потом звоню Елене Морозовой."
    result = engine.sanitize(text, conversation)
    sent = {r.real: r.sent for r in result.entities}
    man = read_name(sent["Дмитрием Соколовым"])
    woman = read_name(sent["Елене Морозовой"])
    assert man is not None and man.gender == "male" and woman is not None and woman.gender == "female"
    assert man.language == "ru" and woman.language == "ru"
    # Each stand-in is its nominative put in the real name's case (a woman's "-ии" form is
    # genitive, dative and locative at once).
    assert sent["Дмитрием Соколовым"] == " ".join(declined(p.nominative, p.role, "male", "ru", "ins") for p in man.parts)
    assert sent["Елене Морозовой"] == " ".join(declined(p.nominative, p.role, "female", "ru", "dat") for p in woman.parts)


def test_a_later_form_of_the_same_name_keeps_its_stand_in(engine):
    conversation = Conversation("cyr-consistent")
    result = engine.sanitize("Моя сестра Наталья Орлова учится в университете. Наталье двадцать лет.", conversation)
    sent = {r.real: r.sent for r in result.entities}
    full = read_name(sent["Наталья Орлова"])
    alone = read_name(sent["Наталье"])
    assert full is not None and alone is not None
    assert alone.parts[0].nominative == full.parts[0].nominative


def test_restore_of_an_answer_that_declines_the_stand_in(engine):
    conversation = Conversation("cyr-restore")
    text = "Завтра я обедаю с Дмитрием Соколовым."
    result = engine.sanitize(text, conversation)
    stand_in = {r.real: r.sent for r in result.entities}["Дмитрием Соколовым"]
    name = read_name(stand_in)
    dative = " ".join(declined(p.nominative, p.role, name.gender, "ru", "dat") for p in name.parts)
    nominative = " ".join(p.nominative for p in name.parts)
    answer = f"Передайте {dative} привет. {nominative} будет рад встрече."
    restored = engine.restore(answer, conversation)
    assert restored.text == "Передайте Дмитрию Соколову привет. Дмитрий Соколов будет рад встрече."
