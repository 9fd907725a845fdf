"""Stand-ins for structured identifiers: the same kind, the same format, valid where a
checksum exists (Luhn, IBAN mod-97), in fictional ranges where those exist."""

from __future__ import annotations

import ipaddress
import random
import re
import unicodedata
from urllib.parse import urlsplit, urlunsplit

import phonenumbers

from agent.detect.validators import (
    IBAN_LENGTHS,
    card_brand,
    digits_of,
    iban_check_digits,
    luhn_check_digit,
)
from agent.knowledge.hosts import is_service_label, split_host
from agent.knowledge.reference_sites import is_reference_host, private_path_piece, wiki_namespace
from agent.knowledge.words import is_common_word
from agent.substitute.id_standins import shares_digit_run
from agent.substitute.rng import digits_into, same_shape

FREE_MAIL = frozenset(
    {
        "gmail.com", "googlemail.com", "yahoo.com", "yahoo.co.uk", "yahoo.fr", "hotmail.com",
        "hotmail.co.uk", "outlook.com", "live.com", "msn.com", "icloud.com", "me.com", "aol.com",
        "protonmail.com", "proton.me", "gmx.com", "gmx.de", "gmx.net", "web.de", "mail.com",
        "email.com", "yandex.ru", "mail.ru", "qq.com", "163.com", "126.com", "zoho.com", "fastmail.com",
        "rediffmail.com", "libero.it", "orange.fr", "free.fr", "t-online.de", "comcast.net",
    }
)
_DOMAIN_WORDS = (
    "north", "river", "bright", "stone", "cedar", "maple", "harbor", "summit", "blue", "silver",
    "oak", "pine", "lake", "star", "iron", "clear", "green", "swift", "ember", "nova", "apex",
    "vertex", "lumen", "orbit", "atlas", "delta", "crest", "meadow", "falcon", "granite", "willow",
)
_DOMAIN_TAILS = ("wind", "tech", "works", "labs", "point", "field", "line", "bridge", "gate", "path", "soft", "ware", "hub", "logic", "wave", "forge")


def ascii_fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def fake_domain(rng: random.Random, real_domain: str) -> str:
    """A company-like domain with the real one's top-level domain."""
    labels = real_domain.lower().split(".")
    tld = ".".join(labels[-2:]) if len(labels) > 2 and len(labels[-1]) == 2 and len(labels[-2]) <= 3 else labels[-1]
    return f"{rng.choice(_DOMAIN_WORDS)}{rng.choice(_DOMAIN_TAILS)}.{tld}"


def fake_host(rng: random.Random, host: str, domain_map: dict[str, str]) -> str:
    """The stand-in of a private host: its registrable domain becomes the conversation's
    stand-in for that domain (from an e-mail or a link already swapped), else a new one;
    labels before it that name a service stay ("db.acme-corp.io" -> "db.meadowtech.io",
    so "acme-corp.io/status" in the same prompt becomes "meadowtech.io/status"), others
    (an owner's name, "sarah.acme.dev") change."""
    sub, domain = split_host(host or "example.com")
    fake = domain_map.get(domain) or fake_domain(rng, domain)
    labels = [label if is_service_label(label) else rng.choice(_DOMAIN_WORDS) for label in sub.split(".") if label]
    return ".".join([*labels, fake])


# -- e-mail -------------------------------------------------------------------------
def email_local_pattern(local: str, first: str, last: str) -> str | None:
    """How a local part is built from a first and last name, e.g. "{first}.{l}" or None."""
    f, l_ = ascii_fold(first).lower(), ascii_fold(last).lower()
    body = re.sub(r"\d+$", "", local.lower())
    if not f or not body:
        return None
    candidates = {
        f"{f}.{l_}": "{first}.{last}", f"{f}_{l_}": "{first}_{last}", f"{f}-{l_}": "{first}-{last}",
        f"{f}{l_}": "{first}{last}", f"{f[0]}{l_}": "{f}{last}", f"{f[0]}.{l_}": "{f}.{last}",
        f"{f}.{l_[:1]}": "{first}.{l}", f"{f}{l_[:1]}": "{first}{l}", f"{l_}.{f}": "{last}.{first}",
        f"{l_}{f}": "{last}{first}", f"{l_}{f[:1]}": "{last}{f}", f"{f}": "{first}", f"{l_}": "{last}",
        f"{f[0]}_{l_}": "{f}_{last}",
    }
    if not l_:
        candidates = {f"{f}": "{first}"}
    return candidates.get(body)


