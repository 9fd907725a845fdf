"""Screenplay scene headings ("sluglines"): "INT. KITCHEN - NIGHT", "EXT. PIER - DAWN",
"INT./EXT. MOVING CAR - CONTINUOUS", "I/E. BARN - DAY".

A heading says where and when a scene is shot: INT./EXT. (inside or outside), a set and a
time of day. None of its three parts names an organisation: NER reads the upper-case marker
"INT"/"EXT" as an acronym (a company) and runs a set into its time of day ("VAN -
CONTINUOUS" a person). The set is a description for the crew ("HARBOUR WALL", "MARA'S
FLAT"), not an address: a character named in it ("MARA") is still a person, decided like
the script's other names, but an organisation or a place read there is the set itself.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agent.entities import Label, Span

# Times of day and the screenplay's continuity words after the set's dash.
_TIMES = (
    r"day|night|morning|afternoon|evening|dawn|dusk|sunrise|sunset|noon|midday|midnight|twilight|"
    r"later|moments?\s+later|a\s+moment\s+later|continuous|same(?:\s+time)?|magic\s+hour|early\s+morning|"
    r"late\s+night|pre-?dawn|golden\s+hour|flashback|present(?:\s+day)?"
)
# INT. / EXT. / INT./EXT. / EXT./INT. / I/E. at the start of a line (the marker's dot or
# slash is what separates it from a word; "INT" alone is a data type).
_MARKER = r"(?:(?:INT|EXT|Int|Ext)\.(?:[ \t]*/[ \t]*(?:INT|EXT|Int|Ext)\.?)?|(?:INT|EXT)[ \t]*/[ \t]*(?:INT|EXT)\.?|I[ \t]*/[ \t]*E\.?)"
_HEADING = re.compile(
    rf"(?m)^[ \t]*(?:\d+[A-Z]?\.?[ \t]+)?(?P<marker>{_MARKER})[ \t]+(?P<place>[^\n]+?)"
    rf"(?:[ \t]+[-–—][ \t]*(?P<time>(?i:{_TIMES})(?:[ \t]*[-–—/(][^\n]*)?))?[ \t]*\d*[A-Z]?[ \t]*$"
)
_PREFILTER = re.compile(r"(?m)^[ \t]*(?:\d+[A-Z]?\.?[ \t]+)?(?:INT|EXT|Int|Ext|I[ \t]*/)")
_GUESSED = frozenset({Label.PERSON, Label.ORG, Label.LOCATION, Label.NORP, Label.MISC})


@lru_cache(maxsize=8)
def scene_headings(text: str) -> tuple[tuple[int, int, int, int], ...]:
    """(heading start, set start, set end, heading end) of each scene heading in the text."""
    if _PREFILTER.search(text) is None:
        return ()
    found = []
    for match in _HEADING.finditer(text):
        place = match.group("place")
        # A set written in capitals, or any set followed by a time of day: a journal
        # reference "Int. J. Appl. Math. 12" is neither.
        if match.group("time") is None and not (place.isupper() and any(c.isalpha() for c in place)):
            continue
        found.append((match.start("marker"), match.start("place"), match.end("place"), match.end()))
    return tuple(found)


def in_scene_heading(text: str, span: Span) -> bool:
    """A guessed name that is a piece of a scene heading rather than a name in it: it
    touches the INT./EXT. marker or the time of day, or it is an organisation or place
    read inside the set."""
    if span.label not in _GUESSED:
        return False
    for start, place_start, place_end, end in scene_headings(text):
        if span.end <= start or span.start >= end:
            continue
        if span.start < place_start or span.end > place_end:
            return True
        return span.label is not Label.PERSON
    return False
