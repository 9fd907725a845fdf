"""spaCy named-entity recognition, mapped to Veil's labels and cleaned of its usual
mistakes on prompts (verbs at the start of a sentence, e-mail addresses as ORG...)."""

from __future__ import annotations

import re

from agent.detect.base import DetectionContext
from agent.detect.cyrillic_names import name_bounds as cyrillic_name_bounds
from agent.detect.cyrillic_names import not_a_name as cyrillic_not_a_name
from agent.detect.ner_labels import PERSON_SCORE, NerReading, relabel
from agent.detect.nlp import LazyAnalysis, SpacyPipeline
from agent.detect.particle_surnames import widen_over_particles
from agent.detect.person_names import initial_and_everyday_word, kinship_letters
from agent.entities import Label, Span
from agent.knowledge.acronyms import everyday_acronym
from agent.knowledge.companies import is_listed_company
from agent.knowledge.currencies import currency_of_an_amount
from agent.knowledge.frequency import zipf
from agent.knowledge.hosts import is_service_label
from agent.knowledge.language_names import is_language_name
from agent.knowledge.languages import text_language, zipf_in_languages
from agent.knowledge.names import lexicon
from agent.knowledge.not_names import CALENDAR_WORDS, NOT_ENTITIES, is_field_label
from agent.knowledge.org_words import (
    is_generic_org,
)
from agent.knowledge.person_words import EPONYM_AFTER
from agent.knowledge.places import is_known_place, names_a_polity_event_or_landmark, place_kind
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
    Label.PERSON: PERSON_SCORE,
    Label.ORG: 0.6,
    Label.LOCATION: 0.7,
    Label.NORP: 0.6,
    Label.DATE: 0.6,
}
# Not names: symbols only, e-mail/URL pieces, code (brackets, operators, dotted calls).
_JUNK = re.compile(r"^[\W\d_]+$|@|://|[(){}\[\]<>=;|\\]|\w\.\w+\(|\b\w+_\w+|\d+[/.\-]\d+[/.\-]\d+")
# A label's colon right after a span ("Lieferadresse: ...").
_FIELD_COLON = re.compile(r"[ \t]*:")
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
    r"(?i)(?:\binto|\bin|\b(?:translat\w*|write|written|reply|respond|answer|say|speak|spoken|language)\b[^.!?\n]{0,40}?\b(?:to|in|from))[ \t]+$"
)
_FIRM_IN_TOWN = re.compile(r"(.+?)[ \t]+(?:in|at)[ \t]+([A-Z][\w'’\-]*(?:[ \t][A-Z][\w'’\-]*)?)")
_NICKNAME_QUOTE = re.compile(r"[ \t]['\"“‘]")  # a quote opening inside a name: a nickname follows
# A job and where it is held, after a one-word "person": "Barista at Costa Coffee".
_ROLE_AT_AFTER = re.compile(r"[ \t]+at[ \t]+[A-Z]")
_WORD_ZIPF = 2.5  # wordfreq: written this often, a word NER took for a name ("barista" 2.9)
# Every word of a "person" written this often in German, French, Spanish, Italian,
# Portuguese or Dutch, and none a listed name: a phrase ("Vielen Dank" 5.5 / 5.3).
_PHRASE_ZIPF = 4.0
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
        spans: list[Span] = []
        lower_words = _LowerWords(text)
        puzzle_letters = kinship_letters(text)
        for ent in doc.ents:
            label = LABEL_MAP.get(ent.label_)
            if label is None:
                continue
            reading = _bounds(ent, text, label)
            if reading is None:
                continue
            instead = _set_aside(reading, puzzle_letters, self.name)
            if instead is not None:
                spans.extend(instead)
                continue
            spans.extend(relabel(reading, names, self.name))
            span = _checked(reading, names, lower_words, self.name)
            if span is not None:
                spans.append(span)
        return spans


