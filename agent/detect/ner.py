"""spaCy named-entity recognition, mapped to Veil's labels and cleaned of its usual
mistakes on prompts (verbs at the start of a sentence, e-mail addresses as ORG...)."""

from __future__ import annotations

import re

from agent.detect.base import DetectionContext
from agent.detect.cyrillic_names import name_bounds as cyrillic_name_bounds
from agent.detect.cyrillic_names import not_a_name as cyrillic_not_a_name
from agent.detect.nlp import LazyAnalysis, SpacyPipeline, person_pronoun_in
from agent.detect.particle_surnames import widen_over_particles
from agent.detect.person_names import (
    FAMILY_BEFORE,
    PARTNER_BEFORE,
    is_family_plural,
    kinship_letters,
)
from agent.entities import Label, Span
from agent.knowledge.companies import is_listed_company
from agent.knowledge.frequency import zipf
from agent.knowledge.geonames import geo_index
from agent.knowledge.hosts import is_service_label
from agent.knowledge.language_names import is_language_name
from agent.knowledge.names import lexicon
from agent.knowledge.not_names import CALENDAR_WORDS, NOT_ENTITIES, is_field_label
from agent.knowledge.org_words import (
    ENDS_WITH_LEGAL_FORM,
    GENERIC_ORG_WORDS,
    INDUSTRY_WORDS,
    ORG_KIND_WORDS,
    is_generic_org,
)
from agent.knowledge.places import is_known_place, place_kind
from agent.knowledge.public_entities import is_known_organisation
from agent.knowledge.words import is_common_word

LABEL_MAP = {
    "PERSON": Label.PERSON,
    "ORG": Label.ORG,
    "GPE": Label.LOCATION,
    "LOC": Label.LOCATION,
    "FAC": Label.LOCATION,  # a building; one named like an organisation is one (below)
    "NORP": Label.NORP,
    "DATE": Label.DATE,
}
_BASE_SCORE = {
    Label.PERSON: 0.75,
    Label.ORG: 0.6,
    Label.LOCATION: 0.7,
    Label.NORP: 0.6,
    Label.DATE: 0.6,
}
# Not names: symbols only, e-mail/URL pieces, code (brackets, operators, dotted calls).
_JUNK = re.compile(r"^[\W\d_]+$|@|://|[(){}\[\]<>=;|\\]|\w\.\w+\(|\b\w+_\w+|\d+[/.\-]\d+[/.\-]\d+")
# A label's colon right after a span ("Lieferadresse: ...").
_FIELD_COLON = re.compile(r"[ \t]*:")
# Titles only a person has (not "St." of a saint's town): "ms. delgado", "Mrs. Paris".
_PERSONAL_TITLE_BEFORE = re.compile(r"(?i)\b(?:mr|mrs|ms|miss|mx|dr|prof)\.?[ \t]+$")
_POSSESSIVE_BEFORE = re.compile(r"(?i)\b(?:my|our|your|his|her|their)[ \t]+$")
_CONTRACTION = re.compile(r"(?i)\w{0,2}['’]\w{1,2}")  # "n’t", "I'm": never a name
_SAINT = re.compile(r"(?:St\.?|Saint|Ste\.?)\s+[A-Z][a-z]+$")
_FEAST_WORDS = frozenset({"Day", "Eve", "Night", "Feast", "Week"})  # "St. Patrick's Day" is a date
_SAINTS_PLACE_AFTER = re.compile(r"['’]s((?:[ \t]+[A-Z][a-z]+){1,3})\b")

