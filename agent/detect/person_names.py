"""Person names that NER misses:
- after a title ("Ms. Mitchell") or a cue ("my name is", "Dear", "my friend", "Regards,");
- proper nouns that several locales' curated lists know as first names (Faker's name
  lists), extended over the surname that follows;
- lower-case "first last" pairs where both halves are known names ("naomi ryan");
- a name alone on its line (signatures, address blocks);
- the rest of a list whose other items are names ("Efimiya, Mary, Ariana and Jodi").
"""

from __future__ import annotations

import re
from functools import lru_cache

from agent.detect.base import DetectionContext
from agent.detect.cyrillic_names import not_a_name as cyrillic_not_a_name
from agent.detect.nlp import LazyAnalysis, SpacyPipeline, person_pronoun_in
from agent.entities import Label, Span
from agent.knowledge.companies import is_listed_company
from agent.knowledge.frequency import zipf
from agent.knowledge.geonames import is_town_of_5000
from agent.knowledge.language_names import is_language_name
from agent.knowledge.languages import zipf_in_languages
from agent.knowledge.names import lexicon
from agent.knowledge.not_names import CALENDAR_WORDS, LINE_LABELS, NOT_ENTITIES, NOT_NAMES
from agent.knowledge.org_words import ORG_KIND_WORDS
from agent.knowledge.person_words import (
    EPONYM_AFTER,
    ET_AL,
    NAME_PARTICLES,
    RELATION_PATTERN,
    ROLE_NOUNS,
    TITLE_PATTERN,
    TITLE_WORDS,
)
from agent.knowledge.places import (
    PLACE_PREPOSITIONS,
    is_known_place,
    is_sizeable_town,
    names_a_polity_event_or_landmark,
    place_kind,
)
from agent.knowledge.public_entities import is_known_organisation
from agent.knowledge.words import is_common_word, word_frequency

# The prefix of MacLeod, McKenna, FitzGerald, O'Brien: a capital follows it.
_SURNAME_PREFIX = r"(?:(?:Mc|Mac|Fitz|O['’])(?=[A-Z]))?"
_UPPER_TOKEN = _SURNAME_PREFIX + r"[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ'’\-]*[a-zà-öø-ÿĀ-ſ](?:-[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]+)?(?!\w)"
# A pronoun with a contracted verb ("I'm", "We'll", "She's"), or a negation ("Don't"): never
# a name, whatever its capital ("Anna's" is a name's possessive, so 's counts after pronouns only).
_CONTRACTED = re.compile(
    r"I['’](?:m|d|ll|ve)|(?:You|We|They|He|She|It|That|There|What|Who|Let)['’](?:s|d|ll|ve|re)|[A-Z][a-z]{1,5}n['’]t"
)
_NAME = rf"{_UPPER_TOKEN}(?:\s+(?:[A-Z]\.?\s+)?{_UPPER_TOKEN}){{0,2}}"
# Academic citations: "<Surname> et al." (a particle before it: "van Dijk et al."), and two
# authors before a year in brackets: "(<Surname> & <Surname>, 2019)", "(<Surname> and <Surname> 2019a".
_ET_AL = re.compile(rf"(?<![\w-])(?P<v>(?:(?:van|von|de|der|den|da|di|le|la)\s+){{0,2}}{_UPPER_TOKEN}){ET_AL}")
_CITATION_YEAR = re.compile(r"[,\s](?:19|20)\d\d[a-z]?\s*[;)]")
_TWO_AUTHORS = re.compile(
    rf"\(\s*(?P<a>{_UPPER_TOKEN})\s*(?:&|and)\s*(?P<b>{_UPPER_TOKEN}),?\s+(?:19|20)\d\d[a-z]?\s*[;)]"
)
_TITLE_NAME = re.compile(rf"\b(?:{TITLE_PATTERN})\.?\s+(?P<v>{_NAME})")
# Cues after which any capitalised words are a name.
_STRONG_CUE = re.compile(
    rf"(?:\b(?:[Mm]y name is|[Mm]y name's|[Mm]y name:|I am called|I'm called|[Nn]amed|[Cc]alled|"
    rf"[Ss]igned|(?:[Ff]irst|[Ll]ast|[Ff]ull|[Mm]iddle|[Mm]aiden|[Ss]ur)\s?name(?:\s+is|\??:?)|[Nn]ame\s*:|"
    rf"[Dd]ear|[Mm]y (?:[a-z\-]+\s+)?(?:{RELATION_PATTERN}),?|[Oo]ur (?:{RELATION_PATTERN}),?|[Hh]is (?:{RELATION_PATTERN}),?|"
    rf"[Hh]er (?:{RELATION_PATTERN}),?|[Yy]ou are|[Cc]all (?:me|him|her|them)|[Cc]alls (?:me|him|her)|"
    rf"(?:[Cc]o-?)?[Ff]ounders?:?|[Ff]ounded by|[Mm]embers:|[Pp]layers:|[Cc]haracters:|[Aa]uthors?:|"
    rf"(?:[Cc]haracters?|[Pp]rotagonist|[Aa]ntagonist|[Vv]illain|[Hh]eroine|[Hh]ero),)"
    rf"|(?:[Ss]incerely|[Rr]egards|[Bb]est|[Cc]heers|[Tt]hanks|[Tt]hank you|"
    rf"[Yy]ours(?: truly)?|[Ww]arm(?:ly)?|[Bb]est wishes|[Ll]ove),?\s*\n)"
    rf"[ \t]*['\"“]?(?:(?:{TITLE_PATTERN})\.?\s+)?(?P<v>{_NAME})"
)
# Form fields whose value is a person: "Customer: Priya Raman", "From: Tom Reed".
_FORM_FIELD = re.compile(
    rf"(?m)^[ \t>*\-]*(?:Customer|Client|Contact|Patient|Employee|Applicant|Tenant|Guest|Attendee|Recipient|"
    rf"Sender|From|To|Cc|Assignee|Reporter|Owner|Requester|Caller)(?:\s+[Nn]ame)?[ \t]*:[ \t]*(?P<v>{_NAME})[ \t]*$"
)
# One lower-case given name after the writer's relation: "my bf jasper keeps ghosting me",
# "our neighbour ingrid" (a first name of two or more locales' lists, no everyday word).
_LOWER_NAME_AFTER_RELATION = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)[ \t]+(?:{RELATION_PATTERN})[ \t,]+(?P<v>[a-zà-öø-ÿĀ-ſ][a-zà-öø-ÿĀ-ſ'’\-]{{2,}})(?![\w'’\-])"
)


# Who a chat message is from, in lower case: "hey its ravi, can u ...", "this is sunita
# here", "yo its jamal" (at the start of a message or after a greeting).
_LOWER_SELF_NAMED = re.compile(
    r"(?im)(?:^|(?:hey|hi|hiya|hello|yo)[ \t,]+)(?:it['’]?s|this[ \t]+is)[ \t]+"
    r"(?P<v>[a-zà-öø-ÿĀ-ſ]{3,})(?=[ \t]*(?:[,.!\n]|$|here\b))"
)
# One given a task in lower-case notes: "vikram to email the client".
_LOWER_TASKED = re.compile(r"(?m)^[ \t]*(?:[-*•][ \t]+)?(?P<v>[a-zà-öø-ÿĀ-ſ]{3,})[ \t]+to[ \t]+[a-z]{2,}")


def _known_organisation(value: str) -> bool:
    return is_listed_company(value) or is_known_organisation(value)


def _lower_given_name(word: str) -> bool:
    """A given name several locales list, or one only one lists ("deepa": en_IN) that is
    rarely written in English: one list alone holds ordinary words ("will", "summer")."""
    listed_in = lexicon().info(word).first_in - {"en"}
    return ((len(listed_in) >= 2 or (listed_in and zipf(word) < _UNLISTED_FIRST_ZIPF)) and not is_common_word(word)
            and word not in _FUNCTION_WORDS and word.capitalize() not in NOT_NAMES)


