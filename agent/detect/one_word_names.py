"""One-word names of characters and people in prose, and speaker labels of chats and scripts.

Stories, role-play set-ups and chat logs name their people by one word, often made up
("Torvik", "Quenby") or a nickname, and repeat it many times. NER misses such a word when
nothing around it looks like a name to the model, and the name lists do not know it. The
language of the text still says it is someone:

- the word does what people do: speaks, smiles, nods ("Torvik nodded", "said Quenby"),
  takes "who" ("Quenby, who ..."), has eyes, a voice or a mother ("Quenby's eyes"), is
  addressed in quoted speech ("“Hey Quenby,", "“Quenby, wait!”", "Yes, Quenby.”"), has an
  age ("Quenby, 24,") or is followed by his/her in its clause ("Torvik grabs his sword");
- it is written with a capital every time, never as a lower-case word of the text;
- it is not an English word or a household name (wordfreq Zipf), nor a place, a listed
  company, a title or a kinship word, and never comes after an article ("the Council");
- or the name lists know it as a first name (one locale is enough here: the text shows a
  person too) and it recurs inside sentences.

One sure mention is enough: the registry's repeat step finds the word's other mentions.

Speaker labels ("Mirabel: ..." at the start of lines) are found by PersonNameDetector in
their plain form; chat logs and scripts dress them up: a time stamp before ("[09:12]
Mirabel:"), bold ("**Mirabel:**"), brackets ("[Mirabel]:", "<Mirabel>") or a stage
direction ("Mirabel (laughing):"), or a dialogue runs on one line ('Mirabel: "Hi." Oskarr:
"Hey."'). Two or more labels with two or more different speakers make a dialogue.
"""

from __future__ import annotations

import re
from collections import defaultdict

from agent.detect.base import DetectionContext
from agent.detect.code_zones import CODE_NAMES
from agent.entities import Label, Span
from agent.knowledge.companies import is_listed_company
from agent.knowledge.frequency import zipf
from agent.knowledge.names import lexicon
from agent.knowledge.not_names import CALENDAR_WORDS, LINE_LABELS, NOT_ENTITIES, NOT_NAMES
from agent.knowledge.person_words import TITLE_WORDS
from agent.knowledge.places import is_known_place
from agent.knowledge.words import is_common_word

# The detector of person-name rules: the judge reads the detector as a feature, and these
# are rules about person names (an unknown detector name would read as none at all).
_DETECTOR = "person_names"

# A capitalised word of letters, not inside a handle, path, e-mail or hyphenated word; a
# possessive may follow ("Torvik's").
# Made-up names join parts with an apostrophe or a hyphen ("K'vessa", "Zha-Rin"); a
# possessive or a contraction ("Torvik's", "Torvik'll") is not part of the name.
_CAPITALISED = re.compile(
    r"(?<![\w'’\-@#/.])[A-ZÀ-ÖØ-ÞĀ-ſ](?:[a-zà-öø-ÿĀ-ſ]{2,}|[a-zà-öø-ÿĀ-ſ]*['’\-][A-ZÀ-ÖØ-ÞĀ-ſa-zà-öø-ÿĀ-ſ][a-zà-öø-ÿĀ-ſ]{2,})"
    r"(?:-[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]+)?(?![\w\-@/]|\.\w|['’](?!(?:s|ll|d|re|ve)\b)\w)"
)
_LOWER_WORD = re.compile(r"(?<![\w\-])[a-zà-öø-ÿĀ-ſ]{3,}(?![\w\-])")

# At and above this Zipf frequency a word is written often in English (an ordinary word,
# a household name: "Python" is about 3.8, "English" 5): not a made-up or rare name.
_FREQUENT_ZIPF = 3.8
_UNKNOWN_ZIPF = 1.0