# Verbs that open prompts and that NER likes to take into a name ("Email Sarah").
_IMPERATIVES = frozenset(
    ["email", "e-mail", "call", "text", "ask", "tell", "message", "ping", "invite", "thank", "remind", "meet", "contact", "write", "send", "cc", "dear", "hi", "hello", "hey", "thanks", "congratulate", "congrats", "wish", "help"]
)
_LEADING = re.compile(r"^(?:the|a|an|my|our|your|his|her|their|dear|hi|hello|hey)\s+", re.IGNORECASE)
# Self-introductions in other languages that an English model reads as the start of the
# name ("je m'appelle Étienne Marchand", "ich bin Jürgen Köhler", "me llamo Lucía"): the
# verb is not part of it. "bin"/"ben" only after "ich"/"ik" ("bin Salman" is a name).
_FOREIGN_INTRO = re.compile(
    r"^(?:(?:je[ \t]+)?m['’][ \t]?appelle|(?:ich[ \t]+)?hei(?:ß|ss)e|(?:me[ \t]+)?llamo|(?:mi[ \t]+)?chiamo|"
    r"(?:me[ \t]+)?chamo|(?:ik[ \t]+)?heet|nazywam[ \t]+si[eę]|jestem|soy|sono|sou)[ \t]+",
    re.IGNORECASE,
)
# A kind of thing and its number, which NER reads as a name ("Ticket 4411", "Room 12B").
_NUMBERED_THING = re.compile(r"(?P<kind>[A-Za-z]+)\.?[ \t]*(?:#|No\.?|no\.?)?[ \t]*(?P<number>[A-Z]{0,3}-?\d[\dA-Z-]*)")
_RECORD_WORDS = frozenset({
    "ticket", "invoice", "order", "case", "booking", "reservation", "reference", "ref", "account", "claim",
    "policy", "incident", "issue", "request", "contract", "application", "member", "customer", "patient",
})
# Everyday things counted by number, never a name with it ("Room 12B", "Gate 4", "Chapter 3").
_NUMBERED_PLACES_AND_PARTS = frozenset({
    "room", "gate", "seat", "flight", "table", "chapter", "level", "section", "step", "phase", "floor", "platform",
    "building", "bus", "route", "version", "week", "day", "grade", "class", "year", "line", "page", "part",
})
_SENTENCE_OPEN_BEFORE = re.compile(r"(?:^|[.!?:\n])[ \t]*['\"“‘]?[ \t]*$")
# What a person, not a thing, is said to do or be next: "Mug said", "Mug, can you".
_PERSON_AFTER = re.compile(r"(?:['’]s\b|,|[ \t]+(?:said|says|told|asked|wrote|replied|thinks|thought|wants|is\s+my|was\s+my|and\s+I)\b)")
_NUMBER_AFTER = re.compile(r"[ \t]*(?:no\.?|#|:)?[ \t]*[A-Z]{0,3}-?\d{4,}")
# Where a language is named as the one to write in: "translate to German", "reply in Tagalog".
_LANGUAGE_BEFORE = re.compile(
    r"(?i)(?:\binto|\b(?:translat\w*|write|written|reply|respond|answer|say|speak|spoken|language)\b[^.!?\n]{0,40}?\b(?:to|in|from))[ \t]+$"
)
_FIRM_IN_TOWN = re.compile(r"(.+?)[ \t]+(?:in|at)[ \t]+([A-Z][\w'’\-]*(?:[ \t][A-Z][\w'’\-]*)?)")
_ORG_PREPOSITION_BEFORE = re.compile(r"\b(?:from|at|for|joined)[ \t]+$")
_NICKNAME_QUOTE = re.compile(r"[ \t]['\"“‘]")  # a quote opening inside a name: a nickname follows
# A job and where it is held, after a one-word "person": "Barista at Costa Coffee".
_ROLE_AT_AFTER = re.compile(r"[ \t]+at[ \t]+[A-Z]")
_WORD_ZIPF = 2.5  # wordfreq: written this often, a word NER took for a name ("barista" 2.9)
_AFTER_ICH = re.compile(r"(?i)\b(?:ich|ik)[ \t]+$")
_BIN = re.compile(r"(?i)^(?:bin|ben)[ \t]+")


