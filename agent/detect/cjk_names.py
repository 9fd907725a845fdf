"""Names in and beside Chinese, Japanese and Korean text.

Korean glues particles to the word before them, Japanese glues honorifics, and Chinese
writes no spaces: a Latin name there touches letters of another script ("<name>은",
"<name>さん", "给<name>，"). spaCy's tokenizer reads such a run as one token, so what a
detector finds runs on into the particle, or into the whole clause. The change of script
is where the name ends: trim_at_script_change cuts a span there, and the restorer treats
the same place as a word boundary, so the stand-in glued to the particle comes back.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from agent.detect.base import DetectionContext
from agent.detect.memory import MentionFinder
from agent.entities import Label, Span
from agent.knowledge.scripts import (
    CJK,
    CJK_LETTER,
    HAN,
    HANGUL,
    KATAKANA,
    KOREAN_PARTICLES,
    cjk_script,
)
from agent.session.conversation import MapEntry

# Labels whose values are names of things (not numbers or dates written in a CJK way).
_NAME_LABELS = frozenset({Label.PERSON, Label.ORG, Label.LOCATION, Label.NORP, Label.MISC})
_HAS_HANGUL = re.compile(f"[{HANGUL}]")
_HAS_HAN = re.compile(f"[{HAN}]")
_HAS_KATAKANA = re.compile(f"[{KATAKANA}]")
_HAS_DIGIT = re.compile(r"\d{4}")
# A Latin letter or digit followed by a CJK letter: the Latin run ends there.
_LATIN_THEN_CJK = re.compile(f"(?<=[A-Za-zÀ-ÖØ-öø-ɏ0-9])(?=[{CJK}])")
# CJK words before a capitalised Latin word ("给Ingrid", "후에 Ingrid").
_CJK_BEFORE_LATIN_NAME = re.compile(f"^(?:[{CJK}]+[ \t]*)+(?=[A-ZÀ-ÖØ-Þ])")


def trim_at_script_change(span: Span) -> Span:
    """The span cut to its Latin name where it runs into CJK letters: "Velmora은" ->
    "Velmora", "Ines Varga先生は来週" -> "Ines Varga", "给Ingrid" -> "Ingrid", "후에
    Ingrid에게" -> "Ingrid". A span in one script, or of another label, is returned as it is."""
    if span.label not in _NAME_LABELS or not CJK_LETTER.search(span.text):
        return span
    text, start = span.text, span.start
    lead = _CJK_BEFORE_LATIN_NAME.match(text)
    if lead:
        text, start = text[lead.end():], start + lead.end()
    if not CJK_LETTER.match(text):
        cut = _LATIN_THEN_CJK.search(text)
        if cut:
            text = text[: cut.start()].rstrip()
    if text == span.text or not any(c.isalpha() for c in text):
        return span
    return replace(span, start=start, end=start + len(text), text=text)


# -- person names written in Hangul, Han characters or Katakana --------------------------------
#
# Names in these scripts are found only beside a word that says a person is meant: a role
# or an honorific after the name ("<name> 교수님", "<name>さん", "<name>老师") or a role
# word before it ("기자 <name>"). The surnames come from Faker's Korean, Japanese and Chinese
# person providers; a candidate that the language's word list knows as a common word
# ("한국인 교수": "한" is a surname, "한국인" a word) is no name.

# Role words and honorifics, per language (grammar of address, not names).
_KO_AFTER = ("님", "씨", "교수", "기자", "대표", "작가", "선생", "박사", "변호사", "의원", "회장", "사장", "부장", "과장",
             "차장", "팀장", "대리", "원장", "감독", "위원장", "연구원", "실장", "본부장", "총장", "선수", "소장", "고객님")
