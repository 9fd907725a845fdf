"""Deterministic randomness: the same conversation seed and real value always give the
same stand-in (tests are exact), different seeds give unrelated ones."""

from __future__ import annotations

import hashlib
import random


def rng_for(seed: int, *parts: object) -> random.Random:
    digest = hashlib.blake2b(repr((seed,) + parts).encode("utf-8"), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def match_case(template: str, value: str) -> str:
    """Write value in the letter case of template (ALL CAPS, lower, or as given)."""
    letters = [c for c in template if c.isalpha()]
    if not letters or not value:
        return value
    if all(c.isupper() for c in letters) and len(letters) > 1:
        return value.upper()
    if all(c.islower() for c in letters):
        return value.lower()
    if letters[0].isupper() and all(c.islower() for c in letters[1:]) and value.isupper():
        return value[:1] + value[1:].lower()  # "Client" -> "Thomas", not "THOMAS"
    if letters[0].isupper() and value[0].islower():
        return value[0].upper() + value[1:]
    return value


def same_shape(rng: random.Random, template: str, *, keep_prefix: int = 0) -> str:
    """Each digit replaced by a random digit, each letter by a random letter of the same
    case; everything else (separators, the first keep_prefix characters) kept."""
    out = list(template[:keep_prefix])
    for ch in template[keep_prefix:]:
        if ch.isdigit():
            out.append(rng.choice("0123456789"))
        elif ch.isalpha() and ch.isascii():
            letters = "ABCDEFGHJKLMNPQRSTUVWXYZ" if ch.isupper() else "abcdefghijkmnopqrstuvwxyz"
            out.append(rng.choice(letters))
        else:
            out.append(ch)
    return "".join(out)


def digits_into(template: str, digits: str) -> str:
    """Put the digits, in order, where template has digits (keeps the formatting)."""
    it = iter(digits)
    return "".join(next(it) if ch.isdigit() else ch for ch in template)