def build_local(pattern: str, first: str, last: str) -> str:
    f, l_ = ascii_fold(first).lower(), ascii_fold(last).lower()
    return pattern.format(first=f, last=l_, f=f[:1], l=l_[:1])


def fake_email(rng: random.Random, real: str, people: list[tuple[str, str, str, str]], domain_map: dict[str, str]) -> str:
    """people: (real first, real last, stand-in first, stand-in last) known in the conversation."""
    local, _, domain = real.rpartition("@")
    digits = re.search(r"\d+$", local)
    suffix = same_shape(rng, digits.group()) if digits else ""
    new_local = None
    for real_first, real_last, fake_first, fake_last in people:
        pattern = email_local_pattern(local, real_first, real_last)
        if pattern:
            new_local = build_local(pattern, fake_first, fake_last) + suffix
            break
    if new_local is None:
        letters = re.sub(r"\d+$", "", local)
        new_local = same_shape(rng, letters.lower()) + suffix if letters else same_shape(rng, local)
    if domain.lower() in FREE_MAIL:
        new_domain = domain
    else:
        new_domain = domain_map.get(domain.lower()) or fake_domain(rng, domain)
    if real[0].isupper() and new_local:
        new_local = new_local[0].upper() + new_local[1:]
    return f"{new_local}@{new_domain}"


_AT_TOKEN = re.compile(r"\s*[\[({<]\s*at\s*[\])}>]\s*|\s*[\[(]@[\])]\s*|\s+at\s+|\s*@\s*", re.IGNORECASE)
_DOT_TOKEN = re.compile(r"\s*[\[({<]\s*dot\s*[\])}>]\s*|\s*[\[(]\.[\])]\s*|\s+dot\s+|\.", re.IGNORECASE)


def fake_any_email(rng: random.Random, real: str, people: list[tuple[str, str, str, str]], domain_map: dict[str, str]) -> str:
    """An e-mail stand-in written the way the real one is: plain, or obfuscated
    ("john[at]gmail[dot]com", "j o h n @ g m a i l . c o m") in the same style."""
    from agent.detect.obfuscated import read_back

    plain = read_back(real)
    if plain == real:
        return fake_email(rng, real, people, domain_map)
    fake = fake_email(rng, plain.lower(), people, domain_map)
    if re.fullmatch(r"(?:\S ){3,}\S", real):  # one character at a time
        out = " ".join(fake)
    else:
        at = _AT_TOKEN.search(real)
        local_real, domain_real = real[: at.start()], real[at.end() :]
        local_dot = _DOT_TOKEN.search(local_real)
        domain_dot = _DOT_TOKEN.search(domain_real)
        local, _, domain = fake.partition("@")
        out = (local.replace(".", local_dot.group() if local_dot else ".") + at.group()
               + domain.replace(".", domain_dot.group() if domain_dot else "."))
    return out.upper() if real.isupper() else out


# -- phone --------------------------------------------------------------------------
# Ofcom's ranges for drama (never allocated), by area: (area code, exchange, first digit).
_UK_DRAMA_LANDLINES = (
    ("20", "7946", "0"), ("113", "496", "0"), ("114", "496", "0"), ("115", "496", "0"), ("116", "496", "0"),
    ("117", "496", "0"), ("118", "496", "0"), ("121", "496", "0"), ("131", "496", "0"), ("141", "496", "0"),
    ("151", "496", "0"), ("161", "496", "0"), ("191", "498", "0"),
)


def _other_digit(rng: random.Random, digit: str, pool: str = "0123456789") -> str:
    return rng.choice([d for d in pool if d != digit] or list(pool))


def fake_phone(rng: random.Random, real: str) -> str:
    """Same country and format; of the real number only the country calling code (and a
    trunk prefix such as the leading 0) is kept: no area code, no digit run."""
    digits = digits_of(real)
    number = _read_phone(real)
    national = str(number.national_number) if number else digits
    country = str(number.country_code) if number else ""
    keep = max(0, len(digits) - len(national))  # country code / trunk prefix as written
    head, body = digits[:keep], digits[keep:]
    stripped = body.lstrip("0")
    lead = body[: len(body) - len(stripped)]
    # The random part is drawn again until the stand-in keeps no run of three of the real
    # digits at the same place (a fictional range's own digits, which the real number may
    # happen to share, aside).
    new_body = ""
    kind = phonenumbers.number_type(number) if number is not None and phonenumbers.is_valid_number(number) else None
    for _ in range(40):
        new_body, fixed = _phone_body(rng, country, body, lead, stripped, kind)
        if not shares_digit_run(body, new_body, fixed=fixed):
            break
    new_digits = head + new_body
    if new_digits == digits:
        new_digits = new_digits[:-1] + str((int(new_digits[-1]) + 1) % 10)
    return digits_into(real, new_digits)


