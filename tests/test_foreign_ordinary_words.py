"""In a prompt written in German, French, Spanish, Italian, Portuguese or Dutch, the
English NER model's "names" made of that language's ordinary words stay as written
("Ihre Rechnung Nr", "Gruß", "mon numéro", "Traduce al", "Groetjes"), while the real
names, addresses and numbers are swapped (agent/knowledge/languages.py,
agent/detect/registry.py). English prompts never read the other languages' lists.
Messages of our own."""

from __future__ import annotations

import pytest

from agent.entities import Action
from agent.knowledge.languages import ordinary_foreign_words, text_language
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, kept, swapped",
    [
        ("Bitte formuliere höflicher: Herr Brandstätter, Ihre Rechnung Nr. 2024-118 ist seit dem 3. März "
         "überfällig. Gruß, Lena Vogt", ("Ihre Rechnung Nr", "Gruß", "März"), ("Brandstätter", "Lena Vogt")),
        ("Corrige: Je m'appelle Aurélien Mabille, mon numéro est le 06 12 34 56 78 et j'habite à Lyon.",
         ("mon numéro", "Corrige"), ("Aurélien Mabille", "06 12 34 56 78")),
        ("Traduce al inglés: Hola, soy Mercedes Ibarra Quintana y mi DNI es 12345678Z.",
         ("Traduce al inglés",), ("Mercedes Ibarra Quintana", "12345678Z")),
        ("Vertaal naar het Engels: Beste Joost, de factuur is nog niet betaald. Groetjes, Anouk",
         ("Groetjes",), ("Joost", "Anouk")),
    ],
)
def test_ordinary_words_of_the_prompts_language_stay(privacy_engine, text, kept, swapped):
    result = privacy_engine.sanitize(text, Conversation("foreign-words", seed=15))
    for words in kept:
        assert words in result.sanitized, result.sanitized
    changed = {e.real for e in result.entities if e.action is not Action.KEEP}
    for value in swapped:
        assert value in changed and value not in result.sanitized, (value, changed)


def test_an_english_prompt_has_no_foreign_language():
    assert text_language("Please write to Orange about the invoice; my manager Will Total approved it.") is None
    assert not ordinary_foreign_words("We sell routers to Orange and Nokia in Europe.", "Orange")


def test_names_the_lists_know_are_never_ordinary_words():
    text = "Bitte schreibe an Frau Lena Vogt wegen der Rechnung, danke und viele Grüße"
    assert text_language(text) == "de"
    assert not ordinary_foreign_words(text, "Lena Vogt")