# A greeting to one person in lower case at the start of a message, a line or a sentence
# ("hi priya, sorry i missed ur call"); `end`: the comma, stop or line end after the name.
_LOWER_GREETING = re.compile(
    r"(?:^|(?<=[\n.!?:;,\"“])[ \t]*)(?:hi|hello|hey|hiya|dear|morning|thanks|thank you|cheers)[ \t]+"
    r"(?P<v>[a-zà-öø-ÿĀ-ſ][a-zà-öø-ÿĀ-ſ'’\-]{2,})(?![\w'’\-])(?P<end>[ \t]*(?:[,!.:;\n]|$))?",
    re.MULTILINE,
)
# The nickname's marks: quotes, or brackets with or without quotes ('Katarzyna ("Kasia")
# Nowak', "Robert (Bobby) Tanaka").
_NICK_OPEN = r"(?:\([ \t]*['\"“‘]?|['\"“‘])"
_NICK_CLOSE = r"(?:['\"”’]?[ \t]*\)|['\"”’])"
_QUOTED_NICKNAME = re.compile(
    rf"(?<![\w'’])(?P<first>[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]{{1,20}})[ \t]+{_NICK_OPEN}(?P<nick>[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]{{1,15}}){_NICK_CLOSE}"
    r"[ \t]+(?P<last>[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ'’\-]{1,25})(?![\w'’])"
)
# What stands before the surname of "Reginald 'Reg' Thornton": the surname's stand-in is a surname.
NICKNAME_BEFORE = re.compile(
    rf"[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]{{1,20}}[ \t]+{_NICK_OPEN}[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]{{1,15}}{_NICK_CLOSE}[ \t]+$"
)
# "A. Okonjo", "J. R. Tolkien-Vance": one or two initials, then a surname.
_INITIAL_SURNAME = re.compile(
    rf"(?<![\w.])[A-Z]\.[ \t]?(?:[A-Z]\.[ \t]?)?(?P<last>{_SURNAME_PREFIX}[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ][a-zà-öø-ÿĀ-ſ'’]*(?:-[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ'’]+)?)(?![\w'’\-])"
)
# A lower-case self-introduction with an age: "im jake, 27, nurse in glasgow". `end`: the age,
# which an everyday word needs ("frank" and "grace" are words after "i'm" too); "my name is
# jake" is _INTRO's (_by_introduction).
_LOWER_SELF_INTRO = re.compile(
    r"(?:^|(?<=[\s,.;:!?]))(?:i['’]?m|i[ \t]+am|this[ \t]+is)[ \t]+"
    r"(?P<v>[a-zà-öø-ÿĀ-ſ][a-zà-öø-ÿĀ-ſ'’\-]{2,})(?![\w'’\-])(?P<end>[ \t]*,[ \t]*\d{1,2}\b)?",
    re.MULTILINE,
)
# A lower-case sign-off: "... till 5. - tom", "thanks, anna" at the end of a line.
_LOWER_SIGN_OFF = re.compile(
    r"(?:(?:(?<=[\s.!?,;:])|^)[-–—~][ \t]?|(?:thanks|thank you|cheers|love|regards|best)[ \t]*,?[ \t]*\n?[ \t]*)"
    r"(?P<v>[a-zà-öø-ÿĀ-ſ][a-zà-öø-ÿĀ-ſ'’\-]{2,})(?P<end>[ \t]*[.!]?[ \t]*(?:['\"”’)]|$))",
    re.MULTILINE,
)
# A message signed with a dash at its end: "... from March. -Kwabena'", "see you then
# — Ines" (the name a listed first name, then the end of the line or a closing quote).
_DASH_SIGN_OFF = re.compile(
    rf"(?:(?<=[\s.!?,;:])|^)[-–—~][ \t]?(?P<v>{_UPPER_TOKEN}(?:[ \t]{_UPPER_TOKEN})?)(?=[ \t]*(?:['\"”’)]|$))",
    re.MULTILINE,
)
# A role noun used as a title in case notes, HR and court prose: "Patient Rosalind
# Achterberg, 54, presented with", "Applicant Tomas Ferreira". The words after it must be
# no everyday words ("Patient Portal", "Client Services", "Student Union" are not people).
_ROLE_TITLE = re.compile(
    rf"\b(?:{'|'.join(f'[{w[0]}{w[0].lower()}]{w[1:]}' for w in ROLE_NOUNS)})[ \t]+(?P<v>{_UPPER_TOKEN}(?:[ \t]+(?:[A-Z]\.?[ \t]+)?{_UPPER_TOKEN}){{1,2}})"
)
# Two capitalised words on one line, every pair tried (see _FIRST_THEN_SURNAME).
_CAPITALISED_PAIR = re.compile(
    r"(?<![\w'’\-])(?=(?P<first>[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]{2,})[ \t]+(?P<last>[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]{2,})(?![\w\-]))"
)
# A first name the lists lack ("Priyanka", "Oluwaseun") is still a word no dictionary
# has and that is written rarely: under this Zipf frequency (most brands and places that
# are not in the lists are above it: "Palo" 3.3, "Costa" 4.2).
_UNLISTED_FIRST_ZIPF = 3.0
# The same in a neighbouring language, a little higher: their corpora write some names
# that often ("sunita" 3.0 in Portuguese), their everyday words lie far above ("Dank" 5.3).
_FOREIGN_WORD_ZIPF = 3.5
# Two name-shaped words are a person where a person stands: after a word one says to or
# of a person ("lunch with", "invite", "thanks"), or before what a person does ("... will
# join the call", "... said", "...'s desk"; not "is", "has": things are and have too).
# Without such a cue a pair of unknown capitalised words is as often a product or a
# foreign phrase.
_PERSON_CUE_BEFORE = re.compile(
    r"\b(?:[Hh]i|[Hh]ello|[Hh]ey|[Tt]hanks|[Aa]sk|[Ww]ith|[Cc]ontact|[Tt]ell|[Cc]all|[Ee]mail|[Tt]ext|[Mm]eet|[Mm]et|"
    r"[Ii]nvite|[Rr]emind|[Cc]c|[Cc]olleague|[Ff]riend|[Bb]oss|[Mm]anager|[Pp]artner|[Nn]eighbou?r)[,:]?[ \t]+$"
)
_PERSON_VERB_AFTER = re.compile(
    r"[ \t]+(?:will|would|said|says|told|asked|wrote|sent|joined|joins|called|emailed|replied|mentioned|thinks|"
    r"wants|needs|agreed)\b|['’]s\b"
)
# One name-shaped word greeted or thanked and followed by a comma or a stop ("Thanks Olumide,").
_GREETED_WORD = re.compile(
    r"(?:^|(?<=[\n.!?])[ \t]*)(?:Hi|Hello|Hey|Thanks|Thank you|Cheers)[ \t]+"
    r"(?P<v>[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]{2,})(?=[ \t]*(?:[,!.:;\n]|$))"
)
# One who is to do something, in a list of tasks: "Chidi to book the room", "- Ayo to
# chase the invoice". A clause opens with the word, "to" and a verb follow it.
_TASKED_WORD = re.compile(
    r"(?:^|(?<=[\n.;:,!?])[ \t]*|(?<=[\n])[ \t]*[-*•][ \t]+|(?<=\band)[ \t]+)"
    r"(?P<v>[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]{2,})[ \t]+to[ \t]+[a-z]{2,}"
)
# Whom someone marries or dates: "his wedding to Aisling", "engaged to Rhys". Only a person
# is (NER reads an unknown name there as a place: "engaged to Eilidh").
PARTNER_CUE = (
    r"(?:[Ww]edding|[Mm]arriage|[Mm]arried|[Ee]ngaged|[Ee]ngagement)[ \t]+to|[Mm]arr(?:y|ying|ies)|[Dd]ating"
    r"|[Dd]ivorc(?:e|ing)[ \t]+from"
)
PARTNER_BEFORE = re.compile(rf"\b(?:{PARTNER_CUE})[ \t]+$")
# Cues after which a capitalised word is a name only if the name lists know it.
_WEAK_CUE = re.compile(
    rf"\b(?:[Hh]i|[Hh]ello|[Hh]ey|[Tt]hanks|[Aa]sk|[Ww]ith|[Ff]rom|[Cc]ontact|[Tt]ell|[Cc]all|[Ee]mail|"
    rf"[Tt]ext|[Mm]eet|[Mm]et|[Mm]eeting|[Ii] am|I'm|[Ii]nvite|[Hh]elp|[Ss]ee|[Vv]isit|[Rr]emind|"
    rf"{PARTNER_CUE})"
    # "Hey, I'm Sven": the pronoun is no name, and must not use up the "I'm" cue after it
    rf"[,:]?\s+(?:(?:{TITLE_PATTERN})\.?\s+)?(?!(?:{_CONTRACTED.pattern})(?![\w'’]))(?P<v>{_NAME})"
)
# "Odo: Let us begin..." - a speaker label at the start of a line, or after the time stamp
# of a chat export, which may run on in one line ("[10:02] Odo: deploy is blocked [10:03]").
_CHAT_TIME = r"[\[(]\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]?[AaPp][Mm])?[\])][ \t]*"
_SPEAKER = re.compile(
    rf"(?m)(?:^[ \t>*\-]*(?:{_CHAT_TIME})?|{_CHAT_TIME})(?P<v>{_UPPER_TOKEN}(?:\s{_UPPER_TOKEN})?|[A-Z]{{2,3}})[ \t]*:[ \t]*\S"
)
# Words of a name are on one line: "[ \t]+", never "\s+", between them (else "Ada Roe\n\nNurse"
# reads as one three-word name, and the check of its last word rejects the real one).
_LINE_NAME = re.compile(
    rf"(?m)^[ \t>*\-]*(?P<v>{_UPPER_TOKEN}(?:[ \t]+[A-Z]\.?)?(?:[ \t]+{_UPPER_TOKEN}){{1,2}})[ \t]*,?$"
)
# The same in lower case ("ulrike hansen" heading a lower-cased address block).
_LOWER_LINE_NAME = re.compile(r"(?m)^[ \t>*\-]*(?P<v>[a-zà-öø-ÿĀ-ſ]{2,}(?:[ \t]+[a-z]\.?)?(?:[ \t]+[a-zà-öø-ÿĀ-ſ'’\-]{2,}){1,2})[ \t]*,?$")
_LIST = re.compile(
    rf"(?<![\w'’-])(?P<items>{_UPPER_TOKEN}(?:\s{_UPPER_TOKEN})?(?:\s*(?:,|;|\band\b|\bor\b|&|,\s*(?:and|or)\b)\s*{_UPPER_TOKEN}(?:\s{_UPPER_TOKEN})?){{1,}})"
)
_LOWER_LIST = re.compile(r"\b[a-zà-ÿ]{3,}(?:\s*(?:,|\band\b|\bor\b|&)\s*[a-zà-ÿ]{3,}){2,}")


