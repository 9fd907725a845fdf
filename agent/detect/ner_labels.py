"""Which label an entity NER found should have: spaCy's small English model reads foreign
names as organisations or places, cities as people, firms as people ("Fernhollow Labs")
and people as groups. One rule per mistake, tried in order on an `NerReading` (the entity
with the bounds the detector settled on); the first that applies sets the label.
Rules read what the name lists, the place and company lists and the tagger say."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from agent.detect.nlp import person_pronoun_in
from agent.detect.person_names import FAMILY_BEFORE, PARTNER_BEFORE, is_family_plural
from agent.entities import Label, Span
from agent.knowledge.companies import is_listed_company
from agent.knowledge.frequency import zipf
from agent.knowledge.geonames import geo_index
from agent.knowledge.org_words import (
    ENDS_WITH_LEGAL_FORM,
    GENERIC_ORG_WORDS,
    INDUSTRY_WORDS,
    ORG_KIND_WORDS,
    is_generic_org,
)
from agent.knowledge.places import (
    STREET_TYPES,
    is_known_place,
    is_sizeable_town,
    is_unnamed_town,
    place_kind,
)
from agent.knowledge.public_entities import is_known_organisation
from agent.knowledge.words import is_common_word

# Titles only a person has (not "St." of a saint's town): "ms. delgado", "Mrs. Paris".
_PERSONAL_TITLE_BEFORE = re.compile(r"(?i)\b(?:mr|mrs|ms|miss|mx|dr|prof)\.?[ \t]+$")
_ORG_PREPOSITION_BEFORE = re.compile(r"\b(?:from|at|for|joined)[ \t]+$")
PERSON_SCORE = 0.75  # NER's persons before the detector's checks (ner._BASE_SCORE)


@dataclass
class NerReading:
    """One entity NER found, as the detector reads it: the label and the bounds change as
    its rules apply (the text between `start` and `end` is always the value)."""

    ent: object  # the spaCy span
    text: str
    label: Label
    start: int
    end: int
    trimmed_lead: bool = False  # a word before the name was cut off ("my", "hi", "ich bin")

    @property
    def value(self) -> str:
        return self.text[self.start : self.end]

    def before(self, reach: int) -> tuple[str, int, int]:
        """(text, pos, endpos) for a search in the `reach` characters before the value."""
        return self.text, max(0, self.start - reach), self.start


_ALL_NAMES = frozenset({Label.PERSON, Label.ORG, Label.LOCATION, Label.NORP})
_PLACE_ORG_GROUP = frozenset({Label.LOCATION, Label.ORG, Label.NORP})
_PLACE_ORG = frozenset({Label.LOCATION, Label.ORG})
_PERSON_ORG = frozenset({Label.PERSON, Label.ORG})


def _search_before(pattern: re.Pattern[str], r: NerReading, reach: int) -> bool:
    return pattern.search(*r.before(reach)) is not None


def _one_word(r: NerReading) -> bool:
    return " " not in r.value


# -- the rules: (labels it corrects, test, the label it gives) --------------------------
def _legal_form(r: NerReading, names) -> bool:
    return len(r.value.split()) > 1 and bool(ENDS_WITH_LEGAL_FORM.search(r.value))  # "Globex GmbH"


def _org_word_last(r: NerReading, names) -> bool:
    return _ends_with_org_word(r.value, names)  # "Fernhollow Labs", "Larkspur Elementary"


def _trade_word_last(r: NerReading, names) -> bool:
    return _ends_with_trade_word(r.value)  # "Vantora Legal" under a signature: a firm, not a place


def _personal_title_before(r: NerReading, names) -> bool:
    return _search_before(_PERSONAL_TITLE_BEFORE, r, 8)  # "ms. delgado", "Dr. Okafor"


def _given_name_then_pronoun(r: NerReading, names) -> bool:
    # "remind Hollis that her rent is late": a given name, then "her"
    ent = r.ent
    return _one_word(r) and names.is_first_name(r.value) and person_pronoun_in(ent.doc[ent.end : ent.end + 12])


def _unwritten_group(r: NerReading, names) -> bool:
    return _never_written_group(r.value)  # "loop in Oyelaran": no text writes a group by that word


def _two_given_names(r: NerReading, names) -> bool:
    return _couple(r.value, names)  # "Arjun & Meera Iyer": a couple, not a firm


def _family_by_surname(r: NerReading, names) -> bool:
    return _search_before(FAMILY_BEFORE, r, 5) and is_family_plural(r.value)  # "the Kowalczyks"


def _given_name_acting(r: NerReading, names) -> bool:
    # "about Lilou missing school": a given name no gazetteer knows as a place, doing
    # something a place does not
    value = r.value
    return (_one_word(r) and bool(names.info(value).first_in) and not is_known_place(value)
            and not is_listed_company(value) and not is_common_word(value)
            and not _after_place_word(r.ent) and _acts_next(r.ent))


def _region(r: NerReading, names) -> bool:
    return _one_word(r) and place_kind(r.value)[0] in ("country", "state", "continent", "region")  # "APAC", "EMEA"


def _city_moved_to(r: NerReading, names) -> bool:
    value = r.value  # "moved to Tampere": a city NER took for an organisation
    return (_one_word(r) and value[:1].isupper() and place_kind(value)[0] == "city"
            and not is_listed_company(value) and _after_place_word(r.ent, _MOVE_WORDS))


def _known_firm_after_preposition(r: NerReading, names) -> bool:
    # "Tom Harris from Bosch": a firm everyone knows, after "from"/"at"
    return _one_word(r) and _search_before(_ORG_PREPOSITION_BEFORE, r, 8) and is_known_organisation(r.value)


def _listed_firms_product(r: NerReading, names) -> bool:
    # "Ford Focus", "Nissan Qashqai": a listed company's name, then no one's name
    words = r.value.split()
    return (len(words) == 2 and is_listed_company(words[0])
            and not names.is_first_name(words[1]) and not names.is_last_name(words[1]))


def _partner(r: NerReading, names) -> bool:
    # "engaged to Eilidh": only a person is married, dated or divorced
    return _search_before(PARTNER_BEFORE, r, 24) and not is_known_place(r.value)


# What is written to a person: "a reply to Jordan", "an e-mail to Georgia about" (not a
# letter, a note or a response: "a letter to France", "a response to Jordan's offer").
_WRITTEN_TO_BEFORE = re.compile(
    r"(?i)\b(?:reply|replying|respond|responding|message|e-?mail|text|card|thank-you)[ \t]+to[ \t]+$"
)


def _written_to(r: NerReading, names) -> bool:
    # "Draft a reply to Jordan from Acme Plumbing": a message goes to a person, not a country
    return _one_word(r) and names.is_first_name(r.value) and _search_before(_WRITTEN_TO_BEFORE, r, 24)


# "ran the shop on Kettering Lane": a street after a preposition of place (not "with Nathan
# Lane": "on", "off", "along" are said of streets, not of people).
_STREET_PREPOSITION_BEFORE = re.compile(r"(?i)\b(?:on|off|along|down|up|onto|near)[ \t]+$")
_STREET_ENDS = frozenset(w.casefold() for w in STREET_TYPES)


def _street(r: NerReading, names) -> bool:
    words = r.value.split()
    return (len(words) >= 2 and words[-1].rstrip(".").casefold() in _STREET_ENDS
            and _search_before(_STREET_PREPOSITION_BEFORE, r, 8))


def _group_as_person(r: NerReading, names) -> bool:
    return _used_as_person(r.ent, names, needs_pronoun=False)  # "the mess Ottilie made"


def _place_as_person(r: NerReading, names) -> bool:
    return _used_as_person(r.ent, names, needs_pronoun=True)  # "Chad is a deviant. He ..."


def _city_as_person(r: NerReading, names) -> bool:
    # "My office is in Lyon": a city NER took for a name
    value = r.value
    return (_one_word(r) and is_known_place(value) and not _used_as_person(r.ent, names, needs_pronoun=True)
            and not _personal_subject(r.ent, names)
            and (place_kind(value)[0] in ("country", "state", "continent", "region")
                 or len(names.info(value).first_in - {"en"}) < 2))


def _small_town_after_in(r: NerReading, names) -> bool:
    # "I am in Ørsta for a week": a GeoNames town of 5,000+ after "in" or "near" that no name
    # list has and that does nothing a person does
    ent, value = r.ent, r.value
    before = ent.doc[ent.start - 1].lower_ if ent.start > 0 else ""
    return (_one_word(r) and before in ("in", "near", "outside") and is_unnamed_town(value)
            and not _used_as_person(ent, names, needs_pronoun=True))


def _region_after_place_word(r: NerReading, names) -> bool:
    # "villages to visit in Dorset": a region NER took for a name
    return (_after_place_word(r.ent) and geo_index().lookup(r.value) is not None
            and not is_listed_company(r.value) and not _used_as_person(r.ent, names, needs_pronoun=True))


def _listed_first_name(r: NerReading, names) -> bool:
    # "Marcy is a black cat", "Marcus Feld from...": a name
    value = r.value
    return (len(value.split()) <= 3 and value.istitle() and len(names.info(value.split()[0]).first_in - {"en"}) >= 2
            and not is_known_place(value) and not ENDS_WITH_LEGAL_FORM.search(value))


def _name_shape(r: NerReading, names) -> bool:
    # "add Réka Sandoval as a beneficiary": a first name and a surname
    return full_name_shape(r.value, names) or rare_word_pair(r.value)


def _acting(r: NerReading, names) -> bool:
    return _acts_as_person(r.ent)  # "Quorra had lent Quorra her bike": never "her" for a firm or a place


_Rule = tuple[frozenset[Label], Callable[[NerReading, object], bool], Label]
# In order: the first rule that applies wins.
RULES: tuple[_Rule, ...] = (
    (_ALL_NAMES, _legal_form, Label.ORG),
    (_PERSON_ORG, _org_word_last, Label.ORG),  # an ORG stays one: "Doris Investments", not a Doris
    (frozenset({Label.LOCATION}), _trade_word_last, Label.ORG),
    (_ALL_NAMES, _personal_title_before, Label.PERSON),
    (frozenset({Label.PERSON, Label.NORP}), _small_town_after_in, Label.LOCATION),
    (frozenset({Label.NORP}), _given_name_then_pronoun, Label.PERSON),
    (frozenset({Label.NORP}), _unwritten_group, Label.PERSON),
    (frozenset({Label.ORG}), _two_given_names, Label.PERSON),
    (_PLACE_ORG_GROUP, _family_by_surname, Label.PERSON),
    (_PLACE_ORG, _given_name_acting, Label.PERSON),
    (frozenset({Label.ORG}), _region, Label.LOCATION),
    (frozenset({Label.ORG}), _city_moved_to, Label.LOCATION),
    (frozenset({Label.PERSON}), _known_firm_after_preposition, Label.ORG),
    (frozenset({Label.PERSON}), _listed_firms_product, Label.ORG),
    (_PLACE_ORG_GROUP, _partner, Label.PERSON),
    (frozenset({Label.LOCATION}), _written_to, Label.PERSON),
    (frozenset({Label.PERSON}), _street, Label.LOCATION),
    (frozenset({Label.NORP}), _group_as_person, Label.PERSON),
    (frozenset({Label.LOCATION}), _place_as_person, Label.PERSON),
    (frozenset({Label.PERSON}), _city_as_person, Label.LOCATION),
    (_PERSON_ORG, _region_after_place_word, Label.LOCATION),
    (_PLACE_ORG_GROUP, _listed_first_name, Label.PERSON),
    (_PLACE_ORG, _name_shape, Label.PERSON),
    (_PLACE_ORG, _acting, Label.PERSON),
)


def relabel(r: NerReading, names, detector: str) -> list[Span]:
    """Set `r.label` to what the entity is; the spans found besides it (the first person
    of a couple, whose reading then starts at the second)."""
    if r.ent.label_ == "FAC" and any(w.strip("'’s").casefold() in GENERIC_ORG_WORDS for w in r.value.split()[1:]):
        r.label = Label.ORG  # "St. Luke's Hospital", "Lincoln Elementary School"
    for labels, applies, label in RULES:
        if r.label in labels and applies(r, names):
            extra = []
            if applies is _two_given_names:
                first = r.value.split()[0]
                extra.append(Span(r.start, r.start + len(first), Label.PERSON, first, PERSON_SCORE, detector))
                r.start += _COUPLE_JOINT.search(r.value).end()
            r.label = label
            return extra
    return []


# -- what the rules read ------------------------------------------------------------------
def _acts_as_person(ent) -> bool:
    """One unknown capitalised word that is the subject of a verb, with a he/she pronoun
    within the next few words: a person. Companies are "it" or "they"; the window is short
    so that a pronoun of the next sentence's subject does not count."""
    if len(ent) != 1 or ent.end >= len(ent.doc):
        return False
    token, doc = ent[0], ent.doc
    if token.pos_ != "PROPN" or ent.start > 0 and doc[ent.start - 1].lower_ in ("the", "a", "an"):
        return False
    if is_listed_company(token.text) or is_known_place(token.text):
        return False
    if _restated_by_pronoun(doc, ent.end):
        return True  # "a note for Orlin, he is six": the name taken up by "he"
    return doc[ent.end].pos_ in ("VERB", "AUX") and person_pronoun_in(doc[ent.end : ent.end + 8])