# Regions tried, in order, for a number written without its country code: the first where
# it is valid wins, but in a plan whose area codes vary in length (Germany's and India's read
# almost any digits as a landline) a landline reading waits for the other regions ("0532 123
# 45 67" is a Turkish mobile). Else the first region where it is possible. Without the text's
# country a number valid in two plans stays ambiguous: "0412 338 907" is an Australian mobile
# and a French landline, and France comes first.
_PHONE_REGIONS = (None, "US", "GB", "IN", "DE", "FR", "AU", "NL", "ES", "IT", "BR", "CA", "IE", "NZ", "ZA", "NG", "IL",
                  "PL", "SE", "TR")
_LOOSE_PLANS = frozenset({"DE", "IN"})
_MOBILE_TYPES = (phonenumbers.PhoneNumberType.MOBILE, phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE)


# How North America writes its ten digits: "(415) 555-0132", "415-555-0132", "415.555.0132".
_NANP_WRITTEN = re.compile(r"\(?[2-9]\d{2}\)?[ .\-]?[2-9]\d{2}[ .\-]\d{4}")


def _read_phone(real: str):
    if _NANP_WRITTEN.fullmatch(real.strip()):
        return phonenumbers.parse(real, "US")  # its punctuation says which plan
    first = valid = None
    for region in _PHONE_REGIONS:
        try:
            parsed = phonenumbers.parse(real, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(parsed):
            if region not in _LOOSE_PLANS or phonenumbers.number_type(parsed) in _MOBILE_TYPES:
                return parsed
            valid = valid or parsed
        if first is None and (phonenumbers.is_possible_number(parsed) or region is None):
            first = parsed
    return valid or first


def _phone_body(rng: random.Random, country: str, body: str, lead: str, stripped: str,
                kind: int | None = None) -> tuple[str, frozenset[int]]:
    """A new national number and the places that hold a fictional range's fixed digits."""
    if country == "1" and len(body) == 10:
        # North America: 555-0100..0199 is reserved for fiction, under any area code.
        area = _other_digit(rng, body[0], "23456789") + _other_digit(rng, body[1], "012345678") + _other_digit(rng, body[2])
        return area + "55501" + f"{rng.randrange(100):02d}", frozenset(range(3, 8))
    if country == "44" and stripped.startswith("7") and len(stripped) == 10:
        # Ofcom drama range for mobiles
        return lead + "7700900" + f"{rng.randrange(1000):03d}", frozenset(range(len(lead), len(lead) + 7))
    if country == "44" and stripped[:1] in ("1", "2") and len(stripped) == 10:
        ranges = [r for r in _UK_DRAMA_LANDLINES if not shares_digit_run(stripped, "".join(r) + "000")] or list(_UK_DRAMA_LANDLINES)
        area, exchange, first = rng.choice(ranges)
        rest = 10 - len(area) - len(exchange) - 1
        prefix = lead + area + exchange + first
        return prefix + "".join(rng.choice("0123456789") for _ in range(rest)), frozenset(range(len(prefix)))
    # Elsewhere: every digit changed (no digit of the real number stays in its place), a
    # number valid in that country and of the same kind (a mobile stays a mobile) where one
    # is found, else one valid at all.
    new_body = valid = ""
    for attempt in range(60 if country else 1):
        # the first digit stays only when 30 draws found no number of the kind: a mobile's
        # one-digit prefix ("4" in Australia, "5" in Turkey) says what kind it is
        kept = 1 if attempt >= 30 and kind is not None else 0
        new_body = lead + stripped[:kept] + "".join(_other_digit(rng, d) for d in stripped[kept:])
        if not country or new_body[len(lead) : len(lead) + 1] == "0":
            continue
        try:
            candidate = phonenumbers.parse(f"+{country}{new_body.lstrip('0')}")
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(candidate):
            if kind is None or phonenumbers.number_type(candidate) == kind:
                return new_body, frozenset()
            valid = valid or new_body
    return valid or new_body, frozenset()


# -- cards, IBAN, SSN ---------------------------------------------------------------
def fake_card(rng: random.Random, real: str) -> str:
    digits = digits_of(real)
    brand = card_brand(digits)
    keep = {"visa": 1, "amex": 2, "mastercard": 2 if digits[0] == "5" else 4}.get(brand or "", 4)  # enough to keep the brand
    body = digits[:keep] + "".join(rng.choice("0123456789") for _ in range(len(digits) - keep - 1))
    new = body + luhn_check_digit(body)
    if new == digits:
        return fake_card(rng, real)
    return digits_into(real, new)


def fake_iban(rng: random.Random, real: str) -> str:
    compact = re.sub(r"[\s-]", "", real).upper()
    country = compact[:2]
    bban = "".join(
        rng.choice("0123456789") if ch.isdigit() else rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for ch in compact[4:]
    )
    if country in IBAN_LENGTHS and len(compact) != IBAN_LENGTHS[country]:
        bban = bban[: IBAN_LENGTHS[country] - 4].ljust(IBAN_LENGTHS[country] - 4, "0")
    new = country + iban_check_digits(country, bban) + bban
    out, it = [], iter(new)
    for ch in real:
        out.append(ch if ch in " -" else next(it, ""))
    result = "".join(out) + "".join(it)
    return result if real.isupper() or not any(c.islower() for c in real) else result.lower()


def fake_ssn(rng: random.Random, real: str) -> str:
    while True:
        area = rng.randrange(1, 900)
        if area != 666:
            break
    new = f"{area:03d}{rng.randrange(1, 100):02d}{rng.randrange(1, 10000):04d}"
    return digits_into(real, new)


# -- network ------------------------------------------------------------------------
_TEST_NETS = ("192.0.2.", "198.51.100.", "203.0.113.")  # RFC 5737: documentation only


def fake_ip(rng: random.Random, real: str) -> str:
    address, slash, prefix = real.partition("/")
    suffix = slash + prefix
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return same_shape(rng, real)
    if ip.version == 6:
        groups = [f"{rng.randrange(65536):x}" for _ in range(4)]
        return f"2001:db8:{':'.join(groups)}::{rng.randrange(1, 65536):x}" + suffix
    if ip.is_private:
        first = address.split(".")[0]
        if first == "10":
            return f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}" + suffix
        if first == "172":
            return f"172.{rng.randrange(16, 32)}.{rng.randrange(256)}.{rng.randrange(1, 255)}" + suffix
        return f"192.168.{rng.randrange(256)}.{rng.randrange(1, 255)}" + suffix
    return rng.choice(_TEST_NETS) + str(rng.randrange(1, 255)) + suffix


