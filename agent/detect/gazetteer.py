"""Organisation names NER misses: well-known ones from the public-entity gazetteer
("our LinkedIn page", "selling on Etsy"), and brand-shaped words (CamelCase such as
"BrightDesk", short all-caps acronyms such as "OBS") that are rarely ordinary words.

Finding a well-known organisation does not mean swapping it: relevance decides (kept
when the prompt is about it, swapped when it is the user's employer or client).
"""

from __future__ import annotations

import json
import re
import string
from functools import lru_cache

from agent import paths
from agent.detect.base import DetectionContext
from agent.detect.trie_regex import trie_alternation
from agent.entities import Label, Span
from agent.knowledge.acronyms import everyday_acronym
from agent.knowledge.currencies import currency_of_an_amount
from agent.knowledge.geonames import geo_index, is_region_of, is_town_of_5000
from agent.knowledge.names import lexicon
from agent.knowledge.not_names import NOT_ENTITIES
from agent.knowledge.org_words import (
    AMBIGUOUS_LEGAL_FORMS,
    COMPANY_SUFFIX_WORDS,
    GENERIC_ORG_WORDS,
    INDUSTRY_WORDS,
    LEGAL_FORMS,
    legal_form_alternation,
)
from agent.knowledge.places import (
    PLACE_PREPOSITIONS,
    is_known_place,
    is_sizeable_town,
    is_unnamed_town,
    places,
)
from agent.knowledge.words import is_common_word


@lru_cache(maxsize=1)
def _known_orgs() -> re.Pattern[str] | None:
    try:
        with open(paths.resource("public_entities.json"), encoding="utf-8") as f:
            names = json.load(f).get("organisations", [])
    except FileNotFoundError:
        return None
    # Case-sensitive: "Apple" the company, not "apple" the fruit. Short all-caps names
    # (UN, EU) are left to NER and the acronym rule.
    names = [n for n in names if len(n) >= 4 and not n.isupper() and n.casefold() not in NOT_ENTITIES]
    if not names:
        return None
    # As a trie: the same matches as the names longest first, without trying each name at
    # every position (agent/detect/trie_regex.py).
    return re.compile(rf"(?<![\w@./]){trie_alternation(names)}(?![\w@/])")


