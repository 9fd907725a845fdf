"""The people an e-mail's local part or a user name may be built from, as the formats
module matches them: (real first, real last, stand-in first, stand-in last), written the
way handles write names (lower case, no accents, no apostrophes, hyphens or spaces:
"O'Connell" -> "oconnell", "van der Berg" -> "vanderberg").

Every person of the conversation's map counts, whichever message named them, so
"s.oconnell@..." gets the stand-in of the Siobhan O'Connell mapped three turns ago.
A first name also stands for its nicknames and the other way round (the `nicknames`
package's hand-curated English list): "bob.smith@" is Robert Smith's, and gets the
stand-in's nickname when it has one ("mike.jones@" for Michael Jones).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from agent.entities import Action, Label
from agent.session.conversation import Conversation, MapEntry
from agent.session.map_cache import MapCache
from agent.substitute.nickname_forms import nickname_pairs
from agent.substitute.persons import PersonSurrogates

Person = tuple[str, str, str, str]


def handle_form(name: str) -> str:
    """A name as handles write it: "O'Connell" -> "oconnell", "Zoë" -> "zoe"."""
    decomposed = unicodedata.normalize("NFKD", name.casefold().replace("ß", "ss").replace("đ", "d"))
    return "".join(c for c in decomposed if c.isascii() and c.isalnum())


def people_for_handles(conversation: Conversation, persons: PersonSurrogates) -> list[Person]:
    """Full names first ("sarah.mitchell" is Sarah Mitchell's, not a lone Sarah's), their
    nicknames after them, then people known by one name."""
    people: _People = ([], [], [])
    _take_in(people, conversation.entries, persons)
    return _in_order(people)


class HandlePeople:
    """people_for_handles per conversation, kept up to date with the map's new entries
    (an e-mail address is made for every new one: reading the whole map each time made a
    big text's time grow with its square)."""

    def __init__(self, persons: PersonSurrogates):
        self.persons = persons
        self._people: MapCache[_People] = MapCache(lambda: ([], [], []),
                                                   lambda people, entries: _take_in(people, entries, persons))

    def get(self, conversation: Conversation) -> list[Person]:
        return _in_order(self._people.get(conversation))


# (full names, their nicknames, people known by one name)
_People = tuple[list[Person], list[Person], list[Person]]


def _in_order(people: _People) -> list[Person]:
    full, nicknamed, single = people
    return full + nicknamed + single


def _take_in(people: _People, entries: Sequence[MapEntry], persons: PersonSurrogates) -> None:
    full, nicknamed, single = people
    for entry in entries:
        if entry.label is not Label.PERSON or entry.action is not Action.REPLACE:
            continue
        parts = persons.mapped_parts(entry, with_particles=True)
        firsts = [p for p in parts if p.role == "first"]
        lasts = [p for p in parts if p.role == "last"]
        first = (handle_form(firsts[0].real), handle_form(firsts[0].stand_in)) if firsts else None
        last = (handle_form(lasts[-1].real), handle_form(lasts[-1].stand_in)) if lasts else None
        if first and not all(first) or last and not all(last):
            continue  # a name in a script handles do not write (their stand-ins stay random)
        if first and last:
            full.append((first[0], last[0], first[1], last[1]))
            nicknamed += [(nick, last[0], fake_nick, last[1]) for nick, fake_nick in nickname_pairs(*first)]
        elif first:
            single.append((first[0], "", first[1], ""))
            single += [(nick, "", fake_nick, "") for nick, fake_nick in nickname_pairs(*first)]
        elif last:  # "Mr. Henderson": "henderson@" is his
            single.append((last[0], "", last[1], ""))


# Occurrences in pyspellchecker's subtitle list above which a name is also a word someone
# says ("cox" 114, "hardy" 913; "kowalski" 0).
_WORD_IN_SUBTITLES = 100
# A run of letters draws from words of its length, or of lengths near it until there are
# this many to draw from.
_FEWEST_WORDS = 30


@lru_cache(maxsize=2)
def _handle_words(surnames_only: bool = False) -> dict[int, tuple[str, ...]]:
    """Lower-case words handles are made of (first names, surnames, everyday brand words;
    or surnames only, for the surname of "mgarcia"), by length. A name that is also an
    everyday English word ("Gay", "Butts", "Randy") is left out: in a lower-case handle it
    reads as the word ("@gay-kristopher-0"), and the name lists are used unfiltered elsewhere."""
    from agent.knowledge.names import lexicon
    from agent.knowledge.org_words import BRAND_WORDS
    from agent.knowledge.words import word_frequency

    names = lexicon()
    listed = names.last_names("en_US") if surnames_only else names.first_names("en_US", "any") + names.last_names("en_US")
    words = {w for w in {w.casefold() for w in listed} if word_frequency(w) < _WORD_IN_SUBTITLES}
    if not surnames_only:
        words |= {w.casefold() for w in BRAND_WORDS}
    by_length: dict[int, list[str]] = {}
    for word in sorted(words):
        if word.isascii() and word.isalpha():
            by_length.setdefault(len(word), []).append(word)
    return {n: tuple(ws) for n, ws in by_length.items()}


def handle_like(seed: int, handle: str) -> str:
    """A handle of the same shape built of words, not random letters ("coolguy92" ->
    "maplebay47", "j.doe_work" -> "k.lee_rock"): each run of letters becomes a word of
    about its length in its case, digits change, separators stay. The same handle gets
    the same stand-in in a conversation, as a user name and as an e-mail's local part."""
    from agent.substitute.rng import rng_for, same_shape

    rng = rng_for(seed, "handle", handle.casefold())

    def word_for(run: str, words: dict[int, tuple[str, ...]] | None = None) -> str:
        words = _handle_words() if words is None else words
        for spread in (0, 1, 2, 3):
            pool = [w for n in range(len(run) - spread, len(run) + spread + 1) for w in words.get(n, ()) if w != run.casefold()]
            if len(pool) >= _FEWEST_WORDS:  # two handles of one shape rarely draw the same word
                break
        if not pool and len(run) >= 8:
            # longer than any listed word ("thimblewickandfriends"): two words, as such handles are made
            half = len(run) // 2
            return word_for(run[:half], words) + word_for(run[half:].lower() if run[:1].isupper() else run[half:], words)
        word = rng.choice(pool) if pool and len(run) > 1 else rng.choice("abcdefghijklmnoprstvw")
        if run.isupper() and len(run) > 1:
            return word.upper()
        return word[:1].upper() + word[1:] if run[:1].isupper() else word

    from agent.detect.logins import initials_and_surname

    out = []
    for match in re.finditer(r"[A-Za-z]+|\d+|[^A-Za-z\d]+", handle):
        run = match.group()
        initials = initials_and_surname(run) if run.islower() else 0
        if initials:
            # "mgarcia": initials and a surname stay that ("tvazquez"), not one word ("lantern")
            surname = word_for(run[initials:], _handle_words(surnames_only=True))
            out.append("".join(rng.choice("abcdefghijklmnoprstvw") for _ in range(initials)) + surname)
        elif run.isalpha() and not run.isupper() and not run.islower():
            # "SoYoureLikeThat", "MarlowQuist": a word for each capitalised part, so the
            # stand-in reads as the same kind of handle ("LuKarenOakDean"), not one long word
            out.extend(word_for(part) for part in _CAMEL_PART.findall(run))
        else:
            out.append(word_for(run) if run.isalpha() else same_shape(rng, run) if run.isdigit() else run)
    return "".join(out)


# The parts of a camel-case run: "So|Youre|Like|That", "JSON|Parser", "i|Phone".
_CAMEL_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+")


# Local parts that name a role, not a person: kept as they are when the domain changes.
_ROLE_LOCALS = frozenset({
    "info", "contact", "support", "sales", "admin", "office", "hello", "team", "billing", "hr", "jobs", "careers",
    "noreply", "no-reply", "help", "enquiries", "inquiries", "accounts", "mail", "webmaster", "press", "service",
    "bookings", "reservations", "orders", "privacy", "security", "legal", "marketing", "reception",
})


def worded_email(seed: int, real: str, fake: str, people: list[Person]) -> str:
    """The e-mail stand-in `fake` with a local part of words where no person's name made
    it ("xupzsj.bhvms@..." read as noise): "j.doe_work@" -> "k.lee_rock@", a role address
    ("info@") kept. Obfuscated forms ("john [at] ...") are left as the formats module wrote them."""
    from agent.substitute.formats import email_local_pattern

    local, at, _ = real.rpartition("@")
    _, fake_at, fake_domain = fake.rpartition("@")
    if not at or not fake_at or not re.fullmatch(r"[\w.+\-]+", local):
        return fake
    if any(email_local_pattern(local, first, last) for first, last, _, _ in people):
        return fake  # built from a person's stand-in
    if local.casefold() in _ROLE_LOCALS and fake_domain.casefold() != real.rpartition("@")[2].casefold():
        return f"{local}@{fake_domain}"
    return f"{handle_like(seed, local)}@{fake_domain}"
