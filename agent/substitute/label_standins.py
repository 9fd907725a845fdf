"""Stand-in generators and plausibility checks of the label rows of the type table
(agent/detect/table.py): what the substituter's two `if` chains on the label used to say,
one function per label. A generator gets a StandInRequest (the substituter itself is
`request.helpers`, for the person pools and the conversation's e-mail domains)."""

from __future__ import annotations

import re

from agent.detect.person_names import FAMILY_BEFORE, NICKNAME_BEFORE
from agent.detect.spec import StandInRequest
from agent.detect.validators import card_brand, digits_of, iban_valid, luhn_valid
from agent.knowledge.person_words import ET_AL_AFTER
from agent.substitute import formats
from agent.substitute.dates import shift_date_in
from agent.substitute.handles import worded_email
from agent.substitute.orgs_places import fake_org, fake_place, state_after_town
from agent.substitute.persons import PRONOUN_REACH
from agent.substitute.rng import match_case, same_shape

NORP_POOL = (
    "Canadian", "Brazilian", "Norwegian", "Kenyan", "Portuguese", "Chilean", "Vietnamese", "Dutch",
    "Polish", "Irish", "Moroccan", "Filipino", "Austrian", "Peruvian", "Thai", "Ghanaian",
)


# -- generators ---------------------------------------------------------------------------
def person(r: StandInRequest) -> str | None:
    if FAMILY_BEFORE.search(r.text, max(0, r.start - 5), r.start) and re.fullmatch(r"[A-Z][^\W\d_]+s", r.real):
        # "the Kowalczyks": a family by its surname, so another surname with its "s"
        stand_in = r.helpers.persons.make(r.real[:-1], r.text[: r.start], r.conversation, r.rng, r.is_free, surname=True)
        if not stand_in or " " in stand_in:
            return None
        return stand_in + ("es" if re.search(r"(?:s|x|z|ch|sh)$", stand_in) else "s")  # "the Gonzalezes"
    # "<Surname> et al.": the first author of a citation is named by their surname.
    surname = bool(ET_AL_AFTER.match(r.text, r.start + len(r.real)))
    # "Reginald 'Reg' Thornton": the word after the quoted nickname is the surname.
    surname = surname or bool(NICKNAME_BEFORE.search(r.text, max(0, r.start - 50), r.start))
    return r.helpers.persons.make(r.real, r.text[: r.start], r.conversation, r.rng, r.is_free, surname=surname,
                                  text_after=r.text[r.start + len(r.real) : r.start + len(r.real) + PRONOUN_REACH])



def email(r: StandInRequest) -> str | None:
    people = r.helpers.people(r.conversation)
    fake = formats.fake_any_email(r.rng, r.real, people, r.helpers.domain_map(r.conversation))
    return worded_email(r.conversation.seed, r.real, fake, people)


def phone(r: StandInRequest) -> str | None:
    return formats.fake_phone(r.rng, r.real)


def card(r: StandInRequest) -> str | None:
    return formats.fake_card(r.rng, r.real)


def iban(r: StandInRequest) -> str | None:
    return formats.fake_iban(r.rng, r.real)


def ssn(r: StandInRequest) -> str | None:
    return formats.fake_ssn(r.rng, r.real)


def ip(r: StandInRequest) -> str | None:
    return formats.fake_ip(r.rng, r.real)


def mac(r: StandInRequest) -> str | None:
    return formats.fake_mac(r.rng, r.real)


def url(r: StandInRequest) -> str | None:
    return formats.fake_url(r.rng, r.real, r.helpers.domain_map(r.conversation))


def secret(r: StandInRequest) -> str | None:
    return formats.fake_secret(r.rng, r.real)


def date(r: StandInRequest) -> str | None:
    return shift_date_in(r.real, r.conversation.date_shift_days)


# The last word of a street's name, unambiguous: "Green", "Hill", "Gate" and "Way" also end
# districts and places ("Notting Hill", "Milky Way"), "Court" ends courts.
_STREET_ENDS = frozenset({"street", "st", "road", "rd", "avenue", "ave", "lane", "ln", "drive", "boulevard", "blvd",
                          "crescent", "terrace", "close"})


def _names_a_street(real: str) -> bool:
    """"Maple Avenue", "Crescent Road, Hove": a street (and its town) NER read as a place or a
    firm. A town's or a company's stand-in made it "We live on Sun City" / "Oak Oak, York"."""
    words = real.split(",")[0].split()
    return len(words) >= 2 and words[-1].casefold().rstrip(".") in _STREET_ENDS


def org(r: StandInRequest) -> str | None:
    if _names_a_street(r.real):
        return address(r)
    return fake_org(r.rng, r.real, r.conversation, r.is_free)


def place(r: StandInRequest) -> str | None:
    if _names_a_street(r.real):
        return address(r)
    state = state_after_town(r.text[r.start + len(r.real):r.start + len(r.real) + 40], r.conversation)
    return fake_place(r.rng, r.real, r.is_free, r.text, us_state=state)


def address(r: StandInRequest) -> str | None:
    return r.helpers.address(r.rng, r.real, r.is_free, r.conversation)


def group(r: StandInRequest) -> str | None:
    return match_case(r.real, r.rng.choice(NORP_POOL))


def username(r: StandInRequest) -> str | None:
    return r.helpers.username(r.rng, r.real, r.conversation)


def other(r: StandInRequest) -> str | None:
    """A name-like value gets surnames word for word; anything else the same length and
    character classes (IDs found by a hotword, MISC codes)."""
    if r.real.replace(" ", "").isalpha():
        words = [w for w in r.helpers.persons.names.last_names("en_US") if w.isalpha()]
        return " ".join(match_case(t, r.rng.choice(words)) for t in r.real.split())
    return same_shape(r.rng, r.real)


def same_shape_of(r: StandInRequest) -> str | None:
    return same_shape(r.rng, r.real)


# -- plausibility of a proposed stand-in (a local model's) ---------------------------------
def plausible_email(real: str, candidate: str) -> bool:
    return re.fullmatch(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}", candidate) is not None


def plausible_phone(real: str, candidate: str) -> bool:
    return abs(len(digits_of(candidate)) - len(digits_of(real))) <= 2 and len(digits_of(candidate)) >= 7


def plausible_card(real: str, candidate: str) -> bool:
    return luhn_valid(candidate) and card_brand(candidate) == card_brand(real)


def plausible_iban(real: str, candidate: str) -> bool:
    return iban_valid(candidate) and candidate.replace(" ", "")[:2] == real.replace(" ", "")[:2]


def plausible_person(real: str, candidate: str) -> bool:
    return len(candidate.split()) == len(real.split()) and all(
        re.fullmatch(r"[^\W\d_][\w'’.\-]*", t) for t in candidate.split()
    )


def plausible_date(real: str, candidate: str) -> bool:
    return bool(re.search(r"\d", candidate)) == bool(re.search(r"\d", real))


def plausible_length(real: str, candidate: str) -> bool:
    return abs(len(candidate) - len(real)) <= 2
