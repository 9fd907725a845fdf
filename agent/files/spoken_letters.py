"""Spoken letters: names and codes spelled letter by letter ("B A K E R", "D as in delta",
"S W one A"), and e-mail addresses said aloud ("john dot baker at gmail dot com"); and a
stand-in written back the same way."""

from __future__ import annotations

import re
from collections.abc import Iterable

from agent.entities import Label
from agent.files.spoken_numbers import SPOKEN_WORD, UNITS, ZERO_INSIDE_ONLY, unit_word
from agent.files.spoken_types import SpokenEntity, Token

NATO = {
    "a": "Alpha", "b": "Bravo", "c": "Charlie", "d": "Delta", "e": "Echo", "f": "Foxtrot", "g": "Golf",
    "h": "Hotel", "i": "India", "j": "Juliet", "k": "Kilo", "l": "Lima", "m": "Mike", "n": "November",
    "o": "Oscar", "p": "Papa", "q": "Quebec", "r": "Romeo", "s": "Sierra", "t": "Tango", "u": "Uniform",
    "v": "Victor", "w": "Whiskey", "x": "X-ray", "y": "Yankee", "z": "Zulu",
}

# Hotwords: what a number said shortly after them is. Longest phrases first.

TLDS = frozenset(
    ["com", "net", "org", "edu", "gov", "mil", "io", "co", "uk", "us", "de", "fr", "ca", "au", "in", "info", "biz", "me", "ai", "app", "dev", "nl", "es", "it", "ch", "se", "no", "dk", "fi", "ie", "nz", "jp", "be", "at", "pl", "pt", "br", "mx", "za", "eu", "tv", "ly"]
)
_EMAIL_JOINERS = {"dot": ".", "period": ".", "point": ".", "underscore": "_", "dash": "-", "hyphen": "-", "minus": "-"}
_NOT_LOCAL = frozenset(
    ["i", "am", "is", "are", "was", "were", "be", "me", "us", "it", "we", "him", "her", "them", "you", "my", "your", "our", "its", "at", "to", "and", "or", "the", "a", "an", "that", "this", "there", "here", "so", "just", "also", "then", "look", "back"]
)



# -- spelled words --------------------------------------------------------------------
_LETTER = re.compile(r"(?<![\w'’])([^\W\d_])\.?(?:[ \t]+as[ \t]+in[ \t]+([^\W\d_][\w-]*))?(?![\w'’])")
_LETTER_SEP = re.compile(r"[ \t]*[,\-.]?[ \t]*")
_SPELL_CUES = re.compile(
    r"(?:spell(?:s|ed|ing)?|spelt|that'?s|that is|it'?s|letters?|as in|name is|surname|last name|first name|"
    r"username|user name)\W*$",
    re.IGNORECASE,
)


def _spelled_runs(text: str) -> Iterable[list[Token]]:
    position = 0
    while True:
        match = _LETTER.search(text, position)
        if match is None:
            return
        tokens: list[Token] = []
        cursor = match.start()
        while True:
            m = _LETTER.match(text, cursor)
            if m is None:
                # Digits may be spelled inside a code ("S W one A").
                word = SPOKEN_WORD.match(text, cursor)
                if tokens and word and (word.group().casefold() in UNITS or (word.group().isdigit() and len(word.group()) == 1)):
                    value = word.group() if word.group().isdigit() else UNITS[word.group().casefold()]
                    if word.group().casefold() in ZERO_INSIDE_ONLY:
                        break  # "o" is a letter here, read by _LETTER
                    tokens.append(Token(word.start(), word.end(), word.group(), "unit", value))
                    sep = _LETTER_SEP.match(text, word.end())
                    if "\n" in text[word.end():sep.end()] or sep.end() == word.end() and sep.end() < len(text):
                        break
                    cursor = sep.end()
                    continue
                break
            kind = "letter_as" if m.group(2) else "letter"
            tokens.append(Token(m.start(), m.end(), m.group(), kind, m.group(1)))
            sep = _LETTER_SEP.match(text, m.end())
            if "\n" in text[m.end():sep.end()]:
                break
            cursor = sep.end()
            if cursor == m.end() and cursor < len(text):
                break
        while tokens and tokens[-1].kind == "unit":
            tokens.pop()
        if tokens and not tokens[0].text.endswith(".") and tokens[-1].text.endswith("."):
            last = tokens[-1]  # "B A K E R." ends a sentence: the full stop is not a letter's
            tokens[-1] = Token(last.start, last.end - 1, last.text[:-1], last.kind, last.value)
        if tokens:
            yield tokens
            position = tokens[-1].end
        else:
            position = match.end()


# -- e-mails --------------------------------------------------------------------------
_EMAIL = re.compile(
    r"(?<![\w@.])(?P<local>[^\W_]+(?:[ \t]+(?:dot|period|point|underscore|dash|hyphen|minus)[ \t]+[^\W_]+)*)"
    r"[ \t]+at(?:[ \t]+sign)?[ \t]+"
    r"(?P<domain>[a-z0-9]+(?:[ \t]+(?:dot|period|point|dash|hyphen)[ \t]+[a-z0-9]+)*)",
    re.IGNORECASE,
)


