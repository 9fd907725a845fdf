"""Conversation memory finds known values without compiling them into one regular
expression (agent/detect/memory.py MentionFinder): it must find exactly what that
expression found (any letter case as `re.IGNORECASE` compares it, any whitespace run
between words, not inside a word, longest first, no overlaps), take new map entries in
without starting over, and cost the same per text whatever the size of the map."""

from __future__ import annotations

import random
import re
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.detect.base import DetectionContext
from agent.detect.memory import ConversationMemoryDetector, MentionFinder
from agent.entities import Action, Label
from agent.knowledge.scripts import CJK, HAN, HANGUL, HIRAGANA, KOREAN_PARTICLES
from agent.session.conversation import Conversation, MapEntry, fold

# Letters whose case folding differs from what a case-insensitive expression compares
# ('ß' folds to 'ss', 'ı'/'i', 'ſ'/'s', Kelvin 'K', 'µ'/'μ', 'ι' and its combining form),
# word characters, separators and whitespace of several kinds.
ALPHABET = "abAB sS ßẞ ıiIİ ſ Kk µμΜ ιΙͅι ǅǆǄ 09_ .@-'+() \t\n\xa0\u2003"
# ...and letters of Korean, Japanese and Chinese, where a Latin word glued to them ends.
# A Korean word also ends before a particle glued to it, a Japanese one where kanji meet kana.
CJK_ALPHABET = ALPHABET + "은는에게님이다さん先生"
_X, _C = f"[^\\W{CJK}]", f"[{CJK}]"
_PARTICLES = "|".join(sorted(KOREAN_PARTICLES, key=len, reverse=True))
_WORD_START = f"(?:(?<!\\w)|(?<={_C})(?={_X})|(?<={_X})(?={_C}))"
_WORD_END = (f"(?:(?!\\w)|(?<={_C})(?={_X})|(?<={_X})(?={_C})"
             f"|(?<=[{HANGUL}])(?=(?:님|씨)?(?:{_PARTICLES})(?![{HANGUL}]))|(?<=[{HAN}])(?=[{HIRAGANA}]))")


def reference(entries: list[MapEntry], text: str) -> list[tuple[int, int, str]]:
    """What the memory found before: one expression of every value, longest first."""
    finder = MentionFinder(entries)
    surfaces = sorted(finder.needles, key=len, reverse=True)
    if not surfaces:
        return []
    flexible = [r"\s+".join(re.escape(part) for part in s.split(" ")) for s in surfaces]
    regex = re.compile(rf"{_WORD_START}(?:{'|'.join(flexible)}){_WORD_END}", re.IGNORECASE)
    out = []
    for match in regex.finditer(text):
        needle = finder.needles.get(fold(match.group()))
        if needle is not None and not (needle.case_sensitive_initial and not match.group()[0].isupper()):
            out.append((match.start(), match.end(), needle.canonical))
    return out


def found(entries: list[MapEntry], text: str) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, s.canonical) for s in MentionFinder(entries).find(text) if s.label is not Label.PHONE]


def entries_from(values: list[str]) -> list[MapEntry]:
    labels = (Label.PERSON, Label.ORG, Label.EMAIL)
    return [MapEntry(v, f"stand-in {i}", labels[i % 3]) for i, v in enumerate(values) if v.strip()]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_finds_what_one_expression_of_all_values_found(data):
    text = data.draw(st.text(data.draw(st.sampled_from([ALPHABET, CJK_ALPHABET])), max_size=60))
    # Values cut from the text (so that they occur, in other cases and spacing too) and
    # values of their own.
    cuts = data.draw(st.lists(st.tuples(st.integers(0, 60), st.integers(1, 12)), max_size=6))
    values = [text[a : a + n] for a, n in cuts] + data.draw(st.lists(st.text(CJK_ALPHABET, min_size=1, max_size=8), max_size=4))
    values += [v.upper() for v in values[:2]] + [" ".join(v.split()) + " x" for v in values[:1]]
    entries = entries_from(values)
    assert found(entries, text) == reference(entries, text)


