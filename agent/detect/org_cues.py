"""Organisation names that only the sentence around them reveals: NER misses coined
or oddly cased brands ("Quorvia", "ZenT"), and some are ordinary words ("Anchor"). The
language around a name says it is a business:

- the user's employer: "I work for X", "my job at X", "employed by X";
- the text says what it is: "X is a logistics company", "X is the only firm to ...";
- business relations: "acquire the company X", "a partnership with X and Y",
  "X bought the company", "X enters the market";
- the user's own brand or channel: "our X ads", "your favourite X products";
- the company line of a signature block (a name, maybe a job title, the company, then
  an address or phone line).

Finding is not swapping: the decider keeps a famous company the prompt asks about.
Each rule is guarded by a cheap substring test so ordinary text costs one scan.
"""

from __future__ import annotations

import bisect
import re

from agent.detect.ascii_fold import FoldedSearch
from agent.detect.base import DetectionContext
from agent.entities import Label, Span
from agent.knowledge.names import lexicon
from agent.knowledge.not_names import NOT_ENTITIES
from agent.knowledge.org_words import COMPANY_SUFFIX_WORDS, GENERIC_ORG_WORDS, INDUSTRY_WORDS
from agent.knowledge.places import is_known_place
from agent.knowledge.words import is_common_word, word_frequency

# One word of a name: capitalised, or an inner capital after a short lower-case prefix
# ("eBay"-like); apostrophes and hyphens inside ("L'Étoile", "Hewlett-Packard").
_WORD = r"(?:[A-Z][\w&'’\-]*|[a-z]{1,2}[A-Z][\w&'’\-]*)"
_CONNECTOR = r"(?:&|of|de|du|la|the|for)"  # not "and": "X and Y" are two names
# Up to five words, connectors only between capitalised words.
_NAME = rf"(?P<v>{_WORD}(?:[ \t]+(?:{_CONNECTOR}[ \t]+)?{_WORD}){{0,4}})"
_LIST_NAME = rf"{_WORD}(?:[ \t]+{_WORD}){{0,3}}"

# Closed-class and sentence words that start a capitalised run but name nothing.
_NOT_A_NAME = frozenset(
    w.casefold()
    for w in (
        "I", "We", "You", "He", "She", "It", "They", "This", "That", "These", "Those", "There", "Here",
        "The", "A", "An", "Our", "My", "Your", "His", "Her", "Their", "Its", "Which", "Who", "What", "One",
        "Each", "Every", "Any", "Some", "All", "No", "None", "Both", "Someone", "Everyone", "Nobody",
        "Mr", "Mrs", "Ms", "Dr", "Home", "Night", "Work", "Myself", "Yourself", "Itself", "Company",
    )
)

_KINDS = (
    r"company|firm|startup|start-up|agency|brand|business|bank|corporation|enterprise|manufacturer|"
    r"retailer|provider|supplier|vendor|consultancy|publisher|label|chain|franchise|conglomerate|"
    r"organi[sz]ation|nonprofit|non-profit|charity|studio|marketplace|platform"
)

