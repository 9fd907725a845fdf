"""Pattern detectors with validation: a regex proposes, a checksum or parser disposes."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from typing import ClassVar

from agent.detect.addresses import AddressDetector
from agent.detect.base import DetectionContext, Detector
from agent.detect.dates import DateDetector
from agent.detect.phones import PhoneDetector
from agent.detect.validators import luhn_valid
from agent.entities import Label, Span
from agent.knowledge.frequency import zipf
from agent.knowledge.words import is_common_word


class RegexDetector:
    """One regex, one label, an optional validator. Group `v` (if present) is the value."""

    name: str = "regex"
    label: Label = Label.MISC
    pattern: re.Pattern[str]
    score: float = 0.9
    # Literals every match contains (one of them): a text with none is not scanned.
    needs: tuple[str, ...] = ()

    @property
    def labels(self) -> frozenset[Label]:
        return frozenset({self.label})

    def validate(self, value: str, match: re.Match[str], text: str) -> bool:
        return True

    def trim(self, value: str) -> str:
        """What of the match is the value (e.g. without trailing punctuation)."""
        return value

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        if self.needs and not any(literal in text for literal in self.needs):
            return []
        spans = []
        for match in self.pattern.finditer(text):
            group = "v" if "v" in self.pattern.groupindex else 0
            start = match.start(group)
            value = self.trim(match.group(group))
            end = start + len(value)
            if start < end and self.validate(value, match, text):
                spans.append(Span(start, end, self.label, value, self.score, self.name))
        return spans


class EmailDetector(RegexDetector):
    name = "email"
    label = Label.EMAIL
    score = 1.0
    needs = ("@",)
    pattern = re.compile(
        r"(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+'-]{0,63}@"
        r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-])"
    )


class IpDetector:
    name = "ip"
    labels = frozenset({Label.IP})
    _v4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?:/\d{1,2})?(?!\w|\.\d)")
    # An IPv4 tail (::ffff:192.0.2.1) and a prefix length (2001:db8::/32) belong to the address.
    _v6 = re.compile(
        r"(?<![\w:])(?=[0-9A-Fa-f:]*:[0-9A-Fa-f:]*:)[0-9A-Fa-f:]{2,39}(?:(?<=:)(?:\d{1,3}\.){3}\d{1,3})?"
        r"(?:%\w+)?(?:/\d{1,3})?(?![\w:]|\.\d)"
    )
    _version = re.compile(r"(?i)\b(version|ver|v)\.?\s*$")

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans = []
        for match in self._v4.finditer(text):
            value = match.group().split("/")[0]
            try:
                address = ipaddress.IPv4Address(value)
            except ValueError:
                continue
            if address.is_unspecified or address.is_loopback:
                continue  # 0.0.0.0 and 127.0.0.1 are every machine's, nobody's in particular
            if self._version.search(text[max(0, match.start() - 12) : match.start()]):
                continue  # "version 1.2.3.4" is a version number
            spans.append(Span(match.start(), match.end(), Label.IP, match.group(), 0.95, self.name))
        for match in self._v6.finditer(text):
            value = match.group().split("%")[0].split("/")[0]
            if value.count(":") < 2 or (
                "::" not in value and value.count(":") == 2 and all(len(g) <= 2 for g in value.split(":"))
            ):
                continue  # times like 10:30:00 are not addresses
            try:
                address6 = ipaddress.IPv6Address(value)
            except ValueError:
                continue
            if address6.is_unspecified or address6.is_loopback:
                continue
            spans.append(Span(match.start(), match.end(), Label.IP, match.group(), 0.95, self.name))
        return spans


class UrlDetector(RegexDetector):
    name = "url"
    label = Label.URL
    score = 0.9
    # A scheme needs no word start: "://" is mark enough, and an address is glued to the
    # text before it where a space was lost in copying or a byte escape precedes it
    # ("...\\x9bhttps://"). "www." does need one ("awww."). A backslash is no character of
    # an address: it is the escape after one in a quoted string ("https://...\\n"). The
    # look-ahead of the letters they start with is a cheap test at each position (the
    # alternation is tried at few; it was the word start before).
    pattern = re.compile(
        r"(?i)(?=[hwfs])(?:(?:https?|wss?|ftps?|sftp)://|\bwww\.)[^\s<>\"'`\\]+",
    )

    _opening: ClassVar[dict[str, str]] = {")": "(", "]": "[", "}": "{"}

    def trim(self, value: str) -> str:
        # Sentence punctuation and unbalanced closing brackets are not part of the URL.
        while value and (
            value[-1] in ".,;:!?"
            or (value[-1] in self._opening and value.count(value[-1]) > value.count(self._opening[value[-1]]))
        ):
            value = value[:-1]
        return value

    def validate(self, value: str, match: re.Match[str], text: str) -> bool:
        return len(value) > 8


class MacDetector(RegexDetector):
    name = "mac"
    label = Label.MAC
    score = 0.95
    pattern = re.compile(
        r"(?<![\w:-])(?:[0-9A-Fa-f]{2}([:-]))(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}(?![\w:-])"
        r"|(?<![\w.])[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}(?![\w.])"
    )


# -- identifiers near a hotword ---------------------------------------------------------
# An identifier's value: digit groups split by spaces or dots ("485 777 3456",
# "1.020.456.789"), or one run of letters, digits, "-" and "/" with a digit in it.
_ID_VALUE = (
    r"(?:\d{1,5}(?:[ .]\d{2,5}){1,4}(?![\w]|\.\d)"
    r"|(?=[A-Za-z0-9\-/]*\d)[A-Za-z0-9][A-Za-z0-9\-/]{3,40}[A-Za-z0-9])"
)
ID_HOTWORDS = (
    r"order|account|acct|acc|a/c|invoice|ticket|case|customer|member(?:ship)?|employee|staff|flight|receipt|"
    r"a-number|alien\s+(?:registration\s+)?number|c[ée]dula|pnr|dossier|r[ée]f[ée]rence|expediente|aktenzeichen|"
    r"matricola|pratica|"
    r"passport|licen[cs]e|driver'?s?\s+licen[cs]e|DL|policy|tracking|reference|ref|confirmation|"
    r"booking|reservation|serial|routing|sort\s+code|patient|student|claim|loan|contract|client|"
    r"badge|record|file|card|national\s+id|id\s+card|identity\s+card|tax|vat|nhs|medicare|insurance|"
    r"mrn|chart|encounter|admission|subscriber|beneficiary|"
    r"iban|bic|swift|vin|plate|registration|voucher|coupon|pin|otp|verification"
)
_USERNAME_HOTWORDS = r"user\s?name|user\s?id|login|handle|screen\s?name|gamer\s?tag|account\s+name|nick(?:name)?|alias|user"


class HotwordIdDetector:
    """IDs (order, account, passport...) and usernames announced by a hotword before them:
    "Order ID: 3348917502", "my username is cminh730", "passport no. X1234567"."""

    name = "hotword_id"
    labels = frozenset({Label.ID, Label.USERNAME, Label.SECRET})
    _id = re.compile(
        # The hotword is a whole word: "cards-on-..." is no "card" followed by an ID.
        rf"(?i)\b(?:{ID_HOTWORDS})(?![^\W\d_])(?:\s+(?:number|num|no|nr|code|id|#))?\.?"
        # the issuing state between ("Driver Licence NSW 12345678")
        r"(?:\s+(?-i:[A-Z]{2,3})(?=\s+\d))?"
        r"(?:\s+(?:is|was|of|for|reads?|es|est|ist))?(?:\s*[:#=\-]){0,2}\s*(?:is\s+)?"
        rf"(?P<v>{_ID_VALUE})"
    )
    # "PPO No. 1234567890", "UAN No: 100234567812": initials naming a kind of record, then
    # its number (a form's or an office's own acronym, which no list of hotwords holds).
    _acronym_number = re.compile(
        rf"(?<![\w-])[A-Z]{{2,5}}\s+(?:No|Nr|Number|#)\.?(?:\s*[:#=\-])?\s*(?P<v>{_ID_VALUE})"
    )
    # A card's or an account's last digits: "card ending 4417", "account ending in 2291",
    # "Visa ending with 0042" (with a name, they point at one account; NER calls them a date).
    _last_digits = re.compile(
        r"(?i)\b(?:card|account|acct|visa|mastercard|amex|debit|credit)(?:\s+(?:number|no\.?|#))?\s+"
        r"(?:ending|ends)(?:\s+(?:in|with))?\s*[:#]?\s*(?P<v>\d{4})(?!\d)"
    )
    # A record's number after the word for it, as other languages write it: German
    # compounds ("Buchungsnummer 7Q4KXP", "Versichertennr.: A123456780", "V-Nummer"), a
    # noun then "n°", "nº", "n.", "nr" ("allocataire n° 4589217", "pedido nº 1187345221",
    # "kontrollavgift nr 778120451"), initials then a long number ("RPPS 10003456789").
    _number_word = re.compile(
        rf"(?:\b[A-ZÄÖÜ][\w\-]*?(?:[Nn]ummer|[Nn]r\.?)|\b[^\W\d_]{{3,}}[ \t]+(?:n[°º]|n\.º|n\.|nr\.?|nro\.?))"
        rf"[ \t]*[:#]?[ \t]*(?P<v>{_ID_VALUE})"
        r"|(?<![\w-])[A-Z]{2,5}[ \t]+(?P<w>\d{6,})(?![\w.,]\d)"
    )
    # A short code that opens something: "the door code is 4827", "alarm code: 1984".
    _access_code = re.compile(
        r"(?i)\b(?:door|gate|alarm|entry|access|lock|garage|safe|key\s?box|lockbox|building|keypad)\s+"
        r"(?:code|pin|combination)(?:\s+(?:is|was))?\s*[:=\-]?\s*(?P<v>\d{3,8}#?)(?![\w])"
    )
    _username = re.compile(
        rf"(?i)\b(?:{_USERNAME_HOTWORDS})(?:\s*(?:is|was|:|=)|\s+-)\s*(?:is\s+)?['\"“]?(?P<v>@?[A-Za-z0-9_][A-Za-z0-9_.\-]{{2,39}})"
    )
    # "applications nos. 26480/95, 28291/95 and 29280/95": reference numbers with slashes,
    # one or a list, after a number word.
    _reference_list = re.compile(
        r"(?i)\b(?:nos?\.|numbers?|application|applications|case|cases|file|ref(?:erence)?)\s*:?\s*"
        r"(?P<v>\d{1,7}(?:/\d{1,4}){1,3}(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)\d{1,7}(?:/\d{1,4}){1,3})*)"
    )
    # A fine's or a summons' reference: "PCN AB12345678", "parking fine no. WX4471902". Letters
    # and digits both, so that an amount ("a fine of 3000") is never one.
    _penalty = re.compile(
        r"(?i)\b(?:fine|penalty(?:\s+charge)?(?:\s+notice)?|pcn|citation|summons)(?:\s+(?:number|no|nr|ref(?:erence)?|#))?"
        r"\.?\s*[:#]?\s*(?P<v>(?=[A-Za-z0-9-]*[A-Za-z])(?=[A-Za-z0-9-]*\d)[A-Za-z0-9][A-Za-z0-9-]{5,20})(?![\w-])"
    )
    # A British number plate ("KX19 ABC", current format since 2001) after a word for a car or
    # its registration ("my car (reg KX19 ABC)"): the space inside keeps it from the ID rule above.
    _uk_plate = re.compile(
        r"(?i:\b(?:reg|registration|plate|number\s+plate|car|van|vehicle|motorbike)\b\.?)[^.\n]{0,20}?"
        r"(?<![A-Z0-9])(?P<v>[A-Z]{2}\d{2}[ ]?[A-Z]{3})(?![A-Za-z0-9])"
    )
    # A number plate after the word for one, in the languages Veil's users write: letters
    # and digits in groups ("HH-KL 4821", "GH-482-TK", "4827 KLM", "34-TKZ-9", "KR 4T582").
    _plate = re.compile(
        r"(?i:\b(?:kennzeichen|nummernschild|immatricul[ée]e?|immatriculation|plaque|matr[ií]cula|placa|targa|"
        r"kenteken|rejestracyjn\w*|tablica|registreringsnummer|regnr|plaka|licen[cs]e\s+plate|plate\s+number)\b\.?)"
        r"[^\S\n]*(?:[:#]|n[°º.]|nr\.?)?[^\S\n]*"
        r"(?P<v>(?=[A-Z0-9\- ]*\d)(?=[A-Z0-9\- ]*[A-Z])[A-Z0-9]{1,5}(?:[ \-][A-Z0-9]{1,5}){1,3})(?![\w\-])"
    )
    _mention = re.compile(r"(?<![\w@.])@(?P<v>[A-Za-z0-9_](?:[A-Za-z0-9_.\-]{0,28}[A-Za-z0-9_])?)(?![\w@])")
    # Text split into tokens (corpora, some copied feeds) writes "@ name" and "u / name":
    # a handle opening a line or after "RT", or one shaped like none of a sentence's words
    # (an inner capital, a digit, an underscore) elsewhere; "meet @ home" stays.
    _spaced_mention = re.compile(
        r"(?m)(?:(?P<opening>^[ \t]*|\bRT[ \t]+))?(?<![\w@])@[ \t]+(?P<v>[A-Za-z][A-Za-z0-9_]{1,19})(?![\w@.])"
    )
    # A Reddit user, "u/name" or "/u/name" (the name alone is swapped, "u/" stays so the
    # answer still reads as a Reddit handle; "r/name" is a public subreddit).
    _reddit_user = re.compile(r"(?<![\w/])/?u(?P<gap>[ \t]?)/(?P=gap)(?P<v>[A-Za-z0-9_\-]{3,20})(?![\w/])")
    # Who a chat app's broadcast mention reaches, not a person: "@channel", "@here".
    _broadcast = frozenset({"channel", "here", "everyone", "all", "someone"})
    # A Cash App "$cashtag", where the text names the app.
    _cashtag = re.compile(r"(?<![\w$])\$(?P<v>[A-Za-z][A-Za-z0-9_\-]{1,19})(?![\w$])")
    _cashtag_cue = re.compile(r"(?i)\bcash\s?app\b|\bcashtag")
    _taken_whole = (
        (_last_digits, Label.ID, 0.85),
        (_access_code, Label.SECRET, 0.9),
        (_plate, Label.ID, 0.85),
        (_uk_plate, Label.ID, 0.85),
        (_penalty, Label.ID, 0.85),
    )
    _digit = re.compile(r"\d")
    _not_username = frozenset({"the", "a", "an", "my", "your", "not", "and", "or", "name", "required", "here", "agent"})

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans = []
        has_digit = self._digit.search(text) is not None  # IDs and reference numbers need one
        for match in self._id.finditer(text) if has_digit else ():
            value = match.group("v")
            digits = sum(ch.isdigit() for ch in value)
            code = re.fullmatch(r"[A-Z0-9]{5,}", value) is not None  # "QKZ8TR": a booking code has few digits
            if " " in value and 13 <= digits <= 19 and luhn_valid(value):
                continue  # "card is 7000 0000 0000 0005": the card detector's, with its brand and checks
            if digits < (1 if code else 2) or re.fullmatch(r"(19|20)\d\d", value):
                continue  # "account for 2023" is a year
            if re.fullmatch(r"\d{1,2}", value) or re.fullmatch(r"[\d.,]+%?", value) and len(value) < 5:
                continue
            start, end = match.span("v")
            spans.append(Span(start, end, Label.ID, value, 0.85, self.name))
        for match in self._acronym_number.finditer(text) if has_digit else ():
            if sum(ch.isdigit() for ch in match.group("v")) >= 4:
                spans.append(Span(match.start("v"), match.end("v"), Label.ID, match.group("v"), 0.8, self.name))
        for match in self._number_word.finditer(text) if has_digit else ():
            group = "v" if match.group("v") else "w"
            compound = group == "v" and re.match(r"[A-ZÄÖÜ][\w\-]*?[Nn](?:ummer|r)", match.group())
            if compound or sum(ch.isdigit() for ch in match.group(group)) >= 3:  # a booking code: "7Q4KXP"
                spans.append(Span(match.start(group), match.end(group), Label.ID, match.group(group), 0.8, self.name))
        # Patterns whose value is taken as found: a card's last digits, a door code, plates, fines.
        for pattern, label, score in self._taken_whole if has_digit else ():
            spans += [Span(m.start("v"), m.end("v"), label, m.group("v"), score, self.name) for m in pattern.finditer(text)]
        for match in self._reference_list.finditer(text) if has_digit else ():
            offset = match.start("v")
            for item in re.finditer(r"\d{1,7}(?:/\d{1,4}){1,3}", match.group("v")):
                spans.append(Span(offset + item.start(), offset + item.end(), Label.ID, item.group(), 0.85, self.name))
        for match in self._username.finditer(text):
            value = match.group("v").rstrip(".")
            if value.casefold() in self._not_username or len(value) < 3:
                continue
            start = match.start("v")
            spans.append(Span(start, start + len(value), Label.USERNAME, value, 0.85, self.name))
        for match in self._mention.finditer(text) if "@" in text else ():
            if match.group("v").casefold() in self._broadcast:
                continue
            start, end = match.span()
            spans.append(Span(start, end, Label.USERNAME, match.group(), 0.7, self.name))
        for match in self._spaced_mention.finditer(text) if "@ " in text else ():
            handle = match.group("v")
            if handle.casefold() in self._broadcast or not (match.group("opening") is not None or _handle_shaped(handle)):
                continue
            spans.append(Span(match.start("v"), match.end("v"), Label.USERNAME, handle, 0.7, self.name))
        for match in self._reddit_user.finditer(text) if "u/" in text or "u /" in text else ():
            if match.group("gap") and is_common_word(match.group("v")):
                continue  # "u / me": you or me
            spans.append(Span(match.start("v"), match.end("v"), Label.USERNAME, match.group("v"), 0.8, self.name))
        if "$" in text and self._cashtag_cue.search(text):
            for match in self._cashtag.finditer(text):
                if not re.fullmatch(r"[A-Z]{1,5}", match.group("v")):  # "$AAPL" is a ticker
                    spans.append(Span(match.start(), match.end(), Label.USERNAME, match.group(), 0.8, self.name))
        return spans


def _handle_shaped(word: str) -> bool:
    """Shaped like a user name, not like a word of a sentence: a capital inside it after a
    small letter ("LenaBirdwatch"), a digit or an underscore, or lower case and no word
    English writes ("kestrelfm")."""
    if re.search(r"[a-z][A-Z]|\d|_", word):
        return True
    return word.islower() and not is_common_word(word) and zipf(word) < 3.0


class HomePathDetector:
    """The user name inside home-directory paths people paste with error messages:
    C:\\Users\\lidor\\Desktop, /home/rickard/..., /Users/anna/..."""

    name = "home_path"
    labels = frozenset({Label.USERNAME})
    _path = re.compile(r"(?i)(?:[a-z]:\\+users\\+|/home/|/users/)(?P<v>[^\\/\s:*?\"<>|]{2,40})(?=[\\/])")
    _not_users = frozenset({"public", "default", "shared", "all users", "administrator", "admin", "user", "username",
                            "runner", "root", "ubuntu", "your_username", "yourname", "you", "me", "<user>", "%username%"})

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        return [
            Span(m.start("v"), m.end("v"), Label.USERNAME, m.group("v"), 0.9, self.name)
            for m in self._path.finditer(text)
            if m.group("v").casefold() not in self._not_users and not m.group("v").startswith(("$", "%", "<", "{"))
        ]


_TLDS = (
    "com|net|org|io|co|ai|app|dev|info|biz|me|tv|us|uk|de|fr|es|it|nl|be|ch|at|se|no|dk|fi|pl|cz|ru|ua|in|cn|jp|kr|"
    "au|nz|ca|br|mx|ar|za|ng|ke|eg|tr|ir|il|sa|ae|pk|bd|lk|sg|my|id|ph|vn|th|hk|tw|edu|gov|mil|int|cloud|online|site|"
    "store|tech|xyz|space|ly|gg|so|to|cc|eu|asia|ie|pt|gr|hu|ro|bg|hr|rs|sk|si|lt|lv|ee|"
    # private networks' names ("vpn.corp.internal", "nas.lan"): they map a company's hosts
    "internal|corp|lan|intranet"
)


class DomainDetector(UrlDetector):
    """Host names written without a scheme ("academics.klef.in", "db.acme-corp.io"):
    they name an employer, a client or a server. File names (report.pdf) are not hosts.
    The path after one is part of it: "github.com/<handle>" and "linkedin.com/in/<name>"
    name a person, and the host alone would send the handle as written."""

    name = "domain"
    label = Label.URL
    score = 0.7
    pattern = re.compile(
        rf"(?<![\w@/.:-])(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{{0,61}}[A-Za-z0-9])?\.)+(?:{_TLDS})(?![\w@-]|\.\w)"
        r"(?:/[^\s<>\"'`\\]*)?",
        re.IGNORECASE,
    )

    _import = re.compile(r"(?:^|\n)[ \t]*(?:from|import)[ \t]+$")

    def validate(self, value: str, match: re.Match[str], text: str) -> bool:
        labels = value.split("/", 1)[0].lower().split(".")
        if labels[0] in ("www",) or len(labels) < 2:
            return True
        if text[match.end() : match.end() + 1] in ("(", "[") or labels[0] in ("self", "this", "cls", "super"):
            return False  # self.info(...), obj.me[...]: an attribute in code
        if self._import.search(text, max(0, match.start() - 40), match.start()):
            return False  # "from spellchecker.info import": a module
        # "e.g", "i.e", "node.js", "index.py" are not hosts; a host has a real name part.
        return len(labels[-2]) >= 2 and not (len(labels) == 2 and len(labels[0]) <= 2)


def pattern_detectors(phone_regions: Iterable[str] | None = None) -> list[Detector]:
    """All validated-pattern detectors, in their default configuration."""
    phone = PhoneDetector(phone_regions) if phone_regions else PhoneDetector()
    # Cards, IBANs and SSNs are rows of the type table (agent/detect/id_table.py), found by
    # the identifier detector with the other structured identifiers.
    return [
        EmailDetector(),
        phone,
        IpDetector(),
        UrlDetector(),
        MacDetector(),
        AddressDetector(),
        HotwordIdDetector(),
        DateDetector(),
        HomePathDetector(),
        DomainDetector(),
    ]
