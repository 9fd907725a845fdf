"""Letters of the scripts that Chinese, Japanese and Korean are written in, as regular
expression class bodies, and which of them a character belongs to.

These languages write no space between a word and what follows it: a Korean particle or a
Japanese honorific is glued to the name before it ("<name>은", "<name>さん"), and Chinese
writes no spaces at all. Where a Latin word touches one of these letters, the change of
script is where the word ends, though a regular expression's \\w sees one long word."""

from __future__ import annotations

import re
from functools import lru_cache

HANGUL = "\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff"
HIRAGANA = "\u3041-\u309f"
KATAKANA = "\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f"
# CJK ideographs (main block, extension A, compatibility, the supplementary planes) and the
# iteration mark 々 (written inside Japanese names: "佐々木").
HAN = "\u3005\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
CJK = HANGUL + HIRAGANA + KATAKANA + HAN


_SCRIPTS = re.compile(f"(?P<HANGUL>[{HANGUL}])|(?P<HAN>[{HAN}])|(?P<HIRAGANA>[{HIRAGANA}])|(?P<KATAKANA>[{KATAKANA}])")


# One CJK letter. Python compiles a class of these ranges in a few milliseconds (it walks
# every character of them): compiled once here, for every module that asks.
CJK_LETTER = re.compile(f"[{CJK}]")


def has_cjk(text: str) -> bool:
    """Whether `text` has any Chinese, Japanese or Korean letter."""
    return CJK_LETTER.search(text) is not None


@lru_cache(maxsize=8192)
def cjk_script(char: str) -> str | None:
    """"HANGUL", "HIRAGANA", "KATAKANA" or "HAN" for a letter of those scripts, else None."""
    match = _SCRIPTS.match(char[:1])
    return match.lastgroup if match else None


# Korean particles and the suffixes of address, which are glued to the word before them:
# subject, topic, object, possessive, dative, "with", "and", "also", "only"; "님"/"씨" (a
# name's honorific), alone or with a particle after them ("님이", "씨를").
KOREAN_PARTICLES = ("에게서", "에게", "께서", "한테", "이랑", "으로", "이", "가", "은", "는", "을", "를", "의", "께",
                    "와", "과", "도", "만", "랑", "로", "님", "씨")