# What only people do, right after the name or right before it ("said Quenby").
_PERSON_VERBS = (
    r"say|says|said|ask|asks|asked|reply|replies|replied|answer|answers|answered|whisper|whispers|whispered|"
    r"shout|shouts|shouted|yell|yells|yelled|mutter|mutters|muttered|murmur|murmurs|murmured|exclaim|exclaims|"
    r"exclaimed|scream|screams|screamed|cry|cries|cried|sob|sobs|sobbed|laugh|laughs|laughed|giggle|giggles|giggled|"
    r"chuckle|chuckles|chuckled|smile|smiles|smiled|grin|grins|grinned|smirk|smirks|smirked|nod|nods|nodded|"
    r"sigh|sighs|sighed|frown|frowns|frowned|shrug|shrugs|shrugged|blush|blushes|blushed|wink|winks|winked|"
    r"gasp|gasps|gasped|hug|hugs|hugged|kiss|kisses|kissed|glare|glares|glared|pout|pouts|pouted|sneer|sneers|"
    r"sneered|stammer|stammers|stammered|blink|blinks|blinked|yawn|yawns|yawned|groan|groans|groaned|"
    r"giggle|grumble|grumbles|grumbled|tease|teases|teased|scoff|scoffs|scoffed|beam|beams|beamed|"
    r"wave|waves|waved|hesitate|hesitates|hesitated|snap|snaps|snapped|insist|insists|insisted|"
    r"speak|speaks|spoke|talk|talks|talked|sing|sings|sang|dance|dances|danced|weep|weeps|wept"
)
_VERB_AFTER = re.compile(
    rf"[ \t]+(?:(?:then|just|only|suddenly|quickly|quietly|softly|slowly|finally|also|still|again|simply|"
    rf"nervously|gently|angrily|happily|sadly|warmly|coldly)[ \t]+)?(?:{_PERSON_VERBS})\b"
)
# Before the name: a speech verb after the words spoken ("“Run!” shouted Quenby", "..., said
# Quenby"; "says X is better" is about anything), or a verb whose object is a person.
_VERB_BEFORE = re.compile(
    rf"(?:[,”\"!?…][ \t]*(?:{_PERSON_VERBS})|\b(?:asked|asks|told|tells|hugged|hugs|kissed|kisses|thanked|"
    rf"thanks|married|marries|scolded|scolds|comforted|comforts))[ \t]+$"
)
# What a person has: "Quenby's eyes", "Quenby's older brother".
_HAD_BY_PEOPLE = (
    r"eyes|face|hair|voice|smile|lips|cheeks|hands?|arms?|shoulders?|fingers|heart|mind|mother|father|mom|mum|"
    r"dad|parents|brother|sister|siblings|son|daughter|wife|husband|boyfriend|girlfriend|family|friends?|"
    r"bedroom|birthday|expression|gaze|ears"
)
_PERSON_HAS = re.compile(rf"['’]s[ \t]+(?:[a-z]+[ \t]+)?(?:{_HAD_BY_PEOPLE})\b")
# Said to be a person: "Quenby is a shy girl", "Quenby, an old farmer,", "Quenby and Odrin
# are roommates".
_PERSON_NOUNS = (
    r"girl|boy|man|woman|lady|guy|kid|child|teen|teenager|student|pupil|teacher|doctor|nurse|knight|princess|"
    r"prince|wizard|witch|warrior|soldier|farmer|merchant|thief|healer|mage|hunter|detective|pilot|writer|"
    r"artist|singer|friend|roommate|classmate|coworker|colleague|neighbou?r|sister|brother|mother|father|"
    r"son|daughter|wife|husband|boyfriend|girlfriend|orphan|widow|waitress|waiter|barista|maid|butler"
)
_PERSON_NOUN_AFTER = re.compile(
    rf"(?:[ \t]+(?:is|was)|,)[ \t]+(?:a|an|the|my|his|her|their|our)[ \t]+(?:[a-z\-]+[ \t]+){{0,2}}(?:{_PERSON_NOUNS})"
    r"(?=[ \t]*(?:[,.;:!?)]|$|(?:who|and|with|from|in|at)\b))"  # not "a friend to busy teams"
)
_PAIR_AFTER = re.compile(
    r"(?:[ \t]+and[ \t]+[A-ZÀ-ÖØ-ÞĀ-ſ][\w'’\-]+)?[ \t]+(?:are|were)[ \t]+(?:best[ \t]+)?(?:friends|roommates|siblings|"
    r"twins|cousins|classmates|married|dating|neighbou?rs|sisters|brothers|a[ \t]+couple)\b"
)
_PAIR_BEFORE = re.compile(r"[A-ZÀ-ÖØ-ÞĀ-ſ][\w'’\-]+[ \t]+and[ \t]+$")
# An age: "Quenby is a 24-year-old ...", "Quenby, 24, ...", "Quenby (24)".
_AGE_AFTER = re.compile(r"(?:[ \t]+(?:is|was)[ \t]+an?[ \t]+\d{1,2}[ \t-]+years?[ \t-]+old|,[ \t]*\d{1,2},|[ \t]*\(\d{1,2}\))")
# The role-play card's slot for the character: "{{char}} is Quenby".
_CHARACTER_SLOT_BEFORE = re.compile(r"\{\{char\}\}[ \t]+(?:is|=|:)[ \t]+$", re.IGNORECASE)
# "Quenby, who ..." (things take "which"), "Quenby herself", "Quenby, she is ...".
_WHO_AFTER = re.compile(
    r"(?:,[ \t]*who\b|[ \t]+(?:himself|herself)\b|,[ \t]+(?:he|she)[ \t]+(?:is|was|has|had|likes|loves|wants|needs)\b)"
)
# Addressed: after a greeting or an opening quote, before a comma or "!"/"?"; or at the
# end of a spoken sentence after a comma ("Yes, Quenby.").
_GREETING_BEFORE = re.compile(
    r"(?:\b(?:[Hh]ey|[Hh]i|[Hh]ello|[Tt]hanks|[Tt]hank you|[Bb]ye|[Gg]oodbye|[Ss]orry|[Oo]h|[Yy]es|[Nn]o|[Oo]kay|"
    r"[Ww]ell|[Pp]lease|[Ww]ait|[Ll]isten|[Ww]elcome|[Gg]ood morning|[Gg]ood night)[,!]?[ \t]+|[“\"][ \t]*)$"
)
_ADDRESSED_AFTER = re.compile(r"[ \t]*[,!?]")
_END_OF_SPEECH_BEFORE = re.compile(r"\w,[ \t]+$")
_END_OF_SPEECH_AFTER = re.compile(r"[.!?…]+[ \t]*[”\"]")
# After the name's verb, in the same clause, a possessive or reflexive pronoun of a person:
# "Torvik grabs his sword" (a subject pronoun may open another clause: "..., he thinks").
# ("her" only before what a person has: "Python makes her life easier" is about the reader.)
_VERB_THEN_PRONOUN = re.compile(
    rf"[ \t]+[a-z]+(?:s|ed)\b[^.!?\n,;]{{0,50}}?\b(?:his|himself|herself|her[ \t]+(?:{_HAD_BY_PEOPLE}))\b"
)
# An article or a demonstrative before a word makes it a thing or a title ("the Council").
_DETERMINER_BEFORE = re.compile(r"\b(?:[Tt]he|[Aa]n?|[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose|[Ee]very|[Ee]ach)[ \t]+$")
# Inside a sentence: after a lower-case word, a comma or "and"; not after . ! ? : or a line start.
_MID_SENTENCE_BEFORE = re.compile(r"(?:[a-zà-öø-ÿĀ-ſ,;][ \t]+|[a-z][ \t]*[“\"(][ \t]*)$")