class SpacyNerDetector:
    name = "spacy"
    labels = frozenset(LABEL_MAP.values())

    def __init__(self, pipeline: SpacyPipeline):
        self.pipeline = pipeline

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        analysis = context.analysis or LazyAnalysis(self.pipeline, text)
        doc = analysis.doc
        names = lexicon()
        spans = []
        lower_words = _LowerWords(text)
        puzzle_letters = kinship_letters(text)
        for ent in doc.ents:
            label = LABEL_MAP.get(ent.label_)
            if label is None:
                continue
            start, end = ent.start_char, ent.end_char
            value = text[start:end]
            if label is not Label.DATE and _JUNK.search(value):
                continue
            if len(ent) > 1 and label is not Label.DATE and (ent[0].pos_ == "VERB" or ent[0].lower_ in _IMPERATIVES):
                start = ent[1].idx  # "Explain Wittgenstein": the verb is not part of the name
                value = text[start:end]
            if label in (Label.PERSON, Label.ORG) and len(ent) > 1 and ent[-1].is_lower and ent[-2].whitespace_ and ent[-1].pos_ in (
                "VERB", "AUX", "ADP", "SCONJ", "CCONJ", "PART", "DET"
            ):
                # "dana okafor keeps", "joining Halvorsen & Pike as CFO": the verb or the
                # preposition after a name is not part of it.
                end = ent[-2].idx + len(ent[-2].text)
                value = text[start:end]
            lead = _LEADING.match(value) or _FOREIGN_INTRO.match(value)
            if lead is None and _AFTER_ICH.search(text, max(0, start - 8), start):
                lead = _BIN.match(value)
            if lead and label is not Label.DATE:
                start += lead.end()
                value = text[start:end]
            while value and not (value[0].isalnum() or value[0] in "'’\"“(["):
                start += 1  # "🇩🇪 IBAN": symbols are not part of a name
                value = value[1:]
            if value.endswith(("'s", "’s")):
                end -= 2
                value = value[:-2]
            saints_place = _SAINTS_PLACE_AFTER.match(text, end) if _SAINT.match(value) else None
            if saints_place and not any(w in CALENDAR_WORDS or w in _FEAST_WORDS for w in saints_place.group(1).split()):
                # "St. Columba's Hospice": NER stops at the saint; the name runs on to the
                # kind of place, and it is a hospice's (a school's, a church's), not a place's.
                end = saints_place.end()
                value = text[start:end]
                label = Label.ORG
            if not value.strip() or (len(value) < 2 and label is not Label.DATE) or _CONTRACTION.fullmatch(value):
                continue
            if label is not Label.DATE and is_language_name(value) and _LANGUAGE_BEFORE.search(text, max(0, start - 60), start):
                continue  # "Translate to German": the language of the answer, nobody's name
            firm_in_town = _FIRM_IN_TOWN.fullmatch(value) if label is Label.ORG else None
            if firm_in_town and is_known_place(firm_in_town.group(2)):
                end = start + len(firm_in_town.group(1))  # "Bosch in Stuttgart": the firm; the town is a place
                value = text[start:end]
            numbered = _numbered_thing(value, start, self.name) if label is not Label.DATE else None
            if numbered is not None:
                spans.extend(numbered)  # "Ticket 4411": its number is an ID; "Room 12B": nothing
                continue
            if (label in (Label.LOCATION, Label.ORG) and value.isupper() and len(value) <= 3
                    and _POSSESSIVE_BEFORE.search(text, max(0, start - 8), start) and place_kind(value)[0] == "country"):
                continue  # "our PM", "her TA": a role's abbreviation, not a country's code
            if label in (Label.LOCATION, Label.ORG) and value.isupper() and len(value) <= 4 and _NUMBER_AFTER.match(text, end):
                continue  # "PCN AB12345678", "NHS 485 777 3456": the kind of a number, no place (stand-in "PITCAIRN")
            if label in (Label.PERSON, Label.ORG) and value.islower() and "-" in value and is_service_label(value):
                continue  # "the deploy to prod-eu": an environment's name, nobody's
            if label is not Label.DATE and _FIELD_COLON.match(text, end) and is_field_label(value):
                continue  # "Meine Adresse:", "Adresse de livraison:": a field's label, not a name
            if value.casefold() in NOT_ENTITIES or (label is Label.ORG and is_generic_org(value)):
                continue  # "the Union", "the Court": a kind of organisation, not one
            if puzzle_letters and label is not Label.DATE and any(t in puzzle_letters for t in re.findall(r"\b[A-Z]\b", value)):
                continue  # "M. S" across two sentences of a relation puzzle: the letters are people
            if ent.label_ == "FAC" and any(w.strip("'’s").casefold() in GENERIC_ORG_WORDS for w in value.split()[1:]):
                label = Label.ORG  # "St. Luke's Hospital", "Lincoln Elementary School"
            if label is not Label.DATE and len(value.split()) > 1 and ENDS_WITH_LEGAL_FORM.search(value):
                label = Label.ORG  # "Globex GmbH" is a company, whatever the parse says
            elif label is Label.PERSON and _ends_with_org_word(value, names):
                label = Label.ORG  # "Fernhollow Labs", "Larkspur Elementary": a firm's or a school's word last
            elif label is Label.LOCATION and _ends_with_trade_word(value):
                label = Label.ORG  # "Vantora Legal" under a signature: a firm, not a place
            elif label in (Label.PERSON, Label.LOCATION, Label.ORG, Label.NORP) and _PERSONAL_TITLE_BEFORE.search(text, max(0, start - 8), start):
                label = Label.PERSON  # "ms. delgado", "Dr. Okafor": a title says who, whatever NER saw
            elif (label is Label.NORP and " " not in value and names.is_first_name(value)
                  and person_pronoun_in(ent.doc[ent.end : ent.end + 12])):
                label = Label.PERSON  # "remind Hollis that her rent is late": a given name, then "her"
            elif label is Label.NORP and _never_written_group(value):
                label = Label.PERSON  # "loop in Oyelaran": no text writes a group by that word; a name
            elif label is Label.ORG and _couple(value, names):
                # "Arjun & Meera Iyer": two given names, a couple, not a firm: two people
                first = value.split()[0]
                spans.append(Span(start, start + len(first), Label.PERSON, first, _BASE_SCORE[Label.PERSON], self.name))
                start = start + _COUPLE_JOINT.search(value).end()
                value = text[start:end]
                label = Label.PERSON
            elif label in (Label.LOCATION, Label.ORG, Label.NORP) and FAMILY_BEFORE.search(text, max(0, start - 5), start) and is_family_plural(value):
                label = Label.PERSON  # "the Kowalczyks": a family by its surname
            elif (label in (Label.LOCATION, Label.ORG) and " " not in value and names.info(value).first_in
                  and not is_known_place(value) and not is_listed_company(value) and not is_common_word(value)
                  and not _after_place_word(ent) and _acts_next(ent)):
                # "about Lilou missing school": a given name no gazetteer knows as a place,
                # doing something a place does not
                label = Label.PERSON
            elif label is Label.ORG and " " not in value and place_kind(value)[0] in ("country", "state", "continent", "region"):
                label = Label.LOCATION  # "APAC", "EMEA": regions NER took for organisations
            elif (label is Label.ORG and " " not in value and value[:1].isupper() and place_kind(value)[0] == "city"
                  and not is_listed_company(value) and _after_place_word(ent, _MOVE_WORDS)):
                label = Label.LOCATION  # "moved to Tampere": a city NER took for an organisation
            elif (label is Label.PERSON and " " not in value and _ORG_PREPOSITION_BEFORE.search(text, max(0, start - 8), start)
                  and is_known_organisation(value)):
                label = Label.ORG  # "Tom Harris from Bosch": a firm everyone knows, after "from"/"at"
            elif (label in (Label.LOCATION, Label.ORG, Label.NORP) and PARTNER_BEFORE.search(text, max(0, start - 24), start)
                  and not is_known_place(value)):
                label = Label.PERSON  # "engaged to Eilidh": only a person is married, dated or divorced
            elif label is Label.NORP and _used_as_person(ent, names, needs_pronoun=False):
                label = Label.PERSON  # "the mess Ottilie made", "Brandt, Okoye, Lindqvist"
            elif label is Label.LOCATION and _used_as_person(ent, names, needs_pronoun=True):
                label = Label.PERSON  # "Chad is a deviant. He ..."
            elif label is Label.PERSON and " " not in value and is_known_place(value) and not _used_as_person(
                ent, names, needs_pronoun=True
            ) and not _personal_subject(ent, names) and (
                place_kind(value)[0] in ("country", "state", "continent", "region")
                or len(names.info(value).first_in - {"en"}) < 2
            ):
                label = Label.LOCATION  # "My office is in Lyon": a city NER took for a name
            elif (
                label in (Label.PERSON, Label.ORG)
                and _after_place_word(ent)
                and geo_index().lookup(value) is not None
                and not is_listed_company(value)
                and not _used_as_person(ent, names, needs_pronoun=True)
            ):
                label = Label.LOCATION  # "villages to visit in Dorset": a region NER took for a name
            elif (
                label in (Label.LOCATION, Label.ORG, Label.NORP)
                and len(value.split()) <= 3
                and value.istitle()
                and len(names.info(value.split()[0]).first_in - {"en"}) >= 2
                and not is_known_place(value)
                and not ENDS_WITH_LEGAL_FORM.search(value)
            ):
                label = Label.PERSON  # "Marcy is a black cat", "Marcus Feld from...": a name
            elif label in (Label.LOCATION, Label.ORG) and (_full_name_shape(value, names) or _rare_word_pair(value)):
                label = Label.PERSON  # "add Réka Sandoval as a beneficiary": a first name and a surname
            elif label in _ACTING_LABELS and _acts_as_person(ent):
                label = Label.PERSON  # "Quorra had lent Quorra her bike": an organisation is never "her", nor a place
            if label in (Label.PERSON, Label.ORG) and len(ent) == 1 and _word_not_name(ent[0], value, names, text, lower_words):
                continue
            if (label is Label.PERSON and len(ent) == 1 and _ROLE_AT_AFTER.match(text, end) and zipf(value) >= _WORD_ZIPF
                    and not (names.is_first_name(value) or names.is_last_name(value))):
                continue  # "Experience: Barista at Costa Coffee": a job held at a firm, nobody's name
            if label is Label.ORG and value.islower() and len(value) <= 4 and is_common_word(value) and not is_listed_company(value):
                continue  # "my tenancy ref is": a short everyday word in lower case, no firm
            if label is Label.PERSON and not value.isascii():
                inner = cyrillic_name_bounds(value)  # "Скажи Оксані Мельник", "Смирнов В. П. по просьбе"
                if inner:
                    start, end = start + inner[0], start + inner[1]
                    value = text[start:end]
                if cyrillic_not_a_name(value):
                    continue  # "Привет": an English model's guess on Cyrillic text, made of ordinary words
            if label is Label.PERSON:
                start, end = widen_over_particles(text, start, end, backward=not lead)  # "Van der Berg", not "Berg"
                value = text[start:end]
                quote = _NICKNAME_QUOTE.search(value)
                if quote and quote.start() > 0:
                    # "Reginald 'Reg' Thornton" read as "Reginald 'Reg": the given name; the
                    # nickname and the surname are found on their own (person_names)
                    end = start + len(value[: quote.start()].rstrip())
                    value = text[start:end]
            score = _BASE_SCORE[label]
            if label is Label.PERSON and any(ch.isdigit() for ch in value):
                continue  # "Leeds LS6 2QT": people's names have no digits
            if label is Label.PERSON:
                first = ent[0]
                if len(ent) == 1 and first.pos_ in ("VERB", "AUX", "ADV", "ADJ", "PRON") and not _name_in_a_pair(ent, names):
                    continue  # "Mark my words", "Bill me later"
                tokens = value.split()
                listed = any(names.is_first_name(t) or names.is_last_name(t) for t in tokens)
                if listed:
                    score = 0.85
                if value.islower():
                    if not listed and all(is_common_word(t) for t in tokens):
                        continue  # "git log shows commits": lower-case everyday words, no name
                    score -= 0.2
            if label is Label.DATE and re.fullmatch(r"[\d\s#-]{5,}", value):
                continue  # a long run of digits is a number (card, account), not a date
            if label is Label.DATE and not re.search(r"\d", value):
                score = 0.4  # "Wednesday", "last year": rarely identifying
            spans.append(Span(start, end, label, value, score, self.name))
        return spans


