"""Person names written in Cyrillic (Russian, Ukrainian, Bulgarian, Macedonian).

The language model reads English; on Cyrillic text its guesses are noise: it took a
greeting for a person and missed the plainest "first name + surname". The other name
detectors read Latin letters only. So names in Cyrillic are found here from the shape of
the language (agent/knowledge/cyrillic_names.py): a first name the Cyrillic lists know, in
any of its case forms, next to a surname (listed, or with a surname's ending: -ов, -ин,
-ский, -енко, -чук...) in the same case and gender, or next to a patronymic (-ович, -овна),
in either order ("Петров Иван Сергеевич" is how forms and lists write it); initials
before or after a surname ("И. С. Петров"); a first name alone after what introduces or
addresses a person ("меня зовут", "Привет,", "моя сестра"); then the other case forms of
a name found once ("Анна" ... "Анне").

`not_a_name` tells the language model's guesses that are ordinary words ("Привет"), so
that they can be dropped: a Cyrillic word no list knows in any case form and that the
language's word lists (wordfreq) count as a common word.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agent.detect.base import DetectionContext
from agent.entities import Label, Span
from agent.knowledge.cyrillic_names import (
    CYRILLIC_LETTER,
    LOWER,
    UPPER,
    Reading,
    forms,
    is_listed_surname,
    read_first,
    read_patronymic,
    read_surname,
)

_WORD = re.compile(f"(?<![\\w'’ʼ])[{UPPER}][{LOWER}]+(?:['’ʼ][{LOWER}]+)?(?:-[{UPPER}][{LOWER}]+)?(?![\\w'’ʼ])")
_INITIALS = re.compile(f"(?<!\\w)[{UPPER}]\\.(?:[ \\t\\u00a0]?[{UPPER}]\\.)?")
_GAP = re.compile("[ \\t\\u00a0]+")
# What introduces, addresses or relates a person, right before a first name alone.
_RELATIONS = (
    "друг|друга|другом|другу|подруга|подруги|подругой|подруге|подругу|брат|брата|братом|брату|сестра|сестры|"
    "сестрой|сестре|сестру|муж|мужа|мужем|мужу|жена|жены|женой|жене|жену|сын|сына|сыном|сыну|дочь|дочери|дочерью|"
    "коллега|коллеги|коллегой|коллеге|коллегу|начальник|начальника|начальником|начальнице|начальница|сосед|соседа|"
    "соседка|соседки|соседкой|парень|парня|девушка|девушки|девушкой|мама|мамы|папа|папы|отец|отца|мать|матери|"
    "дядя|дяди|тётя|тетя|тёти|тети|бабушка|бабушки|дедушка|дедушки|племянник|племянница|клиент|клиента|клиентка|"
    "клиентки|ученик|ученица|учитель|учительница|преподаватель|руководитель|директор|менеджер|"
    "брата|сестри|чоловік|чоловіка|дружина|дружини|донька|доньки|син|сина|колега|колеги|сусід|сусідка|"
    "приятел|приятелка|съпруг|съпруга|дъщеря|колежка|шеф"
)
_CUE = re.compile(
    "(?i:(?:меня|его|её|ее|их|тебя|вас|мене|його|її|тебе)\\s+(?:зовут|звать|звали|звати|кличуть|звуть)|"
    "(?:казвам|казва|казваш)\\s+се|(?:по\\s+)?имени|на\\s+имя|(?:моё|мое|её|ее|его|моє|моето)\\s+(?:имя|ім'я|ім’я|име)\\s*(?:—|-|:)?|"
    "привет|здравствуй(?:те)?|добрый\\s+день|доброе\\s+утро|добрый\\s+вечер|привіт|вітаю|добрий\\s+день|"
    "здравей(?:те)?|здрасти|добър\\s+ден|дорог(?:ой|ая|ие|ий|а)|уважаем(?:ый|ая|ые|и|а)|шановн(?:ий|а|і)|"
    "скъп(?:и|а)|спасибо|дякую|благодаря|"
    f"(?:мо(?:й|я|ё|е|его|ей|ему|им|ю|ими|ят|ята|ите)|наш(?:а|е|его|ей|ему|им|у)?|мій|моя|мого|моєї|моєму|моїм|"
    f"наш(?:ого|ої)|твой|твоя|твоего|твоей)\\s+(?:[{LOWER}]+\\s+)?(?:{_RELATIONS}))"
    "[ \\t]*,?[ \\t\\u00a0]*$"
)
# After these any capitalised words are the name, listed or not ("меня зовут", a form's
# "ФИО:").
_INTRO = re.compile(
    "(?:(?i:меня|его|её|ее|тебя|вас|мене|його|її|тебе)\\s+(?i:зовут|звать|звали|звати|звуть|кличуть)|"
    "(?i:казвам|казва)\\s+се|(?i:моё|мое|моє|моето)\\s+(?i:имя|ім['’]я|име)(?:\\s*[—:-])?|"
    "(?:ФИО|Ф\\.\\s?И\\.\\s?О\\.|ПІБ|Имя|Ім['’]я|Име|Фамилия|Прізвище)[ \\t]*:)"
    f"[ \\t\\u00a0]*(?P<v>[{UPPER}][{LOWER}]+(?:-[{UPPER}][{LOWER}]+)?(?:[ \\t\\u00a0]+[{UPPER}][{LOWER}]+(?:-[{UPPER}][{LOWER}]+)?){{0,2}})(?![\\w'’ʼ])"
)
# A verb of speaking, writing or doing right after a first name alone.
_ACT_AFTER = re.compile(
    "^[ \\t]*,?[ \\t]*(?:сказал|сказала|говорит|говорил|говорила|спросил|спросила|ответил|ответила|написал|"
    "написала|пишет|попросил|попросила|просит|хочет|родился|родилась|живёт|живет|работает|учится|позвонил|"
    "позвонила|сказав|сказала|каже|написав|написала|просить|живе|працює|каза|попита|пише|живее|работи)(?![\\w])",
    re.IGNORECASE,
)
_SCORE_PAIR = 0.85
_SCORE_SHAPED = 0.8
_SCORE_CUE = 0.75


class CyrillicNameDetector:
    name = "cyrillic"
    labels = frozenset({Label.PERSON})

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        if not CYRILLIC_LETTER.search(text):
            return []  # Latin-only texts pay one search
        words = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]
        if not words:
            return []
        spans: list[Span] = []
        used: set[int] = set()
        i = 0
        while i < len(words):
            n = _name_at(text, words, i)
            if n:
                start, end = words[i][0], words[i + n - 1][1]
                spans.append(Span(start, end, Label.PERSON, text[start:end], _SCORE_PAIR, self.name))
                used.update(range(i, i + n))
                i += n
                continue
            i += 1
        spans += self._by_initials(text, words, used)
        spans += self._by_introduction(text, words, used)
        for k, (start, end, word) in enumerate(words):
            if k in used or not _first_readings(word):
                continue
            before = text[max(0, start - 60) : start]
            if _CUE.search(before) or _ACT_AFTER.match(text[end : end + 30]):
                spans.append(Span(start, end, Label.PERSON, word, _SCORE_CUE, self.name))
                used.add(k)
        return spans + self._other_forms(text, words, used, spans)

    def _by_introduction(self, text: str, words, used: set[int]) -> list[Span]:
        """The capitalised words after "меня зовут", "казвам се", "ФИО:": a name, listed or
        not (a third word only if it is a patronymic or a surname)."""
        out = []
        by_start = {w[0]: k for k, w in enumerate(words)}
        for m in _INTRO.finditer(text):
            first = by_start.get(m.start("v"))
            if first is None or first in used:
                continue
            parts = m.group("v").split()
            if len(parts) == 3 and not (read_patronymic(parts[2]) or read_surname(parts[2])):
                parts = parts[:2]
            if not read_first(parts[0]) and _common(parts[0], ("ru", "uk", "bg"), 5.0):
                continue  # an ordinary word after the cue ("меня зовут Просто ...")
            k = first + len(parts) - 1
            if k >= len(words):
                continue
            start, end = words[first][0], words[k][1]
            if _GAP.sub(" ", text[start:end]).count(" ") != len(parts) - 1:
                continue
            out.append(Span(start, end, Label.PERSON, text[start:end], _SCORE_SHAPED, self.name))
            used.update(range(first, k + 1))
        return out

    def _by_initials(self, text: str, words, used: set[int]) -> list[Span]:
        """"И. С. Петров", "Петров И.С.": initials next to a surname."""
        out = []
        by_start = {w[0]: k for k, w in enumerate(words)}
        by_end = {w[1]: k for k, w in enumerate(words)}
        for m in _INITIALS.finditer(text):
            gap = _GAP.match(text, m.end())
            after = by_start.get(gap.end() if gap else m.end())
            if after is not None and after not in used and _surname_ok(words[after][2]):
                start, end = m.start(), words[after][1]
                out.append(Span(start, end, Label.PERSON, text[start:end], _SCORE_SHAPED, self.name))
                used.add(after)
                continue
            before_text = text[: m.start()].rstrip(" \t\u00a0")
            before = by_end.get(len(before_text))
            if before is not None and before not in used and len(before_text) < m.start() and _surname_ok(words[before][2]):
                end = m.end() if text[m.end() - 1 : m.end()] == "." else m.end()
                start = words[before][0]
                out.append(Span(start, end, Label.PERSON, text[start:end], _SCORE_SHAPED, self.name))
                used.add(before)
        return out

    def _other_forms(self, text: str, words, used: set[int], found: list[Span]) -> list[Span]:
        """Other case forms of the parts of names found ("Анна Смирнова" ... "Анне")."""
        parts: set[str] = set()
        for span in found:
            for word in span.text.split():
                for reading in read_first(word) + read_surname(word):
                    parts.add(reading.nominative)
        if not parts:
            return []
        out = []
        for k, (start, end, word) in enumerate(words):
            if k in used:
                continue
            if any(r.nominative in parts for r in read_first(word) + read_surname(word)):
                out.append(Span(start, end, Label.PERSON, word, _SCORE_CUE, self.name))
        return out


def _adjacent(text: str, words, i: int) -> bool:
    """Whether word i+1 follows word i with only spaces between."""
    if i + 1 >= len(words):
        return False
    gap = text[words[i][1] : words[i + 1][0]]
    return bool(gap) and _GAP.fullmatch(gap) is not None


def _name_at(text: str, words, i: int) -> int:
    """How many words from i make a name (3, 2 or 0)."""
    if not _adjacent(text, words, i):
        return 0
    a, b = words[i][2], words[i + 1][2]
    c = words[i + 2][2] if _adjacent(text, words, i + 1) else None
    fa, fb = _first_readings(a), _first_readings(b)
    if fa:
        pb = read_patronymic(b)
        if pb and _agree(fa, pb, ("first", "middle")):
            if c and _agree(fa, _surname_readings(c)) and _agree(pb, _surname_readings(c), ("middle", "last")):
                return 3
            return 2
        if _agree(fa, _surname_readings(b)):
            return 2
        if _unknown_surname(b):
            return 2
    if fb:
        sa = _surname_readings(a)
        if sa and _agree(sa, fb, ("last", "first")) and not fa:
            if c and _agree(fb, read_patronymic(c), ("first", "middle")):
                return 3
            return 2
    return 0


def _first_readings(word: str) -> tuple[Reading, ...]:
    return read_first(word)


def _surname_readings(word: str) -> tuple[Reading, ...]:
    """Surname readings: a listed surname or one with a surname's ending. (Word
    frequencies cannot tell these from ordinary words: common surnames are written as
    often as common words; what stands next to them decides.)"""
    return read_surname(word)


def _surname_ok(word: str) -> bool:
    return bool(_surname_readings(word))


def _unknown_surname(word: str) -> bool:
    """A rare capitalised word after a first name: a surname no list has ("Гарсия")."""
    return len(word) >= 3 and not read_first(word) and max(_zipf(word.casefold(), lang) for lang in ("ru", "uk", "bg")) < 2.0


def _agree(left: tuple[Reading, ...], right: tuple[Reading, ...], roles: tuple[str, str] = ("first", "last")) -> bool:
    """Whether two words can be parts of one name: a shared case and no clash of gender (a
    part that has one form only, "Шевченко" or a Bulgarian name, fits any case)."""
    for x in left:
        for y in right:
            if x.gender != "any" and y.gender != "any" and x.gender != y.gender:
                continue
            if x.cases & y.cases or _invariable(x, roles[0]) or _invariable(y, roles[1]):
                return True
    return False


def _invariable(reading: Reading, role: str) -> bool:
    gender = reading.gender if reading.gender != "any" else "female"
    return reading.cases == {"nom"} and len(forms(reading.nominative, role, gender, reading.language)) == 1


@lru_cache(maxsize=8192)
def _zipf(word: str, language: str) -> float:
    from wordfreq import zipf_frequency

    return float(zipf_frequency(word, language))


def _common(word: str, languages: tuple[str, ...], threshold: float = 3.0) -> bool:
    low = word.casefold()
    return any(_zipf(low, lang) >= threshold for lang in languages)


def not_a_name(value: str) -> bool:
    """A Cyrillic guess of the language model that is made of ordinary words only: no
    word is a name in any case form, and every word is common in Russian, Ukrainian or
    Bulgarian ("Привет", "Спасибо большое")."""
    words = value.split()
    if not words or not all(CYRILLIC_LETTER.search(w) for w in words):
        return False
    for word in words:
        word = word.strip(".,;:!?\"'«»()")
        if not word:
            continue
        if read_first(word) or read_patronymic(word) or _surname_readings(word):
            return False
        if not _common(word, ("ru", "uk", "bg")):
            return False
    return True


_LOWER_WORD_AFTER = re.compile(f"[ \\t\\u00a0]+[{LOWER}]")
_FIRST_WORD = re.compile("\\S+[ \\t\\u00a0]+")


def name_bounds(value: str) -> tuple[int, int] | None:
    """The name inside a Cyrillic guess of the language model that takes in the words
    around it: ordinary words before it ("Скажи", "Дорогая", "Я") and lower-case words
    after it ("Смирнов В. П. по просьбе" ends after "П."). (start, end) offsets in `value`;
    None when nothing is to be cut."""
    if not CYRILLIC_LETTER.search(value):
        return None
    start, end = 0, len(value)
    cut = _LOWER_WORD_AFTER.search(value)
    if cut is not None and cut.start() > 0:
        end = len(value[: cut.start()].rstrip(" ,;:"))
    while True:
        lead = _FIRST_WORD.match(value, start)
        if lead is None or lead.end() >= end or not not_a_name(lead.group().strip()):
            break
        start = lead.end()
    return None if (start, end) == (0, len(value)) else (start, end)
