"""Postal addresses: street forms of several languages, PO boxes, postcodes where the
context says so, and the town and postcode lines of a written address block."""

from __future__ import annotations

import re

from agent.detect.base import DetectionContext
from agent.detect.pattern_cues import POSTCODE, POSTCODE_LABEL, STREET, announced
from agent.entities import Label, Span
from agent.knowledge.geonames import geo_index, is_town_of_5000
from agent.knowledge.places import STREET_TYPE_PATTERN, country_names, title_case_address
from agent.knowledge.words import is_common_word
from agent.session.conversation import fold

_UNIT = r"(?:,?\s*(?:Apt|Apartment|Suite|Ste|Unit|Flat|Floor|Fl|Room|Rm|Bldg|Building|#)\.?\s*#?\s*[\w-]{1,6})"
_US_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|"
    "NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC|PR"
)
_CITY_STATE_ZIP = (
    rf"(?:,?\s*[A-Z][A-Za-z.'\- ]{{1,30}}(?:,\s*|[ \t]+)(?:{_US_STATES})\.?\s+\d{{5}}(?:-\d{{4}})?\b"
    # no ZIP: ", Henderson NV", ", Cedar Falls, IA" (after a comma, a state code in capitals)
    rf"|,[ \t]*[A-Z][a-z][A-Za-z.'\-]*(?:[ \t][A-Z][a-z][A-Za-z.'\-]*){{0,2}}(?:,[ \t]*|[ \t]+)(?-i:[A-Z]{{2}})(?![\w\-]))"
)
# Street names in languages that write the type as a suffix or prefix word.
_EU_STREET = (
    r"[A-ZÄÖÜÅÆØÉ][\wäöüßåæøéèêàáíóúñç'\-]*(?:straße|strasse|str\.|weg|gasse|platz|allee|ring|damm|"
    r"katu|tie|gatan|vägen|vej|gade|vei|veien|vegen|gata|gate|gaten|stien|laan|straat|gracht|plein|kade|utca|ulica|ul\.|ulice|cesta|sokak|"
    r"caddesi|sokağı)"
)
# The words between a street's kind and its name: "Rue des Lilas", "Calle de los Olivos",
# "Via della Spiga", "Rua das Flores", "Rue d'Alsace".
_STREET_LINK = (
    r"(?:(?:de[ \t]+la|de[ \t]+las|de[ \t]+los|de[ \t]+l['’]|d['’]|della|delle|dello|degli|dei|del|des|dos|das|do|da|du|de|di)"
    r"(?:[ \t]+|(?<=['’])))?"
)
_STREET_KINDS = (
    r"Rue|Avenue|Boulevard|Chemin|Place|Allée|Impasse|Calle|Avenida|Paseo|Plaza|Carrer|Rua|"
    r"Travessa|Via|Viale|Piazza|Corso|Largo|Vicolo|Carretera|Camino|Ronda|Praça|Estrada|Alameda|Strada|"
    # written short: "Avda. de los Almendros 9", "Av. da República 48", "Pza. Mayor 3"
    r"Avda\.|Av\.|Pza\.|Ctra\.|Bd\."
)
_EU_PREFIX_STREET = rf"(?:{_STREET_KINDS})\s+{_STREET_LINK}[A-ZÀ-Ý][\w'’\-]+(?:\s+[A-ZÀ-Ý][\w'’\-]+){{0,3}}"
# The same kinds in lower case, as French, Spanish and Italian write them mid-sentence
# ("12 rue des Lilas", "in via Garibaldi 14"); detect() asks for more evidence.
_EU_PREFIX_STREET_LOWER = (
    rf"(?:{_STREET_KINDS.lower()})[ \t]+{_STREET_LINK}[A-ZÀ-Ý][\w'’\-]+(?:[ \t]+[A-ZÀ-Ý][\w'’\-]+){{0,3}}"
)
# A continental postcode and its town after a street: ", 75011 Paris", ", 1200-195 Lisboa",
# ", 00-950 Warszawa", ", 411 38 Göteborg", ", 1017 AB Amsterdam", ", D-80331 München".
_POSTCODE_TOWN = (
    r",?[ \t]*(?:[A-Z]{1,2}-)?(?:\d{2}-\d{3}|\d{3}[ \t]\d{2}|\d{4}-\d{3}|\d{4}(?:[ \t]?[A-Z]{2}(?![\w]))?|\d{5})"
    r"[ \t]+[A-ZÀ-ÞĀ-ſ][\w'’\-]*(?:(?:[ \t\-]+|/)[A-ZÀ-ÞĀ-ſ][\w'’\-]*){0,2}"
)