def test_names_and_mentions_in_prose():
    entries = [MapEntry("Sarah Mitchell", "Emma Clarke", Label.PERSON), MapEntry("Globex Ltd.", "Initech", Label.ORG),
               MapEntry("anna.berg@example.org", "x@y.org", Label.EMAIL), MapEntry("Dr. Ivan Petrov", "Dr. A B", Label.PERSON),
               MapEntry("Kept Name", "Kept Name", Label.PERSON, Action.KEEP)]
    text = ("SARAH  MITCHELL wrote to Ms. Mitchell's team at globex ltd. (anna.berg@example.org.uk and "
            "Anna.Berg@Example.org); mitchell, Sarahs, Petrov's note, Ivan\tPetrov, Kept Name, sarah mitchellx.")
    assert found(entries, text) == reference(entries, text)
    assert [text[a:b] for a, b, _ in found(entries, text)] == [
        "SARAH  MITCHELL", "Mitchell", "globex ltd.", "anna.berg@example.org", "Anna.Berg@Example.org", "Petrov",
        "Ivan", "Petrov"]


def test_random_letters_match_the_expression():
    rng = random.Random(7)
    words = ["Orla", "Brennigan", "orla.17@harbourmail.net", "+1 415 555 1017", "O'Connell", "Ines", "van der Berg",
             "Dmitri", "Olenikov", "ACME-Corp", "a.b_c", "Jean-Luc"]
    for _ in range(200):
        values = [" ".join(rng.sample(words, rng.randint(1, 3))) for _ in range(rng.randint(1, 8))]
        text = "".join(rng.choice([w, w.upper(), w.lower()]) + rng.choice([" ", "  ", ", ", "\n", ".", "'s ", "x "])
                       for w in rng.choices(words, k=30))
        entries = entries_from(values)
        assert found(entries, text) == reference(entries, text)


def test_new_entries_are_taken_in_without_starting_over():
    detector = ConversationMemoryDetector()
    conversation = Conversation()
    conversation.add_entry(MapEntry("Orla Brennigan", "Maud Fenwick", Label.PERSON))
    context = DetectionContext(conversation=conversation)
    text = "Orla Brennigan met Tomasz Wielgosz; Brennigan paid."
    assert [s.text for s in detector.detect(text, context)] == ["Orla Brennigan", "Brennigan"]
    finder = detector._finders.get(conversation)
    conversation.add_entry(MapEntry("Tomasz Wielgosz", "Piet Varga", Label.PERSON))
    assert detector._finders.get(conversation) is finder  # the same finder, one entry more
    assert [s.text for s in detector.detect(text, context)] == ["Orla Brennigan", "Tomasz Wielgosz", "Brennigan"]
    # Entries dropped (a map conflict): built again, without them.
    conversation.forget([conversation.entries[0]])
    assert [s.text for s in detector.detect(text, context)] == ["Tomasz Wielgosz"]


def test_the_time_per_text_does_not_grow_with_the_map():
    detector = ConversationMemoryDetector()
    conversation = Conversation()
    text = "Dear Orla, the shipment for harbour 12 leaves on Monday. Kind regards, the depot.\n\n" * 250

    def per_text(n: int) -> float:
        for i in range(len(conversation.entries), n):
            conversation.add_entry(MapEntry(f"Person{i} Surname{i}", f"Stand{i} In{i}", Label.PERSON))
            conversation.add_entry(MapEntry(f"user{i}@mail{i}.example", f"s{i}@x.example", Label.EMAIL))
            if i % 100 == 0:
                detector.detect(text, DetectionContext(conversation=conversation))
        began = time.perf_counter()
        for _ in range(3):
            detector.detect(text, DetectionContext(conversation=conversation))
        return time.perf_counter() - began

    small, big = per_text(200), per_text(6000)
    assert big < 3 * small + 0.05, (small, big)


def test_names_glued_to_korean_particles_and_japanese_kana():
    entries = [MapEntry("한지성", "우성진", Label.PERSON), MapEntry("山本健太", "前田涼平", Label.PERSON),
               MapEntry("Velmora", "Tarsk", Label.ORG)]
    text = "한지성에게 묻고, 한지성님이 답했다. 山本健太さんと Velmora은 한지성훈과 다르다."
    assert found(entries, text) == reference(entries, text)
    assert [text[a:b] for a, b, _ in found(entries, text)] == ["한지성", "한지성", "山本健太", "Velmora"]