def _numbered_thing(value: str, start: int, detector: str) -> list[Span] | None:
    """A kind of thing and its number that NER read as a name: for a record ("Ticket 4411",
    whose stand-in was "Crest 8291") its number as an ID, for a room, a gate or a chapter
    nothing; None when the span is neither (a product or a codename with a number, "Falcon
    2", stays a name)."""
    numbered = _NUMBERED_THING.fullmatch(value)
    if numbered is None:
        return None
    kind = numbered.group("kind").casefold()
    if kind in _RECORD_WORDS:
        return [Span(start + numbered.start("number"), start + len(value), Label.ID, numbered.group("number"), 0.6, detector)]
    return [] if kind in _NUMBERED_PLACES_AND_PARTS else None


class _LowerWords:
    """The words a text writes in lower case, collected on first use (most texts never ask)."""

    def __init__(self, text: str):
        self.text = text
        self._words: frozenset[str] | None = None

    def __contains__(self, word: str) -> bool:
        if self._words is None:
            self._words = frozenset(_LOWER_WORD.findall(self.text))
        return word in self._words


_LOWER_WORD = re.compile(r"(?<![\w\-])[a-z]+(?![\w\-])")


def _word_not_name(token, value: str, names, text: str, lower_words: _LowerWords) -> bool:
    """One capitalised ordinary word ("Schedule", "Delete", "Training") that NER took for a
    person or an organisation, and that the text itself shows to be a word: the tagger
    reads it as a common noun, verb or adjective, or the text writes it in lower case
    elsewhere ("Hits (number of hits)"). Words the name lists know ("Ivy", "Bill") and
    listed companies stay, and so do words only capitalised ("we nicknamed him Moth"): a nickname
    can be an ordinary word."""
    if not (value.isalpha() and value[:1].isupper() and not value.isupper() and is_common_word(value)):
        return False
    if names.is_first_name(value) or names.is_last_name(value) or is_listed_company(value):
        return False
    # "'Mug arrived broken'": the first word of a sentence has its capital from its place.
    # A nickname that is a word is written so inside a sentence too ("we call him Moth").
    opens_sentence = _SENTENCE_OPEN_BEFORE.search(text, max(0, token.idx - 4), token.idx) is not None
    return token.pos_ != "PROPN" or value.casefold() in lower_words or (opens_sentence and not _PERSON_AFTER.match(text, token.idx + len(value)))