# Both in a look-ahead, so that every pair of words is tried ("Dear Irene Walcott": the
# failed pair "Dear Irene" must not swallow the name).
_FIRST_THEN_SURNAME = re.compile(
    r"(?<![\w'’\-])(?=(?P<first>[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]{2,})(?P<gap>[ \t]+|[ \t]*\n[ \t]*)"
    rf"(?P<last>{_SURNAME_PREFIX}[A-ZÀ-ÖØ-ÞĀ-ſa-zà-öø-ÿĀ-ſ][a-zà-öø-ÿĀ-ſ'’]+(?:-[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ'’]+)*)(?![\w\-]))"
)
# A middle initial may stand between ("ELENA V MARKOVIC", "JOHN Q. PUBLIC" on a card or a form).
_CAPITALS_PAIR = re.compile(
    r"(?<![\w\-])(?=(?P<first>[A-ZÀ-ÖØ-Þ]{3,})[ \t]+(?:[A-Z]\.?[ \t]+)?(?P<last>[A-ZÀ-ÖØ-Þ]{2,}(?:-[A-ZÀ-ÖØ-Þ]{2,})*)(?![\w\-]))"
)
# The surname after a middle name in capitals: "KIMBERLY ANNE DOUGLAS".
_CAPITALS_NEXT = re.compile(r"[ \t]+(?P<w>[A-ZÀ-ÖØ-Þ]{2,}(?:-[A-ZÀ-ÖØ-Þ]{2,})*)(?![\w\-])")
# Self-introductions and role-play set-ups in any case: "my name is ines", "you are kofi and
# i am ada", "i am belinda, a nurse". After "I am"/"you are" most words are adjectives or
# nouns, so there the word must also be rare in English and be followed by what follows a
# name (punctuation, "and", an apposition "a ..."), not by more of a sentence.
_INTRO = re.compile(
    r"(?<![\w'’])(?=[MmIiCcYyUuHhTt])(?P<cue>[Mm]y name is|[Mm]y name'?s|[Ii] am called|[Ii]'?m called|[Cc]all me|[Ii] am|[Ii]'?m|[Yy]ou are|[Uu] are"
    # someone else named: "his name is tyler brockway", "my landlord's name is ..."
    r"|(?:[Hh]is|[Hh]er|[Tt]heir|[Yy]our|(?:[Mm]y|[Tt]he|[Oo]ur)[ \t]+[a-z\-]+['’]s)[ \t]+(?:full[ \t]+)?name(?:[ \t]+is|['’]s))"
    r"[ \t]+(?P<v>[A-Za-zà-öø-ÿĀ-ſ][a-zà-öø-ÿĀ-ſ'’\-]*[a-zà-öø-ÿĀ-ſ])(?![\w'’\-])"
)
_AFTER_INTRODUCED = re.compile(r"[ \t]*(?:$|[,.;:!?)]|\n|(?:and|a|an)\b)")
_NAMING_CUES = frozenset({"my name is", "my names", "my name's", "i am called", "im called", "i'm called", "call me"})
# A list of people after the word that says what they are: "the co-founders: Ames, Brook
# and Cole", "speakers were Dunn, Ebert, Fox".
_PEOPLE_LIST_CUE = re.compile(
    r"(?i)\b(?:co-?founders|founders|authors|co-?authors|characters|players|cast|speakers|guests|attendees|"
    r"participants|panelists|panellists|witnesses|founded by|written by|starring)"
    r"(?:[ \t]+(?:are|were|include|included|includes))?[ \t]*:?[ \t]*$"
)
# Someone addressed at the start of a sentence before a request ("Ilse, could you send it?")
# or named after a sign-off on the same line ("Kind regards, Ilse"): one capitalised word.
# (Found from the rare request tail, a literal comma first, then the word before it.)
_VOCATIVE_TAIL = re.compile(r",[ \t]+(?:can|could|would|will|do|did|have|are)[ \t]+(?:I|you|we)\b")
_VOCATIVE_WORD = re.compile(r"(?:^|[.!?\n])[ \t]*(?P<v>[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]{2,})$")
_SIGN_OFF_SAME_LINE = re.compile(
    r"\b(?:[Bb]est|[Kk]ind|[Ww]arm|[Ww]armest)[ \t]+[Rr]egards,[ \t]*(?P<v>[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]{2,})\b"
)
# Letters of scripts other than Latin, and CJK punctuation: in Chinese, Japanese or Korean
# text a Latin name touches them with no space ("转发给Ingrid，", "Solberg는"), and NER, which reads
# the run as one token, misses it.
_NON_LATIN = "\u0370-\u03ff\u0400-\u04ff\u0590-\u06ff\u0900-\u0dff\u0e00-\u0eff\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef"
_LATIN_RUN_IN_OTHER_SCRIPT = re.compile(
    rf"(?:(?<=[{_NON_LATIN}])|(?<![\w'’\-]))(?P<v>[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]+(?:[ \t]+[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]+){{0,2}})(?![A-Za-zÀ-ÖØ-öø-ÿ0-9_'’\-])"
)
_HAS_NON_LATIN = re.compile(rf"[{_NON_LATIN}]")
# Family-relation puzzles name people by single capital letters ("K is the aunt of R. How is
# R related to V?"). A letter counts as a person once it stands next to a kinship word
# ("<L> is the son of", "niece of <L>", "<L>'s uncle", "how is <L> related to <L>"); two such
# letters make the text a puzzle, and then every lone mention of them is that person.
_KINSHIP = (
    r"(?:grand|great-grand|step-?|half-)?(?:father|mother|son|daughter|brother|sister|husband|wife|uncle|aunt|"
    r"nephew|niece|cousin|parent|child|children|sibling|spouse|grandchild|grandson|granddaughter|"
    r"father-in-law|mother-in-law|brother-in-law|sister-in-law|son-in-law|daughter-in-law)s?"
)
_LONE_CAPITAL = r"(?<![\w'’.\-])(?P<{0}>[A-HJ-Z])(?![\w\-]|\.\w)"
_KIN_LETTER = re.compile(
    _LONE_CAPITAL.format("a") + r"(?:['’]s)?[ \t]+(?:(?:is|was|are|were)[ \t]+)?(?:(?:the|a|an|only|elder|younger|"
    r"eldest|youngest|maternal|paternal)[ \t]+)*" + _KINSHIP + r"\b(?:[ \t]+(?:of|to)[ \t]+" + _LONE_CAPITAL.format("e") + ")?"
    r"|\b" + _KINSHIP + r"[ \t]+(?:of|to)[ \t]+" + _LONE_CAPITAL.format("b")
    + r"|\b[Hh]ow[ \t]+is[ \t]+" + _LONE_CAPITAL.format("c") + r"[ \t]+related[ \t]+to[ \t]+" + _LONE_CAPITAL.format("d")
)
_KIN_CUE = re.compile(r"(?i)father|mother|brother|sister|son\b|daughter|husband|wife|uncle|aunt|niece|nephew|related")
_LONE_CAPITAL_RE = re.compile(_LONE_CAPITAL.format("v"))
_ARTICLE_USE = re.compile(r"[ \t]+(?!(?:is|was|and|or|has|had|related|married)\b)[a-z]")


@lru_cache(maxsize=8)
def kinship_letters(text: str) -> frozenset[str]:
    """The single capital letters that stand for people in a family-relation puzzle: two
    or more letters next to kinship words, else none."""
    if len(set(_LONE_CAPITAL_RE.findall(text))) < 2 or not _KIN_CUE.search(text):
        return frozenset()
    letters: set[str] = set()
    for m in _KIN_LETTER.finditer(text):
        letters.update(v for v in m.groups() if v)
    return frozenset(letters) if len(letters) >= 2 else frozenset()


# Rosters and sign-up sheets write the surname in capitals next to the given name
# ("NOVAK Ilse", "Ilse NOVAK"). The capitals word has 3+ letters; the given name is one word.
_CAPS_SURNAME = r"[A-ZÀ-ÖØ-ÞĀ-ſ]{2,}[A-ZÀ-ÖØ-ÞĀ-ſ'’](?:-[A-ZÀ-ÖØ-ÞĀ-ſ]{2,})?"
_GIVEN = r"[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]+(?:-[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]+)?"
_ROSTER_PAIR = re.compile(
    rf"(?<![\w'’\-])(?:(?P<caps1>{_CAPS_SURNAME})[ \t]+(?P<given1>{_GIVEN})|(?P<given2>{_GIVEN})[ \t]+(?P<caps2>{_CAPS_SURNAME}))(?![\w'’\-])"
)
_HAS_CAPS_RUN = re.compile(r"[A-Z]{3}")
# Two lower-case words joined by "and"/"&" ("a story about tomas and brad").
# (Found from the joining word, then the words either side of it.)
_AND = re.compile(r"[ \t]+(?:and|&)[ \t]+")
_LOWER_WORD_BEFORE = re.compile(r"(?<![\w'’\-])[a-zà-öø-ÿĀ-ſ]{3,}$")
_LOWER_WORD_AFTER = re.compile(r"[a-zà-öø-ÿĀ-ſ]{3,}(?![\w'’\-])")
# A person's name as the value of a data field: JSON ("name": "ines okafor") or YAML
# (author: Ines Okafor). The generic "name" names products and files too; the others
# name people.
_PERSON_KEYS = (
    r"full[_ ]?name|fullName|first[_ ]?name|firstName|last[_ ]?name|lastName|given[_ ]?name|givenName|"
    r"family[_ ]?name|familyName|surname|author|person|student|employee|customer|patient|contact[_ ]?name|"
    r"contactName|display[_ ]?name|displayName"
)
_NAME_FIELD = re.compile(
    rf"(?:(?P<q>[\"'])(?P<key>name|{_PERSON_KEYS})(?P=q)[ \t]*:[ \t]*(?P<vq>[\"'])[ \t]*(?P<v>[^\"'\n]{{2,60}}?)[ \t]*(?P=vq)"
    rf"|(?m:^[ \t]*(?:-[ \t]+)?(?P<ykey>name|{_PERSON_KEYS})[ \t]*:[ \t]*(?P<yv>[^\"'\n#:]{{2,60}}?)[ \t]*$))",
    re.IGNORECASE,
)
_FIELD_KEY_ENDS = ("name", "author", "person", "student", "employee", "customer", "patient", "contact")


def _has_field_key(text: str) -> bool:
    """A colon after one of the field words (cheaper than a case-blind regex over the text)."""
    colon = text.find(":")
    while colon != -1:
        if text[max(0, colon - 12) : colon].rstrip(" \t\"'").casefold().endswith(_FIELD_KEY_ENDS):
            return True
        colon = text.find(":", colon + 1)
    return False


# Keys of a record about a person: a "name" beside one of them is a person's name
# ({"name": "...", "email": "...", "dob": "..."}), and so is one inside an object under a
# person key ({"customer": {"name": ...}}).
_RECORD_KEY = re.compile(r"[\"']([\w -]{1,30})[\"'][ \t]*:")
_PERSON_RECORD_KEYS = re.compile(
    rf"(?i)(?:e-?mail|phone|mobile|tel|dob|date[_ ]?of[_ ]?birth|birth[_ ]?date|birthday|ssn|gender|"
    rf"home[_ ]?address|{_PERSON_KEYS}|user|owner|member|client|applicant|tenant|guest|sender|recipient)"
)