# Speaker labels dressed up: "[09:12] Name:", "**Name:**", "**Name**:", "[Name]:", "<Name>",
# "Name (quietly):". Plain "Name:" lines are PersonNameDetector's. A stage direction never
# opens with a digit: "Hempstead (2004): ..." is a citation.
_STAMP = r"(?:\[?\(?\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]*[AaPp]\.?[Mm]\.?)?\)?\]?[ \t]*(?:-[ \t]*)?)"
_SPEAKER_NAME = r"[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]{1,20}(?:[ \t][A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]{1,20})?"
_DRESSED_SPEAKER = re.compile(
    rf"(?m)^[ \t>\-]*(?:(?P<stamp>{_STAMP})[ \t]*)?(?P<open>\*\*|__|\[|<)?(?P<v>{_SPEAKER_NAME})"
    rf"(?P<close>\*\*|__|\]|>)?(?P<dir>[ \t]*\((?!\d)[^()\n]{{1,60}}\))?[ \t]*(?P<colon>:)?(?P<close2>\*\*|__)?[ \t]*(?P<rest>\S)?"
)
# A speaker label inside a line, after the last speaker's words, before quoted speech, an
# action or a stage direction: 'Corrik: "We move." Aleth: "Not yet."'.
_INLINE_SPEAKER = re.compile(
    rf"(?:(?<=[.!?…\"”*)])[ \t]+|^[ \t]*)(?P<v>{_SPEAKER_NAME})[ \t]*(?:\((?!\d)[^()\n]{{1,60}}\)[ \t]*)?:[ \t]*(?=[\"“*(])",
    re.MULTILINE,
)
# A chat log typed in lower case: "mirka: did u eat it". The label is a name only where
# two or more labels each speak twice or more, one line of each in words (a configuration's
# keys rarely repeat, and their values are seldom sentences).
_LOWER_SPEAKER = re.compile(r"(?m)^[ \t]*(?P<v>[a-zà-öø-ÿĀ-ſ][a-zà-öø-ÿĀ-ſ0-9_.]{2,19})[ \t]*:[ \t]+(?P<said>\S[^\n]*)$")
_CHAT_WORD = re.compile(r"(?i)\b(?:chat|chats|conversation|dialogue|dialog|messages|texts|dms?|transcript|log|thread)\b")
_WORDS_SAID = re.compile(r"[^\W\d_]+[ \t]+[^\W\d_]+")
_HANDLE_LINE = re.compile(r"(?m)^[ \t]*(?:" + _STAMP + r"[ \t]*)?<(?P<v>[A-Za-z][\w.\-]{1,24})>[ \t]+\S")