def find_emails(text: str) -> Iterable[SpokenEntity]:
    for match in _EMAIL.finditer(text):
        domain_words = re.split(r"[ \t]+(?:dot|period|point)[ \t]+", match.group("domain"), flags=re.IGNORECASE)
        # The address ends at the last label that is a top-level domain.
        last_tld = max((i for i, w in enumerate(domain_words) if w.casefold() in TLDS and i > 0), default=None)
        if last_tld is None:
            continue
        local_text = match.group("local")
        local_words = re.split(r"[ \t]+", local_text)
        if len(local_words) == 1 and local_words[0].casefold() in _NOT_LOCAL:
            continue
        # The address ends with the last label that is a top-level domain.
        domain_start = match.start("domain")
        parts = re.split(r"([ \t]+(?:dot|period|point)[ \t]+)", match.group("domain"), flags=re.IGNORECASE)
        offset = 0
        pieces_end = domain_start
        for i, part in enumerate(parts):
            offset += len(part)
            if i == 2 * last_tld:
                pieces_end = domain_start + offset
                break
        span_text = text[match.start():pieces_end]
        canonical = _email_canonical(span_text)
        if canonical is None:
            continue
        yield SpokenEntity(match.start(), pieces_end, span_text, Label.EMAIL, canonical, "email")


def _email_canonical(spoken: str) -> str | None:
    words = re.split(r"[ \t]+", spoken.strip())
    out = []
    seen_at = False
    i = 0
    while i < len(words):
        w = words[i].casefold()
        if w == "at" and not seen_at:
            out.append("@")
            seen_at = True
            if i + 1 < len(words) and words[i + 1].casefold() == "sign":
                i += 1
        elif w in _EMAIL_JOINERS:
            out.append(_EMAIL_JOINERS[w])
        else:
            out.append(w)
        i += 1
    value = "".join(out)
    return value if re.fullmatch(r"[\w.\-]+@[\w\-]+(?:\.[\w\-]+)+", value) else None



def find_spelled(text: str, known_words: frozenset[str], free) -> list[SpokenEntity]:
    out = []
    for tokens in _spelled_runs(text):
        letters = [t for t in tokens if t.kind.startswith("letter")]
        if len(letters) < 3:
            continue
        start, end = tokens[0].start, tokens[-1].end
        if not free(start, end):
            continue
        word = "".join(t.value for t in tokens)
        has_digits = any(t.kind == "unit" for t in tokens)
        before = text[max(0, start - 40) : start]
        asked = re.search(r"(?i)\bspell", text[max(0, start - 160) : start]) is not None  # "could you spell it?"
        cue = asked or bool(_SPELL_CUES.search(before)) or any(t.kind == "letter_as" for t in tokens)
        earlier = text[max(0, start - 400) : start]
        said_before = re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", earlier, re.IGNORECASE) is not None
        if not (cue or said_before or word.casefold() in known_words or len(letters) >= 5):
            continue
        if len(set(word.casefold())) == 1:
            continue  # "A A A" is not a name
        label = Label.ID if has_digits else Label.PERSON
        canonical = word.upper() if has_digits else word[:1].upper() + word[1:].lower()
        context_name = None
        if not has_digits and said_before:
            context_name = _full_name_with(earlier, word)
        out.append(SpokenEntity(start, end, text[start:end], label, canonical, "spelled", tokens, context_name=context_name))
    return out


def _full_name_with(earlier: str, word: str) -> str | None:
    """"John Baker" when the text said it before spelling "B A K E R"."""
    pattern = rf"(?<![\w'’])((?:[A-Z][a-z-]+[ \t]+)?(?i:{re.escape(word)})(?:[ \t]+[A-Z][a-z-]+)?)(?![\w'’])"
    matches = list(re.finditer(pattern, earlier))
    for match in reversed(matches):
        name = match.group(1)
        parts = name.split()
        if 2 <= len(parts) <= 3 and all(p[:1].isupper() for p in parts):
            return name
    return None



def render_spelled(entity: SpokenEntity, stand_in: str) -> str | None:
    value = re.sub(r"[\W_]", "", stand_in)
    if not value:
        return None
    letters = entity.tokens
    upper = all(t.value.isupper() for t in letters if t.kind.startswith("letter"))
    separator = " "
    if len(letters) > 1:
        separator = entity.text[letters[0].end - entity.start : letters[1].start - entity.start] or " "
    uses_as_in = any(t.kind == "letter_as" for t in letters)
    dotted = letters[0].text.rstrip().endswith(".") and not uses_as_in
    digit_models = [t.text for t in letters if t.kind == "unit"]
    out = []
    for ch in value:
        if ch.isdigit():
            model = digit_models[0] if digit_models else "one"
            out.append(unit_word(ch, model, "zero"))
            continue
        letter = ch.upper() if upper else ch.lower()
        if uses_as_in:
            letter = f"{letter} as in {NATO.get(ch.lower(), ch.upper())}"
        elif dotted:
            letter += "."
        out.append(letter)
    return separator.join(out)


def render_email(entity: SpokenEntity, stand_in: str) -> str | None:
    if "@" not in stand_in:
        return None
    spoken_words = {v: k for k, v in _EMAIL_JOINERS.items() if k in ("dot", "underscore", "dash")}
    for said, sign in _EMAIL_JOINERS.items():
        if re.search(rf"(?<![a-z]){said}(?![a-z])", entity.text, re.IGNORECASE):
            spoken_words.setdefault(sign, said)
            if sign == ".":
                spoken_words["."] = said if said in ("dot", "period", "point") else "dot"
    local, _, domain = stand_in.partition("@")
    words = []
    for piece in re.split(r"([._\-])", local):
        if piece in spoken_words:
            words.append(spoken_words[piece])
        elif piece:
            words.append(piece)
    at_word = "at sign" if re.search(r"\bat[ \t]+sign\b", entity.text, re.IGNORECASE) else "at"
    words.append(at_word)
    for i, label in enumerate(domain.split(".")):
        if i:
            words.append(spoken_words.get(".", "dot"))
        words.append(" dash ".join(label.split("-")) if "-" in label else label)
    text = " ".join(words)
    return text.upper() if entity.text.isupper() else text