def _restated_by_pronoun(doc, i: int) -> bool:
    """", he is" / ", she was" right after a name: the clause restates who it is."""
    return (
        i + 2 < len(doc) and doc[i].text == "," and doc[i + 1].lower_ in ("he", "she")
        and doc[i + 2].pos_ in ("VERB", "AUX")
    )


def _place_or_company(value: str) -> bool:
    """A known place, a listed company, a legal form or a kind of organisation: whatever
    its words look like, not a person's name."""
    return bool(is_known_place(value) or geo_index().lookup(value) is not None or is_listed_company(value)
                or ENDS_WITH_LEGAL_FORM.search(value) or is_generic_org(value))


def full_name_shape(value: str, names) -> bool:
    """Two or three capitalised words, the first only a first name and the last only a
    surname in the name lists (any locale), that name no known place or listed company:
    a person, whatever the parse says. Names that are both ("Morgan", "Stanley") are left
    to the parse."""
    tokens = value.split()
    if not 2 <= len(tokens) <= 3 or not all(t[:1].isupper() and t[1:2].islower() for t in tokens):
        return False
    first, last = names.info(tokens[0]), names.info(tokens[-1])
    if not first.first_in or first.last_in or not last.last_in or last.first_in:
        return False
    return not _place_or_company(value)