# "I work for X", "we work at X", "my job at X", "employed by X", "I joined X".
_EMPLOYER_GUARD = FoldedSearch(re.compile(
    r"(?i)\b(?:work|job|position|role|internship|intern|employed|hired|joined|career|employer|interview|vacanc|opening"
    r"|team|office|department|colleague|coworker|co-worker|manager|boss"
    r"|(?:i'm|i’m|i am|i was|as an?|as the)\b)"
))
_EMPLOYER = re.compile(
    r"(?:\b(?:I|we|I'm|I am|we're|we are)[ \t]+(?:\w+[ \t]+)?(?:work(?:ed|ing)?|intern(?:ed|ing)?)[ \t]+(?:for|at)"
    # "she works at X", "my husband has been working for X"
    r"|\b(?:works|worked|has[ \t]+been[ \t]+working|is[ \t]+working|was[ \t]+working)[ \t]+(?:for|at)"
    r"|\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)[ \t]+(?:\w+[ \t]+)?(?:work|job|position|role|internship|employer|career|shift)[ \t]+(?:at|for|with)"
    # "on my team at X", "her colleagues at X", "my manager at X": the people one works with
    r"|\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)[ \t]+(?:\w+[ \t]+)?(?:team|office|department|colleagues?|co-?workers?|manager|boss)[ \t]+(?:at|in)"
    # "a job at X", "the open position at X", "an interview with X"
    r"|\b(?:[Aa]n?|[Tt]he)[ \t]+(?:\w+[ \t]+)?(?:job|position|role|internship|opening|vacancy|interview)[ \t]+(?:at|with)"
    r"|\b(?:employed|hired)[ \t]+(?:by|at)"
    # "I'm the marketing lead at X", "as a product manager at X": the user's role there
    # (the word before "at" a role: "As the sun set at X" is no job)
    r"|(?:\b(?:I'm|I’m|I[ \t]+am|I[ \t]+was)|(?<![\w-])[Aa]s)[ \t]+(?:a|an|the)[ \t]+(?:[\w\-]+[ \t]+){0,2}?"
    r"(?:\w+(?:er|or|ist|ant|ent|ian|ee|ive|ate)|lead|head|intern|nurse|chef|staff|member|fellow|trainee)[ \t]+at"
    r"|\b(?:I|we)[ \t]+(?:have[ \t]+|recently[ \t]+|just[ \t]+)?joined"
    rf")[ \t]+{_NAME}"
)

# Shops and practices a person runs or goes to ("my bakery X", "a salon called X").
_PLACES_OF_BUSINESS = r"shop|store|caf[eé]|restaurant|bakery|salon|clinic"
# What a business is to someone ("our client X", "my employer, X").
_PARTNERS = rf"client|customer|employer|supplier|vendor|sponsor|{_KINDS}|{_PLACES_OF_BUSINESS}"
# Roles only an organisation has (case-blind where used).
_ORG_ROLES = r"ceo|cto|cfo|coo|founder|co-founder|cofounder|headquarters|shareholders"