def _in_person_record(text: str, position: int) -> bool:
    """Whether the value at `position` sits in a data object about a person: the key the
    object is the value of, or another key of the object, says so."""
    opening = text.rfind("{", max(0, position - 400), position)
    if opening == -1:
        return False
    parent = _RECORD_KEY.findall(text, max(0, opening - 40), opening)
    if parent and _PERSON_RECORD_KEYS.fullmatch(parent[-1].strip()):
        return True
    closing = text.find("}", position, position + 400)
    keys = _RECORD_KEY.findall(text, opening, closing if closing != -1 else min(len(text), position + 400))
    return any(_PERSON_RECORD_KEYS.fullmatch(k.strip()) for k in keys if k.strip().casefold() != "name")


_NAME_VALUE = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ][a-zà-öø-ÿĀ-ſ'’\-]+(?:[ \t]+[A-Za-zÀ-ÖØ-öø-ÿ][a-zà-öø-ÿĀ-ſ'’\-]+){0,2}")
_STOP = re.compile(r"(?i)and|or|but|the|a|an|of|to|in|on|at|for|from|with|by|is|was|will|has|had|can|said|says")


# A lower-case "first last" with a relation before or after it: "my coworker will ortega",
# "to will ortega, my coworker" (agent/knowledge/person_words.py RELATIONS).
_LOWER_PAIR = r"(?P<first>[a-zà-öø-ÿĀ-ſ]{3,})[ \t]+(?P<last>[a-zà-öø-ÿĀ-ſ][a-zà-öø-ÿĀ-ſ'’\-]{2,})"
_LOWER_RELATION = (
    re.compile(rf"(?<![\w'’-])(?:my|our|his|her|their)[ \t]+(?:{RELATION_PATTERN}),?[ \t]+{_LOWER_PAIR}(?![\w'’-])"),
    re.compile(rf"(?<![\w'’-]){_LOWER_PAIR},?[ \t]+(?:my|our|his|her|their)[ \t]+(?:{RELATION_PATTERN})\b"),
)
_RARE_WORD = 200  # occurrences in the English frequency list: hardly ever an ordinary word
_LOWER_RELATION_HINT = re.compile(rf"\b(?:my|our|his|her|their)[ \t]+(?:{RELATION_PATTERN})\b")


# "the Kowalczyks": a family named by its surname.
FAMILY_BEFORE = re.compile(r"\b[Tt]he[ \t]+$")
_FAMILY = re.compile(r"\b[Tt]he[ \t]+(?P<v>[A-Z][a-zà-öø-ÿĀ-ſ'’]+s)\b(?!['’]\w)")


_FAMOUS_PLURAL = 3.0  # Zipf: a plural written this often names a band, a show or a team


def is_family_plural(value: str) -> bool:
    """"Kowalczyks", "Okonjos": a surname with an "s" (after "the"), or a word whose "s"
    form no text writes while the word itself is written: a name, not a place's plural
    like "the Rockies"."""
    if " " in value or not value.endswith("s") or not value[:1].isupper() or is_known_place(value):
        return False
    if zipf(value) >= _FAMOUS_PLURAL:
        return False  # "the Beatles", "the Simpsons", "the Smiths": a band or a show first

    names = lexicon()
    stem = value[:-2] if value.endswith("es") and names.is_last_name(value[:-2]) else value[:-1]
    if is_common_word(stem) and not names.is_last_name(stem):
        return False  # "the Blues", "the Greens": words, not families
    return names.is_last_name(stem) or (zipf(value) == 0 and 0 < zipf(stem) < 3)