_KO_BEFORE = ("대표", "기자", "작가", "교수", "감독", "위원장", "회장", "사장", "연구원", "저자", "담당자", "작성자", "대표이사")
_JA_AFTER = ("さん", "さま", "様", "先生", "氏", "くん", "君", "ちゃん", "教授", "社長", "部長", "課長", "選手", "監督", "記者")
_ZH_AFTER = ("先生", "女士", "小姐", "老师", "老師", "教授", "经理", "經理", "总监", "主任", "医生", "醫生", "律师", "律師",
             "同学", "同學", "博士")
_ZH_BEFORE = ("记者", "記者", "作者", "联系人", "聯繫人", "负责人", "負責人")
# Fields and credits whose value is a person, with a colon after the label ("이름: ",
# "성명: ", "글: ", "보낸 사람: "): the label alone may be an ordinary word ("글" is writing).
_KO_FIELDS = ("이름", "성명", "성함", "글", "글쓴이", "필자", "작성", "발신", "발신인", "수신", "수신인", "보낸 사람",
              "보낸사람", "받는 사람", "받는사람", "보호자", "신청인", "신청자", "문의", "사진", "편집", "발표자")
# Closings of a Korean letter after the writer's name ("<name> 드림", "<name> 올림", "<name> 배상").
_KO_CLOSINGS = ("드림", "올림", "배상")
# A byline: a date and the author, either way round, with a separator between ("2024-05-02 |
# <name>", "<name> · 2024.05.02").
_DATE = r"(?:\d{4}[-./][ \t]?\d{1,2}[-./][ \t]?\d{1,2}\.?|\d{4}년[ \t]?\d{1,2}월[ \t]?\d{1,2}일)"
_BYLINE_SEPARATOR = r"[ \t]*[|｜·•/–—][ \t]*"
# A word of the language this common is no name (names of 3 syllables are rare words).
_COMMON_ZIPF = 3.0
# Korean adjectives and nouns before a role word end in an adnominal, a suffix or a
# particle syllable that given names rarely end in ("정확한", "조용한", "전문적", "선수들").
_KO_NOT_NAME_ENDINGS = frozenset("한된던할될운적들에로게면며다요를을의와과")
# ...or they are a very common two-syllable word with a particle that names do end in
# ("지금은", "우리가": "다은", "지가" are given names too, "지금", "우리" words first).
_KO_NAME_LIKE_PARTICLES = frozenset("은는이가도만")
_KO_VERY_COMMON_ZIPF = 5.0
# A given name is rarely a word this common ("유진", "지성" are names and words at ~4.1).
_KO_WORD_AFTER_SURNAME_ZIPF = 4.5