# "a startup called X", "a bakery named X": the text says what it is.
_CALLED_GUARD = FoldedSearch(re.compile(r"(?i)\b(?:called|named)\b"))
_CALLED = re.compile(
    rf"(?i:\b(?:{_KINDS}|{_PLACES_OF_BUSINESS}|bar|pub|hotel|gym|app|website|podcast|channel))s?"
    rf"[ \t]+(?:called|named)[ \t]+[\"“']?{_NAME}"
)
# "the founder of X", "X's CEO": roles only an organisation has.
_ROLE_GUARD = FoldedSearch(re.compile(rf"(?i)\b(?:{_ORG_ROLES}|board of directors)\b"))
_ROLE_OF = re.compile(
    rf"(?i:\b(?:{_ORG_ROLES}|board[ \t]+of[ \t]+directors)[ \t]+(?:of|at))"
    rf"[ \t]+{_NAME}"
)
_ROLE_OWNER = re.compile(
    rf"{_NAME}['’]s[ \t]+(?:\w+[ \t]+)?(?i:{_ORG_ROLES}|HQ|share[ \t]+price)\b"
)
# A job title written as one, then where it is held: "Head of Data at X", "Senior Product
# Manager at X", "promoted to Director of Sales at X". Capitalised: "the head at" is no title.
JOB_TITLE = (
    r"(?:(?:Senior|Junior|Principal|Staff|Lead|Associate|Assistant|Deputy|Regional|General|Executive|Managing|Product|"
    r"Program|Programme|Project|Account|Marketing|Sales|Engineering|Software|Data|Operations)[ \t]+){0,2}"
    r"(?:Head|Director|VP|Vice[ \t]+President|Manager|Engineer|Officer|Chief[ \t]+[A-Z]\w+[ \t]+Officer|Partner|"
    r"Analyst|Designer|Consultant|Scientist|Developer|Lead|Specialist|Coordinator|Editor|Nurse|Teacher)"
    r"(?:[ \t]+of[ \t]+[A-Z][\w&]*(?:[ \t]+(?:&[ \t]+|and[ \t]+)?[A-Z][\w&]*){0,2})?"
)
_TITLE_AT = re.compile(rf"\b{JOB_TITLE}[ \t]+at[ \t]+{_NAME}")
# "our client X", "my employer, X".
_PARTNER_GUARD = FoldedSearch(re.compile(rf"(?i)\b(?:our|my|their|your)[ \t]+(?:\w+[ \t]+)?(?:{_PARTNERS})"))
_PARTNER = re.compile(
    r"\b(?:[Oo]ur|[Mm]y|[Tt]heir|[Yy]our)[ \t]+(?:new[ \t]+|biggest[ \t]+|largest[ \t]+|main[ \t]+|former[ \t]+|current[ \t]+|little[ \t]+|small[ \t]+|family[ \t]+)?"
    rf"(?:{_PARTNERS})"
    # "our startup, X, helps ...", "my bakery X": the name right after the kind, set off or not
    rf"(?:[ \t]*,[ \t]*(?={_LIST_NAME}[ \t]*,)|[ \t]+){_NAME}"
)
# "At X, we believe ...": a business speaking of itself.
_WE_AT = re.compile(rf"(?:^|(?<=[.!?:])[ \t]*|\n[ \t]*)At[ \t]+{_NAME},?[ \t]+(?:we|our)\b", re.MULTILINE)

# "X is a fintech company", "X is the only company to offer ...", "X was a family business".
_KIND_GUARD = FoldedSearch(re.compile(rf"(?i)\b(?:{_KINDS})\b"))
_IS_KIND = re.compile(
    rf"{_NAME}[ \t]+(?:is|was|has been|remains|became)[ \t]+(?:a|an|the)[ \t]+(?:[\w\-]+[ \t]+){{0,3}}?(?:{_KINDS})s?"
    # the kind ends the phrase ("Sarah is a bank teller" goes on with a noun)
    r"(?=[ \t]*(?:[,.;:!?)\n]|$)|[ \t]+(?:in|from|based|that|which|with|to|of|for|on|and|who|where|since|behind)\b)"
)