def _bounds(ent, text: str, label: Label) -> NerReading | None:
    """The entity without what NER takes into a name: a verb or a greeting before it, a
    verb or a preposition after it, symbols, a possessive "'s"; a saint's name runs on to
    the kind of place named after it. None for junk (code, addresses, symbols)."""
    start, end = ent.start_char, ent.end_char
    value = text[start:end]
    if label is not Label.DATE and _JUNK.search(value):
        return None
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
        label = Label.ORG
    return NerReading(ent, text, label, start, end, bool(lead))


def _set_aside(r: NerReading, puzzle_letters: frozenset[str], detector: str) -> list[Span] | None:
    """None for an entity that goes on to be labelled; else what it is instead (nothing,
    or a record's number): a contraction, a language to write in, a field's label, a kind
    of number or of organisation, a relation puzzle's letters. Trims a firm's town off
    ("Bosch in Stuttgart")."""
    label, text, start, end = r.label, r.text, r.start, r.end
    value = r.value
    if not value.strip() or (len(value) < 2 and label is not Label.DATE) or _CONTRACTION.fullmatch(value):
        return []
    if label is not Label.DATE and is_language_name(value) and _LANGUAGE_BEFORE.search(text, max(0, start - 60), start):
        return []  # "Translate to German": the language of the answer, nobody's name
    firm_in_town = _FIRM_IN_TOWN.fullmatch(value) if label is Label.ORG else None
    if firm_in_town and is_known_place(firm_in_town.group(2)):
        end = r.end = start + len(firm_in_town.group(1))  # "Bosch in Stuttgart": the firm; the town is a place
        value = r.value
    numbered = _numbered_thing(value, start, detector) if label is not Label.DATE else None
    if numbered is not None:
        return numbered  # "Ticket 4411": its number is an ID; "Room 12B": nothing
    if (label in (Label.LOCATION, Label.ORG) and value.isupper() and len(value) <= 3
            and _POSSESSIVE_BEFORE.search(text, max(0, start - 8), start) and place_kind(value)[0] == "country"):
        return []  # "our PM", "her TA": a role's abbreviation, not a country's code
    if label in (Label.LOCATION, Label.ORG) and value.isupper() and len(value) <= 4 and _NUMBER_AFTER.match(text, end):
        return []  # "PCN AB12345678", "NHS 485 777 3456": the kind of a number, no place (stand-in "PITCAIRN")
    if label is not Label.DATE and currency_of_an_amount(text, start, end):
        return []  # "NOK 12,400", "300 CHF": a currency (ISO 4217), no firm (stand-in "HPG")
    if label is Label.PERSON and " " not in value and EPONYM_AFTER.match(text, end):
        return []  # "Parkinson's disease", "Occam's razor": a term named after someone
    if label in (Label.PERSON, Label.LOCATION) and names_a_polity_event_or_landmark(value.removeprefix("the ")):
        return []  # "the fall of the Berlin Wall", "the Roman Empire": no one's name
    if (label in (Label.LOCATION, Label.ORG) and everyday_acronym(text, start, end)
            and not is_listed_company(value) and place_kind(value)[0] != "country"):  # "outside the UK but"
        return []  # "my father's MRI results", "a CT scan": a term, no firm and no state
    if label in (Label.PERSON, Label.ORG) and value.islower() and "-" in value and is_service_label(value):
        return []  # "the deploy to prod-eu": an environment's name, nobody's
    if label is not Label.DATE and _FIELD_COLON.match(text, end) and is_field_label(value):
        return []  # "Meine Adresse:", "Adresse de livraison:": a field's label, not a name
    if value.casefold() in NOT_ENTITIES or (label is Label.ORG and is_generic_org(value)):
        return []  # "the Union", "the Court": a kind of organisation, not one
    if puzzle_letters and label is not Label.DATE and any(t in puzzle_letters for t in re.findall(r"\b[A-Z]\b", value)):
        return []  # "M. S" across two sentences of a relation puzzle: the letters are people
    return None