def fake_mac(rng: random.Random, real: str) -> str:
    hex_digits = "0123456789abcdef" if any(c.islower() for c in real) else "0123456789ABCDEF"
    return "".join(rng.choice(hex_digits) if c in "0123456789abcdefABCDEF" else c for c in real)


_PUBLIC_HOSTS = frozenset(
    {
        "wikipedia.org", "en.wikipedia.org", "github.com", "google.com", "youtube.com", "youtu.be",
        "reddit.com", "stackoverflow.com", "twitter.com", "x.com", "facebook.com", "instagram.com",
        "linkedin.com", "medium.com", "amazon.com", "apple.com", "microsoft.com", "openai.com",
        "arxiv.org", "docs.python.org", "pypi.org", "npmjs.com", "bbc.co.uk", "nytimes.com",
    }
)


# In a path segment: a percent-escape, or a file's type at its end.
_URL_PIECE = re.compile(r"%[0-9A-Fa-f]{2}|\.[A-Za-z][A-Za-z0-9]{0,4}$")


def _segment_like(rng: random.Random, segment: str) -> str:
    """A path segment of the same shape that is still a valid one: each percent-escape an
    escape of a random letter (decodes to text, as the real one did; same_shape made
    "%D9" into "%Y0"), a file's type kept (".pdf" says nothing of whose it is)."""
    out, position = [], 0
    for match in _URL_PIECE.finditer(segment):
        out.append(same_shape(rng, segment[position : match.start()]))
        piece = match.group()
        if piece.startswith("%"):
            escape = f"%{ord(rng.choice('abcdefghijkmnopqrstuvwxyz')):02X}"
            piece = escape.lower() if piece[1:].islower() else escape
        out.append(piece)
        position = match.end()
    out.append(same_shape(rng, segment[position:]))
    return "".join(out)


# The pieces of a path segment on a public site, and what separates them.
_PATH_PIECES = re.compile(r"([-_.@~+])")


