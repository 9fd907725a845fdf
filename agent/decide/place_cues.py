"""Cues that a place is where the writer, or someone they write about, comes from, lives
or is right now: "originally from X", "we moved here from X", "my trip home to X",
"I'm in X for the week". Such a place tells who a person is (origin and whereabouts are
quasi-identifiers) and the answer rarely needs it. A place the prompt asks about, travels
to or moves to stays the rules' PLACE_TOPIC business: none of these cues reads a
destination ("moving to X", "flying to X").

Each pattern reads the text of the span's sentence before it (ending where the place
begins); all are anchored at that end, so a search costs one short backward scan."""

from __future__ import annotations

import re

from agent.knowledge.person_words import RELATION_PATTERN

# Who the place belongs to: the writer, their people, or a person the text speaks of.
# Not "who": "writers who are from X" asks about a group, not about one person.
_WHO = (
    rf"(?:i|we|my|our|me|us|she|he|they|her|his|their|family|parents|folks|"
    rf"(?:{RELATION_PATTERN})s?)"
)

# Where someone comes from: "originally from X", "a native of X", "hails from X".
_ORIGIN = re.compile(
    r"(?i)(?:\boriginally\s+(?:\w+\s+)?(?:from|of)|\bnatives?\s+of|\bhail(?:s|ed|ing)?\s+from|"
    r"\bborn\s+and\s+(?:raised|bred)\s+in)\s+(?:the\s+)?$"
)

# A move someone made away from a place: "we moved here from X", "my parents emigrated
# from X". A move TO a place is left alone (a relocation the prompt may be planning), and
# so is a return from a trip ("he came back from X": where he travelled, which a
# doctor's or an insurer's answer may need).
_MOVED_FROM = re.compile(
    rf"(?i)\b{_WHO}\b[^.!?\n]{{0,30}}?\b(?:moved|relocated|emigrated|immigrated|migrated|fled|commut\w+|came\s+(?:here|over))\b"
    r"(?:\s+(?:here|there|over|back|out|away|down|up|all\s+the\s+way))*"
    r"(?:\s+(?:to\s+\w+|in\s+\d{4}|\d{4}|years\s+ago|last\s+year|as\s+a\s+\w+|(?:in|to)\s+(?:work|school|the\s+office)|every\s+day|daily))?\s+from\s+(?:the\s+)?$"
)

# Someone's origin told with "from": "she's from X", "my wife is from X" (the writer's own
# "I'm from X" is _FROM_PLACE in relevance.py); not "she is just back from X", a trip.
_IS_FROM = re.compile(
    rf"(?i)\b{_WHO}\s*(?:'s|'re|is|are|was|were)\s+(?!(?:\w+\s+)?(?:back|home|away|returning)\b)(?:\w+\s+){{0,2}}?from\s+(?:the\s+)?$"
)

# Where someone lives, said as who they are: "I'm a long-time resident of X", "as a
# resident of X".
_RESIDENT_OF = re.compile(
    rf"(?i)(?:\b{_WHO}\s*(?:'m|'re|'s|am|are|is|was|were)|\bas)\s+(?:an?\s+)?(?:[\w\-]+\s+)?residents?\s+of\s+(?:the\s+)?$"
)

# A person the writer knows, placed: "my aunt in X", "our friends from X", "her
# cousin who lives in X" (where that person lives; a relation named alone is
# RelevanceRules' person business).
_RELATION_IN = re.compile(
    rf"(?i)\b(?:my|our|his|her|their)\s+(?:[\w\-]+\s+)?(?:{RELATION_PATTERN})s?"
    r"(?:\s+(?:who|that)\s+(?:lives|live|lived|stays|is|are)(?:\s+\w+)?)?\s+(?:in|from|back\s+in|over\s+in)\s+(?:the\s+)?$"
)

# Where a person the writer knows has moved (a past move: where they live now): "my
# colleague Ada Brandt, who just moved to X", "my sister moved to X". The
# writer's own or planned moves ("we are moving to X") stay a destination.
_RELATION_MOVED = re.compile(
    rf"(?i)\b(?:my|our|his|her|their)\s+(?:[\w\-]+\s+)?(?:{RELATION_PATTERN})s?(?:\s+[A-Z][\w'’\-]*){{0,3}},?"
    r"(?:\s+(?:who|that))?\s+(?:has\s+|had\s+)?(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+(?:back\s+)?to\s+(?:the\s+)?$"
)

# A sentence that opens on where its subject was born or raised: "Born in X, she ...".
_BORN_OPENER = re.compile(r"(?i)^\W*(?:born|raised|brought\s+up|grew\s+up)(?:\s+and\s+(?:raised|bred))?\s+in\s+(?:the\s+)?$")

# Home: "my trip home to X", "her hometown of X", "back home in X".
_HOME = re.compile(
    rf"(?i)\b{_WHO}\b[^.!?\n]{{0,30}}?\b(?:home|home\s*town|birth\s*place)\s*(?:to|in|is|was|of|,|:)\s+(?:the\s+)?$|"
    rf"\b(?:my|our|his|her|their)\s+(?:home\s*town|birth\s*place)\s+$|"
    r"\bback\s+home\s+(?:to|in)\s+(?:the\s+)?$"
)