# Below this Zipf frequency a capitalised word is rare in English text (a foreign given
# name or surname, "Wrona", "Amadeo"); trade words of company names ("Analytics",
# "Workhouse", "Optimisation") lie above it.
_RARE_ZIPF = 2.5


def rare_word_pair(value: str) -> bool:
    """Two or three capitalised words, each rare in English, that no place list, company
    list or legal form knows ("Kasia Wrona", "Teodor Mălăescu"): NER reads such foreign
    names as organisations or places, but on the fit half's prompts they were people three
    times out of four. Names the lists know are left to full_name_shape."""
    tokens = value.split()
    if not 2 <= len(tokens) <= 3 or not all(_TITLE_WORD.fullmatch(t) for t in tokens):
        return False
    if any(zipf(t) >= _RARE_ZIPF for t in tokens):
        return False
    return not _place_or_company(value)


_TITLE_WORD = re.compile(r"[^\W\d_][^\W\d_A-Z]+(?:[-'’][^\W\d_][^\W\d_A-Z]+)?")


# Words after which a name is where something is, not who: "in", "across", "visit".
_PLACE_WORDS_BEFORE = frozenset({"in", "across", "around", "throughout", "near", "visit", "visiting", "explore", "exploring", "tour", "touring"})


# Words after which a city is where someone goes or lives ("moved to Tampere").
_MOVE_WORDS = _PLACE_WORDS_BEFORE | {"to", "from", "at"}


