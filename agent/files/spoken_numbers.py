"""Spoken numbers: digits said one by one or in groups ("four one five, five five five"),
"double five", "oh", pairs and hundreds read as numbers ("forty-one", "eight hundred"),
fillers between them, and numbers read in blocks over several turns; what type a number
is (hotwords before it, its length, Luhn); and a stand-in's digits written back in the
same spoken form."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from agent.detect.validators import luhn_valid
from agent.entities import Label
from agent.files.spoken_types import SpokenEntity, Token

# -- number words ---------------------------------------------------------------------
UNITS = {
    "zero": "0", "oh": "0", "o": "0", "nought": "0", "naught": "0", "nil": "0",
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
    "six": "6", "seven": "7", "eight": "8", "nine": "9",
}
TEENS = {
    "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14", "fifteen": "15",
    "sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19",
}
TENS = {"twenty": "2", "thirty": "3", "forty": "4", "fifty": "5", "sixty": "6", "seventy": "7", "eighty": "8", "ninety": "9"}
REPEATS = {"double": 2, "triple": 3, "treble": 3, "quadruple": 4}
_DIGIT_NAMES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEEN_NAMES = {v: k for k, v in TEENS.items()}
_TENS_NAMES = {v: k for k, v in TENS.items()}
# Words that may sit inside a spoken number without ending it ("four one, uh, five").
_FILLERS = frozenset({"uh", "um", "er", "erm", "hmm", "dash", "hyphen"})
# "oh" and "o" are zero only inside a number: "oh, two things" is not a number.
ZERO_INSIDE_ONLY = frozenset({"oh", "o"})


DEFAULT_HOTWORDS: tuple[tuple[str, Label], ...] = (
    ("social security", Label.SSN), ("ssn", Label.SSN), ("social", Label.SSN),
    ("credit card", Label.CREDIT_CARD), ("debit card", Label.CREDIT_CARD), ("card", Label.CREDIT_CARD),
    ("visa", Label.CREDIT_CARD), ("mastercard", Label.CREDIT_CARD), ("amex", Label.CREDIT_CARD),
    ("phone", Label.PHONE), ("telephone", Label.PHONE), ("mobile", Label.PHONE), ("cell", Label.PHONE),
    ("call me", Label.PHONE), ("call you", Label.PHONE), ("callback", Label.PHONE), ("call back", Label.PHONE),
    ("reach me", Label.PHONE), ("reach you", Label.PHONE), ("contact number", Label.PHONE),
    ("account", Label.ID), ("member", Label.ID), ("membership", Label.ID), ("order", Label.ID),
    ("reference", Label.ID), ("policy", Label.ID), ("claim", Label.ID), ("ticket", Label.ID),
    ("case number", Label.ID), ("booking", Label.ID), ("confirmation", Label.ID), ("tracking", Label.ID),
    ("invoice", Label.ID), ("zip", Label.ID), ("postcode", Label.ID), ("postal code", Label.ID),
    ("pin", Label.ID), ("routing", Label.ID), ("licence", Label.ID), ("license", Label.ID),
    ("passport", Label.ID), ("customer number", Label.ID), ("customer id", Label.ID), ("id", Label.ID),
    ("last four", Label.ID), ("security code", Label.ID), ("cvv", Label.ID), ("date of birth", Label.ID),
)
_HOTWORD_REACH = 160  # characters before a number in which a hotword still names it
_MIN_DIGITS_BARE = 5  # a spoken number with no hotword must be at least this long
_MIN_DIGITS_HOTWORD = 3

# -- numbers --------------------------------------------------------------------------
SPOKEN_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)?|\d+")
_SEPARATOR = re.compile(r"[ \t,.;:\-–—…/]*")


def _number_tokens(text: str, start: int) -> tuple[list[Token], int]:
    """The longest run of spoken-number tokens starting at `start` (no line breaks
    inside); returns (tokens, end of the last token)."""
    tokens: list[Token] = []
    position = start
    end = start
    while True:
        match = SPOKEN_WORD.match(text, position)
        if match is None:
            break
        word = match.group().casefold()
        token = None
        if word.isdigit():
            token = Token(match.start(), match.end(), match.group(), "numeral", word)
        elif word in UNITS and (word not in ZERO_INSIDE_ONLY or tokens):
            token = Token(match.start(), match.end(), match.group(), "unit", UNITS[word])
            after = re.match(r"[ \t]+(hundred|thousand)\b", text[match.end():], re.IGNORECASE)
            if after and word not in ZERO_INSIDE_ONLY:
                zeros = "00" if after.group(1).casefold() == "hundred" else "000"
                token = Token(match.start(), match.end() + after.end(), text[match.start():match.end() + after.end()],
                              "hundred", UNITS[word] + zeros)
        elif word in TEENS:
            token = Token(match.start(), match.end(), match.group(), "teen", TEENS[word])
        elif word.split("-")[0] in TENS:
            head, _, tail = word.partition("-")
            if tail and tail in UNITS and tail not in ZERO_INSIDE_ONLY and tail != "zero":
                token = Token(match.start(), match.end(), match.group(), "tens", TENS[head] + UNITS[tail])
            elif not tail:
                unit = re.match(r"[ \t]+(one|two|three|four|five|six|seven|eight|nine)\b", text[match.end():], re.IGNORECASE)
                if unit:
                    stop = match.end() + unit.end()
                    token = Token(match.start(), stop, text[match.start():stop], "tens", TENS[head] + UNITS[unit.group(1).casefold()])
                else:
                    token = Token(match.start(), match.end(), match.group(), "tens", TENS[head] + "0")
        elif word in REPEATS:
            unit = re.match(r"[ \t]+(zero|oh|o|one|two|three|four|five|six|seven|eight|nine|\d)\b", text[match.end():], re.IGNORECASE)
            if unit:
                stop = match.end() + unit.end()
                said = unit.group(1).casefold()
                digit = said if said.isdigit() else UNITS[said]
                token = Token(match.start(), stop, text[match.start():stop], "repeat", digit * REPEATS[word])
        elif word in _FILLERS and tokens:
            after = _SEPARATOR.match(text, match.end()).end()
            nxt = SPOKEN_WORD.match(text, after)
            if nxt and (_starts_number(nxt.group()) or nxt.group().casefold() in ZERO_INSIDE_ONLY):
                position = after
                continue
            break
        if token is None:
            break
        if token.kind == "unit" and word in ZERO_INSIDE_ONLY and re.search(r"[.?!]", text[end:token.start]):
            break  # "... five. Oh, and": a new sentence's interjection
        tokens.append(token)
        end = token.end
        sep = _SEPARATOR.match(text, token.end)
        position = sep.end()
        if "\n" in text[token.end:position]:
            break
    # A trailing "oh" followed by a comma is an interjection ("... five, oh, and"): drop it.
    while tokens and tokens[-1].text.casefold() in ZERO_INSIDE_ONLY and re.match(r"[ \t]*[,!]", text[tokens[-1].end:]):
        tokens.pop()
        end = tokens[-1].end if tokens else start
    return tokens, end


def _digit_count(tokens: Sequence[Token]) -> int:
    return sum(len(t.value) for t in tokens)


def _starts_number(word: str) -> bool:
    w = word.casefold()
    return w.isdigit() or (w in UNITS and w not in ZERO_INSIDE_ONLY) or w in TEENS or w.split("-")[0] in TENS or w in REPEATS


def _is_spoken(tokens: Sequence[Token]) -> bool:
    """At least one word: runs of numerals alone are written numbers, which the written
    detectors handle."""
    return any(t.kind != "numeral" for t in tokens)


def _hotword_label(before: str, hotwords: Sequence[tuple[str, Label]]) -> Label | None:
    """The label of the hotword nearest before a number (within reach)."""
    folded = before[-_HOTWORD_REACH:].casefold()
    best: tuple[int, Label] | None = None
    for phrase, label in hotwords:
        for match in re.finditer(rf"(?<![a-z]){re.escape(phrase.casefold())}(?![a-z])", folded):
            if best is None or match.end() > best[0]:
                best = (match.end(), label)
    return best[1] if best else None


def _number_label(digits: str, hotword: Label | None) -> Label | None:
    n = len(digits)
    if hotword is Label.CREDIT_CARD:
        if 13 <= n <= 19 and luhn_valid(digits):
            return Label.CREDIT_CARD
        return Label.ID if n >= _MIN_DIGITS_HOTWORD else None
    if hotword is Label.SSN:
        return Label.SSN if n == 9 else (Label.ID if n >= _MIN_DIGITS_HOTWORD else None)
    if hotword is Label.PHONE:
        return Label.PHONE if 7 <= n <= 15 else (Label.ID if n >= _MIN_DIGITS_BARE else None)
    if hotword is not None:
        return hotword if n >= _MIN_DIGITS_HOTWORD else None
    if n < _MIN_DIGITS_BARE:
        return None
    if 13 <= n <= 19 and luhn_valid(digits):
        return Label.CREDIT_CARD
    if n in (10, 11):
        return Label.PHONE
    return Label.ID


# -- turns (for numbers read across turns) --------------------------------------------
_SPEAKER = re.compile(
    r"^[ \t]*(?:\[?\(?\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?\)?\]?[ \t]*)?"  # [00:01:12]
    r"(?P<speaker>[A-Z][\w.'’-]*(?:[ \t][\w.'’-]+){0,3}?)[ \t]*:[ \t]*",
    re.MULTILINE,
)
_BACKCHANNEL_MAX_WORDS = 6
_LEAD_INS = re.compile(
    r"(?:(?:and|then|and then|uh|um|er|ok|okay|yes|yeah|sure|so|the rest is|the next ones? (?:is|are)|"
    r"next|after that|it's|it is|that's|that is)[ \t,.]*)*", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class _Line:
    start: int
    end: int
    body_start: int  # after the speaker prefix
    speaker: str | None


def _lines(text: str) -> list[_Line]:
    out = []
    position = 0
    for raw in text.split("\n"):
        end = position + len(raw)
        match = _SPEAKER.match(text, position, end)
        if match and match.end() <= end:
            out.append(_Line(position, end, match.end(), match.group("speaker").casefold()))
        else:
            out.append(_Line(position, end, position, None))
        position = end + 1
    return out



def find_numbers(text: str, hotwords, free) -> list[SpokenEntity]:
    runs: list[tuple[list[Token], int]] = []  # (tokens, line index)
    lines = _lines(text)
    for index, line in enumerate(lines):
        position = line.body_start
        while position < line.end:
            word = SPOKEN_WORD.search(text, position, line.end)
            if word is None:
                break
            before = text[word.start() - 1] if word.start() > 0 else " "
            if _starts_number(word.group()) and not (before.isalnum() or before in "@_"):
                tokens, end = _number_tokens(text[: line.end], word.start())
                if tokens:
                    runs.append((tokens, index))
                    position = end
                    continue
            position = word.end()
    # Numbers read in blocks across turns: a run that ends its turn, continued by a run
    # that opens the same speaker's next turn, with at most short replies between.
    groups: list[list[tuple[list[Token], int]]] = []
    for tokens, index in runs:
        if groups and _continues(text, lines, groups[-1], (tokens, index), hotwords):
            groups[-1].append((tokens, index))
        else:
            groups.append([(tokens, index)])
    out = []
    previous_end = 0
    for group in groups:
        tokens = [t for run, _ in group for t in run]
        start, end = tokens[0].start, tokens[-1].end
        # A hotword names the first number after it, not every later one.
        window = text[max(previous_end, start - _HOTWORD_REACH) : start]
        previous_end = end
        if not _is_spoken(tokens):
            continue
        digits = "".join(t.value for t in tokens)
        label = _number_label(digits, _hotword_label(window, hotwords))
        if label is None and len(group) > 1:
            label = Label.ID if len(digits) >= _MIN_DIGITS_BARE else None
        if label is None or not free(start, end):
            continue
        out.append(SpokenEntity(start, end, text[start:end], label, digits, "digits", tokens))
    return out


def _continues(text: str, lines: list[_Line], group, current, hotwords) -> bool:
    prev_tokens, prev_line = group[-1]
    if sum(_digit_count(run) for run, _ in group) >= 19:
        return False  # no card or account number is longer
    tokens, line_index = current
    if line_index == prev_line or _digit_count(prev_tokens) < 3 or _digit_count(tokens) < 3:
        return False
    first = lines[prev_line]
    if text[prev_tokens[-1].end : first.end].strip(" \t.,;-…") != "":
        return False  # the earlier block must end its turn (or line)
    line = lines[line_index]
    if line.speaker != first.speaker:
        return False
    if first.speaker is None and line_index != prev_line + 1:
        return False  # lines without speakers (subtitle cues): only the very next line continues
    lead = _LEAD_INS.match(text, line.body_start, tokens[0].start)
    if lead is None or lead.end() != tokens[0].start:
        return False
    for between in lines[prev_line + 1 : line_index]:
        body = text[between.body_start : between.end]
        if not body.strip():
            continue
        if between.speaker == first.speaker or len(body.split()) > _BACKCHANNEL_MAX_WORDS:
            return False
        if any(_starts_number(w) for w in re.findall(r"[A-Za-z]+|\d+", body)):
            return False
        if _hotword_label(body, hotwords) is not None:
            return False  # "and your account number?": a new question, a new number
    return line_index - prev_line <= 4



def case_as(model: str, word: str) -> str:
    if model.isupper() and len(model) > 1:
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word.lower()


def unit_word(digit: str, model: str, zero_word: str) -> str:
    if model.isdigit():
        return digit
    name = zero_word if digit == "0" else _DIGIT_NAMES[int(digit)]
    return case_as(model, name)


def render_digits(entity: SpokenEntity, stand_in: str) -> str | None:
    fake = "".join(ch for ch in stand_in if ch.isdigit())
    if len(fake) != len(entity.canonical):
        return None
    zero_words = [t.text.casefold() for t in entity.tokens if t.kind == "unit" and t.value == "0"]
    zero_word = zero_words[0] if zero_words else "zero"
    pieces: list[str] = []
    cursor = entity.start
    position = 0
    for token in entity.tokens:
        pieces.append(entity.text[cursor - entity.start : token.start - entity.start])
        part = fake[position : position + len(token.value)]
        position += len(token.value)
        pieces.append(_render_number_token(token, part, zero_word))
        cursor = token.end
    pieces.append(entity.text[cursor - entity.start :])
    return "".join(pieces)


def _render_number_token(token: Token, digits: str, zero_word: str) -> str:
    model = token.text
    if token.kind == "numeral":
        return digits
    if token.kind == "unit":
        return unit_word(digits, model, zero_word)
    if token.kind == "repeat":
        repeat_word, said = token.text.split()[0], token.text.split()[-1]
        if len(set(digits)) == 1:
            return f"{repeat_word} {unit_word(digits[0], said, zero_word)}"
        return " ".join(unit_word(d, said, zero_word) for d in digits)
    if token.kind == "teen" or token.kind == "tens":
        if digits[0] == "1":
            return case_as(model, _TEEN_NAMES[digits])
        if digits[0] == "0":
            return f"{case_as(model, zero_word)} {case_as(model, _DIGIT_NAMES[int(digits[1])])}"
        tens = _TENS_NAMES[digits[0]]
        if digits[1] == "0":
            return case_as(model, tens)
        joiner = "-" if "-" in model else " "
        return case_as(model, f"{tens}{joiner}{_DIGIT_NAMES[int(digits[1])]}")
    if token.kind == "hundred":
        first, scale = token.text.split()[0], token.text.split()[-1]
        zeros = len(token.value) - 1
        if digits[0] != "0" and set(digits[1:]) == {"0"}:
            return f"{unit_word(digits[0], first, zero_word)} {scale}"
        return " ".join(unit_word(d, first, zero_word) for d in digits[: zeros + 1])
    return digits