class PersonNameDetector:
    name = "person_names"
    labels = frozenset({Label.PERSON})

    def __init__(self, pipeline: SpacyPipeline | None = None):
        self.pipeline = pipeline

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans = self._by_cue(text) + self._by_line(text) + self._by_speaker(text) + self._by_initial(text)
        spans += self._by_surname(text) + self._by_unlisted_first_name(text) + self._by_capitals(text) + self._by_introduction(text) + self._by_address(text)
        spans += self._by_name_shaped_words(text)
        spans += self._by_script_border(text) + self._by_kinship_letter(text) + self._by_roster(text)
        spans += self._by_lower_pair(text) + self._by_lower_relation(text) + self._by_citation(text)
        spans += self._by_lower_greeting(text) + self._by_nickname(text)
        spans += [Span(m.start("v"), m.end("v"), Label.PERSON, m.group("v"), 0.7, self.name)
                  for m in _FAMILY.finditer(text) if is_family_plural(m.group("v"))]
        spans += [Span(m.start("v"), m.end("v"), Label.PERSON, m.group("v"), 0.65, self.name)
                  for pattern in (_LOWER_NAME_AFTER_RELATION, _LOWER_SELF_NAMED, _LOWER_TASKED)
                  for m in pattern.finditer(text)
                  if _lower_given_name(m.group("v")) or _name_shaped(m.group("v"))]
        if self.pipeline is not None:
            try:
                analysis = context.analysis or LazyAnalysis(self.pipeline, text)
                spans.extend(self._by_lexicon(text, analysis.doc))
                spans.extend(self._by_partner(text, analysis.doc))
                spans.extend(self._by_neighbours(text, analysis.doc))
                spans.extend(self._by_name_field(text, analysis.doc, spans))
            except RuntimeError:
                pass  # no spaCy model: the cue rules still work
        spans.extend(self._by_list(text, spans))
        return [s for s in spans if not _month_of_a_date(text, s) and not EPONYM_AFTER.match(text, s.end)]

    @staticmethod
    def _by_citation(text: str) -> list[Span]:
        """The authors of an academic citation: "Lindgren et al." anywhere, and "(Okoro &
        Vance, 2019)" / "(Okoro and Vance 2019)" before a year in brackets. Each surname is a
        person (spaCy tags "X et al." as an organisation or misses it after a bracket with no
        space, "clinics(X et al."); a one-author "(X, 2019)" is left to the other rules, as
        organisations are cited that way too."""
        if "et al" not in text and not _CITATION_YEAR.search(text):
            return []
        spans = []
        for m in _ET_AL.finditer(text):
            spans.append(Span(m.start("v"), m.end("v"), Label.PERSON, m.group("v"), 0.85, "person_names"))
        for m in _TWO_AUTHORS.finditer(text):
            for group in ("a", "b"):
                word = m.group(group)
                if word in NOT_NAMES or is_common_word(word.casefold()) or is_known_place(word):
                    break
            else:
                spans += [Span(m.start(g), m.end(g), Label.PERSON, m.group(g), 0.8, "person_names") for g in ("a", "b")]
        return spans

    @staticmethod
    def _by_kinship_letter(text: str) -> list[Span]:
        """People named by single letters in a family-relation puzzle (see _KIN_LETTER)."""
        letters = kinship_letters(text)
        if not letters:
            return []
        spans = []
        for m in _LONE_CAPITAL_RE.finditer(text):
            letter = m.group("v")
            if letter not in letters:
                continue
            # "A" is also the article: as a person it is followed by what follows a name.
            if letter == "A" and _ARTICLE_USE.match(text, m.end()):
                continue
            spans.append(Span(m.start(), m.end(), Label.PERSON, letter, 0.9, "person_names"))
        return spans

    def _by_roster(self, text: str) -> list[Span]:
        """"NOVAK Ilse, DUARTE Tomas, OKAFOR Ada": surname-in-capitals pairs. One pair is a
        name when the lists know both halves; two or more, most of whose given names the
        lists know or are name-shaped, make a roster, and then each pair is a name."""
        if not _HAS_CAPS_RUN.search(text):
            return []
        names = lexicon()
        pairs = []
        for m in _ROSTER_PAIR.finditer(text):
            caps, given = (m.group("caps1"), m.group("given1")) if m.group("caps1") else (m.group("caps2"), m.group("given2"))
            surname = caps.title()
            if given in NOT_NAMES or given in CALENDAR_WORDS or is_known_place(surname) or is_known_place(given):
                continue
            if caps.casefold() in NOT_ENTITIES or is_common_word(caps.casefold()) or (
                is_common_word(given.casefold()) and not names.is_first_name(given)
            ):
                continue  # "NEW Release", "FREE Shipping": a shouted word, not a surname
            known_given = names.is_first_name(given) and not is_common_word(given.casefold())
            pairs.append((m.start(), m.end(), m.group(), known_given, names.is_last_name(surname),
                          known_given or _name_shaped(given)))
        known = sum(p[3] for p in pairs)
        # Given names no list has count when they are no word of any language ("Anass",
        # "Hiba" beside "Salah"); one listed given name at least.
        name_like = sum(p[5] for p in pairs)
        roster = len(pairs) >= 2 and known >= 1 and name_like * 2 >= len(pairs)
        return [
            Span(start, end, Label.PERSON, value, 0.85 if roster else 0.8, self.name)
            for start, end, value, known_given, known_surname, _ in pairs
            if roster or (known_given and known_surname)
        ]

    def _by_lower_relation(self, text: str) -> list[Span]:
        """A lower-case "first last" next to a relation ("for will ortega, my coworker",
        "my neighbour dana okafor"): the relation says a person is named, so the first name
        may be an ordinary word ("will", "rose") as long as the surname is a listed one that
        is no ordinary word."""
        if not text.islower() and not _LOWER_RELATION_HINT.search(text):
            return []
        names = lexicon()
        spans = []
        for match in (m for pattern in _LOWER_RELATION for m in pattern.finditer(text)):
            first, last = match.group("first"), match.group("last")
            if first in _FUNCTION_WORDS or _STOP.fullmatch(first) and not names.is_first_name(first):
                continue
            # The surname: a listed one, or a word English hardly uses ("whitfield"), never a
            # common word ("my friend will visit").
            if not names.is_first_name(first) or is_common_word(last):
                continue
            if not (names.is_last_name(last) or (word_frequency(last) < _RARE_WORD
                                                 and (not is_common_word(first) or self._likely_first_name(first)))):
                continue  # "my student loan servicer": an everyday word few lists name anyone by, then a rare one
            spans.append(Span(match.start("first"), match.end("last"), Label.PERSON,
                              text[match.start("first"):match.end("last")], 0.7, self.name))
        return spans

    @staticmethod
    def _by_nickname(text: str) -> list[Span]:
        """A name with its nickname in quotes: "Reginald 'Reg' Thornton", 'Robert "Bobby"
        Tanaka'. Each part is a person's name; the given name must be a listed one."""
        if not any(q in text for q in "'\"“‘("):
            return []
        names = lexicon()
        spans = []
        for match in _QUOTED_NICKNAME.finditer(text):
            if not names.is_first_name(match.group("first")):
                continue
            for part in ("first", "nick", "last"):
                spans.append(Span(match.start(part), match.end(part), Label.PERSON, match.group(part), 0.8, PersonNameDetector.name))
        return spans

    @staticmethod
    def _by_lower_greeting(text: str) -> list[Span]:
        """A lower-case given name greeted, signing off or introducing itself in chat ("hi
        priya, sorry i missed ur call ... - tom", "im jake, 27"). Greetings and sign-offs open
        and close a message, so the name must be a listed first name (or, greeted with a
        comma after it, a name-shaped word no list has), and not the word of an endearment: one
        English alone lists ("hi love", "thanks boss") or an everyday word without the
        comma or line end a greeting puts after a name."""
        names = lexicon()
        spans = []
        for match in (m for pattern in (_LOWER_GREETING, _LOWER_SIGN_OFF, _LOWER_SELF_INTRO) for m in pattern.finditer(text)):
            word = match.group("v")
            if word in _FUNCTION_WORDS or _STOP.fullmatch(word):
                continue
            if not names.is_first_name(word):
                # "hi sunita, ...": a name no list has, greeted with the comma after it, that is no
                # word of English or a neighbouring language (chat's "bff" is short, so 4+ letters)
                if match.group("end") is not None and len(word) >= 4 and _name_shaped(word.capitalize()):
                    spans.append(Span(match.start("v"), match.end("v"), Label.PERSON, word, 0.6, PersonNameDetector.name))
                continue
            elsewhere = len(names.info(word).first_in - {"en"})
            if is_common_word(word) and (elsewhere < 2 or match.group("end") is None):
                continue
            spans.append(Span(match.start("v"), match.end("v"), Label.PERSON, word, 0.65, PersonNameDetector.name))
        return spans

    def _by_lower_pair(self, text: str) -> list[Span]:
        """Two first names in lower case joined by "and" ("tomas and brad"): both known
        first names, at least one no ordinary word, and not both places ("jordan and
        georgia" are countries)."""
        if " and " not in text and "&" not in text:
            return []
        names = lexicon()
        spans = []
        for joint in _AND.finditer(text):
            before = _LOWER_WORD_BEFORE.search(text, max(0, joint.start() - 30), joint.start())
            after = _LOWER_WORD_AFTER.match(text, joint.end())
            if before is None or after is None:
                continue
            a, b = before.group(), after.group()
            if _STOP.fullmatch(a) or _STOP.fullmatch(b) or a in _FUNCTION_WORDS or b in _FUNCTION_WORDS:
                continue
            if not (names.is_first_name(a) and names.is_first_name(b)):
                continue
            if not (self._likely_first_name(a) or self._likely_first_name(b)):
                continue
            # One of the two is no ordinary word; an ordinary one ("brad", "mario") is a
            # first name in several locales' lists.
            common = [w for w in (a, b) if is_common_word(w)]
            if len(common) == 2 or any(not self._likely_first_name(w) for w in common):
                continue
            if is_known_place(a) and is_known_place(b):
                continue
            spans.append(Span(before.start(), before.end(), Label.PERSON, a, 0.6, self.name))
            spans.append(Span(after.start(), after.end(), Label.PERSON, b, 0.6, self.name))
        return spans

    def _by_name_field(self, text: str, doc, found: list[Span]) -> list[Span]:
        """The value of a data field that holds a person's name (see _NAME_FIELD), in any
        case. A value of the generic "name" field is a person's when the lists or NER know
        it, or when most of the text's "name" values are people's (a list of records)."""
        if not _has_field_key(text):
            return []
        names = lexicon()
        people = [(e.start_char, e.end_char) for e in doc.ents if e.label_ == "PERSON"]
        people += [(s.start, s.end) for s in found]
        fields = []
        for m in _NAME_FIELD.finditer(text):
            group = "v" if m.group("v") is not None else "yv"
            value, start = m.group(group), m.start(group)
            key = (m.group("key") or m.group("ykey")).casefold()
            if not _NAME_VALUE.fullmatch(value) or value in NOT_NAMES:
                continue
            words = value.split()
            if all(is_common_word(w) for w in words) or any(_STOP.fullmatch(w) for w in words) or is_known_place(value):
                continue
            known = any(
                (names.is_first_name(w) or names.is_last_name(w)) and not is_common_word(w) for w in words
            ) or any(a < start + len(value) and start < b for a, b in people)
            fields.append((start, value, key != "name" or known or _in_person_record(text, start)))
        if not fields:
            return []
        records = len(fields) >= 2 and sum(ok for _, _, ok in fields) * 2 >= len(fields)
        return [
            Span(start, start + len(value), Label.PERSON, value, 0.7, self.name)
            for start, value, ok in fields
            if ok or records
        ]

    def _by_surname(self, text: str) -> list[Span]:
        """A first name the lists know, then its surname, in the forms NER cuts short: a
        lower-case surname ("Irene walcott"), a double-barrelled one ("Irene Walcott-Mensah":
        any half the lists know), a rare one ("Irene Quistgaard" before a lower-case word),
        and a surname on the next line (signatures, wrapped text: each half a span, since a
        name never runs over lines here)."""
        names = lexicon()
        spans = []
        for m in _FIRST_THEN_SURNAME.finditer(text):
            first, last, gap = m.group("first"), m.group("last"), m.group("gap")
            parts = last.split("-")
            known_part = any(len(p) >= 3 and names.is_last_name(p) for p in parts)
            # A rare first name is enough before a double-barrelled surname the lists half know.
            first_ok = self._likely_first_name(first) or (names.is_first_name(first) and "-" in last and known_part)
            if first in NOT_NAMES or first in CALENDAR_WORDS or not first_ok or is_known_place(first):
                continue
            if last.islower():
                # A known surname, or a word no list knows ("Irene walcott"; not "Irene walked"),
                # after no language's name ("German unification", "French cuisine").
                ok = (not is_common_word(last) and not _STOP.fullmatch(last) and len(last) >= 4
                      and not is_language_name(first))
            else:
                after = text[m.end("last") : m.end("last") + 2]
                ends_phrase = not after.strip() or not after.lstrip()[:1].isupper()
                alone_on_line = "\n" in gap and text[m.end("last") : m.end("last") + 1] in ("", "\n", ",", ".")
                ordinary = len(parts) == 1 and is_common_word(last)
                ok = (known_part and (not ordinary or alone_on_line)) or (
                    "-" in last or (ends_phrase and not ordinary and not is_known_place(last))
                )
            if not ok or last in NOT_NAMES or last in CALENDAR_WORDS:
                continue
            if "\n" in gap:
                start = m.start("last")
                spans.append(Span(m.start("first"), m.end("first"), Label.PERSON, first, 0.75, self.name))
                spans.append(Span(start, m.end("last"), Label.PERSON, last, 0.75, self.name))
            else:
                start, end = m.start("first"), m.end("last")
                spans.append(Span(start, end, Label.PERSON, text[start:end], 0.8, self.name))
        return spans

    def _by_unlisted_first_name(self, text: str) -> list[Span]:
        """A first name no list has, before a surname a list has: "for Priyanka Nair, who".
        Faker's lists hold a few hundred first names per locale, so many real ones are
        missing, and NER misses such pairs in plain sentences. The first word must be no
        dictionary word, rare in writing, and no place or company; the surname no
        everyday word ("Hall", "Hill" and "Young" are surnames too), and the name must end
        the phrase (a lower-case word or punctuation after it). Scored over NER's guess of
        a firm (spaCy reads "Nkechi Obi" as one) and under its persons and places."""
        names = lexicon()
        spans = []
        for m in _CAPITALISED_PAIR.finditer(text):
            first, last = m.group("first"), m.group("last")
            if self._likely_first_name(first) or not names.is_last_name(last):
                continue  # a first name several lists know is _by_surname's ("Kwabena": one list)
            after = text[m.end("last"):m.end("last") + 2].lstrip()
            if after[:1].isupper() or after[:1].isdigit():
                continue
            if (is_common_word(first) or word_frequency(first) or zipf(first) >= _UNLISTED_FIRST_ZIPF
                    or is_common_word(last) or first in NOT_NAMES or last in NOT_NAMES
                    or first in CALENDAR_WORDS or first.casefold() in NOT_ENTITIES):
                continue
            pair = f"{first} {last}"
            if any(is_known_place(v) for v in (first, last, pair)) or is_listed_company(first) or is_listed_company(pair):
                continue
            spans.append(Span(m.start("first"), m.end("last"), Label.PERSON, pair, 0.65, self.name))
        return spans

    def _by_name_shaped_words(self, text: str) -> list[Span]:
        """Names no list has, where a person stands: "Olumide Bankole will join the call",
        "lunch with Tserendorj Batbayar", "Thanks Olumide,". Each word must be name-shaped
        (_name_shaped); the pair needs a cue before it or a person's verb after it, the
        lone word a greeting before it and a comma or a stop after it. spaCy finds such
        names in some sentences and not in others."""
        spans = []
        for m in _CAPITALISED_PAIR.finditer(text):
            first, last = m.group("first"), m.group("last")
            if not (_PERSON_CUE_BEFORE.search(text, max(0, m.start() - 30), m.start())
                    or _PERSON_VERB_AFTER.match(text, m.end("last"))):
                continue
            pair = f"{first} {last}"
            if _name_shaped(first) and _name_shaped(last) and not (is_known_place(pair) or _known_organisation(pair)):
                spans.append(Span(m.start("first"), m.end("last"), Label.PERSON, pair, 0.65, self.name))
        for m in (*_GREETED_WORD.finditer(text), *_TASKED_WORD.finditer(text)):
            if _name_shaped(m.group("v")):
                spans.append(Span(m.start("v"), m.end("v"), Label.PERSON, m.group("v"), 0.65, self.name))
        return spans

    def _by_address(self, text: str) -> list[Span]:
        """One word the writer addresses or signs with: not an ordinary word or a place."""
        names = lexicon()
        spans = []
        found = []
        for tail in _VOCATIVE_TAIL.finditer(text):
            head = max(0, tail.start() - 40)
            m = _VOCATIVE_WORD.search(text, head, tail.start())
            if m:
                found.append((m.start("v"), m.group("v")))
        if "egards," in text:
            found += [(m.start("v"), m.group("v")) for m in _SIGN_OFF_SAME_LINE.finditer(text)]
        for start, word in found:
            if word in NOT_NAMES or is_known_place(word):
                continue
            if is_common_word(word) and not self._likely_first_name(word):
                continue  # "Sure, can you", "Regards, Team"
            if not (names.is_first_name(word) or names.is_last_name(word)) and _looks_like_word(word):
                continue
            spans.append(Span(start, start + len(word), Label.PERSON, word, 0.65, self.name))
        return spans

    def _by_script_border(self, text: str) -> list[Span]:
        """A Latin-script name written against another script's letters ("转发给Ingrid，",
        "Ingrid Solberg는"): a first name the lists know, alone or with the words after it;
        not a word, a place, or a product the text gives a version number."""
        if not _HAS_NON_LATIN.search(text):
            return []
        names = lexicon()
        spans = []
        # A word the text anywhere writes with a version ("Gemma 2", "Falcon 7.1") is a product.
        versioned = {v.group(1) for v in re.finditer(r"\b([A-Z][a-z]+)[ \t]*\d+(?:\.\d+)*(?!\d)", text)}
        for m in _LATIN_RUN_IN_OTHER_SCRIPT.finditer(text):
            start, end = m.start("v"), m.end("v")
            before, after = text[start - 1 : start], text[end : end + 1]
            if not (_HAS_NON_LATIN.match(before) or _HAS_NON_LATIN.match(after)):
                continue
            words = m.group("v").split()
            first = words[0]
            if first in versioned:
                continue
            if first in NOT_NAMES or first in CALENDAR_WORDS or is_known_place(m.group("v")) or is_known_place(first):
                continue
            if not (self._likely_first_name(first) or (names.is_first_name(first) and not is_common_word(first))):
                continue
            if any(is_common_word(w) and not names.is_last_name(w) for w in words[1:]):
                continue
            spans.append(Span(start, end, Label.PERSON, m.group("v"), 0.65, self.name))
        return spans

    def _by_introduction(self, text: str) -> list[Span]:
        """A name given in a self-introduction or a role-play set-up, lower case included,
        and then every other mention of it in the text ("i am ines ... Ines wants ...")."""
        names = lexicon()
        found: set[str] = set()
        for m in _INTRO.finditer(text):
            word, cue = m.group("v"), m.group("cue").casefold()
            if word.casefold() in _FUNCTION_WORDS or word in NOT_NAMES or is_known_place(word):
                continue
            if cue == "call me" and is_common_word(word):
                continue  # "call me back", "call me tomorrow"
            if cue not in _NAMING_CUES and not cue.endswith(("name is", "name's", "name’s")):
                if not _AFTER_INTRODUCED.match(text, m.end("v")) or _looks_like_word(word):
                    continue
                if word[:1].isupper() and (names.is_first_name(word) or names.is_last_name(word)):
                    continue  # a capitalised known name is the cue rules' (and NER's) to find
            elif is_common_word(word) and not (names.is_first_name(word) or names.is_last_name(word)):
                continue  # "my name is not important"
            else:
                # "my name is priya raghunathan and ...": the surname after the given name,
                # lower case included, up to where ordinary words begin.
                surnames = _surnames_after(text, m.end("v"), names)
                if surnames:  # its words alone are found again as parts of it (registry)
                    found.add(" ".join([word, *surnames]).casefold())
            found.add(word.casefold())
        spans = []
        for name in found:
            pattern = r"[ \t]+".join(re.escape(part) for part in name.split())
            for m in re.finditer(rf"(?<![\w'’\-]){pattern}(?![\w\-])", text, re.IGNORECASE):
                spans.append(Span(m.start(), m.end(), Label.PERSON, m.group(), 0.7, self.name))
        return spans

    def _by_capitals(self, text: str) -> list[Span]:
        """Names written in capitals ("REPLY TO IRENE WALCOTT"): a first and a last name the
        lists know, read as if title-cased."""
        names = lexicon()
        spans = []
        for m in _CAPITALS_PAIR.finditer(text):
            first, last = m.group("first").title(), m.group("last").title()
            after = _CAPITALS_NEXT.match(text, m.end("last"))
            # three name words ("CHUKWUEMEKA IFEANYI OKONKWO"): two given names any list has,
            # then a surname, make a name where one rare given name alone would not
            three = bool(after and names.is_first_name(first) and names.is_first_name(last)
                         and self._capitals_surname(after.group("w").title(), names))
            if first in NOT_NAMES or first in CALENDAR_WORDS or not (three or self._likely_first_name(first)):
                continue
            known = any(len(p) >= 2 and names.is_last_name(p) for p in last.split("-"))
            if is_known_place(last) or last.casefold() in NOT_ENTITIES or not (known or not is_common_word(last)):
                continue
            start, end = m.start("first"), m.end("last")
            if three:
                end = after.end("w")  # the middle name, then the surname
            spans.append(Span(start, end, Label.PERSON, text[start:end], 0.75, self.name))
        return spans

    @staticmethod
    def _capitals_surname(word: str, names) -> bool:
        known = any(len(p) >= 2 and names.is_last_name(p) for p in word.split("-"))
        return (word.casefold() not in NOT_ENTITIES and word not in CALENDAR_WORDS
                and (known or not (is_common_word(word) or is_known_place(word))))

    @staticmethod
    def _likely_first_name(token: str) -> bool:
        """Listed as a first name by at least two locales' curated lists (one list alone
        has too many words that are ordinary English: "Server", "Will"), or by one as the
        Latin spelling of a Cyrillic, Greek, Georgian or Armenian name (those were checked
        against the English word list); never a month or a weekday ("in June")."""
        if token in CALENDAR_WORDS:
            return False
        names = lexicon()
        return len(names.info(token).first_in - {"en"}) >= 2 or names.is_romanized_first_name(token)

    @staticmethod
    def _likely_last_name(token: str) -> bool:
        info = lexicon().info(token)
        return len(info.last_in) >= 2 or (bool(info.last_in) and len(token) >= 6)

    def _by_cue(self, text: str) -> list[Span]:
        names = lexicon()
        spans = []
        for pattern, score in ((_TITLE_NAME, 0.9), (_STRONG_CUE, 0.8), (_FORM_FIELD, 0.75), (_ROLE_TITLE, 0.75),
                               (_DASH_SIGN_OFF, 0.75), (_WEAK_CUE, 0.7)):
            for match in pattern.finditer(text):
                tokens = match.group("v").split()
                if tokens[0] in NOT_NAMES or tokens[0].upper() == tokens[0] and len(tokens[0]) > 1 and not tokens[0].endswith("."):
                    continue
                if pattern is _ROLE_TITLE and any(is_common_word(t) or t in NOT_NAMES for t in tokens if len(t) > 2):
                    continue
                if pattern is _DASH_SIGN_OFF and (not names.is_first_name(tokens[0]) or tokens[0] in CALENDAR_WORDS):
                    continue
                if pattern is _FORM_FIELD and len(tokens) < 2 and not names.is_first_name(tokens[0]):
                    continue  # "Customer: Sounds fine." is an answer, "Customer: Priya Raman" a name
                if pattern is _WEAK_CUE:
                    if is_known_place(" ".join(tokens)) or is_known_place(tokens[0]):
                        continue  # "from Jordan": a place, whatever the name lists say
                    if _known_organisation(" ".join(tokens)):
                        continue  # "the meeting with Bosch": a firm everyone knows, whatever the lists say
                    known = [i for i, t in enumerate(tokens) if names.is_first_name(t) or names.is_last_name(t)]
                    if not known or known[0] != 0:
                        continue
                    if len(tokens) > 1 and known == [0] and (tokens[-1].casefold() in ORG_KIND_WORDS
                                                              or tokens[0].casefold() in NAME_PARTICLES):
                        # "from De Montfort University": one name word before a word no list
                        # knows is part of a school's name ("from Jane Doe Consulting" keeps Jane Doe)
                        continue
                    tokens = tokens[: known[-1] + 1]
                elif pattern is _STRONG_CUE:
                    # After "Dear"/"my friend" a name is one to three words; stop at a word
                    # the lists do not know once we have a first name.
                    keep = 1
                    for i in range(1, len(tokens)):
                        if names.is_last_name(tokens[i]) or names.is_first_name(tokens[i]) or len(tokens[i]) <= 2:
                            keep = i + 1
                        else:
                            break
                    tokens = tokens[:keep]
                start = match.start("v")
                value = " ".join(tokens)
                if text[start : start + len(value)] != value:
                    continue  # the name ran over a line break; the parts are found elsewhere
                spans.append(Span(start, start + len(value), Label.PERSON, value, score, self.name))
        return spans

    def _by_speaker(self, text: str) -> list[Span]:
        """Speaker labels of a dialogue or chat log; two or more different speakers, or
        a label the name lists know, make it a dialogue rather than a form."""
        names = lexicon()
        found = []
        labels = set()
        for match in _SPEAKER.finditer(text):
            value = match.group("v")
            labels.add(value)
            if value.casefold() in LINE_LABELS or value.split()[0].casefold() in LINE_LABELS:
                continue
            if value.istitle() and " " not in value and is_common_word(value) and not lexicon().is_first_name(value):
                continue  # "Issue: ..." is a form field, not a speaker
            found.append((match.start("v"), match.end("v"), value))
        distinct = labels  # "Customer:" and "JA:" make a dialogue, so "JA" is a speaker
        spans = []
        for start, end, value in found:
            known = names.is_first_name(value.split()[0]) or names.is_last_name(value.split()[-1])
            if known or len(distinct) >= 2:
                spans.append(Span(start, end, Label.PERSON, value, 0.75 if known else 0.6, self.name))
        return spans

    @staticmethod
    def _by_initial(text: str) -> list[Span]:
        """"Oskar T Lindqvist", "Maren B. Holt": a middle initial marks a person's name. So does
        a first initial before a surname, as minutes and reference lists write people ("A.
        Okonjo (chair), B. Fairclough"): a listed surname, or a word no dictionary has."""
        names = lexicon()
        spans = [
            Span(m.start(), m.end(), Label.PERSON, m.group(), 0.75, "person_names")
            for m in re.finditer(rf"\b{_UPPER_TOKEN}\s+[A-Z]\.?\s+{_UPPER_TOKEN}\b", text)
            if m.group().split()[0] not in NOT_NAMES and not _everyday_around_a_letter(m.group().split(), names)
        ]
        if "." not in text:
            return spans
        for m in _INITIAL_SURNAME.finditer(text):
            surname = m.group("last")
            listed = any(names.is_last_name(part) for part in surname.split("-"))
            if surname in NOT_NAMES or surname in CALENDAR_WORDS or is_known_place(surname) or _known_organisation(surname):
                continue
            letters = "".join(ch for ch in text[m.start():m.start("last")] if ch.isalpha())
            if len(letters) == 2 and place_kind(letters)[0] in ("country", "state"):
                continue  # "U.K. Trade rules", "D.C. Metro": a country's or a state's initials
            if listed or not (is_common_word(surname.casefold()) or zipf(surname) >= _FOREIGN_WORD_ZIPF):
                spans.append(Span(m.start(), m.end(), Label.PERSON, m.group(), 0.8, "person_names"))
        return spans

    def _by_line(self, text: str) -> list[Span]:
        """A name alone on its line, as in signatures and address blocks."""
        names = lexicon()
        spans = []
        for match in _LINE_NAME.finditer(text):
            tokens = match.group("v").split()
            first, last = tokens[0], tokens[-1]
            if first in NOT_NAMES or is_known_place(match.group("v")):
                continue
            known = names.is_first_name(first) or names.is_last_name(last)
            # Followed by contact details (digits, an address, an @) as in a signature.
            contact = re.search(r"\d{3}|@|\b(?:Suite|Apt|Street|St\.|Avenue|Road)\b", text[match.end() : match.end() + 160])
            if known or contact:
                start = match.start("v")
                spans.append(Span(start, match.end("v"), Label.PERSON, match.group("v"), 0.7, self.name))
        for match in _LOWER_LINE_NAME.finditer(text):
            tokens = match.group("v").split()
            first, last = tokens[0], tokens[-1]
            if any(is_common_word(t) for t in (first, last)) or is_known_place(match.group("v")):
                continue
            contact = re.search(r"\d{3}|@|\b(?:suite|apt|street|st\.|avenue|road|inc\.?|llc|ltd)\b", text[match.end() : match.end() + 160], re.IGNORECASE)
            # With contact details below, one locale's list knowing each half is enough
            # (a Danish first name and surname heading a lower-cased signature).
            known_pair = names.is_first_name(first) and names.is_last_name(last)
            if (self._likely_first_name(first) and (names.is_last_name(last) or contact)) or (known_pair and contact):
                start = match.start("v")
                spans.append(Span(start, match.end("v"), Label.PERSON, match.group("v"), 0.6, self.name))
        return spans

    def _by_lexicon(self, text: str, doc) -> list[Span]:
        names = lexicon()
        spans = []
        i = 0
        n = len(doc)
        while i < n:
            token = doc[i]
            if (
                token.pos_ == "PROPN"
                and token.is_title
                and len(token.text) >= 3
                and self._likely_first_name(token.text)
                and token.ent_type_ not in ("GPE", "LOC", "NORP", "FAC")
                and not is_known_place(token.text)
            ):
                j = i + 1
                while (
                    j < n
                    and j - i < 3
                    and doc[j].pos_ == "PROPN"
                    and (doc[j].is_title or (len(doc[j].text) == 2 and doc[j].text.endswith(".")))
                ):
                    j += 1
                if j - i > 1 and (
                    (doc[j - 1].lower_ in ORG_KIND_WORDS and not names.is_last_name(doc[j - 1].text))
                    or names_a_polity_event_or_landmark(doc[i:j].text)
                ):
                    i = j  # "Doris Investments": a firm named after someone; "Roman Empire"
                    continue
                start, end = token.idx, doc[j - 1].idx + len(doc[j - 1].text)
                known_surname = j - i > 1 and names.is_last_name(doc[j - 1].text)
                score = 0.85 if known_surname else (0.7 if j - i > 1 else 0.65)
                spans.append(Span(start, end, Label.PERSON, text[start:end], score, self.name))
                i = j
            elif (
                token.pos_ == "PROPN"
                and token.is_title
                and len(token.text) >= 3
                and not token.ent_type_
                and i + 1 < n
                and doc[i + 1].tag_ in ("VBD", "VBZ", "MD")
                and (i == 0 or doc[i - 1].is_sent_start or doc[i - 1].text in (".", "\n", ",", ";", "and", "but", "when", "while", "as", "if", "so"))
                and token.text not in NOT_NAMES
                and token.lower_ not in ORG_KIND_WORDS  # "Solvent Analytics is hiring": a firm's trade
                and not is_known_place(token.text)
                and (not is_common_word(token.text) or person_pronoun_in(doc[i + 1 : i + 13]))
                and (token.text.isascii() or not cyrillic_not_a_name(token.text))  # the English tags of "Моя жена"
            ):
                # "Quill answers", "Bea steps in": a proper noun acting as the subject (a
                # word that is also common, like "Min", only when "his"/"her" follows).
                spans.append(Span(token.idx, token.idx + len(token.text), Label.PERSON, token.text, 0.55, self.name))
                i += 1
            elif (
                token.pos_ == "PROPN"
                and token.is_title
                and len(token.text) >= 3
                and not token.ent_type_
                and 0 < i < n - 1
                and doc[i - 1].is_lower
                and doc[i - 1].pos_ in ("ADP", "VERB", "CCONJ", "AUX")
                and not (doc[i + 1].is_title or doc[i + 1].pos_ == "PROPN")
                and token.text not in NOT_NAMES
                and not is_known_place(token.text)
                and not (doc[i - 1].lower_ in PLACE_PREPOSITIONS and is_sizeable_town(token.text))
                and not (doc[i - 1].lower_ in ("in", "near", "outside") and is_town_of_5000(token.text))
                and not is_listed_company(token.text)  # "a message to Airbnb support"
                and not is_common_word(token.text)
                and (token.text.isascii() or not cyrillic_not_a_name(token.text))
            ):
                # "thank Ilvo and Marek", "the desk of Tamsin": a lone proper noun that no
                # list knows, after a verb or preposition, is most often someone's name.
                spans.append(Span(token.idx, token.idx + len(token.text), Label.PERSON, token.text, 0.5, self.name))
                i += 1
            elif (
                token.is_lower
                and len(token.text) >= 4
                and i + 1 < n
                and doc[i + 1].tag_ in ("VBD", "VBZ")
                and (i == 0 or doc[i - 1].text in (".", "\n", "!", "?", ";") or doc[i - 1].is_space)
                and not token.is_stop
                and (names.is_last_name(token.text) or self._likely_first_name(token.text))
                and not _looks_like_word(token.text)
                and not is_known_place(token.text)
                and person_pronoun_in(doc[i + 1 : i + 13])
            ):
                # "okonjo began painting at ten, and her ...": a lower-cased name that no
                # dictionary knows opens the sentence as the subject of a person's verb.
                spans.append(Span(token.idx, token.idx + len(token.text), Label.PERSON, token.text, 0.6, self.name))
                i += 1
            elif (
                token.is_lower
                and i + 1 < n
                and doc[i + 1].is_lower
                and len(token.text) >= 3
                and len(doc[i + 1].text) >= 3
                and not token.is_stop
                and not doc[i + 1].is_stop
                and self._likely_first_name(token.text)
                and names.is_last_name(doc[i + 1].text)
                and not (is_common_word(token.text) and is_common_word(doc[i + 1].text))  # "a line cook"
                and token.pos_ in ("PROPN", "NOUN", "ADJ")
                and doc[i + 1].pos_ in ("PROPN", "NOUN")
            ):
                start, end = token.idx, doc[i + 1].idx + len(doc[i + 1].text)
                spans.append(Span(start, end, Label.PERSON, text[start:end], 0.55, self.name))
                i += 2
            elif (
                token.is_lower
                and i + 2 < n
                and len(doc[i + 1].text) == 1
                and doc[i + 1].text.isalpha()
                and doc[i + 2].is_lower
                and len(token.text) >= 3
                and len(doc[i + 2].text) >= 3
                and not token.is_stop
                and self._likely_first_name(token.text)
                and names.is_last_name(doc[i + 2].text)
                and not is_common_word(doc[i + 2].text)
            ):
                # "follow up with lorenzo a brandt": a middle initial between the two.
                start, end = token.idx, doc[i + 2].idx + len(doc[i + 2].text)
                spans.append(Span(start, end, Label.PERSON, text[start:end], 0.55, self.name))
                i += 3
            else:
                i += 1
        return spans

    def _by_partner(self, text: str, doc) -> list[Span]:
        """A lower-case word joined by "and"/"or" to a name NER found, that is no English
        word nor a slip of one ("an evening with maren and Jonas"): the other person."""
        spans = []
        n = len(doc)
        for ent in doc.ents:
            if ent.label_ != "PERSON":
                continue
            for i, j in ((ent.start - 2, ent.start - 1), (ent.end + 1, ent.end)):
                if not (0 <= i < n and 0 <= j < n) or doc[j].lower_ not in ("and", "or"):
                    continue
                token = doc[i]
                word = token.text
                if not (word.isalpha() and word.islower() and len(word) >= 3) or token.is_stop:
                    continue
                if token.pos_ not in ("PROPN", "NOUN") or is_known_place(word) or _looks_like_word(word):
                    continue
                spans.append(Span(token.idx, token.idx + len(word), Label.PERSON, word, 0.6, self.name))
        return spans

    def _by_neighbours(self, text: str, doc) -> list[Span]:
        """A name NER cut short: a given name no list has before it ("Subhash Chandra Ghosh",
        spaCy reading "Chandra Ghosh"), a family name written first ("Nguyễn Thị Lan"), or a
        listed surname after it ("Hamish Alasdair MacLeod"). The whole name is one span; a
        word left over would go out as written."""
        names = lexicon()
        spans = []
        n = len(doc)
        for ent in doc.ents:
            if ent.label_ != "PERSON" or len(ent) > 3:
                continue
            start, end = ent.start, ent.end
            if start > 0 and self._name_word_beside(doc[start - 1], names, before=True):
                start -= 1
            if end < n and self._name_word_beside(doc[end], names, before=False):
                end += 1
            # NER's own first word tagged as a verb ("Nguyễn"): the trim in ner.py would drop it
            own_first = (len(ent) > 1 and doc[ent.start].pos_ in ("VERB", "AUX")
                         and self._name_word_beside(doc[ent.start], names, before=True))
            if (start, end) != (ent.start, ent.end) or own_first:
                first, last = doc[start].idx, doc[end - 1].idx + len(doc[end - 1].text)
                spans.append(Span(first, last, Label.PERSON, text[first:last], 0.7, self.name))
        return spans

    @staticmethod
    def _name_word_beside(token, names, before: bool) -> bool:
        word = token.text
        if not (word.isalpha() and word[:1].isupper() and not word.isupper() and len(word) >= 3):
            return False
        if word in NOT_NAMES or word in CALENDAR_WORDS or word.casefold() in TITLE_WORDS or word in ROLE_NOUNS:
            return False
        if before:
            return _name_shaped(word) or (names.is_first_name(word) and not is_common_word(word)
                                          and not is_known_place(word))
        return names.is_last_name(word) and not is_common_word(word) and not is_known_place(word)

    def _by_list(self, text: str, found: list[Span]) -> list[Span]:
        """Items of an enumeration where half the other items are names are names too
        ("Frodo and Sam", "greta, lukas, tomas and ines")."""
        names = lexicon()
        starts = {s.start for s in found}
        spans = []
        for match in _LIST.finditer(text):
            items = list(re.finditer(rf"{_UPPER_TOKEN}(?:\s{_UPPER_TOKEN})?", match.group("items")))
            offset = match.start("items")
            # Found as names already, or a surname/first name several locales' lists know
            # that is no ordinary word and no place.
            known = sum(
                1 for it in items
                if offset + it.start() in starts or (
                    " " not in it.group()
                    and (self._likely_last_name(it.group()) or self._likely_first_name(it.group()))
                    and not is_common_word(it.group())
                    and not is_known_place(it.group())
                )
            )
            after_cue = _PEOPLE_LIST_CUE.search(text, max(0, offset - 60), offset) is not None
            if not after_cue and (known < 1 or known * 2 < len(items)):
                continue
            for k, it in enumerate(items):
                start = offset + it.start()
                value = it.group()
                if start in starts or value in NOT_NAMES or is_known_place(value) or _CONTRACTED.fullmatch(value):
                    continue  # "Adeyemi and I'm applying": a pronoun and its verb end a list of names
                if " " not in value and is_common_word(value) and not (names.is_first_name(value) or names.is_last_name(value)):
                    # An ordinary word at an edge of the list has its capital for another
                    # reason: the first item opens a sentence ("Originally, Ada said"), a
                    # last item after a bare comma opens a clause ("Dear Ada, As agreed").
                    opens_sentence = k == 0 and (start == 0 or text[:start].rstrip()[-1:] in ("", ".", "!", "?", ":", "\n"))
                    opens_clause = k == len(items) - 1 and k > 0 and text[offset + items[k - 1].end() : start].strip() == ","
                    if opens_sentence or opens_clause:
                        continue
                spans.append(Span(start, offset + it.end(), Label.PERSON, value, 0.6, self.name))
        for match in _LOWER_LIST.finditer(text):
            items = [m for m in re.finditer(r"[a-zà-ÿ]{3,}", match.group()) if m.group() not in ("and", "or")]
            if len(items) >= 3 and sum(self._likely_first_name(m.group()) for m in items) * 3 >= len(items) * 2:
                for m in items:
                    start = match.start() + m.start()
                    spans.append(Span(start, start + len(m.group()), Label.PERSON, m.group(), 0.6, self.name))
        return spans



