"""Person stand-ins: same apparent gender and cultural origin, same structure (first
name alone, first + last, title + surname), and consistent with the rest of the
conversation (relatives keep a shared surname; unrelated people never share one)."""

from __future__ import annotations

import random
import re

from agent.entities import Label
from agent.knowledge.names import lexicon
from agent.knowledge.person_words import FEMALE_TITLES, MALE_TITLES, TITLE_PATTERN, parse_name
from agent.session.conversation import Conversation, fold
from agent.substitute.rng import match_case

_TITLE_BEFORE = re.compile(rf"\b({TITLE_PATTERN})\.?\s+$")


class PersonSurrogates:
    def __init__(self) -> None:
        self.names = lexicon()

    def make(self, value: str, text_before: str, conversation: Conversation, rng: random.Random,
             is_free) -> str | None:
        """A stand-in for the person `value`; `is_free(candidate)` says whether a
        candidate may be used (not a real value, not another stand-in, not in the text)."""
        title_match = _TITLE_BEFORE.search(text_before[-20:])
        title_before = title_match.group(1).casefold() if title_match else None
        parsed = parse_name(value, title_before, self.names)
        if not parsed.parts:
            return None
        gender_hint = None
        for title in [t.casefold().rstrip(".") for t in parsed.titles] + ([title_before] if title_before else []):
            if title in MALE_TITLES:
                gender_hint = "male"
            elif title in FEMALE_TITLES:
                gender_hint = "female"
        first_index = parsed.roles.index("first") if "first" in parsed.roles else None
        profile = self.names.profile(parsed.parts, first_index=first_index)
        gender = gender_hint or profile.gender
        known_first, known_last, used_first, used_last = self._conversation_names(conversation)
        new_parts: list[str] = []
        for part, role in zip(parsed.parts, parsed.roles):
            key = fold(part)
            if role == "initial":
                # An initial says little on its own, and a changed one could equal another
                # person's real initial in the text: it stays as written.
                new_parts.append(part)
                continue
            if role == "last":
                if key in known_last:  # a relative: same stand-in surname
                    new_parts.append(match_case(part, known_last[key]))
                    continue
                pool = self.names.last_names(profile.locale)
                taken = used_last
            else:
                if key in known_first:
                    new_parts.append(match_case(part, known_first[key]))
                    continue
                pool = self.names.first_names(profile.locale, gender)
                taken = used_first
            candidate = self._pick(pool, part, taken, rng, is_free)
            if candidate is None:
                return None
            new_parts.append(match_case(part, candidate))
        return " ".join(parsed.titles + new_parts + parsed.suffixes)

    def _pick(self, pool, real_part: str, taken: set[str], rng: random.Random, is_free) -> str | None:
        if not pool:
            return None
        real_key = fold(real_part)
        for _ in range(40):
            candidate = rng.choice(pool)
            key = fold(candidate)
            if key == real_key or key in taken or " " in candidate or not is_free(candidate):
                continue
            if len(real_key) >= 3 and (real_key in key or key in real_key):
                continue  # "Sengupta" for "Gupta" would carry the real name inside it
            return candidate
        return None

    def _conversation_names(self, conversation: Conversation):
        """Token-level maps from the conversation's person entries: real first/last name
        -> stand-in part, and the stand-in parts already in use."""
        known_first: dict[str, str] = {}
        known_last: dict[str, str] = {}
        used_first: set[str] = set()
        used_last: set[str] = set()
        for entry in conversation.entries:
            if entry.label is not Label.PERSON or entry.real == entry.stand_in:
                continue
            real = parse_name(entry.real, None, self.names)
            fake = entry.stand_in.split()
            fake = fake[len(real.titles) : len(fake) - len(real.suffixes) or None]
            if len(fake) != len(real.parts):
                continue
            for part, role, stand_in in zip(real.parts, real.roles, fake):
                if role == "last":
                    known_last.setdefault(fold(part), stand_in)
                    used_last.add(fold(stand_in))
                elif role in ("first", "middle"):
                    known_first.setdefault(fold(part), stand_in)
                    used_first.add(fold(stand_in))
        return known_first, known_last, used_first, used_last


def derive_partial(mention: str, full_real: str, full_stand_in: str) -> str | None:
    """The stand-in for a partial mention of a mapped name: "Mitchell" of "Sarah Mitchell"
    -> the surname of its stand-in. None when the mention is not made of its parts."""
    real_tokens = full_real.split()
    fake_tokens = full_stand_in.split()
    if len(real_tokens) != len(fake_tokens):
        return None
    by_token = {fold(r): f for r, f in zip(real_tokens, fake_tokens)}
    out = []
    for token in mention.split():
        stand_in = by_token.get(fold(token))
        if stand_in is None:
            return None
        out.append(match_case(token, stand_in))
    return " ".join(out)
