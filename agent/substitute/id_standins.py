"""Stand-ins for identifiers with a structure: a valid number of the same type (check
characters included) that keeps none of the real one's digit runs.

A type describes its stand-in with a mask over the value's letters and digits (the
separators and the letter case of the value as written are kept):

    #      a random digit, never the real digit at that place
    A      a random letter, never the real letter at that place
    X      a random character of the real one's class (digit or letter), never the real one
    =      the real character (a fixed prefix such as "DE" or "756")
    C      a check character: found by trying values until the type's validator accepts
    [...]  a random character of that class (the real one avoided when the class allows)
    {...}  a date field written with Y, M and D (e.g. {YYMMDD}, {DDMMYY}, {YYYYMMDD}): a
           random date between 1950 and 1999, day, month and year all unlike the real ones

The validator is the type's own (python-stdnum); no checksum is computed here.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

DIGITS = "0123456789"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_TOKEN = re.compile(r"\[[^\]]+\]|\{[YMD]+\}|[#AX=C]")
_ATTEMPTS = 120


def alnum(text: str) -> str:
    return "".join(ch for ch in text if ch.isalnum())


@dataclass(frozen=True)
class _Slot:
    kind: str  # "#", "A", "X", "=", "C", "class", "date"
    chars: str = ""  # the class, for "class"
    date_part: str = ""  # "Y", "M" or "D", for "date"
    date_group: int = -1  # which {...} field it belongs to
    date_format: str = ""


def parse_mask(mask: str) -> list[_Slot]:
    slots: list[_Slot] = []
    group = 0
    for token in _TOKEN.findall(mask):
        if token.startswith("["):
            slots.append(_Slot("class", chars=_expand_class(token[1:-1])))
        elif token.startswith("{"):
            fmt = token[1:-1]
            slots.extend(_Slot("date", date_part=ch, date_group=group, date_format=fmt) for ch in fmt)
            group += 1
        else:
            slots.append(_Slot(token))
    if "".join(_TOKEN.findall(mask)) != mask:
        raise ValueError(f"bad stand-in mask {mask!r}")
    return slots


def _expand_class(spec: str) -> str:
    out = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            out.extend(chr(c) for c in range(ord(spec[i]), ord(spec[i + 2]) + 1))
            i += 3
        else:
            out.append(spec[i])
            i += 1
    return "".join(out)


def shares_digit_run(real: str, stand_in: str, run: int = 3, fixed: frozenset[int] = frozenset()) -> bool:
    """Do the two values (letters and digits only, aligned) hold the same run of `run`
    digits at the same place? Runs made only of the type's fixed characters (a country
    prefix such as 756, the same in every number) do not count."""
    a, b = alnum(real).upper(), alnum(stand_in).upper()
    for i in range(min(len(a), len(b)) - run + 1):
        piece = a[i : i + run]
        if piece.isdigit() and piece == b[i : i + run] and not all(k in fixed for k in range(i, i + run)):
            return True
    return False


def _other(rng: random.Random, pool: str, avoid: str) -> str:
    choices = [c for c in pool if c != avoid] or list(pool)
    return rng.choice(choices)


def _date_digits(rng: random.Random, fmt: str, real: str) -> str:
    """A date written in fmt (Y, M, D letters) whose year, month and day all differ from
    the real one's (the real value's digits at the same places)."""
    candidate = ""
    for _ in range(50):
        day = dt.date(1950, 1, 1) + dt.timedelta(days=rng.randrange(365 * 50))
        fields = {"Y": f"{day.year:04d}"[-fmt.count("Y") :], "M": f"{day.month:02d}", "D": f"{day.day:02d}"}
        used = {"Y": 0, "M": 0, "D": 0}
        out = []
        for ch in fmt:
            out.append(fields[ch][used[ch]])
            used[ch] += 1
        candidate = "".join(out)
        same = {part: "".join(c for c, f in zip(candidate, fmt) if f == part)[-2:] ==
                "".join(c for c, f in zip(real, fmt) if f == part)[-2:] for part in "YMD" if part in fmt}
        if not any(same.values()):
            return candidate
    return candidate


def _fill(rng: random.Random, slots: list[_Slot], real: str) -> list[str]:
    out: list[str] = []
    dates: dict[int, tuple[str, int]] = {}  # field -> (its digits, how many used)
    for i, slot in enumerate(slots):
        real_ch = real[i].upper()
        if slot.kind == "#":
            out.append(_other(rng, DIGITS, real_ch))
        elif slot.kind == "A":
            out.append(_other(rng, LETTERS, real_ch))
        elif slot.kind == "X":
            out.append(_other(rng, DIGITS if real_ch.isdigit() else LETTERS, real_ch))
        elif slot.kind == "=":
            out.append(real_ch)
        elif slot.kind == "C":
            out.append("?")
        elif slot.kind == "class":
            out.append(_other(rng, slot.chars, real_ch))
        else:  # a date field: drawn at its first character
            if slot.date_group not in dates:
                width = len(slot.date_format)
                dates[slot.date_group] = (_date_digits(rng, slot.date_format, real[i : i + width]), 0)
            digits, used = dates[slot.date_group]
            out.append(digits[used])
            dates[slot.date_group] = (digits, used + 1)
    return out


def _century_positions(slots: list[_Slot]) -> frozenset[int]:
    out = set()
    for i, slot in enumerate(slots):
        if slot.kind == "date" and slot.date_format.count("Y") == 4 and (i == 0 or slots[i - 1].date_group != slot.date_group):
            first_y = i + slot.date_format.index("Y")
            out |= {first_y, first_y + 1}
    return frozenset(out)


def _written(template: str, chars: list[str]) -> str:
    """chars (letters and digits) put where template has its letters and digits, in the
    template's letter case."""
    it = iter(chars)
    out = []
    for ch in template:
        if ch.isalnum():
            new = next(it)
            out.append(new.lower() if ch.islower() else new)
        else:
            out.append(ch)
    return "".join(out)