_NEXT_WORD = re.compile(r"[ \t]+(?P<w>[A-Za-zà-öø-ÿĀ-ſ][a-zà-öø-ÿĀ-ſ'’\-]*[a-zà-öø-ÿĀ-ſ])(?![\w'’\-])")


# A month, written short or long, with a day or a year beside it: "on 8 Jan.", "Jan 31",
# "before 31 Jan?" ("Jan" and "June" are given names too; a number beside them is a date's).
_MONTH = re.compile(
    r"(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|January|February|March|April|May|June|July|August|"
    r"September|October|November|December)\.?"
)
_DAY_BEFORE = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?$")
_DAY_OR_YEAR_AFTER = re.compile(r"\.?[ \t]+\d{1,4}\b")


def _month_of_a_date(text: str, span: Span) -> bool:
    return bool(_MONTH.fullmatch(span.text) and (
        _DAY_BEFORE.search(text, max(0, span.start - 10), span.start) or _DAY_OR_YEAR_AFTER.match(text, span.end)))


def _surnames_after(text: str, position: int, names) -> list[str]:
    """Up to two words after an introduced given name that are a surname the lists know or
    no ordinary word ("raghunathan", "van"): the rest of the name."""
    out = []
    for _ in range(2):
        m = _NEXT_WORD.match(text, position)
        if m is None:
            break
        word = m.group("w")
        if word.casefold() in _FUNCTION_WORDS or is_known_place(word):
            break
        if is_common_word(word) and not names.is_last_name(word):
            break
        out.append(word)
        position = m.end()
    return out