_DIGIT = re.compile(r"\d")
# A Dutch postcode and its town ("1016 EZ Amsterdam") where no street before it was read.
_DUTCH_POSTCODE_TOWN = re.compile(
    r"(?<![\w\-])[1-9]\d{3}[ \t]?(?P<letters>[A-Z]{2})[ \t]+(?P<town>[A-Z][a-z]+(?:[ \t-][A-Z][a-z]+)?)(?![\w])"
)
# A floor and door as Spain and Portugal write them after the house number: ", 2ºB",
# ", 3.º Dto", ", 3º izquierda", ", 1.ª esq.".
_FLOOR_AND_DOOR = re.compile(r",[ \t]*\d{1,3}\.?[ºª°][ \t]*(?:[A-Za-z]{1,3}\.?|dto\.?|esq\.?|izq(?:uierda|\.)?|dcha\.?|derecha|drt?o\.?)?(?=,)",
                             re.IGNORECASE)
# A line (or a comma-separated run) in capitals with a number in it, at least two words.
_CAPITALS_LINE = re.compile(r"(?m)^[^\S\n]*(?=[^\n]*\d)(?=[^\n]*[A-Z]{2,}[ \t,]+[A-Z]{2,})[^\na-z]{8,}$|"
                            r"(?<![a-z][ \t])\b\d{1,5}[ \t]+[A-Z0-9 \t.,'’#\-]{6,}[A-Z0-9](?![a-z])")

_HANGUL = re.compile(r"[가-힣]")
_UNIT_WORD = re.compile(r"(?i)\b(?:Apt|Apartment|Suite|Unit|Flat)\.?\s*#?\s*\d")
_UNIT_BEFORE = re.compile(r"\b(?:Apt|Apartment|Suite|Unit|Flat)\.?[ \t]*#?[ \t]*\d{1,5}[A-Za-z]?,?[ \t]+$")
# A street of capitalised words with an optional house number, for "the corner of A and B".
_CORNER_STREET = r"(?:\d{1,5}[ \t]+)?[A-ZÀ-Þ][\w'’\-]*\.?(?:[ \t]+(?:\d{1,5}\b|[A-ZÀ-Þ][\w'’\-]*\.?)){0,3}"

# "meet me at 42 baker street", "the clinic on 7 elm court": a preposition of place before
# a lower-case number and street says it is one, without a cue of living or shipping.
_PLACE_PREPOSITION_BEFORE = re.compile(r"\b(?:at|on|to|from|near|outside|opposite)[ \t]+$")
# Words that make "2 sides of the green" or "at 10 by the main gate" a phrase, not a street.
_PHRASE_WORDS = frozenset({"of", "the", "a", "an", "and", "or", "in", "on", "at", "by", "to", "for", "with", "from",
                           "my", "our", "your", "his", "her", "their", "this", "that", "is", "am", "pm"})


def _a_place_after_a_preposition(text: str, start: int, value: str) -> bool:
    words = value.split()[1:-1]
    return (_PLACE_PREPOSITION_BEFORE.search(text, max(0, start - 12), start) is not None
            and not any(w.strip(",.") in _PHRASE_WORDS for w in words))



def _names_a_town(postcode_line: str) -> bool:
    """The words after a postcode are a town: one GeoNames knows, or words English does not
    write ("811 05 Bratislava", "00-001 Warszawa"; not "Room 12, 2024 Annual Review")."""
    town = re.split(r"\d", postcode_line)[-1].strip(" -")
    words = town.replace("/", " ").split()
    if not words:
        return False
    return geo_index().lookup(words[0]) is not None or not is_common_word(words[0].casefold())


