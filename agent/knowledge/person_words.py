"""Words around a person's name that are not the name: titles ("Ms.", "Uncle"), suffixes
("Jr.", "PhD"), the relation words that introduce a private person ("my landlord"), and
`parse_name`, which splits a name into those parts. Detection, decision, substitution,
restore and the local-model tasks all read them from here, so they agree on what a
title is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.knowledge.names import NameLexicon

# As written in front of a name (a dot after the short ones is optional).
TITLES = (
    "Mr", "Mrs", "Ms", "Miss", "Mx", "Dr", "Prof", "Professor", "Sir", "Dame", "Lady", "Lord",
    "Rev", "Reverend", "Fr", "Father", "Sister", "Judge", "Justice", "Mme", "Mlle", "Herr",
    "Frau", "Sr", "Sra", "Srta", "Sgt", "Capt", "Captain", "Col", "Gen", "Lt", "Officer",
    "Detective", "Det", "Coach", "Uncle", "Aunt", "Auntie", "Grandma", "Grandpa",
)
# The titles as one regex alternation, in the order above.
TITLE_PATTERN = "|".join(TITLES)
TITLE_WORDS = frozenset(t.casefold() for t in TITLES)
# Role nouns that case notes, HR and court prose put before a name like a title ("Patient
# Rosalind Achterberg", "Applicant Tomas Arvelo"). NER often takes the role word into
# the name; it is not part of it.
ROLE_NOUNS = (
    "Patient", "Client", "Employee", "Applicant", "Tenant", "Resident", "Student", "Customer", "Defendant",
    "Plaintiff", "Claimant", "Candidate", "Victim", "Suspect", "Witness", "Inmate", "Pupil", "Caller",
    "Driver", "Courier", "Technician", "Caregiver", "Carer", "Cleaner", "Landlord", "Neighbour", "Neighbor",
)
ROLE_NOUN_PATTERN = "|".join(ROLE_NOUNS)
# What follows the first author of an academic citation: "et al." ("et. al", "et al").
ET_AL = r"\s+et\.?\s+al\b"
ET_AL_AFTER = re.compile(ET_AL)
# Titles that say the person's gender (a stand-in for "Mrs Patel" is a woman's name).
# "Sr" is Señor here; as a name suffix it is Senior.
MALE_TITLES = frozenset({"mr", "sir", "lord", "herr", "sr", "father", "fr", "uncle", "grandpa"})
FEMALE_TITLES = frozenset(
    {"mrs", "ms", "miss", "dame", "lady", "mme", "mlle", "frau", "sra", "srta", "sister", "aunt", "auntie", "grandma"}
)
# Relatives and partners named right before a name ("my son Tobi", "his mother Sunita's"):
# they say the person's gender as a title does, and outweigh the name lists (a name can be
# a girl's in one country and a boy's in another).
MALE_KIN = frozenset({"son", "brother", "father", "dad", "husband", "boyfriend", "nephew", "grandson",
                      "grandfather", "stepson", "stepfather", "stepbrother", "fiance", "fiancé", "widower"})
FEMALE_KIN = frozenset({"daughter", "sister", "mother", "mom", "mum", "wife", "girlfriend", "niece", "granddaughter",
                        "grandmother", "stepdaughter", "stepmother", "stepsister", "fiancee", "fiancée", "widow"})
# After a name ("Martin Luther King Jr.", "Jane Doe, PhD"), casefolded.
NAME_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "phd", "md", "esq", "esq."})

# Words inside a surname that say which family it is only with the word after them
# ("van der Berg", "de la Fontaine", "bin Said", "Al-Sayed"), casefolded. A stand-in keeps
# them as written and changes the word they introduce.
NAME_PARTICLES = frozenset({
    "van", "von", "der", "den", "de", "del", "della", "degli", "di", "da", "das", "dos", "do", "du", "la", "le",
    "ter", "ten", "zu", "y", "bin", "ibn", "binti", "bint", "al", "el", "abu", "ben", "st", "st.", "'t",
})

# Who a private person is to the writer: "my landlord Tom", "her dentist, Dr Reyes". A
# name after "my/our/his/her <relation>" is a person, and one the writer knows privately.
RELATIONS = (
    "friend", "best friend", "colleague", "boss", "manager", "wife", "husband", "son", "daughter",
    "brother", "sister", "mother", "father", "mom", "mum", "dad", "partner", "client", "customer",
    "neighbor", "neighbour", "landlord", "landlady", "tenant", "student", "teacher", "doctor",
    "lawyer", "coworker", "co-worker", "girlfriend", "boyfriend", "cousin", "niece", "nephew",
    "uncle", "aunt", "grandma", "grandpa", "grandmother", "grandfather", "fiance", "fiancé",
    "fiancee", "fiancée", "roommate", "classmate", "teammate", "team mate", "employee",
    "assistant", "intern", "supervisor", "therapist", "dentist", "accountant", "tutor", "coach",
    "ex", "bff", "bf", "gf", "hubby", "kid", "child", "baby", "dog", "cat", "puppy", "kitten", "pet",
    # care and schooling
    "gp", "physician", "nurse", "pediatrician", "paediatrician", "psychiatrist", "psychologist", "counselor",
    "counsellor", "vet", "surgeon", "midwife", "pharmacist", "nanny", "babysitter", "mentor", "advisor",
    "adviser", "professor", "grandson", "granddaughter", "stepmother", "stepfather", "stepson", "stepdaughter",
    # people who serve the writer
    "broker", "realtor", "banker", "attorney", "solicitor", "contractor", "mechanic", "plumber", "electrician",
    "hairdresser", "barber", "stylist", "caregiver", "carer", "optometrist", "chiropractor", "physiotherapist",
    "trainer", "housekeeper", "cleaner",
)
# The relation words as one regex alternation, in the order above.
# Any of them by marriage too ("mother-in-law", "brother-in-law").
RELATION_PATTERN = "(?:" + "|".join(re.escape(r) for r in RELATIONS) + ")(?:-in-law)?"


@dataclass
class ParsedName:
    titles: list[str]  # kept as written
    parts: list[str]  # the name tokens
    roles: list[str]  # "first", "middle", "last", "initial" per part
    suffixes: list[str]


def parse_name(value: str, title_before: str | None, names: NameLexicon) -> ParsedName:
    """The parts of a person's name as written: "Dr. Sarah J. Mitchell Jr." -> titles
    ["Dr."], parts Sarah/J./Mitchell as first/initial/last, suffixes ["Jr."]. A single
    word is a surname after a title (in the value or just before it, `title_before`) or
    when the lists know it only as a surname; else a first name."""
    tokens = value.split()
    titles, suffixes = [], []
    while tokens and tokens[0].casefold().rstrip(".") in TITLE_WORDS and len(tokens) > 1:
        titles.append(tokens.pop(0))
    while tokens and tokens[-1].casefold().rstrip(",") in NAME_SUFFIXES and len(tokens) > 1:
        suffixes.insert(0, tokens.pop())
    roles: list[str] = []
    if len(tokens) == 1:
        token = tokens[0]
        has_title = bool(titles or title_before)
        if has_title or (names.is_last_name(token) and not names.is_first_name(token)):
            roles = ["last"]
        else:
            roles = ["first"]
    else:
        for i, token in enumerate(tokens):
            if re.fullmatch(r"[A-Z]\.?", token):
                roles.append("initial")
            elif i == 0:
                roles.append("first")
            elif i == len(tokens) - 1:
                roles.append("last")
            else:
                roles.append("middle")
    return ParsedName(titles, tokens, roles, suffixes)


# What makes a surname the name of a thing: "Parkinson's disease", "Hashimoto's
# thyroiditis", "Occam's razor", "Bell's palsy". The surname there names no one the text
# is about, and a stand-in would garble the term ("Naylor's disease").
EPONYM_AFTER = re.compile(
    r"['’]s?[ \t]+(?i:disease|syndrome|disorder|palsy|sarcoma|lymphoma|thyroiditis|encephalopathy|law|theorem|"
    r"principle|paradox|razor|constant|equation|conjecture|ulcer|phenomenon|sign|reflex|manoeuvre|maneuver)\b"
)
