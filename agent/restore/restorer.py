"""Put real values back into an answer: exact stand-ins, other casing, possessives,
first or last name alone, labels ([PERSON_1], PERSON_1), and numbers the LLM
re-formatted (phones, cards, IBANs matched on their digits).

StreamingRestorer does the same over a stream of chunks: it emits text as soon as that
text cannot be the beginning of a stand-in, so a half-restored value is never shown.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field
from functools import cached_property
from types import EllipsisType

import phonenumbers

from agent.entities import Action, Label, RestoredSpan, RestoreResult
from agent.knowledge.calendar_words import CALENDAR_PREFIXES, CALENDAR_WORD, has_glued_calendar_word
from agent.knowledge.calendar_words import LONGEST as _LONGEST_CALENDAR_WORD
from agent.knowledge.names import lexicon
from agent.knowledge.person_words import parse_name
from agent.knowledge.scripts import CJK, HANGUL, HIRAGANA, KATAKANA, cjk_script, has_cjk
from agent.knowledge.words import is_common_word
from agent.restore.alternation import Alternation
from agent.restore.dates import DATE_RENDERINGS, parse_date
from agent.restore.probes import Prefilter, Probe, regex_fold
from agent.restore.tails import put_back_tails, tail_map
from agent.restore.urls import email_domain_form, url_forms
from agent.session.conversation import Conversation, MapEntry, fold
from agent.substitute.cyrillic_names import case_pairs, is_cyrillic_name
from agent.substitute.rng import digits_into

_DIGIT_LABELS = (Label.PHONE, Label.CREDIT_CARD, Label.SSN)
_MAX_COMPILED = 64  # alternations kept per conversation map (one per subset of its patterns)
# A substring test costs ~0.6 ns per character of the answer, compiling a pattern ~15-30 us:
# in an answer longer than this, compiling every pattern is cheaper than testing them.
_PROBED_MAX_CHARS = 20_000
_SEPARATORS = r"[\s().\-]*"
# A capitalised word at the end of a streamed text, glued to the letter before it.
_CAPITALISED_TAIL = re.compile(r"(?<=[^\W\d_])[A-Z][a-z]*$")


@dataclass(frozen=True, slots=True)
class _Target:
    real: str
    stand_in: str
    label: Label


def _key(text: str) -> str:
    """The key a stand-in is stored and looked up under: white space as one space, and each
    character as re.IGNORECASE sees it (str.casefold differs from the regex: "IŞIK" folds to
    "işik" but matches "Işık", whose casefold is "ışık"; the regex's fold keeps the length)."""
    return regex_fold(" ".join(text.split()))


def _case_pattern(text: str) -> str:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "none"
    if all(c.isupper() for c in letters):
        return "upper" if len(letters) > 1 else "title"
    if all(c.islower() for c in letters):
        return "lower"
    words = [w for w in text.split() if any(c.isalpha() for c in w)]
    if all(w[0].isupper() and (w[1:].islower() or not any(c.isalpha() for c in w[1:])) for w in words):
        return "title"
    return "mixed"


def _case_like(found: str, stand_in: str, real: str) -> str:
    """The real value in the letter case the LLM used for the stand-in: unchanged when
    the LLM wrote the stand-in as it was sent, else UPPER, lower or Title like the LLM."""
    said, sent = _case_pattern(found), _case_pattern(stand_in)
    if said == sent or said in ("mixed", "none") or not real:
        return real
    if said == "upper":
        return real.upper()
    if said == "lower":
        return real.lower()
    return " ".join(_title_word(w) for w in real.split(" "))


def _title_word(word: str) -> str:
    """The word's first *letter* upper-cased: a phone extension "555-0100x42" said as
    "...X42" comes back with its "X", not unchanged because the word starts with a digit."""
    first = next((i for i, c in enumerate(word) if c.isalpha()), None)
    if first is None:
        return word
    return word[:first] + word[first].upper() + word[first + 1:].lower()


# A word character of no CJK script: a Latin stand-in glued to a Korean particle or a
# Japanese honorific ("<name>은", "<name>さん", "<name>先生") ends where the script changes.
# The classes below are written case-sensitive ((?-i:...)) inside the case-insensitive
# alternation: they hold the same characters either way (tests/test_restore_prefilter.py
# checks every code point), and Python compiles a case-insensitive class of the CJK ranges
# ~3x slower (it looks up the case of every character of the ranges).
_NOT_CJK_WORD = f"(?-i:[^\\W{CJK}])"
# What may not touch a stand-in that starts or ends with a letter of these scripts: Korean
# glues particles to the end of a name (anything may follow it), Chinese and Japanese
# write no spaces (a name in Han characters may touch anything); a Katakana or Hiragana
# run continues with letters of its own kind.
_SAME_SCRIPT_BEFORE = {"HANGUL": f"(?<!(?-i:[{HANGUL}@]))", "KATAKANA": f"(?<!(?-i:[{KATAKANA}@]))",
                       "HIRAGANA": f"(?<!(?-i:[{HIRAGANA}@]))", "HAN": "(?<!@)"}
_SAME_SCRIPT_AFTER = {"HANGUL": "(?!@)", "KATAKANA": f"(?!(?-i:[{KATAKANA}@]))",
                      "HIRAGANA": f"(?!(?-i:[{HIRAGANA}@]))", "HAN": "(?!@)"}


# Python compiles a class of the CJK ranges in ~2 ms (it walks every character of the
# ranges), once per look-around: built into a conversation's alternation for every
# stand-in, that made restore 10-60 ms. So each conversation compiles a plain Latin
# version, exact for texts without CJK letters (there "a word character of no CJK script"
# is any word character), and the script-aware version only when an answer has such
# letters (has_cjk).


def _before(first: str, cjk: bool = True) -> str:
    """The look-behind a stand-in starting with `first` needs to start a word (`cjk`:
    the text may hold CJK letters)."""
    if first.isalpha():
        script = cjk_script(first)
        if script:
            return _SAME_SCRIPT_BEFORE[script]
        return f"(?<!{_NOT_CJK_WORD})(?<!@)" if cjk else r"(?<![\w@])"
    return r"(?<![\d+(])" if first.isdigit() else ""


def _after(last: str, cjk: bool = True, glued: bool = False) -> str:
    """The look-ahead a stand-in ending with `last` needs to end a word. A name may run on
    into the timestamp after it, as it was sent ("<name>Wed Mar 8"): a capitalised weekday
    or month name that no letter continues ends it too (`glued`: the text has such a
    word run-on; else the look-ahead is left out, as it costs compile time)."""
    if last.isalpha():
        script = cjk_script(last)
        if script:
            return _SAME_SCRIPT_AFTER[script]
        word_end = f"(?!{_NOT_CJK_WORD})(?!@)" if cjk else r"(?![\w@])"
        return f"(?:{word_end}|(?={CALENDAR_WORD}))" if glued else word_end
    return r"(?!\d)" if last.isdigit() else ""


def _bounds(surface: str, cjk: bool = True, glued: bool = False) -> tuple[str, str]:
    """The look-behind and look-ahead around a stand-in's pattern: a stand-in must stand
    alone: a name not inside a longer word (the start of a longer name), a number not inside a
    longer number ("2001-06-23" may be followed by "T00:00", as it was in the text sent).
    A change of script is a word's end too. Where a stand-in starts with a letter, the
    screen in front of every alternative (see CompiledRestorer._screen) has checked the
    word start already, with the same _before."""
    first = surface[:1]
    before = "" if first.isalpha() else _before(first, cjk)
    return before, _after(surface[-1:], cjk, glued)


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def _country_code(phone: str) -> str | None:
    for region in ("US", "GB", "IN", "DE", "FR", "AU"):
        try:
            number = phonenumbers.parse(phone, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_possible_number(number):
            return str(number.country_code)
    return None


def _written_like(found: str, target: _Target) -> str:
    """The real value written the way the LLM wrote the stand-in: its digits (or letters
    and digits) put into the LLM's layout ("4155550134", "+1 415.555.0134", an IBAN
    without spaces). Unchanged when the stand-in was written as sent."""
    if found == target.stand_in:
        return target.real
    if target.label in _DIGIT_LABELS:
        said, sent, real = _digits(found), _digits(target.stand_in), _digits(target.real)
        if len(real) != len(sent) or not said:
            return target.real
        if said == sent:
            return digits_into(found, real)
        if sent.endswith(said):  # the LLM dropped the country code
            return digits_into(found, real[len(real) - len(said) :])
        if said.endswith(sent):  # the LLM added it
            return digits_into(found, said[: len(said) - len(sent)] + real)
        return target.real
    if target.label is Label.IBAN:
        said, sent, real = (re.sub(r"[^0-9A-Za-z]", "", v).upper() for v in (found, target.stand_in, target.real))
        if said == sent and len(real) == len(sent):
            chars = iter(real)
            return "".join(next(chars) if ch.isalnum() else ch for ch in found)
    return target.real


class CompiledRestorer:
    """The reverse map of one conversation, compiled into one regex."""

    def __init__(self, entries: list[MapEntry]):
        # "the card ending 8623": the last digits of a swapped card or IBAN (restore/tails.py)
        self.tails = tail_map(entries)
        self.literal: dict[str, list[_Target]] = {}
        self.by_digits: dict[str, _Target] = {}
        self.by_alnum: dict[str, _Target] = {}
        self.fragments: set[str] = set()  # stand-in pieces to look for when flagging leftovers
        # (length, the surface its word bounds are read from, the pattern's body, the test
        # of whether the body may match an answer at all)
        patterns: list[tuple[int, str, str, Probe]] = []
        names = lexicon()
        for entry in entries:
            if entry.action is Action.KEEP or fold(entry.real) == fold(entry.stand_in):
                continue
            target = _Target(entry.real, entry.stand_in, entry.label)
            self._add_literal(entry.stand_in, target, patterns)
            if entry.action is Action.LABEL:
                bare = entry.stand_in.strip("[]")
                self._add_literal(bare, target, patterns)
                continue
            self.fragments.add(_key(entry.stand_in))
            if entry.label is Label.PERSON and entry.parent is None:
                real = parse_name(entry.real, None, names)
                fake = entry.stand_in.split()[len(real.titles) :][: len(real.parts)]
                if len(fake) == len(real.parts) and len(fake) > 1:
                    for real_part, fake_part, role in zip(real.parts, fake, real.roles):
                        if role != "initial" and len(fake_part) > 1:
                            self._add_literal(fake_part, _Target(real_part, fake_part, Label.PERSON), patterns)
                            self.fragments.add(_key(fake_part))
                if is_cyrillic_name(entry.stand_in):
                    # Russian and Ukrainian decline names: an answer may put the stand-in in
                    # another case ("Сергею Волкову" for "Сергеем Волковым" sent).
                    for fake_form, real_form in case_pairs(entry.real, entry.stand_in):
                        self._add_literal(fake_form, _Target(real_form, fake_form, Label.PERSON), patterns)
                        self.fragments.add(_key(fake_form))
            if entry.label is Label.ORG and entry.parent is None:
                # "Hartley" alone for "Hartley GmbH": the distinctive words map back too.
                real_words, fake_words = entry.real.split(), entry.stand_in.split()
                if len(real_words) == len(fake_words) > 1:
                    for real_word, fake_word in zip(real_words, fake_words):
                        # Not an everyday word alone ("Coast" of "Red Coast Plumbing"): the
                        # answer's own "coast" would come back as the real word.
                        if fold(real_word) != fold(fake_word) and len(fake_word) >= 3 and not is_common_word(fake_word):
                            self._add_literal(fake_word, _Target(real_word, fake_word, Label.ORG), patterns)
                            self.fragments.add(_key(fake_word))
            if entry.parent is None and entry.label in (Label.URL, Label.EMAIL):
                forms = url_forms(entry.real, entry.stand_in) if entry.label is Label.URL else []
                domain = email_domain_form(entry.real, entry.stand_in) if entry.label is Label.EMAIL else None
                for fake_form, real_form in forms + ([domain] if domain else []):
                    self._add_literal(fake_form, _Target(real_form, fake_form, entry.label), patterns)
                    self.fragments.add(_key(fake_form))
            if entry.label in _DIGIT_LABELS and len(_digits(entry.stand_in)) >= 7:
                digits = _digits(entry.stand_in)
                self.by_digits.setdefault(digits, target)
                # The LLM's own "(" or "+" in front belongs to the number it re-formatted.
                patterns.append((len(entry.stand_in), digits, r"\+?\(?" + _SEPARATORS.join(re.escape(d) for d in digits),
                                 Probe.digits(digits)))
                if entry.label is Label.PHONE and len(digits) > 10:
                    # The LLM may drop the country code: match the national number too.
                    national = digits[-10:]
                    self.by_digits.setdefault(national, target)
                    patterns.append((len(national), national, r"\+?\(?" + _SEPARATORS.join(national), Probe.digits(national)))
                code = _country_code(entry.stand_in) if entry.label is Label.PHONE else None
                if code and not digits.startswith(code):
                    # ...or add it (E.164: "+14155550134" for "(415) 555-0134").
                    self.by_digits.setdefault(code + digits, target)
                    body = r"\+" + _SEPARATORS.join(code + digits)
                    patterns.append((len(entry.stand_in) + 2, code + digits, body, Probe.digits(code + digits)))
            if entry.label is Label.DATE:
                self._add_date_forms(entry, patterns)
            if entry.label is Label.IBAN:
                compact = re.sub(r"[\s-]", "", entry.stand_in).upper()
                self.by_alnum.setdefault(compact, target)
                patterns.append((len(entry.stand_in), compact, r"[\s-]?".join(re.escape(c) for c in compact),
                                 Probe.compact(compact)))
        patterns.sort(key=lambda p: -p[0])
        self._patterns = patterns
        self._prefilter = Prefilter([probe for _, _, _, probe in patterns])
        # by (the text has CJK letters, a word run on into a weekday or month name) and which
        # patterns may match it (their indices)
        self._regexes: dict[tuple[tuple[bool, bool], tuple[int, ...]], tuple[frozenset[int], Alternation]] = {}
        self.has_patterns = bool(patterns)
        self.max_len = max((n for n, _, _, _ in patterns), default=0) + 4
        self._has_digits = bool(self.by_digits or self.by_alnum)

    @cached_property
    def prefixes(self) -> frozenset[str]:
        """Every beginning of a stand-in (folded): for streaming only, built on first use."""
        return frozenset(key[:i] for key in self.literal for i in range(1, len(key) + 1))

    def regex_for(self, source: str) -> Alternation | None:
        """The compiled alternation for searching `source` (see has_cjk): of the patterns
        that may match it only (None when none may). Compiling each stand-in's pattern
        with its look-arounds was most of the restore time of a short answer (a date has
        ten written forms, a person their name parts), and an answer holds few of them.
        Leaving out an alternative that matches nowhere in `source` changes no match (the
        first alternative that matches at the leftmost position still wins)."""
        if not self._patterns:
            return None
        if len(source) > _PROBED_MAX_CHARS:
            present = tuple(range(len(self._patterns)))
        else:
            present = self._prefilter.present(source)
            if not present:
                return None
        kind = (has_cjk(source), has_glued_calendar_word(source))
        cached = self._regexes.get((kind, present))
        regex = cached[1] if cached else None
        if regex is None:
            # One compiled for more patterns finds the same here (the others match nowhere
            # in `source`): a streamed chunk reuses the one of the answer so far. (A copy of
            # the items: another thread's stream of the conversation may add one meanwhile.)
            wanted = frozenset(present)
            regex = next((r for (k, _), (p, r) in tuple(self._regexes.items()) if k == kind and wanted <= p), None)
        if regex is None:
            if len(self._regexes) >= _MAX_COMPILED:  # a long stream meets many subsets
                self._regexes.clear()
            chosen = [self._patterns[i] for i in present]
            parts = [(before, body, after) for _, surface, body, _ in chosen for before, after in [_bounds(surface, *kind)]]
            regex = Alternation.bounded(self._screen(kind[0], chosen), parts)
            self._regexes[kind, present] = (frozenset(present), regex)
        return regex

    def _screen(self, cjk: bool, chosen: list[tuple[int, str, str, Probe]]) -> str:
        """Most positions of an answer start no stand-in: inside a word (a stand-in that
        starts with a letter needs a word start, see _bounds) or at a character no stand-in
        starts with. This look-around turns them away before the long alternation is
        tried (restore of long answers ~2x faster)."""
        # The first character of each alternative's surface (a number's pattern may start
        # with the LLM's own "+" or "("); the regex ignores case, so it is enough for each
        # letter, and its folded form is added as the map's keys are folded.
        firsts = {surface[:1] for _, surface, _, _ in chosen} | {_key(surface)[:1] for _, surface, _, _ in chosen}
        if any(surface[:1].isdigit() for _, surface, _, _ in chosen):
            firsts |= set("+(")
        by_before: dict[str, list[str]] = {}  # letters grouped by the word start they need
        for c in sorted(firsts):
            if c.isalpha():
                by_before.setdefault(_before(c, cjk), []).append(re.escape(c))
        others = "".join(re.escape(c) for c in sorted(firsts) if c and not c.isalpha())
        # The one-character look-ahead first: it turns most positions away at once.
        screens = [f"(?=[{''.join(letters)}]){before}" for before, letters in by_before.items()]
        screens += [f"(?=[{others}])"] if others else []
        return f"(?:{'|'.join(screens)})"

    def _add_date_forms(self, entry: MapEntry, patterns: list[tuple[int, str, str, Probe]]) -> None:
        """A shifted date the LLM writes another way ("1997-05-08" for "May 8, 1997") is
        the real date written that way."""
        said, real = parse_date(entry.stand_in), parse_date(entry.real)
        if said is None or real is None:
            return
        for render in DATE_RENDERINGS:
            surface = render(said)
            if fold(surface) != fold(entry.stand_in):
                self._add_literal(surface, _Target(render(real), surface, Label.DATE), patterns)

    def _add_literal(self, surface: str, target: _Target, patterns: list[tuple[int, str, str, Probe]]) -> None:
        key = _key(surface)
        if key in self.literal:
            # Case variants of one value ("ReLU"/"relu") share a folded stand-in.
            if all(t.stand_in != target.stand_in for t in self.literal[key]):
                self.literal[key].append(target)
            return
        self.literal[key] = [target]
        patterns.append((len(surface), surface, r"\s+".join(re.escape(part) for part in surface.split()), Probe.words(surface)))

    def lookup(self, found: str) -> _Target | None:
        candidates = self.literal.get(_key(found))
        target = None
        if candidates:
            target = next((t for t in candidates if t.stand_in == found), candidates[0])
        if target is None:
            target = self.by_digits.get(_digits(found))
        if target is None:
            target = self.by_alnum.get(re.sub(r"[\s-]", "", found).upper())
        return target

    def hold_back(self, pending: str) -> int:
        """How many trailing characters of pending might start a stand-in."""
        if not self.has_patterns:
            return 0
        folded = regex_fold(pending)
        hold = 0
        for k in range(min(len(folded), self.max_len), 0, -1):
            if folded[-k:] in self.prefixes or " ".join(folded[-k:].split()) in self.prefixes:
                hold = k
                break
        glued = _CAPITALISED_TAIL.search(pending, max(0, len(pending) - _LONGEST_CALENDAR_WORD))
        if glued and glued.group() in CALENDAR_PREFIXES:
            # "<stand-in>Tu" may go on as "<stand-in>Tue Jun 4": the stand-in, glued to the
            # beginning of a weekday or month name, waits until that word is whole.
            before = regex_fold(pending[max(0, glued.start() - self.max_len) : glued.start()])
            for k in range(len(before), max(0, hold - len(glued.group())), -1):
                if before[-k:] in self.literal or " ".join(before[-k:].split()) in self.literal:
                    hold = k + len(glued.group())
                    break
        if self._has_digits:
            tail = re.search(r"[\dA-Za-z\s().\-+]*$", pending[-self.max_len :])
            if tail and any(ch.isdigit() for ch in tail.group()):
                hold = max(hold, len(tail.group()))
        return hold

    def restore(
        self, text: str, *, offset: int = 0, context_before: str = "", context_after: str = "",
        regex: Alternation | None | EllipsisType = ...,
    ) -> tuple[str, list[RestoredSpan]]:
        """(restored text, spans with offsets shifted by `offset`). The contexts are the
        characters around text in a stream, for the word-boundary checks only. `regex`: the
        alternation regex_for gave for a text that holds context_before + text +
        context_after (the same matches here: a pattern that may match a part may match
        the whole), so a stream probes each chunk once."""
        if not self.has_patterns:
            return text, []
        out: list[str] = []
        spans: list[RestoredSpan] = []
        position = 0
        length = offset
        source = context_before + text + context_after
        shift = len(context_before)
        if regex is ...:
            regex = self.regex_for(source)
        if regex is None:  # no stand-in of the map is in the text
            return text, []
        for match in regex.finditer(source, shift, shift + len(text) + len(context_after)):
            start, end = match.start() - shift, match.end() - shift
            if end > len(text):
                break
            target = self.lookup(match.group())
            if target is None:
                continue
            out.append(text[position:start])
            length += start - position
            real = _case_like(match.group(), target.stand_in, _written_like(match.group(), target))
            out.append(real)
            spans.append(RestoredSpan(length, length + len(real), real, match.group(), target.label))
            length += len(real)
            position = end
        out.append(text[position:])
        return "".join(out), spans

    def leftovers(self, restored: str, spans: list[RestoredSpan]) -> list[str]:
        """Stand-in fragments still in the answer outside the restored spans (e.g. the LLM
        inflected a name: "Clarkes"), so the UI can flag the answer."""
        if not self.fragments:
            return []
        masked = list(regex_fold(restored))  # same length: positions stay those of `restored`
        for span in spans:
            for i in range(span.start, min(span.end, len(masked))):
                masked[i] = "\0"
        haystack = "".join(masked)
        return sorted(f for f in self.fragments if len(f) >= 3 and f in haystack)


class Restorer:
    """Restores answers for conversations; a compiled map is cached per conversation
    object and map revision (a conversation re-created under the same id is another)."""

    def __init__(self) -> None:
        self._cache: weakref.WeakKeyDictionary[Conversation, tuple[int, CompiledRestorer]] = weakref.WeakKeyDictionary()

    def compiled(self, conversation: Conversation) -> CompiledRestorer:
        cached = self._cache.get(conversation)
        if cached is None or cached[0] != conversation.revision:
            revision = conversation.revision
            cached = (revision, CompiledRestorer(conversation.entries))
            self._cache[conversation] = cached
        return cached[1]

    def restore(self, text: str, conversation: Conversation) -> RestoreResult:
        compiled = self.compiled(conversation)
        restored, spans = compiled.restore(text)
        restored, tail_spans = put_back_tails(restored, compiled.tails)
        if tail_spans:
            spans = sorted(spans + tail_spans, key=lambda s: s.start)
        return RestoreResult(restored, spans, compiled.leftovers(restored, spans))

    def streaming(self, conversation: Conversation) -> StreamingRestorer:
        return StreamingRestorer(self.compiled(conversation))


# How much shown text a card's last digits may look back on for their cue ("last four
# digits of your card are").
_TAIL_CONTEXT = 48


@dataclass(slots=True)
class RestoredChunk:
    text: str  # restored text to show now
    spans: list[RestoredSpan] = field(default_factory=list)  # offsets in the whole restored answer


class StreamingRestorer:
    """Chunks in, safe restored text out. Holds back at most the longest stand-in."""

    def __init__(self, compiled: CompiledRestorer):
        self._compiled = compiled
        self._pending = ""
        self._emitted = 0  # length of restored text emitted so far
        self._last_char = ""  # for the word-boundary check at the start of pending
        self._received: list[str] = []
        self._shown: list[str] = []
        self._spans: list[RestoredSpan] = []
        self._shown_tail = ""  # the last characters shown: the cue of a card's last digits

    def feed(self, chunk: str) -> RestoredChunk:
        self._received.append(chunk)
        self._pending += chunk
        hold = self._compiled.hold_back(self._pending)
        cut = len(self._pending) - hold
        regex: Alternation | None | EllipsisType = ...
        if self._compiled.has_patterns and cut > 0:
            # A match that starts before the cut but ends after it must wait whole.
            source = self._last_char + self._pending
            regex = self._compiled.regex_for(source)
            matches = regex.finditer(source, len(self._last_char)) if regex is not None else ()
            for match in matches:
                start = match.start() - len(self._last_char)
                end = match.end() - len(self._last_char)
                if start < cut < end:
                    cut = start
                    break
        if self._compiled.tails:
            # A run of digits is shown whole: "8623" cut as "86" + "23" is no card's tail.
            while 0 < cut < len(self._pending) and self._pending[cut - 1].isdigit() and self._pending[cut].isdigit():
                cut -= 1
        return self._emit(cut, regex)

    def finish(self) -> RestoredChunk:
        return self._emit(len(self._pending))

    def _emit(self, cut: int, regex: Alternation | None | EllipsisType = ...) -> RestoredChunk:
        """Restore and show pending[:cut]; `regex`: regex_for(last char + pending), if known."""
        if cut <= 0:
            return RestoredChunk("")
        ready = self._pending[:cut]
        # A stand-in ending exactly at the cut is safe: hold_back kept back any ending that
        # the next characters could still extend.
        restored, spans = self._compiled.restore(
            ready, offset=self._emitted, context_before=self._last_char,
            context_after=self._pending[cut : cut + _LONGEST_CALENDAR_WORD + 1],  # _after may read a glued word
            regex=regex,
        )
        if self._compiled.tails:
            context = self._shown_tail
            restored, tail_spans = put_back_tails(context + restored, self._compiled.tails, start=len(context),
                                                  offset=self._emitted)
            if tail_spans:
                spans = sorted(spans + tail_spans, key=lambda s: s.start)
            self._shown_tail = (context + restored)[-_TAIL_CONTEXT:]
        self._pending = self._pending[cut:]
        self._last_char = ready[-1:]
        self._emitted += len(restored)
        self._shown.append(restored)
        self._spans.extend(spans)
        return RestoredChunk(restored, spans)

    @property
    def received(self) -> str:
        """Everything the provider sent (stand-ins), for the vault."""
        return "".join(self._received)

    def result(self) -> RestoreResult:
        shown = "".join(self._shown)
        return RestoreResult(shown, list(self._spans), self._compiled.leftovers(shown, self._spans))
