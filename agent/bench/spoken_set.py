"""A generated set of call transcripts with spoken identifiers, for `veil bench`'s
documents row and the files tests: what speech-to-text writes when a caller reads a
phone number digit by digit ("double five"), spells a surname, dictates an e-mail,
reads a card number in blocks over several turns, gives an account number and a
social security number. Every identifier is random (Faker names, random digits,
Luhn-valid cards); the gold spans are exact.
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, field

from agent.files.spoken import NATO

KINDS = ("PHONE", "CREDIT_CARD", "EMAIL", "PERSON_SPELLED", "ACCOUNT_ID", "SSN")
_DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_LOCALES = ("en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "pl_PL", "en_IN", "pt_BR")
_DOMAINS = ("gmail", "yahoo", "outlook", "hotmail", "icloud", "proton")
_TLDS = ("com", "net", "org", "co dot uk", "de")
_BACKCHANNEL = ("okay", "go on", "mhm", "yes", "got it", "right", "uh huh")


@dataclass(frozen=True)
class GoldSpoken:
    start: int
    end: int
    kind: str
    text: str
    value: str  # the written value (digits, address, word)


@dataclass
class Transcript:
    id: str
    text: str
    gold: list[GoldSpoken] = field(default_factory=list)


_TENS = {"2": "twenty", "3": "thirty", "4": "forty", "5": "fifty", "6": "sixty", "7": "seventy", "8": "eighty", "9": "ninety"}
_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")


def _pair(a: str, b: str) -> str:
    """Two digits read as one number: "41" -> "forty-one", "15" -> "fifteen"."""
    if a == "1":
        return _TEENS[int(b)]
    return _TENS[a] + ("" if b == "0" else "-" + _DIGITS[int(b)])


def _spell_digits(rng: random.Random, digits: str, groups: list[int]) -> str:
    """Digits as speech-to-text writes them: words in groups separated by commas (or by
    nothing, or "dash"), with "double"/"triple", "oh" for zero, some pairs read as one
    number ("forty-one"), now and then a digit written as a numeral or an "uh" between."""
    out_groups = []
    position = 0
    for size in groups:
        group = digits[position : position + size]
        position += size
        words = []
        i = 0
        while i < len(group):
            d = group[i]
            roll = rng.random()
            if i + 2 < len(group) and group[i + 1] == d == group[i + 2] and roll < 0.5:
                words.append(f"triple {_DIGITS[int(d)]}")
                i += 3
                continue
            if i + 1 < len(group) and group[i + 1] == d and roll < 0.5:
                words.append(f"double {_DIGITS[int(d)]}")
                i += 2
                continue
            if i + 1 < len(group) and d != "0" and roll > 0.88:
                words.append(_pair(d, group[i + 1]))
                i += 2
                continue
            if roll > 0.96:
                words.append(d)  # the recogniser wrote a numeral
            elif d == "0" and roll < 0.3 and words:
                words.append("oh")
            else:
                words.append(_DIGITS[int(d)])
            if words and rng.random() < 0.03:
                words.append("uh")
            i += 1
        if words and words[-1] == "uh":
            words.pop()
        out_groups.append(" ".join(words))
    return rng.choice((", ", ", ", " ", " dash ")).join(out_groups)


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def _luhn_complete(rng: random.Random, prefix: str, length: int) -> str:
    body = prefix + "".join(str(rng.randint(0, 9)) for _ in range(length - len(prefix) - 1))
    total = 0
    for i, ch in enumerate(reversed(body)):
        n = int(ch)
        if i % 2 == 0:
            n *= 2
            if n > 9:
                n -= 9
        total += n
    return body + str((10 - total % 10) % 10)


class _Builder:
    def __init__(self, transcript_id: str):
        self.parts: list[str] = []
        self.length = 0
        self.gold: list[GoldSpoken] = []
        self.id = transcript_id

    def say(self, text: str) -> None:
        self.parts.append(text)
        self.length += len(text)

    def entity(self, text: str, kind: str, value: str) -> None:
        self.gold.append(GoldSpoken(self.length, self.length + len(text), kind, text, value))
        self.say(text)

    def build(self) -> Transcript:
        return Transcript(self.id, "".join(self.parts), self.gold)


def make_transcript(rng: random.Random, transcript_id: str, kinds: tuple[str, ...] = KINDS) -> Transcript:
    from faker import Faker

    fake = Faker(rng.choice(_LOCALES))
    fake.seed_instance(rng.randint(0, 10**9))
    first, last = fake.first_name(), fake.last_name()
    while not last.isalpha() or not first.isalpha() or len(last) < 3:
        first, last = fake.first_name(), fake.last_name()
    agent, caller = "Agent", rng.choice(("Customer", "Caller", "Speaker 2"))
    stamp = rng.random() < 0.5
    clock = [rng.randint(0, 30)]

    def prefix(who: str) -> str:
        if not stamp:
            return f"{who}: "
        clock[0] += rng.randint(2, 9)
        return f"[00:{clock[0] // 60:02d}:{clock[0] % 60:02d}] {who}: "

    b = _Builder(transcript_id)
    b.say(prefix(agent) + "Thank you for calling, how can I help you today?\n")
    b.say(prefix(caller) + f"Hi, this is {first} {last}, I have a question about my bill.\n")
    order = list(kinds)
    rng.shuffle(order)
    for kind in order:
        if kind == "PERSON_SPELLED":
            b.say(prefix(agent) + "Could you spell your last name for me?\n")
            letters = list(last.upper())
            if rng.random() < 0.25:
                spelled = ", ".join(f"{ch} as in {NATO[ch.lower()]}" for ch in letters if ch.lower() in NATO)
            else:
                spelled = rng.choice((" ", "-", " ")).join(letters)
            b.say(prefix(caller) + rng.choice(("Sure, that's ", "It's ", "Yes, ")))
            b.entity(spelled, kind, last)
            b.say(".\n")
        elif kind == "PHONE":
            digits = rng.choice(("415", "212", "646", "303", "617")) + "".join(str(rng.randint(0, 9)) for _ in range(7))
            b.say(prefix(agent) + "What's the best phone number to reach you?\n")
            b.say(prefix(caller) + rng.choice(("It's ", "Sure, ", "")))
            b.entity(_spell_digits(rng, digits, [3, 3, 4]), kind, digits)
            b.say(".\n")
        elif kind == "EMAIL":
            domain = rng.choice(_DOMAINS)
            f_, l_ = _ascii(first).lower(), _ascii(last).lower()  # addresses are ASCII
            local = rng.choice((f"{f_} dot {l_}", f"{f_[0]}{l_}", f"{f_} underscore {l_}"))
            spoken = f"{local} at {domain} dot {rng.choice(_TLDS)}"
            b.say(prefix(agent) + "And the e-mail address on the account?\n")
            b.say(prefix(caller) + rng.choice(("It's ", "That would be ", "")))
            b.entity(spoken, kind, spoken)
            b.say(rng.choice((".\n", "\n")))
        elif kind == "CREDIT_CARD":
            digits = _luhn_complete(rng, rng.choice(("4", "51", "55")), 16)
            blocks = [digits[i : i + 4] for i in range(0, 16, 4)]
            b.say(prefix(agent) + "Can you read me the card number?\n")
            first_half = _spell_digits(rng, "".join(blocks[:2]), [4, 4])
            second_half = _spell_digits(rng, "".join(blocks[2:]), [4, 4])
            b.say(prefix(caller) + "Okay, it's ")
            text = first_half + "\n" + prefix(agent) + rng.choice(_BACKCHANNEL) + "\n" + prefix(caller) + second_half
            b.entity(text, kind, digits)
            b.say(".\n")
        elif kind == "ACCOUNT_ID":
            digits = "".join(str(rng.randint(0, 9)) for _ in range(rng.choice((6, 8, 9))))
            b.say(prefix(agent) + "And your account number, please?\n")
            b.say(prefix(caller) + "Let me see, ")
            b.entity(_spell_digits(rng, digits, [len(digits)]), kind, digits)
            b.say(".\n")
        elif kind == "SSN":
            digits = f"{rng.randint(100, 665)}{rng.randint(10, 99)}{rng.randint(1000, 9999)}"
            b.say(prefix(agent) + "For verification, the last nine of your social security number?\n")
            b.say(prefix(caller) + "Sure, ")
            b.entity(_spell_digits(rng, digits, [3, 2, 4]), kind, digits)
            b.say(".\n")
        b.say(prefix(agent) + rng.choice(("Thank you.", "Great, thanks.", "Perfect.", "Got it, one moment.")) + "\n")
    b.say(prefix(caller) + "Thanks for your help, bye.\n")
    return b.build()


def spoken_set(count: int = 60, seed: int = 14) -> list[Transcript]:
    """`count` transcripts with one identifier of each of the 6 kinds: 60 -> 360."""
    rng = random.Random(seed)
    return [make_transcript(rng, f"spoken-{i:03d}") for i in range(count)]