class OneWordNameDetector:
    name = "one_word_names"
    labels = frozenset({Label.PERSON, Label.USERNAME})

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        return self._in_prose(text) + self._dressed_speakers(text) + self._lower_case_speakers(text)

    @staticmethod
    def _lower_case_speakers(text: str) -> list[Span]:
        if ": " not in text:
            return []
        lines: dict[str, list[tuple[int, bool]]] = defaultdict(list)
        for m in _LOWER_SPEAKER.finditer(text):
            lines[m.group("v")].append((m.start("v"), _WORDS_SAID.search(m.group("said")) is not None))
        speakers = {
            v: found for v, found in lines.items()
            if len(found) >= 2 and any(words for _, words in found) and _may_be_lower_speaker(v)
        }
        if len(speakers) < 2:
            return []
        # ...and a name the lists know among them, or a text that says it is a chat.
        first = min(s for found in speakers.values() for s, _ in found)
        if not any(lexicon().is_first_name(v) for v in speakers) and not _CHAT_WORD.search(text, 0, first):
            return []
        return [Span(s, s + len(v), Label.PERSON, v, 0.7, _DETECTOR) for v, found in speakers.items() for s, _ in found]

    def _in_prose(self, text: str) -> list[Span]:
        mentions: dict[str, list[int]] = defaultdict(list)
        for m in _CAPITALISED.finditer(text):
            mentions[m.group()].append(m.start())
        # A word written once counts when no English text has it (Zipf 0: made up, or a rare
        # foreign name) and that one mention acts like a person (asked first: it is cheaper
        # than a first look-up of the word's frequency).
        candidates = {
            w: starts for w, starts in mentions.items()
            if (len(starts) >= 2 or (_acts_as_person(text, starts[0], len(w), text[max(0, starts[0] - 40) : starts[0]])
                                     and zipf(w) < _UNKNOWN_ZIPF))
            and _may_be_name(w)
        }
        if not candidates:
            return []
        lower = frozenset(_LOWER_WORD.findall(text))
        names = lexicon()
        spans = []
        for word, starts in candidates.items():
            if word.casefold() in lower:
                continue  # "Hope" that the text also writes as "hope" is the word
            befores = [text[max(0, s - 40) : s] for s in starts]
            # A name takes an article now and then ("the Torvik family", "a young Torvik"); a
            # thing or a title takes it half the time or more ("the Council").
            if sum(1 for b in befores if _DETERMINER_BEFORE.search(b)) * 3 >= len(starts):
                continue
            if sum(1 for b in befores if _in_longer_name(b, word)) * 3 >= len(starts):
                continue  # "Faso" of "Burkina Faso"
            inside = sum(1 for b in befores if _MID_SENTENCE_BEFORE.search(b))
            sure = next((s for s, b in zip(starts, befores) if _acts_as_person(text, s, len(word), b)), None)
            if sure is None and inside >= 2 and names.is_first_name(word):
                sure = starts[0]  # a first name the lists know, written as a name again and again
            if sure is not None:
                spans.append(Span(sure, sure + len(word), Label.PERSON, word, 0.85, _DETECTOR))
        return spans

    @staticmethod
    def _dressed_speakers(text: str) -> list[Span]:
        if ":" not in text and "<" not in text:
            return []
        found: list[tuple[int, str, Label]] = []
        for m in _DRESSED_SPEAKER.finditer(text):
            if m.group("rest") is None:
                continue
            opened, closed = m.group("open"), m.group("close") or m.group("close2")
            dressed = m.group("stamp") or opened or m.group("dir")
            if not dressed:
                continue  # a plain label
            if opened == "<":
                continue  # "<Name>" is a handle line (below)
            if opened and closed and {"[": "]", "**": "**", "__": "__"}[opened] != closed:
                continue
            if opened and not closed:
                continue
            if not m.group("colon"):
                continue
            value = m.group("v")
            if not _may_be_speaker(value):
                continue
            found.append((m.start("v"), value, Label.PERSON))
        if "<" in text:
            for m in _HANDLE_LINE.finditer(text):
                value = m.group("v")
                label = Label.PERSON if re.fullmatch(_SPEAKER_NAME, value) else Label.USERNAME
                if label is Label.PERSON and not _may_be_speaker(value):
                    continue
                if value.casefold() in LINE_LABELS:
                    continue
                found.append((m.start("v"), value, label))
        if '"' in text or "“" in text or "*" in text:
            found += [
                (m.start("v"), m.group("v"), Label.PERSON)
                for m in _INLINE_SPEAKER.finditer(text)
                if _may_be_speaker(m.group("v"))
            ]
        if len(found) < 2 or len({v for _, v, _ in found}) < 2:
            return []
        return [Span(start, start + len(value), label, value, 0.7, _DETECTOR) for start, value, label in found]