def _alternation(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


class _NameLists:
    """Surnames and given names of Faker's ko_KR, ja_JP, zh_CN and zh_TW person providers,
    and the word frequencies wordfreq has for those languages (built on first use)."""

    def __init__(self) -> None:
        from faker.providers.person import ja_JP, ko_KR, zh_CN, zh_TW

        self.ko_surnames = frozenset(ko_KR.Provider.last_names)
        self.ko_given = frozenset(ko_KR.Provider.first_names)
        self.ko_given_syllables = frozenset("".join(self.ko_given))
        self.ja_surnames = frozenset(ja_JP.Provider.last_names)
        self.ja_given = frozenset(ja_JP.Provider.first_names)
        self.zh_surnames: dict[str, float] = {}
        for provider in (zh_CN.Provider, zh_TW.Provider):
            for name, weight in dict(provider.last_names).items():
                self.zh_surnames[name] = max(self.zh_surnames.get(name, 0.0), float(weight))
        self.zh_given = frozenset(zh_CN.Provider.first_names) | frozenset(zh_TW.Provider.first_names)
        self._freq: dict[str, dict[str, float]] = {}  # per language, loaded when first asked
        ko = _alternation(self.ko_surnames)
        hangul_name = f"(?:{ko})[가-힣]{{2}}"
        self.ko_after = re.compile(f"(?<![가-힣])(?P<v>{hangul_name})[ \\t]?(?:{_alternation(_KO_AFTER)})")
        self.ko_before = re.compile(
            f"(?<![가-힣])(?:{_alternation(_KO_BEFORE)})[ \\t]*[:：]?[ \\t]*(?P<v>{hangul_name})"
            f"(?:{_alternation(KOREAN_PARTICLES)})?(?![가-힣])"
        )
        self.ko_field = re.compile(
            f"(?<![가-힣])(?:{_alternation(_KO_FIELDS)})[ \\t]*[:：][ \\t]*(?P<v>{hangul_name})"
            f"(?:{_alternation(KOREAN_PARTICLES)})?(?![가-힣])"
        )
        self.ko_closing = re.compile(f"(?<![가-힣])(?P<v>{hangul_name})[ \\t]*(?:{_alternation(_KO_CLOSINGS)})(?![가-힣])")
        self.ko_byline = re.compile(
            f"{_DATE}{_BYLINE_SEPARATOR}(?P<v>{hangul_name})(?![가-힣])|(?<![가-힣])(?P<w>{hangul_name}){_BYLINE_SEPARATOR}{_DATE}"
        )
        roles = _alternation(_JA_AFTER)
        self.ja_after = re.compile(
            f"(?<![{HAN}])(?P<v>(?:{_alternation(self.ja_surnames)})(?:[ \\t\u3000]?(?:{_alternation(self.ja_given)}"
            f"|(?!{roles})[{HAN}]{{1,2}}))?)(?:{roles})"
        )
        # Names written in Katakana (as on forms, or a child's name): the readings Faker's
        # ja_JP provider lists, a family name with or without the given name, or a given name.
        last_kana = _alternation(ja_JP.Provider.last_kana_names)
        first_kana = _alternation(ja_JP.Provider.first_kana_names)
        self.kana_after = re.compile(
            f"(?<![{KATAKANA}])(?P<v>(?:{last_kana})(?:[ \t\u3000・]?(?:{first_kana}))?|(?:{first_kana}))(?:{roles})"
        )
        self.zh_after = re.compile(f"(?:{_alternation(_ZH_AFTER)})")
        self.zh_before = re.compile(
            f"(?:{_alternation(_ZH_BEFORE)})[ \\t]*[:：]?[ \\t]*(?P<v>[{HAN}]{{2,4}})(?![{HAN}])"
        )

    def common(self, word: str, lang: str, zipf: float = _COMMON_ZIPF) -> bool:
        from wordfreq import freq_to_zipf

        if lang not in self._freq:
            from wordfreq import get_frequency_dict

            self._freq[lang] = get_frequency_dict(lang)
        freq = self._freq[lang].get(word)
        return bool(freq) and freq_to_zipf(freq) >= zipf

    def given_name_syllables(self, given: str) -> bool:
        """Whether every syllable of `given` is one Faker's Korean given names use."""
        return all(c in self.ko_given_syllables for c in given)

    def korean_name(self, word: str) -> bool:
        """Whether a three-syllable word that starts with a surname reads as a name."""
        if word[-1] in _KO_NOT_NAME_ENDINGS or self.common(word, "ko"):
            return False
        return not (word[-1] in _KO_NAME_LIKE_PARTICLES and self.common(word[:-1], "ko", _KO_VERY_COMMON_ZIPF))

    def zh_name_before(self, text: str, end: int) -> tuple[int, int] | None:
        """The Chinese name that ends at `end` (a surname and a one- or two-character given
        name): where both readings are possible, the one starting at a word start, then
        the one whose given name Faker lists, then the more frequent surname."""
        best, best_key = None, None
        for length in (4, 3, 2):
            start = end - length
            if start < 0 or not all(_is_han(c) for c in text[start:end]):
                continue
            candidate = text[start:end]
            for cut in (1, 2):
                surname, given = candidate[:cut], candidate[cut:]
                if surname not in self.zh_surnames or not 1 <= len(given) <= 2:
                    continue
                if self.common(candidate, "zh") or self.common(given + text[end:end + 1], "zh"):
                    continue
                key = (start == 0 or not _is_han(text[start - 1]), given in self.zh_given, self.zh_surnames[surname])
                if best_key is None or key > best_key:
                    best, best_key = (start, end), key
        return best


def _is_han(char: str) -> bool:
    return cjk_script(char) == "HAN"


_lists: _NameLists | None = None


def _name_lists() -> _NameLists:
    global _lists
    if _lists is None:
        _lists = _NameLists()
    return _lists


class CjkNameDetector:
    """Person names in Hangul, Han characters or Katakana beside a role word or an
    honorific (see the lists above)."""

    name = "cjk_names"
    labels = frozenset({Label.PERSON})

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        if not CJK_LETTER.search(text):
            return []
        lists = _name_lists()
        spans: list[Span] = []
        if _HAS_HANGUL.search(text):
            for regex in (lists.ko_after, lists.ko_before, lists.ko_field):
                for m in regex.finditer(text):
                    if lists.korean_name(m.group("v")):
                        spans.append(self._span(m.start("v"), m.end("v"), text))
            # Where nothing but the place says "a person" (a byline, a closing), the two
            # syllables after the surname must be syllables given names are made of, and
            # not a common word ("신제품" is a new product, "신입생" a freshman).
            bylines = lists.ko_byline.finditer(text) if _HAS_DIGIT.search(text) else ()
            for m in itertools.chain(lists.ko_closing.finditer(text), bylines):
                group = "v" if m.group("v") else "w"
                word = m.group(group)
                if (lists.korean_name(word) and lists.given_name_syllables(word[1:])
                        and not lists.common(word[1:], "ko", _KO_WORD_AFTER_SURNAME_ZIPF)):
                    spans.append(self._span(m.start(group), m.end(group), text))
        if _HAS_KATAKANA.search(text):
            for m in lists.kana_after.finditer(text):
                spans.append(self._span(m.start("v"), m.end("v"), text))
        if _HAS_HAN.search(text):
            for m in lists.ja_after.finditer(text):
                spans.append(self._span(m.start("v"), m.end("v"), text))
            for m in lists.zh_after.finditer(text):
                found = lists.zh_name_before(text, m.start())
                if found:
                    spans.append(self._span(*found, text))
            for m in lists.zh_before.finditer(text):
                found = lists.zh_name_before(text, m.end("v"))
                if found and found[0] == m.start("v"):
                    spans.append(self._span(*found, text))
        if spans:
            # A name found beside its role word is the same name where the text says it
            # again without one ("<name>에게", "<name>に"); the registry's repeated mentions
            # leave scripts without letter case to the detectors that know them.
            names = {s.text: MapEntry(real=s.text, stand_in=s.text, label=Label.PERSON) for s in spans}
            seen = {(s.start, s.end) for s in spans}
            spans += [s for s in MentionFinder(list(names.values()), detector=self.name, full_score=0.75).find(text)
                      if (s.start, s.end) not in seen]
        return spans

    def _span(self, start: int, end: int, text: str) -> Span:
        return Span(start, end, Label.PERSON, text[start:end], 0.8, self.name)


_NO_LATIN = re.compile(r"^[^A-Za-zÀ-ÖØ-öø-ɏ0-9]*$")


def cjk_names_first(spans: list[Span]) -> list[Span]:
    """The English language model reads a run of CJK text as one word and tags whole
    clauses ("<name>이 썼습니다", "<verb> <adverb>" as a person): a guess of it written
    only in CJK letters is dropped, and one that overlaps a name found by its role word
    loses to that name."""
    found = [s for s in spans if s.detector == CjkNameDetector.name]
    return [
        s for s in spans
        if s.detector != "spacy"
        or not ((CJK_LETTER.search(s.text) and _NO_LATIN.match(s.text))
                or any(f.start < s.end and s.start < f.end for f in found))
    ]