def _name_in_a_pair(ent, names) -> bool:
    """A first name the tagger read as a verb, joined to a pronoun or another name by
    "and"/"or" inside a sentence ("drove you and Ivo home"): a person. At the start of a
    sentence the verb reading wins ("Mark my words")."""
    doc, i = ent.doc, ent.start
    if i < 2 or doc[i - 1].lower_ not in ("and", "or") or not names.is_first_name(ent.text):
        return False
    before = doc[i - 2]
    return before.pos_ in ("PRON", "PROPN") and before.lower_ not in ("it", "this", "that", "what", "which")


_ACTING_LABELS = frozenset({Label.ORG, Label.LOCATION})


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


def _full_name_shape(value: str, names) -> bool:
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


def _rare_word_pair(value: str) -> bool:
    """Two or three capitalised words, each rare in English, that no place list, company
    list or legal form knows ("Kasia Wrona", "Teodor Mălăescu"): NER reads such foreign
    names as organisations or places, but on the fit half's prompts they were people three
    times out of four. Names the lists know are left to _full_name_shape."""
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
    "booked hired emailed texted phoned smiled laughed cried ate slept walked married loves loved likes liked "
    "wants wanted hates hated feels felt thinks forgot remembers remembered wrote writes bought sings sang "
    "danced cooked studied graduated moved".split()
)


def _personal_subject(ent, names) -> bool:
    """A one-word first name NER read as a person, that opens a clause and does what only a
    person does: the person, even when a country has the same name."""
    if len(ent) != 1 or not names.is_first_name(ent[0].text):
        return False
    doc = ent.doc
    if ent.end >= len(doc) or doc[ent.end].lower_ not in _PERSONAL_VERBS:
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