# Business relations: "acquire the company X", "a partnership agreement with X and Y".
_RELATION_GUARD = FoldedSearch(re.compile(r"(?i)acqui|merge|partner|cooperat|collaborat|joint venture|subsidiar|compan|brands|competitor"))
_RELATION = re.compile(
    r"(?i:\b(?:acquir(?:e|es|ed|ing)(?:[ \t]+the[ \t]+(?:company|firm|startup|business))?"
    r"|acquisition[ \t]+of(?:[ \t]+the[ \t]+(?:company|firm|startup|business))?"
    r"|merg(?:e|es|ed|ing|er)[ \t]+with|partner(?:ship|ships|ed|s|ing)?(?:[ \t]+agreements?)?[ \t]+with"
    r"|cooperation[ \t]+with|collaboration[ \t]+with|joint[ \t]+venture[ \t]+with|subsidiary[ \t]+of"
    r"|(?:companies|brands|competitors|firms|clients|customers)[ \t]+(?:like|such[ \t]+as|including)))"
    rf"[ \t]+[\"“']?{_NAME}"
)
_SUBJECT_GUARD = FoldedSearch(re.compile(r"(?i)\b(?:buys|bought|enters|entered|founded|headquartered|incorporated|established)\b"))
# "X bought the company", "X has a chance to acquire ...", "X enters the market".
_SUBJECT = re.compile(
    rf"{_NAME}[ \t]+(?:(?:has|had|have|will|would|could|may|might|can|should|must|plans?|wants?|intends?|is|was)[ \t]+(?:\w+[ \t]+){{0,3}}?)?"
    r"(?:(?:acquires?|acquired|buys|bought|enters|entered|enter)[ \t]+(?:the[ \t]+)?(?:company|firm|startup|business|market|stake)"
    # only an organisation is founded, headquartered or incorporated
    r"|(?:was|were|is|has been)[ \t]+(?:\w+[ \t]+)?(?:founded|headquartered|incorporated|established)[ \t]+(?:in|on|by|at)\b)"
)
# "the biggest employers in town: X, Y and Z", "our sponsors: X and Y": a list of
# organisations announced by their kind.
_KIND_LIST = re.compile(
    r"(?i:\b(?:companies|firms|manufacturers|brands|employers|sponsors|clients|partners|suppliers|vendors|competitors|"
    r"startups|retailers|businesses|corporations)\b)[^.:;!?\n]{0,80}:[ \t]*"
    rf"(?P<v>{_LIST_NAME})"
)
# "A, B, C and D": names in a list (each one to four words), read from the "and" back.
_LIST_AND = re.compile(r"[ \t]*,?[ \t]+(?:and|&)[ \t]+")
_LIST_ITEM = re.compile(_LIST_NAME)
_LIST_WORD = re.compile(_WORD)
_LIST_WINDOW = 400
_TRADE_ENDS = GENERIC_ORG_WORDS | INDUSTRY_WORDS | COMPANY_SUFFIX_WORDS
# "at X, 12 Harbour Road": a venue named before its street address.
_VENUE = re.compile(rf"\bat[ \t]+{_NAME},[ \t]*(?=\d{{1,6}}[ \t]+[A-Z\w])")
_COORDINATED = re.compile(rf"(?:[ \t]*,[ \t]*|[ \t]+(?:and|&)[ \t]+|[ \t]*,[ \t]*and[ \t]+)(?P<v>{_LIST_NAME})")

# "our X ads", "your favourite X products": the user's brand, shop or channel.
_OWN_GUARD = FoldedSearch(re.compile(r"(?i)\b(?:our|your|their|my)\b"))
_OWN = re.compile(
    r"\b(?:[Oo]ur|[Yy]our|[Tt]heir|[Mm]y)[ \t]+(?:(?:favou?rite|new|latest|own|official|amazing)[ \t]+)?"
    rf"(?P<v>{_WORD}(?:[ \t]+{_WORD})?)[ \t]+"
    r"(?:ads|adverts|advertising|products?|range|app|store|shop|storefront|account|page|channel|campaigns?|brand|"
    r"website|site|listings?|franchise|customers|subscribers|followers)\b"
)
# "the X app", "the X brand": a named product or business.
_THE_PRODUCT = re.compile(
    rf"\b[Tt]he[ \t]+(?P<v>{_WORD}(?:[ \t]+{_WORD})?)[ \t]+"
    r"(?:app|brand|platform|website|startup|company|franchise|storefront|chain|label)\b"
)
# "the Hartwell invoice", "the Brannock account": the client or supplier a piece of business
# is with (a person's surname too; the decider tells a known firm from a client).
BUSINESS_DOCUMENTS = (
    r"invoices?|account|contract|deal|project|proposal|order|renewal|pitch|tender|shipment|payment|quote|estimate|"
    r"audit|retainer|engagement|rollout|migration"
)
_NAME_WORD = r"[A-Z][a-z][A-Za-z'’\-]*"  # no digits: "the Q3 audit" names a quarter
_THE_BUSINESS = re.compile(rf"\b[Tt]he[ \t]+(?P<v>{_NAME_WORD}(?:[ \t]+{_NAME_WORD})?)[ \t]+(?:{BUSINESS_DOCUMENTS})\b")
# Above this frequency a word is too ordinary to be a brand here ("our Summer campaign");
# below it, platform names people also use as words ("our Youtube channel") still pass.
_OWN_MAX_FREQUENCY = 5000