# Words that follow "I am"/"you are" and are never a name.
_FUNCTION_WORDS = frozenset(
    "a an the not so very too just still also now here there in on at to from with by for of going gonna "
    "trying looking working writing asking".split()
)


@lru_cache(maxsize=4096)
def _looks_like_word(word: str) -> bool:
    """An English word, or a misspelling of one ("intrested": a frequent word is one typing
    slip away, a letter left out, swapped or mistyped): not a name. Rare words with no
    frequent neighbour ("utkarsh") pass."""
    if is_common_word(word) or word_frequency(word) > 0:
        return True
    if len(word) > 14:
        return False  # a slip of a frequent word is short; long rare words are names or codes
    return any(word_frequency(c) >= _TYPO_NEIGHBOUR for c in _slips_of(word.casefold()))


def initial_and_everyday_word(value: str) -> bool:
    """"C. Results", "B. Section": a letter and an everyday word no list has as a surname."""
    m = _INITIAL_SURNAME.fullmatch(value)
    return bool(m) and is_common_word(m.group("last").casefold()) and not lexicon().is_last_name(m.group("last"))


def _everyday_around_a_letter(words: list[str], names) -> bool:
    """"Part B. Section", "Plan A. Then": everyday words around a letter, no name (a word the
    lists know as a first name before it, or as a surname after it, is one: "Grace B. Hill")."""
    first, last = words[0], words[-1]
    return ((is_common_word(first.casefold()) and not names.is_first_name(first))
            or (is_common_word(last.casefold()) and not names.is_last_name(last)))