# Where the writer is right now: "I'm in X, at the conference", "we are currently in X",
# "here in X, ...".
_HERE_NOW = re.compile(
    r"(?i)(?:\b(?:i|we)\s*(?:'m|am|are|'re)\s+(?:(?:currently|now|still|here|stuck|staying|based|living|working|stationed)\s+)*in|"
    r"(?:^|[,;:]|\bwe|\bi)\s*(?:(?:out|up|down|over|back)\s+)?here\s+in)\s+(?:the\s+)?$"
)

# Where someone works, named with the employer: "after 6 years at Brandt Freight in X",
# "my wife works for Ostrander Labs in X". The firm is a capitalised name, so "I want a
# job at a hotel in X" (a wish, no firm) is left alone.
_WORKPLACE_IN = re.compile(
    r"(?:(?i:\b(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|several|many|few)\s+(?:years?|months?|decades?)\s+(?:at|with))"
    rf"|(?i:\b{_WHO}\s+(?:\w+\s+)?(?:work(?:s|ed|ing)?|intern(?:s|ed)?|teach(?:es)?|taught)\s+(?:at|for))"
    # "I'm a pharmacist at a <chain> in X": the user's role there
    r"|(?i:\b(?:i'm|i’m|i\s+am|i\s+was|she's|he's|she\s+is|he\s+is)\s+(?:an?|the)\s+(?:[\w\-]+\s+)?[\w\-]+\s+at))"
    r"\s+(?i:the\s+|an?\s+)?(?:[A-Z][\w&'’.\-]*\s+){1,4}(?i:in|near|outside)\s+(?:the\s+)?$"
)
# A workplace NER typed as a place: "my partner works at Mercy West", "she is a nurse at
# X", "my son teaches at X".
_WORKS_AT = re.compile(
    rf"(?i)\b{_WHO}\s+(?:\w+\s+)?(?:(?:work(?:s|ed|ing)?|intern(?:s|ed)?|teach(?:es)?|taught|volunteer(?:s|ed)?)\s+at|"
    r"(?:is|was|'s|am|'m)\s+(?:an?|the)\s+(?:[\w\-]+\s+)?[\w\-]+\s+at)\s+(?:the\s+)?$"
)


# Each cue needs one of these words; a tail with none of them is not searched (most are
# not: the scan with the leading alternation costs ~50 us per pattern, the test ~1 us).
_NEEDS = (
    (_ORIGIN, ("originally", "native", "hail", "born")),
    (_MOVED_FROM, ("moved", "relocat", "migrat", "fled", "commut", "came")),
    (_IS_FROM, ("from",)),
    (_RESIDENT_OF, ("resident",)),
    (_BORN_OPENER, ("born", "raised", "brought", "grew")),
    (_HOME, ("home", "town", "birth")),
)


def origin_or_home(before: str) -> bool:
    """The place is where someone comes from or has their home."""
    tail = before[-120:]
    low = tail.casefold()
    return any(any(w in low for w in words) and p.search(tail) for p, words in _NEEDS)


def where_someone_they_know_is(before: str) -> bool:
    """The place is where a person the writer knows is ("my aunt in X")."""
    tail = before[-120:]
    return any(w in tail.casefold() for w in ("my", "our", "his", "her", "their")) and (
        _RELATION_IN.search(tail) is not None or _RELATION_MOVED.search(tail) is not None
    )


def where_someone_works(before: str) -> bool:
    """The place is where the writer or someone they write about works ("after six years
    at <firm> in X")."""
    tail = before[-120:]
    low = tail.casefold()
    return any(w in low for w in ("year", "month", "decade", "work", "intern", "teach", "taught", "volunteer", " at")) and (
        _WORKPLACE_IN.search(tail) is not None or _WORKS_AT.search(tail) is not None
    )


def where_the_writer_is(before: str) -> bool:
    """The place is where the writer is now ("I'm in X")."""
    tail = before[-80:]
    return tail.rstrip().casefold().endswith(("in", "in the")) and _HERE_NOW.search(tail) is not None


# The venue the writer is at now, or checks in at: "I'm at X with the kids", "we're
# sitting at X", "Just posted a photo @ X", "checked in at X" (social posts say where
# someone is, as a check-in app writes it).
_AT_NOW = re.compile(
    r"(?i)(?:\b(?:i|we)\s*(?:'m|am|are|'re)\s+(?:(?:currently|now|still|here|stuck|sitting|waiting|hanging\s+out)\s+)*at|"
    r"\b(?:posted\s+an?\s+(?:photo|video|picture|pic)|checked\s+in|checking\s+in)\s*(?:@|at))\s+(?:the\s+)?$"
)


def where_the_writer_is_at(before: str) -> bool:
    """The place or venue is where the writer is now ("I'm at X", "a photo @ X")."""
    tail = before[-80:]
    return tail.rstrip().casefold().endswith(("at", "at the", "@", "@ the")) and _AT_NOW.search(tail) is not None