class AddressDetector:
    """Street addresses (number + street words, European street names), PO boxes, and
    postcodes where the context says they are part of an address."""

    name = "address"
    labels = frozenset({Label.ADDRESS})
    _street = re.compile(
        rf"\b\d{{1,6}}[A-Za-z]?(?:-\d{{1,4}})?,?\s+(?:[NSEW]\.?\s+|(?:North|South|East|West)\s+)?"
        rf"(?:[A-Z0-9][\w'’.\-]*\s+){{0,4}}?(?:{STREET_TYPE_PATTERN})\b\.?"
        # a street named with a kind word and its kind after it: "Sable Ridge Ct", "Oak Park Ave"
        rf"(?:[ \t]+(?:{STREET_TYPE_PATTERN})\b\.?)?"
        rf"(?:[ \t]+\d{{1,5}}[a-zA-Z]?\b\.?)?{_UNIT}?{_CITY_STATE_ZIP}?"
    )
    # The same written in lower case ("i live at 42 baker street"), where only an address
    # cue before it makes it one (checked in detect()): a number and a lower-case word are
    # too common otherwise ("5 main road works").
    _street_lower = re.compile(
        rf"\b\d{{1,6}}[a-z]?,?[ \t]+(?:[a-z][\w'’.\-]*[ \t]+){{1,3}}?(?i:{STREET_TYPE_PATTERN})\b\.?"
        rf"(?:[ \t]+\d{{1,5}}[a-z]?\b)?"
    )
    _eu_suffix = re.compile(rf"\b{_EU_STREET}\s+\d{{1,5}}[a-zA-Z]?(?:\s*[/-]\s*\d{{1,4}})?{_UNIT}?")
    _eu_prefix = re.compile(rf"(?:\b\d{{1,5}}(?:\s?(?:bis|ter))?,?\s+)?\b{_EU_PREFIX_STREET}(?:,?\s+\d{{1,5}}[a-zA-Z]?)?{_UNIT}?")
    _eu_prefix_lower = re.compile(
        rf"(?P<before>\b\d{{1,5}}(?:[ \t]?(?:bis|ter))?,?[ \t]+)?\b{_EU_PREFIX_STREET_LOWER}(?P<after>,?[ \t]+\d{{1,5}}[a-zA-Z]?\b)?"
    )
    _postcode_town = re.compile(_POSTCODE_TOWN + r"(?![\w'’])")
    # Streets most of continental Europe writes with no street word, with their number,
    # before a postcode line: "Šancová 45, 811 05 Bratislava", "ul. Żeromskiego 12/4, 00-001
    # Warszawa", "Gedimino pr. 9, LT-01103 Vilnius" (without the postcode after it, a word
    # and a number are as often anything else: checked in detect()).
    _street_before_postcode = re.compile(
        r"(?:\b(?:ul|al|os|pl)\.[ \t]*)?(?<![\w.])[A-ZÀ-ÞĀ-ſ][^\W\d_]+(?:[ \t]+[^\W\d_]+\.?){0,2}[ \t]+"
        r"\d{1,5}[a-zA-Z]?(?:[ \t]*/[ \t]*\d{1,4})?(?=,)"
    )
    # Turkish: a street or quarter and its kind, then "No: 15" and the flat ("Daire 3"):
    # "Atatürk Cad. No: 15 Daire 3", "Gül Sok. No:7 D:2".
    _turkish_street = re.compile(
        r"\b[A-ZÀ-ÞĀ-ſ][\w'’\-]*(?:[ \t]+[A-ZÀ-ÞĀ-ſ0-9][\w'’\-]*){0,2}[ \t]+"
        r"(?:Caddesi|Cad|Cd|Sokağı|Sokak|Sok|Sk|Mahallesi|Mah|Bulvarı|Bulv)\.?,?[ \t]*"
        r"No[:.]?[ \t]*\d{1,5}[A-Za-z]?(?:[ \t,/]*(?:Daire|D|Kat|K)[:.]?[ \t]*\d{1,4})*"
    )
    # "14 Kossuth Lajos 7", "310 Rua Augusta 22": a house number, a name, a number, on one
    # line. Letters of any script ("Łąkowa", "Οδός"); the capital is checked in detect().
    _number_name_number = re.compile(
        rf"(?<![\d.,$€£/:-])\b\d{{1,6}}[ \t]+(?:ul\.[ \t]+)?(?![a-z])[^\W\d_][^\W\d_'’\-]*(?:[ \t]+[\w'’\-]+\.?){{0,3}}[ \t]+\d{{1,5}}[a-zA-Z]?(?!\d|[.,:/]\d|%)\b\.?{_UNIT}?"
    )
    # The same in a text written all in lower case ("40 rua das flores 7"), where only an
    # address cue before it makes it one (checked in detect()).
    _number_name_number_lower = re.compile(_number_name_number.pattern.replace("(?![a-z])", "", 1))
    _number_first_foreign = re.compile(
        rf"\b\d{{1,6}}\s+{_EU_STREET}\b(?:\s+\d{{1,5}})?{_UNIT}?"
    )
    # US military mail: "PSC 1234, Box 567 / APO AE 09876", "Unit 8 Box 12 DPO AP 96543",
    # "USNS Hale / FPO AA 34011": the post office code with its two-letter area and ZIP.
    _military = re.compile(
        r"(?i)\b(?:(?:PSC|CMR|Unit)[ \t]+\d{1,5},?[ \t]+Box[ \t]+\d{1,5}|US[NC]?S[ \t]+[A-Z][\w'’\-]*(?:[ \t]+[A-Z][\w'’\-]*){0,2})"
        r"(?:,?[ \t]*\n?[ \t]*)(?:APO|FPO|DPO)[ \t]+A[AEP][ \t]+\d{5}\b"
    )
    # Street corners: "at the corner of Elm Street and 5th Avenue".
    _corner = re.compile(rf"\b[Cc]orner of[ \t]+(?:the[ \t]+)?{_CORNER_STREET}[ \t]+(?:and|&)[ \t]+{_CORNER_STREET}")
    # Korean road-name addresses: [city] district(s) road-name building-number, then maybe
    # the building's name and the floor: "부산 해운대구 센텀중앙로 97 (센텀빌딩) 5층".
    _korean_road = re.compile(
        r"(?:[가-힣]{2,}(?:특별시|광역시|특별자치시|도)?[ \t]+)?(?:[가-힣]+(?:시|군|구)[ \t]+){1,2}"
        r"[가-힣0-9]+(?:로|길)[ \t]*\d{1,5}(?:-\d{1,4})?(?![\d가-힣])"
        r"(?:(?:[ \t]*\([^)\n]{1,30}\))?(?:[ \t]+[^\s:|,()]{1,20}){0,2}?[ \t]*\d{1,3}층)?"
    )
    _po_box = re.compile(r"(?i)\b(?:P\.?\s?O\.?|Post\s+Office)\s*Box\s+\d{1,8}\b")
    _uk_postcode = re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b")
    _state_zip = re.compile(rf"\b(?:{_US_STATES})\s+\d{{5}}(?:-\d{{4}})?\b")
    _generic_postcode = re.compile(r"\b(?:\d{3}\s\d{2}|\d{2}-\d{3}|\d{3,6})\b")

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        if _DIGIT.search(text) is None:
            return []  # every pattern needs a digit (a European street name needs its number below)
        return self._in_capitals(text) + self._written(text)

    def _in_capitals(self, text: str) -> list[Span]:
        """Address lines written in capitals ("775 W 19TH ST, YUMA AZ 85364", as forms, labels
        and card statements print them): read as title case, mapped back to the text."""
        spans = []
        for line in _CAPITALS_LINE.finditer(text):
            titled = title_case_address(line.group())
            if len(titled) != len(line.group()):
                continue  # a letter whose case changes length: offsets would not hold
            offset = line.start()
            for span in self._written(titled):
                start, end = offset + span.start, offset + span.end
                spans.append(Span(start, end, span.label, text[start:end], span.score, span.detector))
        return spans

    def _written(self, text: str) -> list[Span]:
        spans = []
        for pattern, score in (
            (self._street, 0.85),
            (self._eu_suffix, 0.75),
            (self._eu_prefix, 0.7),
            (self._number_first_foreign, 0.75),
            (self._po_box, 0.9),
            (self._state_zip, 0.7),
            (self._eu_prefix_lower, 0.85),
            (self._number_name_number_lower if text.islower() else self._number_name_number, 0.55),
            (self._street_lower, 0.85),
        ):
            for match in pattern.finditer(text):
                value = match.group().rstrip(" ,")
                if pattern is self._eu_prefix and not re.search(r"\d", value):
                    continue  # "Via Roma" without a number is a street name, not an address
                if pattern is self._eu_prefix_lower and not (
                    match.group("before")
                    or (match.group("after") and (announced(text, match.start(), STREET) or self._postcode_town.match(text, match.end())))
                ):
                    continue  # "via Zoom 3 times": a house number before it, or after it with a cue or a postcode
                if pattern is self._street_lower and (not value.islower() or not (
                    announced(text, match.start(), STREET) or _a_place_after_a_preposition(text, match.start(), value)
                )):
                    continue  # written with capitals: the pattern above; uncued: "5 main road works"
                found_score = score
                if pattern is self._eu_prefix:
                    found_score = 0.85  # a street word and a house number: an address, not a name in it ("das Flores")
                unit_before = None
                if pattern in (self._number_name_number, self._number_name_number_lower):
                    if re.match(r"(?:1[5-9]|20)\d\d\s", value):
                        continue  # "2023 World Cup 2": a year, not a house number
                    street_cue = announced(text, match.start(), STREET)
                    name = re.search(r"[^\W\d_]", value)
                    if not (street_cue or (name and name.group().isupper())):
                        continue  # "12 apples and 3": a lower-case word needs an address cue
                    unit_before = _UNIT_BEFORE.search(text, max(0, match.start() - 20), match.start())
                    if street_cue or unit_before or _UNIT_WORD.search(value) or re.match(r"\s*\n\s*[>?\s]*(?:Apt|Suite|Unit|Flat)\b", text[match.end():]):
                        found_score = 0.85  # a unit after it ("Apt. 4") makes it a street line
                start = match.start()
                if unit_before:
                    start = unit_before.start()  # "Apt. 117 5720 Long Road 12": the unit is part of it
                spans.append(Span(start, match.start() + len(value), Label.ADDRESS, text[start:match.start() + len(value)], found_score, self.name))
        for match in self._street_before_postcode.finditer(text):
            line = self._postcode_town.match(text, match.end())
            if line and _names_a_town(line.group()):
                spans.append(Span(match.start(), match.end(), Label.ADDRESS, match.group(), 0.8, self.name))
        for match in self._turkish_street.finditer(text) if "No" in text else ():
            spans.append(Span(match.start(), match.end(), Label.ADDRESS, match.group(), 0.85, self.name))
        for pattern in (self._military, self._corner, self._korean_road):
            if pattern is self._korean_road and _HANGUL.search(text) is None:
                continue
            if pattern is self._military and "po a" not in text.lower():
                continue  # every military address has "APO/FPO/DPO A?"
            if pattern is self._corner and "orner of" not in text:
                continue
            for match in pattern.finditer(text):
                value = match.group().rstrip(" ,.")
                spans.append(Span(match.start(), match.start() + len(value), Label.ADDRESS, value, 0.9, self.name))
        for match in self._uk_postcode.finditer(text):
            if re.search(r"\d[A-Z]{2}$", match.group().replace(" ", "")) and (
                " " in match.group() or announced(text, match.start(), POSTCODE)
            ):
                spans.append(Span(match.start(), match.end(), Label.ADDRESS, match.group(), 0.7, self.name))
        for match in _DUTCH_POSTCODE_TOWN.finditer(text):
            if match.group("letters") not in ("AD", "BC", "CE", "AM", "PM") and is_town_of_5000(match.group("town")):
                spans.append(Span(match.start(), match.end(), Label.ADDRESS, match.group(), 0.8, self.name))
        for match in self._generic_postcode.finditer(text):
            if announced(text, match.start(), POSTCODE_LABEL):
                spans.append(Span(match.start(), match.end(), Label.ADDRESS, match.group(), 0.8, self.name))
        return [self._extended(text, s) if s.score >= 0.7 else s for s in spans]

    _block_line = re.compile(r"[ \t>?*•]*(?P<v>[^\n?!:;@]{1,40}?)[ \t]*(?:\n|$)")
    _same_line_town = re.compile(r",[ \t]*(?:[A-Z][\w'’\-]*[ \t]?)(?:[A-Z0-9][\w'’\-]*[ \t]?){0,3}(?:,[ \t]*[A-Z]{2})?(?:[ \t]+\d{3,6})?(?=[ \t]*(?:[.,;\n]|$))")

    # What may follow a street: a gap (comma, line breaks), at most three town words, then a
    # country and its postcode: ", Lublin Poland", "\n\n Norway 4021".
    _tail = re.compile(r"[ \t,]*(?:\n[ \t>?]*){0,2}(?P<v>[^\W\d_][\w'’\-]*(?:,?[ \t]+[^\W\d_][\w'’\-]*){0,5})(?P<code>[ \t]+\d{3,6}(?:[ -]\d{2,3})?\b)?")

    def _country_tail(self, text: str, start: int, end: int) -> int:
        """The end of a street address once a country (with its postcode) closes it."""
        tail = self._tail.match(text, end)
        if tail is None:
            return end
        words = re.findall(r"[^\W\d_][\w'’\-]*", tail.group("v"))
        all_lower = text[start:end].islower()  # "12 rue x, lyon, france": a lower-case text
        if not all(w[0].isupper() or (all_lower and w.islower()) for w in words):
            return end  # "... Street and I love France": running text, not a town line
        countries = country_names()
        for n_before in range(min(3, len(words) - 1), -1, -1):
            for size in (3, 2, 1):
                country = words[n_before:n_before + size]
                if len(country) == size and n_before + size == len(words) and fold(" ".join(country)) in countries:
                    return tail.end()
        return end

    # A town and postcode after a street written in lower case: ", london nw1 6xe", ", leeds
    # ls11 5qr", ", springfield 62704". The postcode is needed: lower-case words after a
    # comma are running text far more often than a town.
    _lower_town_code = re.compile(
        r",?[ \t]+(?:[a-z][\w'’\-]*[ \t]+){1,3}(?:[a-z]{1,2}\d[a-z\d]?[ \t]?\d[a-z]{2}|\d{4,6}(?:-\d{4})?)\b"
    )

    def _extended(self, text: str, span: Span) -> Span:
        """An address goes on: ", Goiânia" after the street, and in a written address
        block the unit, town, region, country and postcode lines below it."""
        end = span.end
        # "12 Rue des Lilas, 75011 Paris": the street's pattern took the postcode for a
        # house number; the postcode and town are read again from before it.
        code = re.search(r",[ \t]*\d{4,5}$", span.text)
        if code and self._postcode_town.match(text, span.start + code.start()):
            end = span.start + code.start()
        floor = _FLOOR_AND_DOOR.match(text, end)
        if floor and self._postcode_town.match(text, floor.end()):
            end = floor.end()  # "Avda. de los Almendros 9, 1ºA, 41010 Sevilla": floor and door, then the town
        town = (self._postcode_town.match(text, end) or self._same_line_town.match(text, end)
                or (span.text.islower() and self._lower_town_code.match(text, end)))
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
            town_and_code = len(words) <= 4 and words[0][0].isupper() and words[-1].isdigit() and len(words[-1]) >= 3
            if not town_and_code and (len(words) > 5 or not all(w[0].isupper() or w[0].isdigit() or w.lower() in ("de", "la", "del", "du", "sur", "am", "an", "upon") for w in words)):
                break  # "OSLO n/a 0150" still ends the block: a capitalised town, a postcode last
            end = line.start("v") + len(line.group("v").rstrip())
        end = self._country_tail(text, span.start, end)
        if end == span.end:
            return span
        return Span(span.start, end, span.label, text[span.start:end], span.score, span.detector)