def _public_segment_like(rng: random.Random, segment: str) -> str:
    """A path segment of a public site with its identifying pieces changed: a piece with a
    digit, or a word of five letters or more that is no everyday word (a handle such as
    "@<first><last>", "/in/<name>", "/<user>/repo"); everyday words ("why-i-quit"),
    short route words ("in", "u", "r") and a file's type stay. Escaped text changes as a
    whole (_segment_like)."""
    if "%" in segment:
        return _segment_like(rng, segment)
    pieces = _PATH_PIECES.split(segment)
    return "".join(
        same_shape(rng, piece) if i % 2 == 0 and _identifying(piece) else piece for i, piece in enumerate(pieces)
    )


def _identifying(piece: str) -> bool:
    if any(c.isdigit() for c in piece):
        return True
    if not piece.isalpha() or is_common_word(piece):
        return False
    # a short one too when the name lists know it ("/in/<first>-eze": the surname stayed)
    return len(piece) >= 5 or (len(piece) >= 3 and _listed_name(piece))


def _listed_name(word: str) -> bool:
    from agent.knowledge.names import lexicon

    names = lexicon()
    return names.is_first_name(word) or names.is_last_name(word)


def _reference_path_like(rng: random.Random, path: str) -> str:
    """A reference site's path with only its private pieces changed (reference_sites)."""
    segments = path.split("/")
    out = []
    in_namespace = False
    for i, segment in enumerate(segments):
        namespace = wiki_namespace(segment)
        if namespace is not None:
            # a user page or a user's contributions page: the name after the namespace
            # and every page under it change; a page of everyday words ("Contributions") stays.
            rest = segment[len(namespace):]
            everyday = all(is_common_word(w) for w in re.findall(r"[^\W\d_]+", rest))
            out.append(namespace + (rest if everyday and rest else _segment_like(rng, rest)))
            in_namespace = True
        elif segment and (in_namespace or private_path_piece(segment, segments[i - 1] if i else "")):
            out.append(_segment_like(rng, segment))
        else:
            out.append(segment)
    return "/".join(out)


def fake_url(rng: random.Random, real: str, domain_map: dict[str, str]) -> str:
    has_scheme = "://" in real
    parts = urlsplit(real if has_scheme else "http://" + real)
    host = parts.hostname or ""
    bare = host.removeprefix("www.")
    path = _reference_path_like(rng, parts.path) if is_reference_host(host) else None
    if path is not None and (path != parts.path or parts.query):
        # A reference site's link swapped for its query or a user page: the article's
        # title is a public topic and stays; the name of a user page, a name after an
        # account route and a token change, and so do the query's values (below).
        new_host = host
    elif bare in _PUBLIC_HOSTS or host in _PUBLIC_HOSTS:
        new_host = host
        # On a public site the identifying part is the path: an account's handle (a name,
        # often), a document id. Where no piece of the path looks like one, the old rule:
        # every segment with a digit, "-" or "_" changes shape.
        path = "/".join(_public_segment_like(rng, seg) for seg in parts.path.split("/"))
        if path == parts.path:
            path = "/".join(_segment_like(rng, seg) if seg and (any(c.isdigit() for c in seg) or "-" in seg or "_" in seg)
                            else seg for seg in parts.path.split("/"))
    else:
        new_host = fake_host(rng, host, domain_map)
        path = "/".join(_segment_like(rng, seg) if any(c.isdigit() for c in seg) else seg for seg in parts.path.split("/"))
    query = re.sub(r"=([^&]+)", lambda m: "=" + same_shape(rng, m.group(1)), parts.query)
    netloc = new_host + (f":{parts.port}" if parts.port else "")
    out = urlunsplit((parts.scheme, netloc, path, query, parts.fragment))
    return out if has_scheme else out[len("http://"):]


# -- secrets ------------------------------------------------------------------------
_SECRET_PREFIX = re.compile(
    r"^(?:sk-ant-(?:api|admin)\d{2}-|sk-(?:proj-|svcacct-|admin-)?|AKIA|ASIA|gh[pousr]_|github_pat_|glpat-|"
    r"xox[abposr]-|AIza|ya29\.|(?:sk|rk|pk)_(?:live|test)_|hf_|SG\.|npm_|eyJ|https://hooks\.slack\.com/services/)"
)


def fake_secret(rng: random.Random, real: str) -> str:
    if real.startswith("-----BEGIN"):
        lines = real.splitlines(keepends=True)
        return "".join(line if line.startswith("-----") else same_shape(rng, line) for line in lines)
    prefix = _SECRET_PREFIX.match(real)
    return same_shape(rng, real, keep_prefix=prefix.end() if prefix else 0)