def _ends_with_org_word(value: str, names) -> bool:
    """A name whose last word is a kind of organisation ("Labs", "Elementary", "Clinic")
    that is no surname ("Church", "Law" are both)."""
    words = value.split()
    last = words[-1].strip(".,'’")
    return (len(words) > 1 and len(last) >= 3 and last[:1].isupper()
            and last.casefold() in ORG_KIND_WORDS and not names.is_last_name(last))


# Words that end a business's name and never a place's (a place may end in "City",
# "County", "Court" or "Market"; a firm in "Legal" or "Logistics").
_TRADE_WORDS = INDUSTRY_WORDS | frozenset({
    "legal", "labs", "lab", "partners", "solutions", "systems", "technologies", "technology", "software",
    "consulting", "capital", "ventures", "analytics", "media", "digital", "pharma", "pharmaceuticals", "robotics",
    "telecom", "finance", "financial", "advisors", "entertainment",
})
# How rare names of peoples and faiths end ("Sammarinese", "Ni-Vanuatu's Tannese"); not
# "-an", which surnames share ("Oyelaran").
_GROUP_ENDINGS = ("ese", "ian", "ean", "ish", "ic", "ite", "ist")


def _acts_next(ent) -> bool:
    """The word after the entity is a verb it does ("Lilou missing", "Lilou said")."""
    doc = ent.doc
    at = ent.end
    if at + 1 < len(doc) and doc[at].lower_ in ("pls", "plz", "please"):
        return doc[at + 1].tag_ == "VB"  # "Sunniva pls check"
    return at < len(doc) and doc[at].tag_ in ("VBG", "VBD", "VBZ", "MD")