def _checked(r: NerReading, names, lower_words: _LowerWords, detector: str) -> Span | None:
    """The span of a labelled entity, scored, after the last checks on what a name can be
    (None when it is none): an ordinary word, a job before "at", digits, a verb."""
    ent, text, label, start, end = r.ent, r.text, r.label, r.start, r.end
    value = r.value
    if label in (Label.PERSON, Label.ORG) and len(ent) == 1 and _word_not_name(ent[0], value, names, text, lower_words):
        return None
    if (label is Label.PERSON and len(ent) == 1 and _ROLE_AT_AFTER.match(text, end) and zipf(value) >= _WORD_ZIPF
            and not (names.is_first_name(value) or names.is_last_name(value))):
        return None  # "Experience: Barista at Costa Coffee": a job held at a firm, nobody's name
    if label is Label.ORG and value.islower() and len(value) <= 4 and is_common_word(value) and not is_listed_company(value):
        return None  # "my tenancy ref is": a short everyday word in lower case, no firm
    if label is Label.PERSON and not value.isascii():
        inner = cyrillic_name_bounds(value)  # "Скажи Оксані Мельник", "Смирнов В. П. по просьбе"
        if inner:
            start, end = start + inner[0], start + inner[1]
            value = text[start:end]
        if cyrillic_not_a_name(value):
            return None  # "Привет": an English model's guess on Cyrillic text, made of ordinary words
    if label is Label.PERSON:
        start, end = widen_over_particles(text, start, end, backward=not r.trimmed_lead)  # "Van der Berg", not "Berg"
        value = text[start:end]
        quote = _NICKNAME_QUOTE.search(value)
        if quote and quote.start() > 0:
            # "Reginald 'Reg' Thornton" read as "Reginald 'Reg": the given name; the
            # nickname and the surname are found on their own (person_names)
            end = start + len(value[: quote.start()].rstrip())
            value = text[start:end]
    score = _BASE_SCORE[label]
    if label is Label.PERSON and any(ch.isdigit() for ch in value):
        return None  # "Leeds LS6 2QT": people's names have no digits
    if label is Label.PERSON and initial_and_everyday_word(value):
        return None  # "vitamin C. Results": a letter ends a sentence, an everyday word opens the next
    if label is Label.PERSON:
        first = ent[0]
        if len(ent) == 1 and first.pos_ in ("VERB", "AUX", "ADV", "ADJ", "PRON") and not _name_in_a_pair(ent, names):
            return None  # "Mark my words", "Bill me later"
        tokens = value.split()
        listed = any(names.is_first_name(t) or names.is_last_name(t) for t in tokens)
        if not listed and len(tokens) > 1 and _foreign_phrase(tokens, text):
            return None  # "Vielen Dank", "Feliz Navidad": everyday words of some language, no name
        if listed:
            score = 0.85
        if value.islower():
            if not listed and all(is_common_word(t) for t in tokens):
                return None  # "git log shows commits": lower-case everyday words, no name
            score -= 0.2
    if label is Label.DATE and re.fullmatch(r"[\d\s#-]{5,}", value):
        return None  # a long run of digits is a number (card, account), not a date
    if label is Label.DATE and not re.search(r"\d", value):
        score = 0.4  # "Wednesday", "last year": rarely identifying
    return Span(start, end, label, value, score, detector)


def _foreign_phrase(tokens: list[str], text: str) -> bool:
    """A greeting or a title of another language in an English text ("Vielen Dank", "Feliz
    Navidad"): whole words of three letters or more (no initials: "S. Right" is a name),
    each frequent in one of the languages the English model meets most. Texts in those
    languages are languages.ordinary_foreign_words'."""
    if not all(len(t) >= 3 and t.isalpha() for t in tokens) or text_language(text) is not None:
        return False
    return all(zipf_in_languages(t) >= _PHRASE_ZIPF for t in tokens)


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
