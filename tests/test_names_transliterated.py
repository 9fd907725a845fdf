"""Names from Cyrillic, Greek, Georgian and Armenian lists written in Latin letters: the
lexicon knows their Latin spellings (detection) and keeps Latin stand-in pools of their
origin ("ru_RU-Latn"), so a Russian name typed in English gets a Russian stand-in typed
in English. Sentences and names are written for these tests."""

from __future__ import annotations

import pytest

from agent.entities import Action, Label
from agent.knowledge.names import _TRANSLITERATED_WORD, lexicon
from agent.knowledge.transliterated import latin_forms, romanize
from agent.knowledge.words import word_frequency
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    ("native", "locale", "latin"),
    [
        ("Ярослав", "ru_RU", "Yaroslav"),
        ("Наталья", "ru_RU", "Natalya"),  # the soft sign's apostrophe is dropped
        ("Микола", "uk_UA", "Mykola"),  # Ukrainian national system: и -> y
        ("Гнатюк", "uk_UA", "Hnatiuk"),  # г -> h, ю -> iu inside a word
        ("Юрченко", "uk_UA", "Yurchenko"),  # ю -> yu at the start
        ("Петър", "bg_BG", "Petar"),  # Bulgarian Streamlined System: ъ -> a
        ("Христо", "bg_BG", "Hristo"),  # х -> h
        ("Щерев", "bg_BG", "Shterev"),  # щ -> sht
        ("Ѓорѓи", "mk_MK", "Gjorgji"),  # Macedonian: ѓ -> gj
        ("Цветковски", "mk_MK", "Cvetkovski"),  # ц -> c
        ("Παπαδόπουλος", "el_GR", "Papadopoulos"),  # ELOT 743: ου -> ou
        ("Ευάγγελος", "el_GR", "Evangelos"),  # ευ -> ev before a voiced sound, γγ -> ng
        ("Ευθύμιος", "el_GR", "Efthymios"),  # ευ -> ef before θ
        ("ბერიძე", "ka_GE", "Beridze"),  # Georgian has no capitals: Latin gets one
        ("Արմենուհի", "hy_AM", "Armenuhi"),  # ու is u
        ("Ռուբեն", "hy_AM", "Ruben"),  # ռ is r
    ],
)
def test_romanize(native, locale, latin):
    assert romanize(native, locale) == latin


def test_common_spellings_of_cyrillic_names():
    assert set(latin_forms("Дмитрий", "ru_RU")) >= {"Dmitriy", "Dmitry", "Dmitri"}
    assert set(latin_forms("Максим", "ru_RU")) >= {"Maksim", "Maxim"}
    assert set(latin_forms("Сергей", "ru_RU")) >= {"Sergey", "Sergei"}
    assert set(latin_forms("Ксения", "ru_RU")) >= {"Kseniya", "Ksenia"}
    assert set(latin_forms("Елена", "ru_RU")) >= {"Elena", "Yelena"}
    assert latin_forms("Андрій", "uk_UA")[0] == "Andrii" and "Andriy" in latin_forms("Андрій", "uk_UA")
    assert latin_forms("Христо", "bg_BG") == ("Hristo", "Khristo")  # the national form, then the Russian-style one
    # Greek: γι before a vowel also as y, not after a consonant
    assert latin_forms("Γιάννης", "el_GR") == ("Giannis", "Yiannis", "Yannis")
    assert latin_forms("Γεώργιος", "el_GR") == ("Georgios",)
    assert latin_forms("Ευάγγελος", "el_GR") == ("Evangelos",)


def test_lexicon_knows_latin_spellings_with_their_origin():
    names = lexicon()
    assert "ru_RU" in names.info("Yaroslav").male_in
    assert "ru_RU" in names.info("Dmitry").first_in  # a variant spelling
    assert "uk_UA" in names.info("Hrytsenko").last_in
    assert "el_GR" in names.info("Papadakis").last_in
    assert "ka_GE" in names.info("Beridze").last_in
    assert "hy_AM" in names.info("Petrosyan").last_in


def test_spellings_that_are_english_words_are_not_names():
    names = lexicon()
    assert names.is_first_name("Hlib")  # Гліб by the Ukrainian standard
    assert not names.is_first_name("Glib")  # its Russian-style spelling is an English word
    transliterated = {"ru_RU", "uk_UA", "bg_BG", "mk_MK", "el_GR", "ka_GE", "hy_AM"}
    for locale in ("ru_RU", "uk_UA", "bg_BG", "el_GR"):
        pool = names.pools[locale]
        for name in pool["any"] + pool["last"]:
            for form in latin_forms(name, locale):
                for token in form.split():
                    info = names.info(token)
                    if word_frequency(token) >= _TRANSLITERATED_WORD and not (info.first_in | info.last_in) - transliterated:
                        # known only through the transliterations: must not be
                        assert not (info.is_first or info.is_last), token


@pytest.mark.parametrize(
    ("name", "locale", "gender"),
    [
        ("Yaroslav Morozov", "ru_RU-Latn", "male"),
        ("Dmitry Ivanov", "ru_RU-Latn", "male"),
        ("Oksana Hrytsenko", "uk_UA-Latn", "female"),
        ("Giorgos Papadakis", "el_GR-Latn", "male"),
        ("Levan Beridze", "ka_GE-Latn", "male"),
        ("Aram Petrosyan", "hy_AM-Latn", "male"),
    ],
)
def test_origin_of_a_latin_written_name(name, locale, gender):
    assert lexicon().profile(name.split()) == type(lexicon().profile(["x"]))(locale, gender)


