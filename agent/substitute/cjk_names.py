"""Stand-ins for person names written in Hangul, Han characters or Katakana: a name of the
same language and script, shaped like the real one (surname and given name with no space
between them, as Korean and Chinese write them; a Japanese name keeps its space or lack
of one; a surname alone stays a surname alone). From Faker's ko_KR, ja_JP, zh_CN and
zh_TW person providers.

The general person stand-ins read a name by its words and take the pools of one locale
per script; a Korean "<surname><given>" is one word to them, and every Han-written name
fell to the Japanese pools."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from agent.knowledge.scripts import cjk_script


@dataclass(frozen=True, slots=True)
class _Pools:
    surnames: tuple[str, ...]
    given_male: tuple[str, ...]
    given_female: tuple[str, ...]

    @property
    def given(self) -> tuple[str, ...]:
        return self.given_male + self.given_female


def _keys(values) -> tuple[str, ...]:
    return tuple(dict(values)) if isinstance(values, dict) else tuple(values)


@lru_cache(maxsize=1)
def _pools() -> dict[str, _Pools]:
    from faker.providers.person import ja_JP, ko_KR, zh_CN, zh_TW

    out = {}
    for key, provider in (("ko", ko_KR.Provider), ("ja", ja_JP.Provider), ("zh_CN", zh_CN.Provider),
                          ("zh_TW", zh_TW.Provider)):
        out[key] = _Pools(_keys(provider.last_names), _keys(provider.first_names_male), _keys(provider.first_names_female))
    ja = ja_JP.Provider
    out["ja_kana"] = _Pools(tuple(ja.last_kana_names), tuple(ja.first_kana_names_male), tuple(ja.first_kana_names_female))
    return out


def is_cjk_name(value: str) -> bool:
    """Whether every letter of the name is Hangul, Han or Katakana (spaces allowed)."""
    letters = [c for c in value if not c.isspace()]
    return bool(letters) and all(cjk_script(c) in ("HANGUL", "HAN", "KATAKANA") for c in letters)


def _language(value: str) -> str:
    pools = _pools()
    scripts = {cjk_script(c) for c in value if not c.isspace()}
    if "HANGUL" in scripts:
        return "ko"
    if scripts == {"KATAKANA"}:
        return "ja_kana"
    word = value.replace(" ", "").replace("\u3000", "")
    if any(word.startswith(s) for s in pools["ja"].surnames if len(s) > 1) and not any(
        word.startswith(s) for s in pools["zh_CN"].surnames + pools["zh_TW"].surnames if len(s) > 1
    ):
        return "ja"
    if any(word.startswith(s) for s in pools["zh_TW"].surnames) and not any(
        word.startswith(s) for s in pools["zh_CN"].surnames
    ):
        return "zh_TW"
    return "zh_CN"


def _split(word: str, pools: _Pools) -> tuple[str, str]:
    """(surname, given name) of a name written with no space; no surname found: ("", word)."""
    for surname in sorted(pools.surnames, key=len, reverse=True):
        if word.startswith(surname) and len(word) >= len(surname):
            return surname, word[len(surname):]
    return "", word


def _final_consonant(word: str) -> bool | None:
    """Whether a Hangul word ends in a final consonant (None for other scripts)."""
    code = ord(word[-1]) - 0xAC00 if word else -1
    return code % 28 != 0 if 0 <= code < 11172 else None


def cjk_person_stand_in(value: str, rng: random.Random, is_free: Callable[[str], bool]) -> str | None:
    """A stand-in for a person named in Hangul, Han characters or Katakana, or None."""
    if not is_cjk_name(value):
        return None
    pools = _pools()[_language(value)]
    parts = value.split()
    if len(parts) == 2 or "\u3000" in value:
        separator = " " if len(parts) == 2 else "\u3000"
        surname, given = value.split(separator, 1)
        if surname not in pools.surnames:
            return None  # words that are no "<surname> <given name>": the general stand-ins
    elif len(parts) == 1:
        surname, given = _split(value, pools)
        separator = ""
    else:
        return None
    gender_pool = (pools.given_female if given in pools.given_female else
                   pools.given_male if given in pools.given_male else pools.given)
    for _ in range(40):
        new_surname = rng.choice(pools.surnames) if surname else ""
        new_given = ""
        if given:
            same_length = [g for g in gender_pool if len(g) == len(given)] or list(gender_pool)
            # Korean particles follow the name's last sound ("<name>이" after a final
            # consonant, "<name>가" after a vowel): the stand-in ends the same way.
            same_length = [g for g in same_length if _final_consonant(g) == _final_consonant(given)] or same_length
            new_given = rng.choice(same_length)
        if (surname and new_surname == surname) or (given and new_given == given):
            continue
        candidate = new_surname + separator + new_given if surname and given else new_surname + new_given
        if candidate and candidate != value and is_free(candidate):
            return candidate
    return None