def _may_be_name(word: str) -> bool:
    """Not an English word, a household name, a place, a listed company, a title, a
    calendar word or a word of code."""
    if word in NOT_NAMES or word in CALENDAR_WORDS or word in CODE_NAMES or word.casefold() in NOT_ENTITIES:
        return False
    if word.casefold() in TITLE_WORDS or word.casefold() in LINE_LABELS:
        return False
    if is_common_word(word) or zipf(word) >= _FREQUENT_ZIPF:
        return False
    return not (is_known_place(word) or is_listed_company(word))


_CAPITALISED_BEFORE = re.compile(r"(?<![\w'’\-])[A-ZÀ-ÖØ-ÞĀ-ſ][a-zà-öø-ÿĀ-ſ]+[ \t]+$")


def _in_longer_name(before: str, word: str) -> bool:
    """The word ends a place's or a listed company's name of two words."""
    m = _CAPITALISED_BEFORE.search(before)
    if m is None:
        return False
    pair = f"{m.group().rstrip()} {word}"
    return is_known_place(pair) or is_listed_company(pair)


def _may_be_speaker(value: str) -> bool:
    first = value.split()[0]
    if value.casefold() in LINE_LABELS or first.casefold() in LINE_LABELS or first.casefold() in TITLE_WORDS:
        return False
    if first in NOT_NAMES or first in CALENDAR_WORDS:
        return False
    # "Issue:", "Scene:": a heading, not a speaker. A place's name is one ("Georgia:"):
    # places do not speak.
    return " " in value or not is_common_word(value) or lexicon().is_first_name(value)


def _may_be_lower_speaker(value: str) -> bool:
    """No English word, label word or word of code ("me", "user", "host", "dbname" is
    rare: it must also be no code-like run of letters and digits)."""
    if value in LINE_LABELS or value in CODE_NAMES or is_common_word(value) or zipf(value) >= _FREQUENT_ZIPF:
        return False
    return value.isalpha()


def _in_speech(text: str, start: int) -> bool:
    """Inside quoted speech on its line: a greeting there addresses someone of the story
    ("“Hey Quenby, wait!”"); outside, it may greet a town or an audience ("Hello Leeds,")."""
    line = text[text.rfind("\n", 0, start) + 1 : start]
    return line.count('"') % 2 == 1 or line.count("“") > line.count("”")


def _acts_as_person(text: str, start: int, length: int, before: str) -> bool:
    """The mention at `start` does what a person does (see the module's docstring)."""
    end = start + length
    after = text[end : end + 80]
    if _VERB_AFTER.match(after) or _VERB_BEFORE.search(before) or _PERSON_HAS.match(after) or _WHO_AFTER.match(after):
        return True
    if _AGE_AFTER.match(after) or _CHARACTER_SLOT_BEFORE.search(before):
        return True
    if _PERSON_NOUN_AFTER.match(after):
        return True
    pair = _PAIR_AFTER.match(after)
    if pair and (pair.group().lstrip().startswith("and") or _PAIR_BEFORE.search(before)):
        return True
    if _GREETING_BEFORE.search(before) and _ADDRESSED_AFTER.match(after) and _in_speech(text, start):
        return True
    if _END_OF_SPEECH_BEFORE.search(before) and _END_OF_SPEECH_AFTER.match(after):
        return True
    return _VERB_THEN_PRONOUN.match(after) is not None