def _name_shaped(word: str) -> bool:
    """A capitalised word that can only be a name: no word of English or of a neighbouring
    language ("Vielen Dank", "Feliz Navidad"), written rarely, no month, place or firm."""
    if word in NOT_NAMES or word in CALENDAR_WORDS or word.casefold() in NOT_ENTITIES:
        return False
    if (is_common_word(word) or word_frequency(word) or zipf(word) >= _UNLISTED_FIRST_ZIPF
            or zipf_in_languages(word) >= _FOREIGN_WORD_ZIPF):
        return False
    return not (is_known_place(word) or _known_organisation(word))


_TYPO_NEIGHBOUR = 10000  # occurrences in the English list: a word everyone writes
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _slips_of(word: str):
    """The words one slip of typing away that are no shorter: a letter inserted, replaced,
    or two neighbours swapped (a rare name is seldom a frequent word minus a letter)."""
    for i in range(len(word) + 1):
        for c in _LETTERS:
            yield word[:i] + c + word[i:]
            if i < len(word) and c != word[i]:
                yield word[:i] + c + word[i + 1 :]
        if i < len(word) - 1:
            yield word[:i] + word[i + 1] + word[i] + word[i + 2 :]


_WORD_IN_NAME = re.compile(r"[^\s,;]+")


def _part(span: Span, start: int, end: int) -> Span:
    """The span's text from start to end (offsets within it), as a span of its own."""
    return Span(span.start + start, span.start + end, span.label, span.text[start:end], span.score, span.detector, span.canonical)


def split_repeated_first_word(span: Span) -> list[Span]:
    """"Ada Kowalczyk Ada", "Ada Kowalczyk Ada Kowalczyk Ines Duarte": a name run into the
    start of the next mention of it (a list with no commas, a signature under a typed
    name), which detectors read as one long name. Split where the first word comes back,
    two words on or more ("Humbert Humbert" stays whole), and after a whole repeat of the
    name, each part a mention of its own."""
    if span.label is not Label.PERSON:
        return [span]
    words = list(_WORD_IN_NAME.finditer(span.text))
    if len(words) < 3:
        return [span]
    first = words[0].group().casefold()
    for i in range(2, len(words)):
        if words[i].group().casefold() != first:
            continue
        parts = [_part(span, 0, words[i - 1].end())]
        name = [w.group().casefold() for w in words[:i]]
        again = [w.group().casefold() for w in words[i : 2 * i]]
        if again == name and len(words) > 2 * i:
            # the whole name again, then more: the repeat is a mention, what follows another
            parts.append(_part(span, words[i].start(), words[2 * i - 1].end()))
            i = 2 * i
        return parts + split_repeated_first_word(_part(span, words[i].start(), len(span.text)))
    return [span]