# Korean, Japanese and Chinese legal forms written before or after the name:
# "(주)한빛소프트", "주식회사 한빛", "株式会社山田製作所", "深圳星河科技有限公司".
_HANGUL_NAME = r"[가-힣A-Za-z0-9&]{1,20}"
_KANJI_NAME = r"[ァ-ヶー一-龥A-Za-z0-9&]{1,20}"  # no kana: "の" and "は" end a Japanese name
_CJK_LEGAL_NAME = re.compile(
    rf"(?:\(주\)|주식회사)[ \t]?{_HANGUL_NAME}|{_HANGUL_NAME}[ \t]?(?:\(주\)|주식회사)(?![가-힣])"
    rf"|株式会社{_KANJI_NAME}|{_KANJI_NAME}(?:株式会社|有限公司|有限责任公司|股份有限公司)"
)
# PascalCase with an inner capital ("BrightDesk", "PayLoop"); camelCase is code.
# "Globex LLC", "Brightwave Ltd", "Acme Holdings GmbH", "Quenby & Aldous LLP": capitalised
# words (an "&" between them) + a legal form.
_LEGAL_NAME = re.compile(
    rf"\b[A-Z][\w&'’\-]*\s+(?:(?:[A-Z][\w&'’\-]*|&)\s+){{0,3}}"
    rf"(?:{legal_form_alternation(f for f in LEGAL_FORMS if f not in AMBIGUOUS_LEGAL_FORMS)})\b\.?"
)
# Words that open a sentence before a company's name without being part of it: articles,
# prepositions, and the verbs of a request ("Contact Acme GmbH", "Invoice Globex Ltd").
_NOT_A_NAME_WORD = frozenset({
    "The", "A", "An", "At", "For", "From", "With", "Our", "My", "Dear", "To", "By", "Contact", "Email", "E-mail",
    "Call", "Ask", "Tell", "Invoice", "Pay", "Thank", "Thanks", "Message", "Write", "Sue", "Hire", "Visit", "Join",
    "Cc", "Bcc", "Re", "Fwd", "Attn",
})
_CAMEL = re.compile(r"(?<![\w@./\\-])[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+[A-Z]*(?![\w@./\\-])")
# "Bright Smile Dental", "Rapid Flow Plumbing": up to three capitalised words, a trade,
# and the generic words or legal form after it ("Golden Crust Bakery Ltd").
_TRADE_WORD = re.compile(r"(?<![\w@./\\-])[A-Z][\wé]+(?![\w@/\\-])")
_WORDS_BEFORE_TRADE = re.compile(r"(?<![\w@./\\-])(?:[A-Z][\w&'’.\-]*[ \t]+){1,3}$")
_WORD_AFTER_TRADE = re.compile(r"[ \t]+([A-Z][\w.]*)")
# Words before a business name that are not part of it.
_NOT_IN_TRADE_NAME = frozenset({
    "the", "a", "an", "at", "for", "from", "with", "our", "my", "your", "dear", "to", "in", "on", "by", "and",
    "call", "ask", "email", "contact", "visit", "try", "book", "hire", "thank", "thanks", "tell", "phone", "text",
})
_CODE = re.compile(r"[{};=]|\(\)|=>|->|::")
# All-caps words of the trade that are never an organisation ("the MAC is ...").
_TECH_ACRONYMS = frozenset({"MAC", "SSH", "NAS", "RAID", "BIOS", "UEFI", "LDAP", "SAML", "SMB", "NFS", "ACL", "CSV", "ETL", "KYC", "AML"})
_ACRONYM = re.compile(r"(?<![\w@./\\-])[A-Z]{3,5}(?![\w@./\\-])")
_ORG_KINDS = (
    r"company|firm|startup|start-up|agency|brand|business|bank|studio|restaurant|caf[eé]|store|shop|platform|"
    r"consultancy|manufacturer|retailer|provider|supplier|vendor|non-?profit|charity|corporation|enterprise|"
    r"chain|franchise|label|publisher|school|clinic|practice|foundation|association|institute"
)
# "ledgerly, an accounting startup", "Acme Robotics, an industrial automation firm".
_ORG_APPOSITION = re.compile(
    rf"(?<![\w.@&'’\-])(?P<v>(?:[A-Z][\w&'’\-]*\s+){{0,2}}[\w&'’\-]+),\s+(?:a|an)\s+"
    rf"(?:[\w\-]+\s+){{0,3}}?(?:{_ORG_KINDS})"
    # the kind ends the phrase ("Sarah, a bank teller" is a person)
    r"(?=\s*(?:[,.;:!?)\n]|$)|\s+(?:in|from|based|that|which|with|at|on|for|called|named|and|who|where)\b)"
)
# "Northern Lights Bakery (NLB)": a name defined with its initials.
_DEFINED_ACRONYM = re.compile(r"\((?P<a>[A-Z]{2,6})\)")
_ORG_WORD_AFTER = re.compile(rf"(?i)\s+(?:{_ORG_KINDS}|group|inc|ltd|llc)\.?$")
_ACRONYM_FILLERS = frozenset({"of", "and", "for", "the", "&", "de", "in", "on"})


class PlaceDetector:
    """Countries, US states and well-known cities and regions from the place gazetteer,
    also in lower case for countries ("we moved to norway")."""

    name = "places"
    labels = frozenset({Label.LOCATION})

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        sensitive, insensitive = _place_patterns()
        spans = [Span(m.start(), m.end(), Label.LOCATION, m.group(), 0.6, self.name) for m in sensitive.finditer(text)]
        spans += [
            Span(m.start(), m.end(), Label.LOCATION, m.group(), 0.55, self.name)
            for m in insensitive.finditer(text)
            if not m.group()[0].isupper()
        ]
        listed = [(s.start, s.end) for s in spans]
        spans += [s for s in _towns_after_prepositions(text) if not any(a < s.end and s.start < b for a, b in listed)]
        spans += _towns_before_their_region(text) + _towns_after_residence(text)
        return spans


# "works in Boise", "moved near Tacoma": the list above holds each country's biggest 40
# towns (the stand-in pools); after a place preposition any GeoNames city of 100,000
# people or more is one, unless its name is also a word or a first name.
_AFTER_PLACE_PREPOSITION = re.compile(
    rf"\b(?:{'|'.join(PLACE_PREPOSITIONS)})[ \t]+([A-Z][a-z][\w'’\-]*(?:[ \t][A-Z][a-z][\w'’\-]*)?)"
)