# A single word this frequent is core vocabulary even when the sentence calls it a
# company ("Life is a business"); "Boss" or "Anchor" as a brand stays below it.
_CORE_WORD_FREQUENCY = 150_000

# Signature blocks: short lines, "> " quoting allowed.
_SIGNATURE_GUARD = re.compile(r"\n[ \t>]*\d|\n[ \t>]*(?:PSC|P\.?O\.?|Unit|Suite|Apt)\b|\n[ \t>]*(?:Mobile|Phone|Tel|Fax|Desk|Office|Email|E-mail)\b")
_ADDRESS_LINE = re.compile(
    r"^(?:\d|(?:PSC|P\.?O\.?[ \t]*Box|Unit|Suite|Apt)\b|(?:Mobile|Phone|Tel|Fax|Desk|Office|Email|E-mail|Cell)\b[:.]?)"
    r"|^(?:the[ \t]+)?corner[ \t]+of[ \t]+\d"
)
_NAME_LINE = re.compile(r"^[A-Z][\w'’\-]+(?:[ \t]+[A-Z][\w'’\-]*\.?){1,3}$")
_COMPANY_LINE = re.compile(rf"^{_WORD}(?:[ \t]+(?:{_CONNECTOR}[ \t]+)?{_WORD}){{0,4}}$")


class OrgCueDetector:
    name = "org_cues"
    labels = frozenset({Label.ORG})

    def detect(self, text: str, context: DetectionContext) -> list[Span]:
        spans: list[Span] = []
        lowered = text.lower() if text.isascii() else None  # for the (?i) guards (FoldedSearch)
        if _EMPLOYER_GUARD.search(text, lowered):
            spans += _named(text, _EMPLOYER, 0.75, self.name)
        if _KIND_GUARD.search(text, lowered):
            spans += _named(text, _IS_KIND, 0.8, self.name, ordinary_ok=True)
        if _RELATION_GUARD.search(text, lowered) or _SUBJECT_GUARD.search(text, lowered):
            spans += _named(text, _RELATION, 0.75, self.name, coordinated=True)
            spans += _named(text, _SUBJECT, 0.75, self.name)
        if ":" in text:
            spans += _named(text, _KIND_LIST, 0.7, self.name, coordinated=True)
        if "," in text and (" and " in text or " & " in text):
            spans += _org_lists(text, self.name)
        if "at " in text:
            spans += _named(text, _VENUE, 0.7, self.name) + _named(text, _TITLE_AT, 0.75, self.name)
        if _OWN_GUARD.search(text, lowered):
            spans += _own_brands(text, _OWN, self.name)
        if "the " in text or "The " in text:
            spans += _own_brands(text, _THE_PRODUCT, self.name) + _own_brands(text, _THE_BUSINESS, self.name, first_names_too=True)
        if _CALLED_GUARD.search(text, lowered):
            spans += _named(text, _CALLED, 0.85, self.name, ordinary_ok=True)  # over a name-shape guess
        if _ROLE_GUARD.search(text, lowered):
            spans += _named(text, _ROLE_OF, 0.75, self.name) + _named(text, _ROLE_OWNER, 0.75, self.name)
        if _PARTNER_GUARD.search(text, lowered):
            spans += _named(text, _PARTNER, 0.8, self.name)
        if "At " in text:
            spans += [s for s in _named(text, _WE_AT, 0.8, self.name) if not is_known_place(s.text)]
        if "\n" in text and _SIGNATURE_GUARD.search(text):
            spans += _signature_companies(text, self.name)
        return spans


