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

import unicodedata
from functools import lru_cache

from agent.entities import Action, Label
from agent.session.conversation import Conversation
from agent.substitute.persons import PersonSurrogates

Person = tuple[str, str, str, str]


def handle_form(name: str) -> str:
    """A name as handles write it: "O'Connell" -> "oconnell", "Zoë" -> "zoe"."""
    decomposed = unicodedata.normalize("NFKD", name.casefold().replace("ß", "ss").replace("đ", "d"))
    return "".join(c for c in decomposed if c.isascii() and c.isalnum())


@lru_cache(maxsize=1)
def _nick_namer():
    from nicknames import NickNamer

    return NickNamer()


def nickname_pairs(real_first: str, fake_first: str) -> list[tuple[str, str]]:
    """(a name the real first name also goes by, what the stand-in goes by then): its
    nicknames and, for a nickname, its full forms; the stand-in's matching form where the
    list has one ("bob" -> "mike" for Robert -> Michael), else its first name."""
    namer = _nick_namer()
    real, fake = real_first.casefold(), fake_first.casefold()

    def names(found: set[str]) -> list[str]:  # the list also has abbreviations ("c.", "chas.")
        return sorted((n for n in found if n.isalpha() and len(n) >= 2), key=lambda n: (len(n), n))

    pairs = []
    for kind, others in (("nick", namer.nicknames_of(real)), ("full", namer.canonicals_of(real))):
        fake_forms = names(namer.nicknames_of(fake) if kind == "nick" else namer.canonicals_of(fake))
        for other in names(others):
            pairs.append((other, fake_forms[0] if fake_forms else fake))
    return pairs


def people_for_handles(conversation: Conversation, persons: PersonSurrogates) -> list[Person]:
    """Full names first ("sarah.mitchell" is Sarah Mitchell's, not a lone Sarah's), their
    nicknames after them, then people known by one name."""
    full: list[Person] = []
    nicknamed: list[Person] = []
    single: list[Person] = []
    for entry in conversation.entries:
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
    return full + nicknamed + single