# The same in a text typed in lower case ("nurse in glasgow", "from leeds"): the town's
# name must be no everyday word in any case ("in reading", "to nice" stay words).
_AFTER_PLACE_PREPOSITION_LOWER = re.compile(
    rf"\b(?:{'|'.join(PLACE_PREPOSITIONS)})[ \t]+([a-z][a-z'’\-]{{2,}}(?:[ \t][a-z][a-z'’\-]{{2,}})?)(?![\w'’\-])"
)


def _sizeable_town(town: str) -> bool:
    return is_sizeable_town(town) and town.casefold() not in NOT_ENTITIES and not _ordinary_word(town)


# "I am in Ørsta for a week", "a flat near Ørsta": after "in" or "near" (not "to" or
# "from", which people are also written after) a GeoNames town of 5,000 people or more,
# when its name is no everyday word and no listed name.
_IN_OR_NEAR = re.compile(r"\b(?:in|near|outside)[ \t]+([A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ][\w'’\-]*)(?![\w'’\-]|[ \t][A-Z])")
# A town in capitals ("based in STAVANGER", "we are in ØRSTA"), as forms and signatures
# write it, after any place preposition: the lists' names folded to title case.
_AFTER_PLACE_PREPOSITION_CAPITALS = re.compile(
    rf"\b(?:{'|'.join(PLACE_PREPOSITIONS)})[ \t]+([A-ZÀ-ÖØ-Þ][A-ZÀ-ÖØ-Þ'’\-]{{2,}}(?:[ \t][A-ZÀ-ÖØ-Þ][A-ZÀ-ÖØ-Þ'’\-]{{2,}})?)(?![\w'’\-])"
)


def _small_town(town: str) -> bool:
    return town.casefold() not in NOT_ENTITIES and is_unnamed_town(town)


def _town_in_capitals(town: str) -> bool:
    if town.casefold() in NOT_ENTITIES or any(is_common_word(word) for word in town.split()):
        return False  # "in GENERAL", "to USA" (an acronym written often)
    title = string.capwords(town)
    return is_known_place(title) or _sizeable_town(title) or _small_town(title)


def _towns_after_prepositions(text: str) -> list[Span]:
    found = _towns_after(_AFTER_PLACE_PREPOSITION, text, 0.55, _sizeable_town)
    found += _towns_after(_IN_OR_NEAR, text, 0.5, _small_town)
    if not text.isupper():  # a text all in capitals is shouting, its words are no names
        found += _towns_after(_AFTER_PLACE_PREPOSITION_CAPITALS, text, 0.55, _town_in_capitals)
    found += _towns_after(_AFTER_PLACE_PREPOSITION_LOWER, text, 0.55, lambda town: (
        not any(is_common_word(word) for word in town.split()) and _sizeable_town(string.capwords(town))))
    return found


def _towns_after(cue: re.Pattern[str], text: str, score: float, is_town) -> list[Span]:
    """The town right after each match of a cue: its one or two capitalised words, or the
    first of them."""
    out = []
    for m in cue.finditer(text):
        words = m.group(1)
        for candidate in (words, words.split()[0]) if " " in words else (words,):
            if is_town(candidate):
                out.append(Span(m.start(1), m.start(1) + len(candidate), Label.LOCATION, candidate, score, PlaceDetector.name))
                break
    return out


# "My mum lives in Moab", "we moved to Chelsea": after a verb of living somewhere, any
# GeoNames town of 5,000 people or more is that town, even one whose name is a first name
# too; scored over NER's person (0.85): the verb says where, not who.
_AFTER_RESIDENCE = re.compile(
    r"\b(?:(?:lives?|living|lived|grew\s+up|born|based|settled|raised)\s+(?:in|near)|"
    r"(?:moved|moving|relocated|relocating)\s+(?:to|near))\s+"
    r"([A-Z][a-z][\w'’\-]*(?:[ \t][A-Z][a-z][\w'’\-]*)?)"
)


def _towns_after_residence(text: str) -> list[Span]:
    return _towns_after(_AFTER_RESIDENCE, text, 0.9,
                        lambda town: town.casefold() not in NOT_ENTITIES and is_town_of_5000(town))


# "Boise, Idaho", "Leeds, England": a town written with its region is a place, whatever
# NER calls it (spaCy reads some towns as firms), even a town too small for the lists.
_TOWN_COMMA_REGION = re.compile(
    r"(?<![\w'’\-])(?=((?:[A-Z][a-z][\w'’\-]*[ \t])?[A-Z][a-z][\w'’\-]*),[ \t]+([A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?)\b)"
)


