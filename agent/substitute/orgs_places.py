"""Organisation and place stand-ins.

Organisations keep their legal suffix, trade and generic words ("Longport Police
Department" -> "Ashford Police Department", "Bright Smile Dental" -> "Clear View Dental");
only the distinctive words change, each for one of its kind, and the same word changes
the same way everywhere in the conversation. Places keep their granularity:
a country for a country, a US state for a state, a city for a city (in the same country
when the city is known).
"""

from __future__ import annotations

import random
import re

from agent.entities import Label
from agent.knowledge.names import lexicon
from agent.knowledge.org_words import BRAND_WORDS, COMPANY_SUFFIX_WORDS, GENERIC_ORG_WORDS, INDUSTRY_WORDS
from agent.knowledge.places import place_kind, places
from agent.knowledge.words import is_common_word
from agent.session.conversation import Conversation, fold
from agent.substitute.rng import match_case


def fake_place(rng: random.Random, value: str, is_free) -> str | None:
    data = places()
    kind, country = place_kind(value)
    if kind == "country":
        pool = data["countries"]
    elif kind == "state":
        pool = data["us_states"]
    elif kind == "continent":
        pool = data["continents"]
    elif kind == "region":
        pool = data["regions"]
    elif kind == "city":
        pool = data["cities"].get(country or "", []) or data["all_cities"]
    else:
        # Unknown granularity: a district or a small town is most likely; a mid-size city
        # is the closest realistic stand-in. Keep words like "County" or "Island".
        tail = re.search(r"\s+(County|City|Island|Islands|Province|District|Valley|Bay|Beach|Springs|Heights)$", value)
        if tail:
            base = rng.choice([n for n in lexicon().last_names("en_US") if n.isalpha()])
            candidate = base + tail.group()
            return candidate if is_free(candidate) else None
        pool = data["all_cities"]
    options = [p for p in pool if fold(p) != fold(value)]
    for _ in range(30):
        candidate = rng.choice(options)
        if is_free(candidate):
            if value.lower().startswith("the ") and not candidate.lower().startswith("the "):
                candidate = value[:4] + candidate if kind in ("country", "region") else candidate
            return match_case(value, candidate)
    return None


def _org_word_map(conversation: Conversation) -> dict[str, str]:
    """Distinctive word -> stand-in word, from the organisations already mapped."""
    mapping: dict[str, str] = {}
    for entry in conversation.entries:
        if entry.label is not Label.ORG:
            continue
        real, fake = entry.real.split(), entry.stand_in.split()
        if len(real) == len(fake):
            for r, f in zip(real, fake):
                if fold(r) != fold(f):
                    mapping.setdefault(fold(r), f)
    return mapping


def fake_org(rng: random.Random, value: str, conversation: Conversation, is_free) -> str | None:
    """Each distinctive word changes for one of its kind: an ordinary word for another
    word businesses use ("Bright Smile Dental" -> "Clear View Dental"), a person's name
    for a surname ("Dana Brooks Consulting" -> "Hale Porter Consulting"), a coined word
    for a coined word, an acronym for letters; the trade, generic words and the legal
    form stay."""
    tokens = value.split()
    known = _org_word_map(conversation)
    names = lexicon()
    surnames = [n for n in names.last_names("en_US") if n.isalpha() and len(n) > 3 and not n.startswith("Mc")]
    saints = [n for n in names.first_names("en_GB", "any") if n.isalpha()]
    brand_words = [w for w in BRAND_WORDS if fold(w) not in {fold(t) for t in tokens}]
    for _ in range(20):
        out = []
        changed = False
        for token in tokens:
            key = fold(token)
            core = token.strip(",.()\"'")
            if core.endswith(("'s", "’s")):
                core = core[:-2]  # "Luke's Hospital" -> "Riggs's Hospital": the possessive stays
            if key in COMPANY_SUFFIX_WORDS or key in GENERIC_ORG_WORDS or key in INDUSTRY_WORDS or not core:
                out.append(token)
                continue
            if key in known:
                out.append(known[key])
                changed = True
                continue
            if core.isupper() and len(core) <= 6 and core.isalpha():
                new = "".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVWXYZ") for _ in core)
            elif any(ch.isdigit() for ch in core):
                new = re.sub(r"\d", lambda _m: rng.choice("0123456789"), core)
            elif out and fold(out[-1]) in ("st", "st.", "saint", "ste", "ste."):
                new = match_case(core, rng.choice(saints))  # "St. Luke's" -> "St. Anne's"
            elif is_common_word(core):
                new = match_case(core, rng.choice(brand_words))
            elif names.is_first_name(core) or names.is_last_name(core):
                new = match_case(core, rng.choice(surnames))
            else:  # a coined name ("Northwind"): two words run together
                new = match_case(core, rng.choice(brand_words) + rng.choice(brand_words).lower())
            out.append(token.replace(core, new))
            changed = True
        if not changed:  # nothing distinctive ("The Bank"): prefix a name
            out.insert(0, rng.choice(surnames))
        candidate = " ".join(out)
        if fold(candidate) != fold(value) and is_free(candidate):
            return candidate
    return None