def masked_stand_in(
    rng: random.Random,
    real: str,
    masks: tuple[str, ...],
    validate: Callable[[str], bool] | None,
) -> str | None:
    """A stand-in for real made from the mask of its length; None when no mask fits."""
    compact = alnum(real)
    if masks == ("*",):
        masks = ("X" * len(compact),)
    slots = next((s for s in (parse_mask(m) for m in masks) if len(s) == len(compact)), None)
    if slots is None:
        return None
    checks = [i for i, s in enumerate(slots) if s.kind == "C"]
    # Type constants and the century of a four-digit year say nothing about the person.
    fixed = frozenset(i for i, s in enumerate(slots) if s.kind == "=") | _century_positions(slots)
    for _ in range(_ATTEMPTS):
        chars = _fill(rng, slots, compact)
        pools = [DIGITS if compact[i].isdigit() else LETTERS for i in checks]
        found = None
        for values in itertools.product(*pools) if checks else [()]:
            for i, value in zip(checks, values):
                chars[i] = value
            candidate = _written(real, chars)
            if (validate is None or validate("".join(candidate.split()))) and not shares_digit_run(real, candidate, fixed=fixed):
                found = candidate
                break
        if found is not None and alnum(found).upper() != compact.upper():
            return found
    return None


_CN_REGIONS: list[str] = []


def _cn_regions() -> list[str]:
    """The county codes python-stdnum knows (its cn/loc data): a Chinese resident ID's
    first six digits must be one of them."""
    global _CN_REGIONS
    if _CN_REGIONS:
        return _CN_REGIONS
    from stdnum import numdb

    db = numdb.get("cn/loc")
    codes = []

    def walk(tree, prefix=""):
        for _length, low, high, props, children in tree:
            if len(prefix + low) == 6 and low == high and not props.get("county", "[").startswith("["):
                codes.append(prefix + low)  # a county that exists whatever the birth year
            walk(children, prefix + low)

    walk(db.prefixes)
    _CN_REGIONS = codes
    return codes