def _towns_before_their_region(text: str) -> list[Span]:
    out = []
    index = geo_index()
    for m in _TOWN_COMMA_REGION.finditer(text):
        region = index.lookup(m.group(2))
        if region is None or region.kind not in ("subdivision", "country"):
            continue
        words = m.group(1)
        candidate = words.split()[-1] if " " in words else words
        for value in (words, candidate) if " " in words else (words,):
            town = index.lookup(value)
            if town is not None and town.kind == "city" and is_region_of(region, town):
                start = m.start(1) + len(words) - len(value)
                out.append(Span(start, start + len(value), Label.LOCATION, value, 0.75, PlaceDetector.name))
                break
    return out


def _ordinary_word(name: str) -> bool:
    """A place name that is also an everyday word or a common first name ("Nice", "Mobile",
    "Victoria") is left to NER and context: found by the list, it would be found everywhere."""
    if " " in name or name in places()["countries"] or name in places()["us_states"]:
        return False
    place = geo_index().lookup(name)
    if place is not None and place.population >= 1_000_000:
        return False  # "Paris", "Phoenix": the place is what most texts mean
    return is_common_word(name) or len(lexicon().info(name).first_in - {"en"}) >= 2


@lru_cache(maxsize=1)
def _place_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    data = places()
    names = set(data["countries"]) | set(data["us_states"]) | set(data["city_country"]) | set(data["regions"])
    names |= {c for cities in data["cities"].values() for c in cities}
    names = {n for n in names if len(n) >= 4 and n.casefold() not in NOT_ENTITIES and not _ordinary_word(n)}
    countries = trie_alternation((c for c in data["countries"] if len(c) >= 5), ignore_case=True)
    return (  # tries: the matches of the names longest first, at a fraction of the cost
        re.compile(rf"(?<![\w@./-]){trie_alternation(names)}(?![\w@/-])"),
        re.compile(rf"(?<![\w@./-]){countries}(?![\w@/-])", re.IGNORECASE),
    )


class OrganisationDetector:
    name = "org_names"
    labels = frozenset({Label.ORG})

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans = []
        known = _known_orgs()
        if known is not None:
            spans += [Span(m.start(), m.end(), Label.ORG, m.group(), 0.7, self.name) for m in known.finditer(text)]
        for m in _LEGAL_NAME.finditer(text):
            value = m.group()
            words = value.split()
            while words and words[0] in _NOT_A_NAME_WORD:
                words.pop(0)
            if len(words) >= 2:
                start = m.end() - len(" ".join(words)) if value.endswith(" ".join(words)) else m.start()
                spans.append(Span(start, m.end(), Label.ORG, text[start : m.end()], 0.8, self.name))
        if len(_CODE.findall(text)) < 3:  # in code, PascalCase words are class names
            for m in _CAMEL.finditer(text):
                spans.append(Span(m.start(), m.end(), Label.ORG, m.group(), 0.5, self.name))
        if "(주)" in text or "주식회사" in text or "株式会社" in text or "有限公司" in text:
            spans += _cjk_legal_names(text, self.name)
        spans += _trade_names(text, self.name, known)
        spans += _appositions(text, self.name) + _defined_acronyms(text, self.name)
        # An all-caps text is shouting, not naming.
        if sum(map(str.isupper, text)) < 0.3 * max(1, sum(map(str.isalpha, text))):  # (map: C loops, same counts)
            for m in _ACRONYM.finditer(text):
                word = m.group()
                if (word.casefold() not in NOT_ENTITIES and word not in _TECH_ACRONYMS and not is_known_place(word)
                        and not currency_of_an_amount(text, m.start(), m.end())  # "NOK 12,400"
                        and not everyday_acronym(text, m.start(), m.end())):  # "the MRI results"
                    spans.append(Span(m.start(), m.end(), Label.ORG, word, 0.45, self.name))
        return spans


def _cjk_legal_names(text: str, detector: str) -> list[Span]:
    """The name beside a CJK legal form; a bracketed "(주)" stays out of the span (brackets
    read as code), the written-out forms stay in."""
    spans = []
    for m in _CJK_LEGAL_NAME.finditer(text):
        start, end = m.start(), m.end()
        if text.startswith("(주)", start):
            start = len(text[start:end]) - len(text[start + 3 : end].lstrip()) + start
        elif text[start:end].endswith("(주)"):
            end = start + len(text[start : end - 3].rstrip())
        if end > start:
            spans.append(Span(start, end, Label.ORG, text[start:end], 0.85, detector))
    return spans