def _org_lists(text: str, detector: str) -> list[Span]:
    """A list of three or more names, most of which end in a word of the trade ("Acme
    Pictures, Dovetail Films, Greyline and Orbis Studios"): the others are companies too."""
    spans = []
    for joint in _LIST_AND.finditer(text):
        tail = _LIST_ITEM.match(text, joint.end())
        if tail is None:
            continue
        names = _list_before(text, joint.start())
        if len(names) < 2:
            continue
        names.append((tail.start(), tail.group()))
        marked = sum(1 for _, n in names if _trade_end(n))
        if 2 * marked < len(names):
            continue
        for start, value in names:
            if all(w.casefold().rstrip(".") in _TRADE_ENDS for w in value.split()):
                continue  # "Films" cut off a name the list split: a trade, not a name
            # over NER's person guess; ordinary words before a trade word are a name here
            spans += _span(text, start, value, 0.86, detector, _trade_end(value))
    return spans


def _list_before(text: str, end: int) -> list[tuple[int, str]]:
    """The comma-separated names that end at `end`, nearest last: split, not searched, so
    prose with many "and"s costs one pass over a short window each."""
    offset = max(0, end - _LIST_WINDOW)
    names: list[tuple[int, str]] = []
    pos = end
    for part in reversed(text[offset:end].split(",")):
        start = pos - len(part)
        value = part.strip(" \t")
        if _LIST_ITEM.fullmatch(value):
            names.insert(0, (start + part.index(value), value))
        else:
            # the first name may follow other words ("thank Acme Films, ..."): its last
            # capitalised words, up to four
            words = part.rstrip(" \t").split(" ")
            taken: list[str] = []
            while words and len(taken) < 4 and _LIST_WORD.fullmatch(words[-1]):
                taken.insert(0, words.pop())
            if taken:
                value = " ".join(taken)
                names.insert(0, (start + part.rstrip(" \t").rindex(value), value))
            break
        pos = start - 1
        if len(names) > 13:
            break
    return names


def _trade_end(name: str) -> bool:
    """Ends in a word of the trade or a legal form, singular or plural ("Film", "Films")."""
    last = name.split()[-1].casefold().rstrip(".")
    return last in _TRADE_ENDS or f"{last}s" in _TRADE_ENDS


def _trim(value: str) -> tuple[int, str]:
    """Drop leading closed-class words and trailing connectors; (offset of the kept part, kept part)."""
    words = [(m.start(), m.group()) for m in re.finditer(r"\S+", value)]
    while words and words[0][1].casefold().strip("'’") in _NOT_A_NAME:
        words.pop(0)
    while words and re.fullmatch(_CONNECTOR, words[-1][1]):
        words.pop()
    if not words:
        return 0, ""
    start = words[0][0]
    end = words[-1][0] + len(words[-1][1])
    return start, value[start:end].rstrip("'’")


def _plausible(value: str, *, ordinary_ok: bool = False, given_ok: bool = False) -> bool:
    """A company name, not a person's name, a pronoun or a phrase of ordinary words."""
    if len(value) < 2 or value.casefold() in NOT_ENTITIES:
        return False
    words = value.split()
    if all(w.casefold() in GENERIC_ORG_WORDS for w in words):
        return False  # "Services", "the Bank": the kind of organisation, not which one
    names = lexicon()
    if names.is_first_name(words[0]) and (len(words) > 1 or not ordinary_ok) and not given_ok:
        return False  # "I work for Sarah", "Tom Reed bought the company": a person
    if not ordinary_ok and all(is_common_word(w.strip("'’")) for w in words):
        # "I work at Night Shift", "we joined Forces"; but ordinary words and a word of
        # the trade after them are a company ("Summit Games bought the company").
        return len(words) > 1 and words[-1].casefold() in GENERIC_ORG_WORDS
    return True


