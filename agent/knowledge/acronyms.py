"""Acronyms written as everyday terms: "my father's MRI results", "a CT scan", "focuses on
TB in children". NER and the acronym rule read any word in capitals as an organisation
(or "CT" as Connecticut); a term the web writes this often, used as a term, names no one,
and its stand-in ("SSK") would garble the question. Read from wordfreq, not a list.

An organisation's cue before it keeps it a name: "at UCL", "from HMRC", "the PTA of
<school>" is not looked at here; "to/for/with/by/of/at/in/from <X>" and a comma before it
(a state code in an address) leave it to the detectors as before.
"""

from __future__ import annotations

import re

from agent.knowledge.frequency import zipf

# Written this often (Zipf, wordfreq's English list: "MRI" 3.6, "TB" 3.7, "CT" 4.1), a
# capitalised abbreviation is a term people use; a private body's initials are rare
# ("VKT" 0.0, "QBR" 1.9). Above the "written often" bar of the other rules (3.0), so
# mid-frequency initials ("UCL" 3.1, "MCA" 3.1) stay with NER and the judge.
_EVERYDAY = 3.3
_ACRONYM = re.compile(r"[A-Z]{2,5}")
# Words after which initials are an organisation or a place named, not a term used.
_NAMING_BEFORE = re.compile(
    r"(?i)(?:\b(?:at|from|to|for|with|by|of|in|into|joined|join|joining|called|named|about|regarding|visit|visited)|,)"
    r"[ \t]+(?:the[ \t]+)?$"
)
# What a person written by initials does next.
_ACTS_AFTER = re.compile(
    r"(?:['’]s\b|[ \t]+(?:said|says|has|had|is|was|will|would|can|could|did|does|told|asked|thinks|wants|and|who)\b)"
)
# A term is used: a lower-case word, a number or the end of the clause comes next.
_TERM_AFTER = re.compile(r"(?:[ \t]+(?:[a-z]|\d)|[ \t]*(?:[.,;:!?)]|$))")


def everyday_acronym(text: str, start: int, end: int) -> bool:
    """text[start:end] is an abbreviation used as an everyday term, not a body's name
    ("a CT scan" read as Connecticut, "TB in children" as a firm). Two capitals are often
    someone's initials too: not when a person's verb follows ("JT has a plan")."""
    value = text[start:end]
    if not _ACRONYM.fullmatch(value) or zipf(value) < _EVERYDAY:
        return False
    if _NAMING_BEFORE.search(text, max(0, start - 20), start):
        return False
    if len(value) == 2 and _ACTS_AFTER.match(text, end):
        return False  # "JT has a plan", "JD said": someone's initials
    return _TERM_AFTER.match(text, end) is not None