_COUPLE_JOINT = re.compile(r"\s+(?:&|and)\s+")


def _couple(value: str, names) -> bool:
    """"Arjun & Meera Iyer", "Tom and Ana": given names on both sides of the "and" (a law
    firm joins surnames: "Quenby & Aldous")."""
    parts = _COUPLE_JOINT.split(value)
    if len(parts) != 2 or not all(parts):
        return False
    left, right = parts[0].split(), parts[1].split()
    return len(left) == 1 and 1 <= len(right) <= 2 and all(
        names.info(word).first_in and not names.is_last_name(word) for word in (left[0], right[0]))


def _ends_with_trade_word(value: str) -> bool:
    words = value.split()
    return len(words) > 1 and words[-1].casefold() in _TRADE_WORDS and not is_known_place(value)


def _never_written_group(value: str) -> bool:
    """One capitalised word no corpus of English ever wrote (Zipf 0) and not shaped like a
    people's or a faith's name: NER's "group" is then a person's name."""
    return (" " not in value and value[:1].isupper() and value[1:].islower() and len(value) >= 4
            and zipf(value) == 0 and not value.casefold().endswith(_GROUP_ENDINGS))


def _after_place_word(ent, words: frozenset[str] = _PLACE_WORDS_BEFORE) -> bool:
    return ent.start > 0 and ent.doc[ent.start - 1].lower_ in words


# Things a person does and a country does not ("Chad booked a room", "Georgia texted me").
_PERSONAL_VERBS = frozenset(
    ["booked", "hired", "emailed", "texted", "phoned", "smiled", "laughed", "cried", "ate", "slept", "walked", "married", "loves", "loved", "likes", "liked", "wants", "wanted", "hates", "hated", "feels", "felt", "thinks", "forgot", "remembers", "remembered", "wrote", "writes", "bought", "sings", "sang", "danced", "cooked", "studied", "graduated", "moved"]
)


def _personal_subject(ent, names) -> bool:
    """A one-word first name NER read as a person, that opens a clause and does what only a
    person does: the person, even when a country has the same name. Also one who is to do
    something, in a list of tasks ("Action items: Ngozi to send invites"), unless a town
    of 100,000 or more has the name ("Lagos to host the summit")."""
    if len(ent) != 1 or not names.is_first_name(ent[0].text):
        return False
    doc = ent.doc
    if ent.end >= len(doc):
        return False
    to_do = (doc[ent.end].lower_ == "to" and ent.end + 1 < len(doc) and doc[ent.end + 1].tag_ == "VB"
             and not is_sizeable_town(ent[0].text))
    if doc[ent.end].lower_ not in _PERSONAL_VERBS and not to_do:
        return False
    before = doc[ent.start - 1] if ent.start > 0 else None
    return before is None or before.is_punct or before.is_space or before.lower_ in ("and", "but", "when", "while", "then", "so", "because")


def _used_as_person(ent, names, *, needs_pronoun: bool) -> bool:
    """A one-word name in a person's role: a proper noun (not the adjective of "Turkish
    speaking"), singular, without an article ("the French"), that the lexicon knows as a
    name. A country can act too ("Chad signed a treaty"), so a place must be the subject
    of a verb with a he/she pronoun close behind: countries are "it". (The pipeline runs
    without the parser, for speed: tags only.)"""
    if len(ent) != 1:
        return False
    token, doc = ent[0], ent.doc
    if token.pos_ != "PROPN" or token.text.endswith("s"):
        return False
    if ent.start > 0 and doc[ent.start - 1].lower_ in ("the", "a", "an"):
        return False
    if not needs_pronoun:
        return names.is_first_name(token.text) or names.is_last_name(token.text)
    if not names.is_first_name(token.text) or ent.end >= len(doc) or doc[ent.end].pos_ not in ("VERB", "AUX"):
        return False
    return person_pronoun_in(doc[ent.end : ent.end + 30])