def _named(text: str, pattern: re.Pattern[str], score: float, detector: str, *,
           ordinary_ok: bool = False, coordinated: bool = False) -> list[Span]:
    spans = []
    for m in pattern.finditer(text):
        spans += _span(text, m.start("v"), m.group("v"), score, detector, ordinary_ok)
        if coordinated:
            end = m.end("v")
            while (more := _COORDINATED.match(text, end)) is not None:
                # every name of the list is weighed alone ("White, Hollis and Reed, Quantel
                # and Lumeo": a partners' firm name splits into words that are not names)
                spans += _span(text, more.start("v"), more.group("v"), score, detector, False)
                end = more.end("v")
    return spans


def _span(text: str, start: int, value: str, score: float, detector: str, ordinary_ok: bool) -> list[Span]:
    offset, kept = _trim(value)
    if not kept:
        return []
    if (ordinary_ok and kept.casefold() in _NOT_A_NAME) or not _plausible(kept, ordinary_ok=ordinary_ok):
        return []
    if ordinary_ok and " " not in kept and word_frequency(kept) > _CORE_WORD_FREQUENCY:
        return []  # "Life is a business", "Music is a brand": core vocabulary, not a name
    start += offset
    if text[start : start + len(kept)] != kept:
        return []
    return [Span(start, start + len(kept), Label.ORG, kept, score, detector)]


def _own_brands(text: str, pattern: re.Pattern[str], detector: str, *, first_names_too: bool = False) -> list[Span]:
    """`first_names_too`: a client named by a word the first-name lists also hold ("the
    Hartwell invoice": Faker lists Hartwell as a given name) is still the client."""
    spans = []
    for m in pattern.finditer(text):
        value = m.group("v")
        words = value.split()
        if any(word_frequency(w) > _OWN_MAX_FREQUENCY for w in words):
            continue
        if not (_plausible(value, ordinary_ok=True) or first_names_too and _plausible(value, ordinary_ok=True, given_ok=True)):
            continue
        if lexicon().is_first_name(words[0]) and not first_names_too:
            continue
        spans.append(Span(m.start("v"), m.end("v"), Label.ORG, value, 0.7, detector))
    return spans


def _signature_companies(text: str, detector: str) -> list[Span]:
    """Name / [job title] / Company / address: the company is the last short title-case
    line before the first address or phone line that follows a person-name line."""
    spans = []
    lines: list[tuple[int, str]] = []
    pos = 0
    for raw in text.split("\n"):
        body = raw.lstrip(" \t>")
        start = pos + len(raw) - len(body)
        lines.append((start, body.rstrip()))
        pos += len(raw) + 1
    counts: dict[str, int] = {}
    for _, line in lines:
        counts[line] = counts.get(line, 0) + 1
    addresses = [j for j, (_, line) in enumerate(lines) if _ADDRESS_LINE.match(line)]
    done = -1
    for i, (_, line) in enumerate(lines):
        # the first address line after this one, within three lines (found by bisection)
        at = bisect.bisect_right(addresses, i)
        if at == len(addresses) or addresses[at] > i + 3:
            continue
        j = addresses[at]
        if i <= done or not _NAME_LINE.match(line) or all(is_common_word(w) for w in line.split()):
            continue
        for k in range(j - 1, i, -1):
            start, candidate = lines[k]
            if candidate == line or counts[candidate] > 1 or _person_shaped(candidate):
                continue  # a quoted block repeats the person's name line
            # after a job-title line the slot is the company's even when its name is an
            # ordinary word (name / title / company / address)
            titled = k - 1 > i and lines[k - 1][1] != line
            if (_COMPANY_LINE.match(candidate) and len(candidate) <= 40 and (titled or candidate.casefold() not in _NOT_A_NAME)
                    and _plausible(candidate, ordinary_ok=titled)):
                spans.append(Span(start, start + len(candidate), Label.ORG, candidate, 0.75, detector))
            break
        done = j
    return spans


def _person_shaped(line: str) -> bool:
    words = line.split()
    return 2 <= len(words) <= 4 and (lexicon().is_first_name(words[0]) or lexicon().is_last_name(words[-1]))