def cn_ric_stand_in(rng: random.Random, real: str, validate: Callable[[str], bool]) -> str | None:
    """A Chinese resident ID: another county, another birth date, valid check digit."""
    regions = _cn_regions()
    compact = alnum(real)
    for _ in range(20):
        region = rng.choice(regions)
        if shares_digit_run(compact[:6], region):
            continue
        moved = _written(real, list(region + compact[6:]))
        candidate = masked_stand_in(rng, moved, ("======{YYYYMMDD}###C",), validate)
        if candidate is not None and not shares_digit_run(real, candidate, fixed=frozenset({6, 7})):
            return candidate
    return None


def de_idnr_stand_in(rng: random.Random, real: str, validate: Callable[[str], bool]) -> str | None:
    """German Steuer-ID: of its first ten digits exactly one appears twice and the others
    once (the rule python-stdnum checks), which random digits rarely meet; so the ten are
    a shuffle of nine different digits and one of them again, none the real digit at its
    place, and the check digit is the one the validator accepts."""
    compact = alnum(real)
    if len(compact) != 11:
        return None
    for _ in range(_ATTEMPTS):
        digits = rng.sample(DIGITS, 9)
        digits.append(rng.choice(digits))
        rng.shuffle(digits)
        if digits[0] == "0" or any(d == r for d, r in zip(digits, compact)):
            continue
        for check in DIGITS:
            candidate = _written(real, [*digits, check])
            if validate(alnum(candidate)) and not shares_digit_run(real, candidate):
                return candidate
    return None


def stand_in_for(kind, request) -> str | None:
    """The stand-in a table row makes: its own generator, else its masks."""
    if kind.generate is not None:
        return kind.generate(request)
    if kind.masks:
        return masked_stand_in(request.rng, request.real, kind.masks, kind.validate)
    return None


def constant_positions(kind, value: str) -> frozenset[int]:
    """Places (among letters and digits) where every value of the type has the same
    character (the "=" of its mask, the century of a four-digit year)."""
    n = len(alnum(value))
    for mask in kind.masks:
        slots = parse_mask(mask) if mask != "*" else []
        if len(slots) == n:
            return frozenset(i for i, s in enumerate(slots) if s.kind == "=") | _century_positions(slots)
    return frozenset()


def iban_stand_in(rng: random.Random, real: str) -> str | None:
    """An IBAN of the same country and length: new account part, valid mod-97 check
    digits (python-stdnum's check, without the national rules of the account part)."""
    from stdnum import iban

    compact = alnum(real)
    mask = "==CC" + "X" * (len(compact) - 4)
    return masked_stand_in(rng, real, (mask,), lambda value: iban.is_valid(value, check_country=False))


# Leading digits that say which card network a number belongs to (kept, so a Visa stays a Visa).
_BRAND_PREFIX = {"visa": 1, "mastercard": 2, "amex": 2, "discover": 4, "jcb": 4, "diners": 3, "maestro": 2, "unionpay": 2}


def card_stand_in(rng: random.Random, real: str) -> str | None:
    """A card number of the same network and length, Luhn-valid, no real digit run
    beyond the network's prefix."""
    from stdnum import luhn

    from agent.detect.validators import card_brand

    compact = alnum(real)
    brand = card_brand(compact)
    keep = _BRAND_PREFIX.get(brand or "", 1)
    if brand == "discover" and not compact.startswith("6011"):
        keep = 2
    mask = "=" * keep + "#" * (len(compact) - keep - 1) + "C"
    return masked_stand_in(rng, real, (mask,), lambda value: luhn.is_valid(alnum(value)) and card_brand(value) == brand)