def test_pools_are_latin_and_plain():
    names = lexicon()
    for locale in ("ru_RU-Latn", "uk_UA-Latn", "bg_BG-Latn", "el_GR-Latn", "ka_GE-Latn", "hy_AM-Latn"):
        assert names.scripts[locale] == "LATIN"
        for key in ("male", "female", "last"):
            assert names.pools[locale][key], (locale, key)
            assert all(n.isascii() and n[:1].isupper() and "'" not in n for n in names.pools[locale][key])
    # the native pools stay as they are
    assert names.scripts["ru_RU"] == "CYRILLIC"


def _pool(locale: str, *keys: str) -> set[str]:
    pools = lexicon().pools[locale]
    return {n for key in keys for n in pools[key]}


@pytest.mark.parametrize(
    ("text", "real", "locale"),
    [
        ("Please ask Yaroslav Morozov to sign the tenancy form again.", "Yaroslav Morozov", "ru_RU-Latn"),
        ("Our babysitter Oksana Hrytsenko is off sick this week.", "Oksana Hrytsenko", "uk_UA-Latn"),
        ("My friend Giorgos Papadakis lent me his car for the weekend.", "Giorgos Papadakis", "el_GR-Latn"),
    ],
)
def test_latin_written_name_gets_a_same_origin_latin_stand_in(privacy_engine, text, real, locale):
    result = privacy_engine.sanitize(text, Conversation(seed=7), {real: Action.REPLACE})
    entity = next(e for e in result.entities if e.real == real)
    assert entity.label is Label.PERSON
    first, last = entity.sent.split()
    assert first in _pool(locale, "male", "female", "any"), entity.sent
    assert last in _pool(locale, "last"), entity.sent


@pytest.mark.parametrize(
    ("text", "real"),
    [
        # without the Latin spellings: only the surname found, and kept
        ("Taras Melnyk from accounting sent the wrong spreadsheet.", "Taras Melnyk"),
        ("Hey Andriy, the keys are under the blue flowerpot.", "Andriy"),  # an organisation
        ("Can you help me write a birthday card for Giorgos Papadakis?", "Giorgos Papadakis"),  # kept
    ],
)
def test_latin_written_name_is_found_as_a_person_and_swapped(privacy_engine, text, real):
    result = privacy_engine.sanitize(text, Conversation(seed=3))
    entity = next((e for e in result.entities if e.real == real), None)
    assert entity is not None, [(e.real, e.label) for e in result.entities]
    assert entity.label is Label.PERSON and entity.action is Action.REPLACE, (entity.label, entity.action, entity.reason)
    assert all(part not in result.sanitized for part in real.split())


@pytest.mark.parametrize(
    ("text", "real", "locale", "gender"),
    [
        ("My aunt Irina Volkova sends her love from Samara.", "Irina Volkova", "ru_RU-Latn", "female"),
        ("Ask Yaroslav Morozov whether the van is free on Sunday.", "Yaroslav Morozov", "ru_RU-Latn", "male"),
        ("Моя соседка Ирина Волкова поливает цветы.", "Ирина Волкова", "ru_RU", "female"),
        ("Our landlady Jana Nováková raised the rent again.", "Jana Nováková", "cs_CZ", "female"),
    ],
)
def test_surname_stand_in_takes_the_gender_of_the_name(privacy_engine, text, real, locale, gender):
    """Languages whose surnames change with the bearer's gender (Volkov/Volkova, Novák/
    Nováková): a woman's stand-in surname is a woman's, a man's a man's."""
    names = lexicon()
    assert names.profile(real.split()).gender == gender
    wanted = set(names.last_names(locale, gender))
    other = set(names.last_names(locale, {"male": "female", "female": "male"}[gender])) - wanted
    assert wanted and other
    for seed in range(6):
        result = privacy_engine.sanitize(text, Conversation(seed=seed), {real: Action.REPLACE})
        entity = next(e for e in result.entities if e.real == real)
        surname = entity.sent.split()[-1]
        assert surname in wanted and surname not in other, entity.sent


def test_romanized_first_names():
    names = lexicon()
    assert names.is_romanized_first_name("Giorgos") and names.is_romanized_first_name("Vakhtang")
    assert not names.is_romanized_first_name("Brigitte")  # Latin lists have it too
    assert not names.is_romanized_first_name("Papadakis")  # a surname
    assert not names.is_romanized_first_name("Георгий")  # the native spelling


@pytest.mark.parametrize(
    ("text", "real"),
    [
        ("I owe Giorgos Papadakis fifty euros for the ferry tickets.", "Giorgos Papadakis"),  # nothing found
        ("Please forward the minutes to Zurab and Tamari.", "Zurab"),  # a nationality, kept
        ("The meeting notes from Spiridon are attached.", "Spiridon"),  # a place, kept
    ],
)
def test_one_romanized_list_is_enough_for_a_first_name(privacy_engine, text, real):
    result = privacy_engine.sanitize(text, Conversation(seed=3))
    entity = next((e for e in result.entities if e.real == real), None)
    assert entity is not None, [(e.real, e.label) for e in result.entities]
    assert entity.label is Label.PERSON and entity.action is Action.REPLACE, (entity.label, entity.action, entity.reason)
