"""Pattern detectors with validation: a regex proposes, a checksum or parser disposes."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

import phonenumbers

from agent.detect.base import DetectionContext, Detector
from agent.entities import Label, Span
from agent.knowledge.places import STREET_TYPE_PATTERN
from agent.substitute.dates import shift_date


class RegexDetector:
    """One regex, one label, an optional validator. Group `v` (if present) is the value."""

    name: str = "regex"
    label: Label = Label.MISC
    pattern: re.Pattern[str]
    score: float = 0.9

    @property
    def labels(self) -> frozenset[Label]:
        return frozenset({self.label})

    def validate(self, value: str, match: re.Match[str], text: str) -> bool:
        return True

    def trim(self, value: str) -> str:
        """What of the match is the value (e.g. without trailing punctuation)."""
        return value

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans = []
        for match in self.pattern.finditer(text):
            group = "v" if "v" in self.pattern.groupindex else 0
            start = match.start(group)
            value = self.trim(match.group(group))
            end = start + len(value)
            if start < end and self.validate(value, match, text):
                spans.append(Span(start, end, self.label, value, self.score, self.name))
        return spans


_ID_CONTEXT = re.compile(r"(?i)\b(order|account|invoice|ticket|case|customer|member|reference|ref|tracking|confirmation|booking|id)\b")


def _near(text: str, start: int, words: re.Pattern[str], window: int = 60) -> bool:
    """Is one of `words` within `window` characters before position start?"""
    return bool(words.search(text, max(0, start - window), start))


class EmailDetector(RegexDetector):
    name = "email"
    label = Label.EMAIL
    score = 1.0
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
    pattern = re.compile(
        r"(?i)\b(?:https?://|ftp://|www\.)[^\s<>\"'`]+",
    )

    _opening = {")": "(", "]": "[", "}": "{"}

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


class PhoneDetector:
    """Phone numbers via Google's libphonenumber (the `phonenumbers` port): international
    numbers anywhere, national formats of the configured regions."""

    name = "phone"
    labels = frozenset({Label.PHONE})
    _context = re.compile(r"(?i)\b(phone|tel|telephone|mobile|cell|call|fax|whatsapp|sms|text me|contact|number|ph)\b")
    _candidate = re.compile(r"[+(]?\d[\d\s().\-]{5,}\d")

    def __init__(self, regions: Iterable[str] = ("US", "GB", "IN", "DE", "FR", "AU")):
        self.regions = tuple(regions)

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        if not self._candidate.search(text):
            return []  # the matcher is the slow part; most texts have no digits run at all
        found: dict[tuple[int, int], Span] = {}
        for i, region in enumerate(self.regions):
            if i and not self._has_unclaimed_candidate(text, found):
                break
            leniency = phonenumbers.Leniency.POSSIBLE
            for match in phonenumbers.PhoneNumberMatcher(text, region, leniency=leniency):
                key = (match.start, match.end)
                if any(s.start <= match.start < s.end for s in found.values()):
                    continue
                raw = match.raw_string
                digits = sum(ch.isdigit() for ch in raw)
                valid = phonenumbers.is_valid_number(match.number)
                if not self._plausible(raw, digits, valid, text, match.start):
                    continue
                score = 0.95 if valid else 0.75
                found[key] = Span(match.start, match.end, Label.PHONE, raw, score, self.name)
        return list(found.values())

    def _has_unclaimed_candidate(self, text: str, found: dict[tuple[int, int], Span]) -> bool:
        for m in self._candidate.finditer(text):
            if not any(s.start <= m.start() < s.end for s in found.values()):
                return True
        return False

    def _plausible(self, raw: str, digits: int, valid: bool, text: str, start: int) -> bool:
        if digits < 7 or digits > 15:
            return False
        end = start + len(raw)
        after = text[end : end + 1]
        if after.isalpha() or after in ("_", "%"):
            return False  # "7705ms", "200px", "42%": a quantity, not a phone number
        before = text[max(0, start - 2) : start]
        if before[-1:].isalnum() or before[-1:] == "_" or (before[-1:] in "-." and before[:1].isalnum() and before[-1:] != ""):
            return False  # inside a longer token: a UUID, "sora-2-2025-10-06", "v1.2345678"
        if re.match(r"[-.](?=[0-9A-Za-z]*\d)[0-9A-Fa-f]+\b", text[end : end + 20]):
            return False  # "49df3a34-2368-5688-b4a9-...": a piece of a hex id, not a number
        if re.fullmatch(r"\d{1,3}\.\d{5,}", raw):
            return False  # "0.9789029536": a decimal fraction
        if re.fullmatch(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}", raw):
            return False  # a date
        if re.fullmatch(r"\d{3}-\d{2}-\d{4}", raw):
            return False  # the shape of a US SSN
        if re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}", raw):
            return False  # an IPv4 address
        if re.fullmatch(r"\d+", raw):
            # A bare run of digits is an order or account number far more often than a
            # phone number: only with a phone word nearby.
            return valid and _near(text, start, self._context, 40) and not _near(text, start, _ID_CONTEXT, 30)
        if raw.startswith("+") or valid:
            return True
        # Possible but not valid (fictional area codes, as in much test data): needs the
        # shape of a phone number or a hotword nearby.
        shaped = re.fullmatch(r"\(?\d{3}\)?[\s.\-]?\d{3}[\s.\-]\d{4}", raw) is not None
        return shaped or _near(text, start, self._context, 40)


# -- postal addresses ---------------------------------------------------------------
_UNIT = r"(?:,?\s*(?:Apt|Apartment|Suite|Ste|Unit|Flat|Floor|Fl|Room|Rm|Bldg|Building|#)\.?\s*#?\s*[\w-]{1,6})"
_US_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|"
    "NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC|PR"
)
_CITY_STATE_ZIP = rf"(?:,?\s*[A-Z][A-Za-z.'\- ]{{1,30}},\s*(?:{_US_STATES})\.?\s+\d{{5}}(?:-\d{{4}})?)"
# Street names in languages that write the type as a suffix or prefix word.
_EU_STREET = (
    r"[A-ZÄÖÜÅÆØÉ][\wäöüßåæøéèêàáíóúñç'\-]*(?:straße|strasse|str\.|weg|gasse|platz|allee|ring|damm|"
    r"katu|tie|gatan|vägen|vej|gade|laan|straat|gracht|plein|kade|utca|ulica|ul\.|ulice|cesta|sokak|"
    r"caddesi|sokağı)"
)
_EU_PREFIX_STREET = (
    r"(?:Rue|Avenue|Boulevard|Chemin|Place|Allée|Impasse|Calle|Avenida|Paseo|Plaza|Carrer|Rua|"
    r"Travessa|Via|Viale|Piazza|Corso|Largo|Vicolo)\s+(?:d[eiou']\s?|de la |del |dos |das |da )?"
    r"[A-ZÀ-Ý][\w'’\-]+(?:\s+[A-ZÀ-Ý][\w'’\-]+){0,3}"
)


class AddressDetector:
    """Street addresses (number + street words, European street names), PO boxes, and
    postcodes where the context says they are part of an address."""

    name = "address"
    labels = frozenset({Label.ADDRESS})
    _street = re.compile(
        rf"\b\d{{1,6}}[A-Za-z]?(?:-\d{{1,4}})?,?\s+(?:[NSEW]\.?\s+|(?:North|South|East|West)\s+)?"
        rf"(?:[A-Z0-9][\w'’.\-]*\s+){{0,4}}?(?:{STREET_TYPE_PATTERN})\b\.?(?:[ \t]+\d{{1,5}}[a-zA-Z]?\b\.?)?{_UNIT}?{_CITY_STATE_ZIP}?"
    )
    _eu_suffix = re.compile(rf"\b{_EU_STREET}\s+\d{{1,5}}[a-zA-Z]?(?:\s*[/-]\s*\d{{1,4}})?{_UNIT}?")
    _eu_prefix = re.compile(rf"(?:\b\d{{1,5}}(?:\s?(?:bis|ter))?,?\s+)?\b{_EU_PREFIX_STREET}(?:,?\s+\d{{1,5}}[a-zA-Z]?)?{_UNIT}?")
    # "233 Erzsébet tér 19", "92597 Jahu 80": a house number, a name, a number.
    _number_name_number = re.compile(
        rf"(?<![\d.,$€£/:-])\b\d{{1,6}}\s+(?:ul\.\s+)?[A-ZÀ-Þ][a-zà-ÿ'’\-]+(?:\s+[\wÀ-ÿ'’\-]+){{0,3}}\s+\d{{1,5}}[a-zA-Z]?(?!\d|[.,:/]\d|%)\b\.?{_UNIT}?"
    )
    _address_cue = re.compile(r"(?i)\b(address|lives? at|lived (?:in|at)|live in|located at|deliver(?:ed)? to|ship(?:ped)? to|send (?:it )?to|drops? (?:you|me) off at|billing|shipping|residence|resides at)\b")
    _number_first_foreign = re.compile(
        rf"\b\d{{1,6}}\s+{_EU_STREET}(?:\s+\d{{1,5}})?{_UNIT}?"
    )
    _po_box = re.compile(r"(?i)\b(?:P\.?\s?O\.?|Post\s+Office)\s*Box\s+\d{1,8}\b")
    _uk_postcode = re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b")
    _state_zip = re.compile(rf"\b(?:{_US_STATES})\s+\d{{5}}(?:-\d{{4}})?\b")
    _postcode_context = re.compile(r"(?i)\b(post ?code|postal code|zip(?: code)?|address|lives? at|located at|deliver(?:ed)? to|ship(?:ped)? to)\b")
    _generic_postcode = re.compile(r"\b(?:\d{3}\s\d{2}|\d{2}-\d{3}|\d{3,6})\b")

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans = []
        for pattern, score in (
            (self._street, 0.85),
            (self._eu_suffix, 0.75),
            (self._eu_prefix, 0.7),
            (self._number_first_foreign, 0.75),
            (self._po_box, 0.9),
            (self._state_zip, 0.7),
            (self._number_name_number, 0.55),
        ):
            for match in pattern.finditer(text):
                value = match.group().rstrip(" ,")
                if pattern is self._eu_prefix and not re.search(r"\d", value):
                    continue  # "Via Roma" without a number is a street name, not an address
                if pattern is self._number_name_number:
                    if re.match(r"(?:1[5-9]|20)\d\d\s", value):
                        continue  # "2023 World Cup 2": a year, not a house number
                    if _near(text, match.start(), self._address_cue, 50) or re.match(r"\s*\n\s*[>?\s]*(?:Apt|Suite|Unit|Flat)\b", text[match.end():]):
                        score = 0.85
                spans.append(Span(match.start(), match.start() + len(value), Label.ADDRESS, value, score, self.name))
        for match in self._uk_postcode.finditer(text):
            if re.search(r"\d[A-Z]{2}$", match.group().replace(" ", "")) and (
                " " in match.group() or _near(text, match.start(), self._postcode_context, 80)
            ):
                spans.append(Span(match.start(), match.end(), Label.ADDRESS, match.group(), 0.7, self.name))
        for match in self._generic_postcode.finditer(text):
            if _near(text, match.start(), re.compile(r"(?i)\b(post ?code|postal code|zip(?: code)?)(?:\s+is)?\W*$"), 24):
                spans.append(Span(match.start(), match.end(), Label.ADDRESS, match.group(), 0.8, self.name))
        return [self._extended(text, s) if s.score >= 0.7 else s for s in spans]

    _block_line = re.compile(r"[ \t>]*(?P<v>[^\n?!:;@]{1,40}?)[ \t]*(?:\n|$)")
    _same_line_town = re.compile(r",[ \t]*(?:[A-Z][\w'’\-]*[ \t]?)(?:[A-Z0-9][\w'’\-]*[ \t]?){0,3}(?:,[ \t]*[A-Z]{2})?(?:[ \t]+\d{3,6})?(?=[ \t]*(?:[.,;\n]|$))")

    def _extended(self, text: str, span: Span) -> Span:
        """An address goes on: ", Goiânia" after the street, and in a written address
        block the unit, town, region, country and postcode lines below it."""
        end = span.end
        town = self._same_line_town.match(text, end)
        if town:
            end = town.end()
        for _ in range(4):
            newline = text.find("\n", end)
            if newline == -1 or text[end:newline].strip(" ,\t"):
                break  # the street line goes on with other words
            line = self._block_line.match(text, newline + 1)
            if not line or not line.group("v").strip(" ,"):
                break
            value = line.group("v").strip()
            words = value.replace(",", " ").split()
            # Town, region, country, postcode or unit lines: short, capitalised or digits.
            if len(words) > 5 or not all(w[0].isupper() or w[0].isdigit() or w.lower() in ("de", "la", "del", "du", "sur", "am", "an", "upon") for w in words):
                break
            end = line.start("v") + len(line.group("v").rstrip())
        if end == span.end:
            return span
        return Span(span.start, end, span.label, text[span.start:end], span.score, span.detector)


# -- identifiers near a hotword ---------------------------------------------------------
_ID_HOTWORDS = (
    r"order|account|acct|a/c|invoice|ticket|case|customer|member(?:ship)?|employee|staff|"
    r"passport|licen[cs]e|driver'?s?\s+licen[cs]e|DL|policy|tracking|reference|ref|confirmation|"
    r"booking|reservation|serial|routing|sort\s+code|patient|student|claim|loan|contract|client|"
    r"badge|record|file|card|national\s+id|id\s+card|identity\s+card|tax|vat|nhs|medicare|insurance|"
    r"iban|bic|swift|vin|plate|registration|voucher|coupon|pin|otp|verification"
)
_USERNAME_HOTWORDS = r"user\s?name|user\s?id|login|handle|screen\s?name|gamer\s?tag|account\s+name|nick(?:name)?|alias|user"


class HotwordIdDetector:
    """IDs (order, account, passport...) and usernames announced by a hotword before them:
    "Order ID: 3348917502", "my username is cminh730", "passport no. X1234567"."""

    name = "hotword_id"
    labels = frozenset({Label.ID, Label.USERNAME})
    _id = re.compile(
        rf"(?i)\b(?:{_ID_HOTWORDS})(?:\s+(?:number|num|no|nr|code|id|#))?\.?"
        r"(?:\s+(?:is|was|of|for|reads?))?\s*[:#=\-]?\s*(?:is\s+)?"
        r"(?P<v>(?=[A-Za-z0-9\-/]*\d)[A-Za-z0-9][A-Za-z0-9\-/]{3,40}[A-Za-z0-9])"
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
    _mention = re.compile(r"(?<![\w@.])@(?P<v>[A-Za-z0-9_](?:[A-Za-z0-9_.]{0,28}[A-Za-z0-9_])?)(?![\w@])")
    _not_username = frozenset({"the", "a", "an", "my", "your", "not", "and", "or", "name", "required", "here", "agent"})

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans = []
        for match in self._id.finditer(text):
            value = match.group("v")
            digits = sum(ch.isdigit() for ch in value)
            if digits < 2 or re.fullmatch(r"(19|20)\d\d", value):
                continue  # "account for 2023" is a year
            if re.fullmatch(r"\d{1,2}", value) or re.fullmatch(r"[\d.,]+%?", value) and len(value) < 5:
                continue
            start, end = match.span("v")
            spans.append(Span(start, end, Label.ID, value, 0.85, self.name))
        for match in self._reference_list.finditer(text):
            offset = match.start("v")
            for item in re.finditer(r"\d{1,7}(?:/\d{1,4}){1,3}", match.group("v")):
                spans.append(Span(offset + item.start(), offset + item.end(), Label.ID, item.group(), 0.85, self.name))
        for match in self._username.finditer(text):
            value = match.group("v").rstrip(".")
            if value.casefold() in self._not_username or len(value) < 3:
                continue
            start = match.start("v")
            spans.append(Span(start, start + len(value), Label.USERNAME, value, 0.85, self.name))
        for match in self._mention.finditer(text):
            start, end = match.span()
            spans.append(Span(start, end, Label.USERNAME, match.group(), 0.7, self.name))
        return spans


# -- explicit dates -----------------------------------------------------------------
_MONTHS = (
    r"Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?"
)
_DOB_CONTEXT = re.compile(r"(?i)\b(born|birth|dob|d\.o\.b|birthday|date of birth|age)\b")


class DateDetector:
    """Full dates written out (numeric or with a month name). Dates of birth, found by
    their context, score higher. Vague dates ("in June", "2023") are left to NER."""

    name = "date"
    labels = frozenset({Label.DATE})
    _patterns = (
        # ISO 8601, with a time and a zone when written: one entity, never half of one.
        re.compile(
            r"(?<![\d/.\-])\d{4}-\d{1,2}-\d{1,2}"
            r"(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+\-]\d{2}(?::?\d{2})?)?)?(?![\d/\-]|\.\d)"
        ),
        re.compile(r"(?<![\d/.\-])\d{1,2}([/.\-])\d{1,2}\1(?:\d{4}|\d{2})(?![\d/\-]|\.\d)"),
        re.compile(rf"(?i)\b\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+(?:{_MONTHS})\.?,?\s+\d{{4}}\b"),
        re.compile(rf"(?i)\b(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b"),
        re.compile(rf"(?i)\b\d{{1,2}}-(?:{_MONTHS})-(?:\d{{4}}|\d{{2}})\b"),  # 5-May-2021
        re.compile(rf"(?i)\b(?:{_MONTHS})-\d{{2}}\b(?!-)"),  # May-21
        re.compile(r"(?<![\d/.\-])(?:0?[1-9]|1[0-2])/(?:19|20)\d{2}(?![\d/\-])"),  # 05/2021
    )
    # A timestamp that opens a log line ("2026-03-02T10:11:12Z INFO ...") dates an event of
    # a program, not of a person.
    _log_line = re.compile(r"^[ \t]*\[?\d{4}-\d{2}-\d{2}[T ][\d:.,]+(?:Z|[+\-][\d:]+)?\]?[ \t]+\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|CRITICAL|FATAL)\b", re.MULTILINE)

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans = []
        log_starts = {m.start() + len(m.group()) - len(m.group().lstrip(" \t[")) for m in self._log_line.finditer(text)}
        for pattern in self._patterns:
            for match in pattern.finditer(text):
                if match.start() in log_starts:
                    continue
                if shift_date(match.group(), 0) is None:
                    continue  # "0.4.21", "13.13.2020": a version or a number, not a calendar date
                score = 0.9 if _near(text, match.start(), _DOB_CONTEXT, 40) else 0.75
                spans.append(Span(match.start(), match.end(), Label.DATE, match.group(), score, self.name))
        return spans


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
    "store|tech|xyz|space|ly|gg|so|to|cc|eu|asia|ie|pt|gr|hu|ro|bg|hr|rs|sk|si|lt|lv|ee"
)


class DomainDetector(RegexDetector):
    """Host names written without a scheme ("academics.klef.in", "db.acme-corp.io"):
    they name an employer, a client or a server. File names (report.pdf) are not hosts."""

    name = "domain"
    label = Label.URL
    score = 0.7
    pattern = re.compile(
        rf"(?<![\w@/.:-])(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{{0,61}}[A-Za-z0-9])?\.)+(?:{_TLDS})(?![\w@-]|\.\w)",
        re.IGNORECASE,
    )

    _import = re.compile(r"(?:^|\n)[ \t]*(?:from|import)[ \t]+$")

    def validate(self, value: str, match: re.Match[str], text: str) -> bool:
        labels = value.lower().split(".")
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