def _trade_names(text: str, detector: str, known: re.Pattern[str] | None) -> list[Span]:
    """A business named by words and its trade ("Bright Smile Dental") is one
    organisation, even when its words are ordinary or look like a person's name: NER
    reads "Smile Dental" as a person otherwise."""
    spans: list[Span] = []
    end = 0
    for m in _TRADE_WORD.finditer(text):
        if m.start() < end or m.group().casefold() not in INDUSTRY_WORDS:
            continue
        before = _WORDS_BEFORE_TRADE.search(text[max(0, m.start() - 80) : m.start()])
        if before is None:
            continue
        words = before.group().split()
        while words and words[0].casefold() in _NOT_IN_TRADE_NAME:
            words.pop(0)
        if not words or all(w.casefold() in GENERIC_ORG_WORDS or w.casefold() in INDUSTRY_WORDS for w in words):
            continue  # "Dental Clinic", "Family Dental": the trade alone names no one
        if len(words) == 1 and is_common_word(words[0]):
            continue  # "Modern Design", "Home Cooking": a phrase in title case
        if known is not None and any(known.fullmatch(w) for w in words):
            continue  # "Android Studio": a product of a known company
        end = m.end()
        while (after := _WORD_AFTER_TRADE.match(text, end)) and (
            after.group(1).casefold() in GENERIC_ORG_WORDS or after.group(1).casefold() in COMPANY_SUFFIX_WORDS
        ):
            end = after.end()
        start = m.start() - len(" ".join(words)) - 1
        if text[start : m.start()].split() == words:
            spans.append(Span(start, end, Label.ORG, text[start:end], 0.9, detector))
    return spans


def _appositions(text: str, detector: str) -> list[Span]:
    spans = []
    for m in _ORG_APPOSITION.finditer(text):
        words = m.group("v").split()
        while len(words) > 1 and (is_common_word(words[0]) or not words[0][:1].isupper()):
            words.pop(0)  # "Yesterday Acme, a firm ...": the sentence's first word is not the name
        value = " ".join(words)
        if len(value) < 3 or not re.search(r"[A-Za-z]", value) or value.casefold() in NOT_ENTITIES or (len(words) == 1 and is_common_word(value)):
            continue
        start = m.end("v") - len(value)
        if text[start : m.end("v")] == value:
            spans.append(Span(start, m.end("v"), Label.ORG, value, 0.85, detector))  # the text says what it is
    return spans


def _defined_acronyms(text: str, detector: str) -> list[Span]:
    """Title-case words whose initials make the acronym in the brackets after them. Terms
    of art are defined the same way ("Return On Investment (ROI)"): unless a word such as
    "company" follows, a name needs at least one word that is not an ordinary word."""
    spans = []
    for m in _DEFINED_ACRONYM.finditer(text):
        acronym = m.group("a")
        if acronym.casefold() in NOT_ENTITIES:
            continue
        before = text[max(0, m.start() - 120) : m.start()]
        org_word = _ORG_WORD_AFTER.search(before.rstrip())
        head = before.rstrip()[: org_word.start()] if org_word else before.rstrip()
        words = re.findall(r"[\w&'’\-]+", head)[-(len(acronym) + 3):]
        picked: list[str] = []
        letters = list(acronym)
        for word in reversed(words):
            if not letters:
                break
            if word.casefold() in _ACRONYM_FILLERS and picked:
                picked.insert(0, word)
            elif word[:1].isupper() and word[0] == letters[-1]:
                picked.insert(0, word)
                letters.pop()
            else:
                break
        while picked and picked[0].casefold() in _ACRONYM_FILLERS:
            picked.pop(0)
        if letters or len(picked) < 2:
            continue
        if not org_word and all(is_common_word(w) for w in picked):
            continue
        value = " ".join(picked)
        start = head.rfind(value)
        if start < 0:
            continue
        start += max(0, m.start() - 120)
        end = start + len(value)
        spans.append(Span(start, end, Label.ORG, value, 0.7, detector))
        spans.append(Span(m.start("a"), m.end("a"), Label.ORG, acronym, 0.65, detector))
    return spans
