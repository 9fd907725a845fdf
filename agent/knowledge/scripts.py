"""Letters of the scripts that Chinese, Japanese and Korean are written in, as regular
expression class bodies, and which of them a character belongs to.

These languages write no space between a word and what follows it: a Korean particle or a
Japanese honorific is glued to the name before it ("<name>은", "<name>さん"), and Chinese
writes no spaces at all. Where a Latin word touches one of these letters, the change of
script is where the word ends, though a regular expression's \\w sees one long word."""

from __future__ import annotations

HANGUL = "\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff"
HIRAGANA = "\u3041-\u309f"
KATAKANA = "\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f"
# CJK ideographs (main block, extension A, compatibility, the supplementary planes) and the
# iteration mark 々 (written inside Japanese names: "佐々木").
HAN = "\u3005\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
CJK = HANGUL + HIRAGANA + KATAKANA + HAN


def _in(ranges: str, char: str) -> bool:
    code = ord(char)
    i = 0
    while i < len(ranges):
        if i + 2 < len(ranges) and ranges[i + 1] == "-":
            if ord(ranges[i]) <= code <= ord(ranges[i + 2]):
                return True
            i += 3
        else:
            if code == ord(ranges[i]):
                return True
            i += 1
    return False


def cjk_script(char: str) -> str | None:
    """"HANGUL", "HIRAGANA", "KATAKANA" or "HAN" for a letter of those scripts, else None."""
    if not char or ord(char[0]) < 0x1100:
        return None
    for name, ranges in (("HANGUL", HANGUL), ("HAN", HAN), ("HIRAGANA", HIRAGANA), ("KATAKANA", KATAKANA)):
        if _in(ranges, char[0]):
            return name
    return None

# Korean particles and the suffixes of address, which are glued to the word before them:
# subject, topic, object, possessive, dative, "with", "and", "also", "only"; "님"/"씨" (a
# name's honorific), alone or with a particle after them ("님이", "씨를").
KOREAN_PARTICLES = ("에게서", "에게", "께서", "한테", "이랑", "으로", "이", "가", "은", "는", "을", "를", "의", "께",
                    "와", "과", "도", "만", "랑", "로", "님", "씨")
