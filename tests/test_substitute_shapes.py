"""Stand-ins a demanding reader would not notice (issue 15 item 4): each keeps the shape
of its real value. Persons keep their surname as a surname, the look of an Irish, Scottish
or Dutch surname, their accents, their origin and the order of their names; e-mails and
user names are built from the person's stand-in; dates and times move by one offset;
places stay in their country and size; businesses stay businesses.

Sentences are written for these tests. Property tests draw conversation seeds, so a
shape must hold for every seed, not for one lucky draw.
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.entities import Action, Label
from agent.knowledge.names import lexicon
from agent.session.conversation import Conversation

seeds = st.integers(min_value=0, max_value=2**63 - 1)
prop = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def sanitize(engine, text, seed=1, conversation=None, replace=()):
    """`replace`: values the user chose to replace in the preview (so a test of a stand-in's
    shape does not hang on whether relevance would have kept the value)."""
    conversation = conversation or Conversation(seed=seed)
    return engine.sanitize(text, conversation, {value: Action.REPLACE for value in replace}), conversation


def sent_for(result, real: str, label: Label | None = None) -> str:
    matches = [e for e in result.entities if e.real == real and (label is None or e.label is label)]
    assert matches, f"{real!r} not detected in {result.original!r}: {[(e.real, e.label) for e in result.entities]}"
    assert matches[0].action is Action.REPLACE, f"{real!r} was {matches[0].action} ({matches[0].reason})"
    return matches[0].sent


def without_accents(name: str) -> str:
    name = name.replace("đ", "d").replace("Đ", "D")
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))


def pool(locale: str, key: str) -> set[str]:
    return set(lexicon().pools[locale].get(key, ()))


def every_pool(*keys: str) -> set[str]:
    return {name for pools in lexicon().pools.values() for key in keys for name in pools.get(key, ())}


# -- persons: a title and one name is a surname -------------------------------------
@prop
@given(seed=seeds)
def test_title_and_one_name_gets_a_surname_that_a_later_full_name_keeps(privacy_engine, seed):
    conversation = Conversation(seed=seed)
    first, _ = sanitize(privacy_engine, "Please forward the lease to Mr. Henderson before Friday.", conversation=conversation, replace=["Henderson"])
    surname = sent_for(first, "Henderson", Label.PERSON)
    assert " " not in surname and lexicon().is_last_name(surname), surname
    later, _ = sanitize(privacy_engine, "John Henderson signed it yesterday, says my landlord.", conversation=conversation, replace=["John Henderson"])
    full = sent_for(later, "John Henderson", Label.PERSON)
    assert full.split()[-1] == surname, (surname, full)


@prop
@given(seed=seeds)
def test_title_and_surname_then_full_name_in_one_text(privacy_engine, seed):
    result, _ = sanitize(privacy_engine, "Mr. Henderson rang twice. John Henderson is our landlord.", seed, replace=["Henderson", "John Henderson"])
    surname = sent_for(result, "Henderson", Label.PERSON)
    assert sent_for(result, "John Henderson", Label.PERSON).split()[-1] == surname


# -- persons: the shape of a surname ------------------------------------------------------
@prop
@given(seed=seeds, apostrophe=st.sampled_from(["'", "’"]))
def test_an_irish_o_name_gets_an_o_name(privacy_engine, seed, apostrophe):
    real = f"Siobhan O{apostrophe}Connell"
    result, _ = sanitize(privacy_engine, f"My physiotherapist {real} moved her practice last spring.", seed, replace=[real])
    fake = sent_for(result, real, Label.PERSON)
    assert re.fullmatch(rf"[A-Z][a-z]+ O{apostrophe}[A-Z][a-z]+", fake), fake
    assert not fake.endswith("Connell")


@prop
@given(seed=seeds)
def test_particles_stay_and_the_surname_after_them_changes(privacy_engine, seed):
    result, _ = sanitize(privacy_engine, "Our neighbour Anneke van der Berg lent us her ladder again.", seed, replace=["Anneke van der Berg"])
    fake = sent_for(result, "Anneke van der Berg", Label.PERSON)
    assert re.fullmatch(r"\S+ van der [A-Z]\S+", fake), fake
    assert fake.split()[-1] != "Berg" and fake.split()[0] != "Anneke"


@prop
@given(seed=seeds, case=st.sampled_from([("Got a text from De Silva about the keys.", "De Silva"),
                                         ("Meeting with Da Costa at 3, can you draft an agenda?", "Da Costa")]))
def test_a_surname_that_opens_with_a_capital_particle_keeps_it(privacy_engine, seed, case):
    """"De Silva" alone is a surname (its stand-in was "Thomas Lefebvre")."""
    text, real = case
    result, _ = sanitize(privacy_engine, text, seed, replace=[real])
    fake = sent_for(result, real, Label.PERSON)
    particle, surname = real.split()
    assert fake.startswith(particle + " ") and len(fake.split()) == 2 and surname not in fake, fake


@prop
@given(seed=seeds, case=st.sampled_from([
    ("Ask Van der Berg about the invoice before Friday.", "Van der Berg"),
    ("Please email Jan van den Heuvel about the Rotterdam office.", "Jan van den Heuvel"),
    ("De la Cruz signed the lease, and the deposit came a week later.", "De la Cruz"),
]))
def test_a_name_cut_at_its_particles_is_one_name_with_one_stand_in(privacy_engine, seed, case):
    """spaCy cut these at the particles ("Van" + "Berg", "Jan van" + "Heuvel"), and each
    piece got a stand-in of its own: "Fatih der Billy", "Murat weimer den Slaetsdochter"."""
    text, real = case
    result, conversation = sanitize(privacy_engine, text, seed, replace=[real])
    fake = sent_for(result, real, Label.PERSON)
    real_words, fake_words = real.split(), fake.split()
    assert len(fake_words) == len(real_words), fake
    particles = [w for w in real_words if w.casefold() in ("van", "der", "den", "de", "la")]
    assert [w for w in fake_words if w.casefold() in ("van", "der", "den", "de", "la")] == particles, fake
    assert real_words[-1] not in fake, fake
    answer = f"I have written to {fake} about it."
    assert privacy_engine.restore(answer, conversation).text == f"I have written to {real} about it."


@prop
@given(seed=seeds)
def test_double_barrelled_surname_gets_two(privacy_engine, seed):
    result, _ = sanitize(privacy_engine, "The contract names Thandeka Obi-Lindqvist as the tenant.", seed, replace=["Thandeka Obi-Lindqvist"])
    fake = sent_for(result, "Thandeka Obi-Lindqvist", Label.PERSON)
    assert re.fullmatch(r"\S+ [A-Z][^\s-]+-[A-Z][^\s-]+", fake), fake


@prop
@given(seed=seeds)
def test_accents_kept_or_left_out_as_written(privacy_engine, seed):
    result, _ = sanitize(privacy_engine, "My cousin and her friend José García are visiting in May.", seed, replace=["José García"])
    fake = sent_for(result, "José García", Label.PERSON)
    assert all(not token.isascii() for token in fake.split()), fake
    result, _ = sanitize(privacy_engine, "My accountant Nguyen Van Minh filed the return.", seed, replace=["Nguyen Van Minh"])
    fake = sent_for(result, "Nguyen Van Minh", Label.PERSON)
    assert fake.isascii(), fake
    assert fake.split()[0] in {without_accents(n) for n in pool("vi_VN", "last")}, fake  # family name first


# -- persons: origin, order and gender ---------------------------------------------------
@prop
@given(seed=seeds)
def test_japanese_names_in_latin_letters_stay_japanese_in_their_order(privacy_engine, seed):
    result, _ = sanitize(privacy_engine, "I met Yuki Tanaka and Kobayashi Hiroshi at the ceramics class.", seed, replace=["Yuki Tanaka", "Kobayashi Hiroshi"])
    given_name, family = sent_for(result, "Yuki Tanaka", Label.PERSON).split()
    japanese_given = pool("ja_JP-Latn", "male") | pool("ja_JP-Latn", "female") | pool("ja_JP-Latn", "any")
    assert given_name in japanese_given and family in pool("ja_JP-Latn", "last")
    family, given_name = sent_for(result, "Kobayashi Hiroshi", Label.PERSON).split()
    assert family in pool("ja_JP-Latn", "last") and given_name in pool("ja_JP-Latn", "male")


@prop
@given(seed=seeds)
def test_a_surname_in_capitals_before_the_given_name_stays_a_surname_in_capitals(privacy_engine, seed):
    # A class list in the "SURNAME Given" form of French and Moroccan school rosters.
    text = "Team captains this term: LAMBERT Chloe, then MOREAU Julien for the juniors."
    result, _ = sanitize(privacy_engine, text, seed, replace=["LAMBERT Chloe", "MOREAU Julien"])
    for real in ("LAMBERT Chloe", "MOREAU Julien"):
        family, given_name = sent_for(result, real, Label.PERSON).split()
        assert family.isupper() and not given_name.isupper(), (real, family, given_name)
        assert family.title() in every_pool("last"), (real, family)
        assert given_name in every_pool("male", "female", "any"), (real, given_name)


@prop
@given(seed=seeds)
def test_a_hyphenated_first_name_keeps_its_gender(privacy_engine, seed):
    result, _ = sanitize(privacy_engine, "My cousin Mary-Kate Olsen is visiting next week.", seed, replace=["Mary-Kate Olsen"])
    first = sent_for(result, "Mary-Kate Olsen", Label.PERSON).split()[0]
    assert all(half in pool("en_US", "female") for half in first.split("-")), first


@prop
@given(seed=seeds, case=st.sampled_from([
    ("Special thanks to Priyanka Nair and the whole team.", "Priyanka Nair", "female"),
    ("The keys are with Tanvir Chowdhury until Monday.", "Tanvir Chowdhury", "male"),
]))
def test_a_first_name_no_list_has_takes_its_sex_from_how_names_of_its_origin_end(privacy_engine, seed, case):
    """Neither first name is in a list; the surnames are Indian, and Indian first names
    ending "-ka" are women's, those ending "-r" men's."""
    text, real, sex = case
    result, _ = sanitize(privacy_engine, text, seed, replace=[real])
    first = sent_for(result, real, Label.PERSON).split()[0]
    assert first in every_pool(sex), first


@prop
@given(seed=seeds)
def test_mc_and_mac_names_keep_their_prefix_and_capital(privacy_engine, seed):
    result, _ = sanitize(privacy_engine, "My tutor, Ewan McDonald, marks the essays.", seed, replace=["Ewan McDonald"])
    assert re.fullmatch(r"[A-Z][a-z]+ Mc[A-Z][a-z]+", sent_for(result, "Ewan McDonald", Label.PERSON))
    result, _ = sanitize(privacy_engine, "Dear Fiona MacLeod, the essays are marked.", seed, replace=["Fiona MacLeod"])
    assert re.fullmatch(r"[A-Z][a-z]+ Mac[A-Z][a-z]+", sent_for(result, "Fiona MacLeod", Label.PERSON))


# -- organisations: a business named by words and its trade --------------------------
@prop
@given(seed=seeds)
def test_a_business_named_with_words_and_a_trade_gets_words_and_the_trade(privacy_engine, seed):
    from agent.knowledge.org_words import BRAND_WORDS

    text = "I'm the office manager at Bright Smile Dental and need a rota for our two hygienists."
    result, _ = sanitize(privacy_engine, text, seed, replace=["Bright Smile Dental"])
    assert [e.real for e in result.entities if e.label is Label.PERSON] == []
    fake = sent_for(result, "Bright Smile Dental", Label.ORG)
    first, second, trade = fake.split()
    assert trade == "Dental" and first in BRAND_WORDS and second in BRAND_WORDS, fake
    text = "I run Rapid Flow Plumbing with my brother and we need a logo."
    result, _ = sanitize(privacy_engine, text, seed, replace=["Rapid Flow Plumbing"])
    assert sent_for(result, "Rapid Flow Plumbing", Label.ORG).endswith(" Plumbing")


@prop
@given(seed=seeds)
def test_a_business_named_after_a_person_is_one_organisation(privacy_engine, seed):
    text = "I do the books for Dana Brooks Consulting and the VAT return is late."
    result, _ = sanitize(privacy_engine, text, seed, replace=["Dana Brooks Consulting"])
    fake = sent_for(result, "Dana Brooks Consulting", Label.ORG)
    assert len(fake.split()) == 3 and fake.endswith(" Consulting") and "Dana" not in fake and "Brooks" not in fake


# -- places: same country, same size ---------------------------------------------------
@prop
@given(seed=seeds)
def test_a_town_gets_a_town_of_its_country_and_size(privacy_engine, seed):
    from agent.substitute.towns import size_class, towns

    result, _ = sanitize(privacy_engine, "I live in Springfield with my two kids and work nights.", seed, replace=["Springfield"])
    fake = sent_for(result, "Springfield", Label.LOCATION)
    best = towns().readings(fake)[0]  # how a reader takes the stand-in: its best-known town
    assert best.country == "US", (fake, best)
    assert abs(size_class(best.population) - size_class(towns().readings("Springfield")[0].population)) <= 1, (fake, best)


@prop
@given(seed=seeds, where=st.sampled_from([("England", "GB"), ("Massachusetts", "US")]))
def test_a_town_name_many_countries_share_takes_the_country_of_the_text(privacy_engine, seed, where):
    from agent.substitute.towns import towns

    region, country = where
    result, _ = sanitize(privacy_engine, f"My grandmother still lives in Cambridge, {region}, near the river.", seed, replace=["Cambridge"])
    fake = sent_for(result, "Cambridge", Label.LOCATION)
    # The region is written beside it, so a town of that country is how it reads, even
    # one whose name a bigger town elsewhere shares ("Portsmouth, Virginia").
    assert any(t.country == country for t in towns().readings(fake)), fake


@prop
@given(seed=seeds)
def test_an_address_town_stays_in_the_state_it_keeps(privacy_engine, seed):
    from agent.substitute.towns import towns

    result, _ = sanitize(privacy_engine, "Ship it to 42 Elm Street, Springfield, IL 62704 please.", seed, replace=["42 Elm Street, Springfield, IL 62704"])
    address = next(e for e in result.entities if e.label is Label.ADDRESS)
    number, rest = address.sent.split(" ", 1)
    assert number[0] != "0" and rest.split(",")[0].endswith(" Street"), address.sent
    town = address.sent.split(",")[1].strip()
    assert any((t.country, t.region) == ("US", "IL") for t in towns().readings(town)), address.sent


TOWN_AND_STATE = [
    ("I moved from Boise, Idaho to Leeds last year; how do I transfer my car title?", "Boise", "Idaho"),
    ("My landlord in Tacoma, Washington won't return my deposit.", "Tacoma", "Washington"),
    ("My mum was treated at a hospital in Dayton, Ohio. How do I request her records?", "Dayton", "Ohio"),
]


@prop
@given(seed=seeds, case=st.sampled_from(TOWN_AND_STATE), forced=st.sampled_from([(), (0,), (1,), (0, 1)]))
def test_a_town_written_with_its_state_is_sent_in_the_state_sent(privacy_engine, seed, case, forced):
    """Whichever of the two is swapped (by the judge, or by the user: `forced`), the town
    sent lies in the state sent ("Tucson, Nebraska" and "Dayton, North Dakota" were sent)."""
    from agent.substitute.towns import towns, us_state_code

    text, town, state = case
    result, _ = sanitize(privacy_engine, text, seed, replace=[(town, state)[i] for i in forced])
    sent_town, sent_state = (next(e.sent for e in result.entities if e.real == v) for v in (town, state))
    assert f"{sent_town}, {sent_state}" in result.sanitized, result.sanitized
    code = us_state_code(sent_state)
    assert code and any((t.country, t.region) == ("US", code) for t in towns().readings(sent_town)), result.sanitized


@prop
@given(seed=seeds)
def test_a_small_town_someone_lives_in_is_a_town_not_a_person(privacy_engine, seed):
    """spaCy reads "Moab" as a person; after "lives in" a GeoNames town of 5,000 people is
    a place, and its stand-in a town."""
    from agent.substitute.towns import towns

    result, _ = sanitize(privacy_engine, "My mum lives in Moab and I visit her every month; what gift should I bring?", seed)
    moab = next(e for e in result.entities if e.real == "Moab")
    assert moab.label is Label.LOCATION and moab.action is Action.REPLACE and towns().readings(moab.sent), moab


# -- e-mails and user names built from the person's stand-in ---------------------------
def handle(name: str) -> str:
    from agent.substitute.handles import handle_form

    return handle_form(name)


@prop
@given(seed=seeds)
def test_email_of_an_irish_name_follows_the_persons_stand_in(privacy_engine, seed):
    text = "Contact Siobhan O'Connell at soconnell@gmail.com or siobhan.oconnell@harbourline.ie about the lease."
    result, _ = sanitize(privacy_engine, text, seed, replace=["Siobhan O'Connell"])
    first, last = sent_for(result, "Siobhan O'Connell", Label.PERSON).split()
    assert sent_for(result, "soconnell@gmail.com", Label.EMAIL) == f"{handle(first)[0]}{handle(last)}@gmail.com"
    local = sent_for(result, "siobhan.oconnell@harbourline.ie", Label.EMAIL).split("@")[0]
    assert local == f"{handle(first)}.{handle(last)}"


@prop
@given(seed=seeds)
def test_email_written_before_the_name_and_with_a_nickname(privacy_engine, seed):
    from nicknames import NickNamer

    text = "Write to rob.mitchell@keystonegroup.com; Robert Mitchell handles refunds."
    result, _ = sanitize(privacy_engine, text, seed, replace=["Robert Mitchell"])
    first, last = sent_for(result, "Robert Mitchell", Label.PERSON).split()
    nick, _, surname = sent_for(result, "rob.mitchell@keystonegroup.com", Label.EMAIL).split("@")[0].partition(".")
    assert surname == handle(last)
    assert nick == handle(first) or nick in NickNamer().nicknames_of(first.casefold()), (nick, first)


@prop
@given(seed=seeds)
def test_email_follows_a_person_mapped_in_an_earlier_message(privacy_engine, seed):
    conversation = Conversation(seed=seed)
    earlier, _ = sanitize(privacy_engine, "My landlord is Thomas O'Brien and he never answers.", conversation=conversation,
                          replace=["Thomas O'Brien"])
    first, last = sent_for(earlier, "Thomas O'Brien", Label.PERSON).split()
    later, _ = sanitize(privacy_engine, "I finally wrote to tobrien@yahoo.com yesterday.", conversation=conversation)
    assert sent_for(later, "tobrien@yahoo.com", Label.EMAIL) == f"{handle(first)[0]}{handle(last)}@yahoo.com"


@prop
@given(seed=seeds)
def test_email_of_a_surname_or_a_name_with_particles(privacy_engine, seed):
    result, _ = sanitize(privacy_engine, "Please ask Mr. Henderson, henderson@brightpath.co.uk, for the keys.", seed,
                         replace=["Henderson"])
    surname = sent_for(result, "Henderson", Label.PERSON)
    assert sent_for(result, "henderson@brightpath.co.uk", Label.EMAIL).split("@")[0] == handle(surname)
    text = "Our neighbour Anneke van der Berg (a.vanderberg@ziggo.nl) has the spare key."
    result, _ = sanitize(privacy_engine, text, seed, replace=["Anneke van der Berg"])
    fake = sent_for(result, "Anneke van der Berg", Label.PERSON)
    local = sent_for(result, "a.vanderberg@ziggo.nl", Label.EMAIL).split("@")[0]
    assert local == f"{handle(fake)[0]}.vander{handle(fake.split()[-1])}", (fake, local)


# -- dates and times: one offset, written the same way ---------------------------------
@pytest.mark.parametrize(
    "real, expected",
    [
        ("March 14, 2024 10:42", "April 4, 2024 10:42"),
        ("March 14, 2024 at 10:42 AM", "April 4, 2024 at 10:42 AM"),
        ("14/03/2024, 10:42:15", "04/04/2024, 10:42:15"),
        ("03/14/2024 10:42 AM", "04/04/2024 10:42 AM"),
        ("Thu, 14 Mar 2024 10:42:07 +0000", "Thu, 4 Apr 2024 10:42:07 +0000"),
        ("10am on 14/03/2024", "10am on 04/04/2024"),
        ("Oct. 23", "Nov. 13"),
        ("3/14/24", "4/4/24"),
        ("the 14th of March", "the 4th of April"),
        ("Thursday, March 14", "Thursday, April 4"),
        ("the week of 14 March 2024", "the week of 4 April 2024"),
        ("mid-March 2024", "mid-April 2024"),
    ],
)
def test_a_date_moves_in_its_own_form_and_its_time_stays(real, expected):
    from agent.substitute.dates import shift_date_in

    assert shift_date_in(real, 21) == expected


@prop
@given(seed=seeds)
def test_every_date_of_a_conversation_moves_by_one_offset_and_no_label_appears(privacy_engine, seed):
    import datetime as dt

    conversation = Conversation(seed=seed)
    days = conversation.date_shift_days
    first, _ = sanitize(privacy_engine, "My landlord called on March 14, 2024 and again on 03/15/2024.", conversation=conversation)
    later, _ = sanitize(privacy_engine, "He came by on 2024-03-16 and texted on 14 March 2024.", conversation=conversation)
    moved = {
        "March 14, 2024": lambda d: f"{d:%B} {d.day}, {d.year}",
        "03/15/2024": lambda d: f"{d:%m/%d/%Y}",
        "2024-03-16": lambda d: f"{d:%Y-%m-%d}",
        "14 March 2024": lambda d: f"{d.day} {d:%B} {d.year}",
    }
    base = {"March 14, 2024": 14, "03/15/2024": 15, "2024-03-16": 16, "14 March 2024": 14}
    for result in (first, later):
        assert "[DATE" not in result.sanitized
        for entity in result.entities:
            if entity.label is Label.DATE:
                assert entity.sent == moved[entity.real](dt.date(2024, 3, base[entity.real]) + dt.timedelta(days=days))


@prop
@given(seed=seeds)
def test_everyday_words_of_an_org_stand_in_stay_everyday_words_in_the_answer(privacy_engine, seed):
    text = "I run Rapid Flow Plumbing with my brother and we need a logo."
    result, conversation = sanitize(privacy_engine, text, seed, replace=["Rapid Flow Plumbing"])
    fake = sent_for(result, "Rapid Flow Plumbing", Label.ORG)
    first, second, _ = fake.split()
    answer = f"For {fake}, a {first.lower()} and {second.lower()} mark would suit {fake}."
    restored = privacy_engine.restore(answer, conversation).text
    assert restored == f"For Rapid Flow Plumbing, a {first.lower()} and {second.lower()} mark would suit Rapid Flow Plumbing."


@given(seed=seeds, town=st.sampled_from([("Hamburg", "Germany"), ("Kansas City", "the US")]))
@settings(max_examples=100, deadline=None)
def test_a_town_stand_in_never_carries_the_real_name(seed, town):
    from agent.knowledge.geonames import fold_place
    from agent.substitute.orgs_places import fake_place
    from agent.substitute.rng import rng_for

    real, country = town
    fake = fake_place(rng_for(seed, real), real, lambda candidate: True, f"We bought a flat in {real}, {country}.")
    assert fake and f" {fold_place(real)} " not in f" {fold_place(fake)} ", fake  # not "Hamburg-Nord"


@prop
@given(seed=seeds)
def test_handles_no_name_made_are_words_and_one_handle_one_stand_in(privacy_engine, seed):
    from agent.substitute.handles import _handle_words

    words = {w for ws in _handle_words().values() for w in ws}
    text = "My handle is coolguy92 on Discord and my email is coolguy92@gmail.com; copy info@brightsmiledental.com."
    result, _ = sanitize(privacy_engine, text, seed, replace=["coolguy92"])
    handle = sent_for(result, "coolguy92", Label.USERNAME)
    assert re.fullmatch(r"[a-z]+\d\d", handle) and handle[:-2] in words, handle
    assert sent_for(result, "coolguy92@gmail.com", Label.EMAIL) == f"{handle}@gmail.com"
    role = sent_for(result, "info@brightsmiledental.com", Label.EMAIL)
    assert role.startswith("info@") and role != "info@brightsmiledental.com"


@given(seed=seeds, region=st.sampled_from([("Ontario", "CA"), ("Kerala", "IN"), ("Queensland", "AU")]))
@settings(max_examples=30, deadline=None)
def test_a_region_gets_a_region_of_its_country(seed, region):
    from agent.substitute.orgs_places import _country_code, fake_place
    from agent.substitute.rng import rng_for

    real, country = region
    fake = fake_place(rng_for(seed, real), real, lambda candidate: True, f"We are moving to {real} next spring.")
    assert fake != real and _country_code(fake) == country, fake


def test_handle_words_leave_out_names_that_are_everyday_words():
    # A surname that is also a word reads as the word in a lower-case handle.
    from agent.substitute.handles import _handle_words

    words = {w for ws in _handle_words().values() for w in ws}
    assert not words & {"gay", "butts", "hooker", "dick", "cox", "bush"}
    assert len(words) > 300


@prop
@given(seed=seeds)
def test_short_handles_of_one_shape_get_different_words(seed):
    from agent.substitute.handles import handle_like

    # Few names of two letters are not also words: initials must still spread out.
    stand_ins = {handle_like(seed, h) for h in ("jd7", "kl7", "mp7", "rt7")}
    assert len(stand_ins) >= 3, stand_ins


@prop
@given(seed=seeds, case=st.sampled_from([
    ("Please write to Agnieszka Kowalczyk about the refund.", "Agnieszka Kowalczyk", "pl_PL"),
    ("Ask Tomasz Lewandowski to sign the lease.", "Tomasz Lewandowski", "pl_PL"),
    ("Our guide in Reykjavik was Jón Sigurðsson, book him again.", "Jón Sigurðsson", "is_IS"),
]))
def test_polish_and_icelandic_surnames_get_stand_ins_of_their_origin(privacy_engine, seed, case):
    """Faker keeps Polish surnames in `unisex_last_names`/`male_last_names` and builds
    Icelandic ones from stems: read from `last_names` alone, both lists were empty, and
    "Kowalczyk" got "Ditschlerin"."""
    text, real, locale = case
    result, _ = sanitize(privacy_engine, text, seed, replace=[real])
    fake = sent_for(result, real, Label.PERSON)
    assert fake.split()[-1] in pool(locale, "last") and fake.split()[-1] != real.split()[-1], fake


@prop
@given(seed=seeds, case=st.sampled_from([
    ("Please forward this to Mrs. Dragomirescu today.", "Dragomirescu", "ro_RO"),  # no list has it
    ("Send the minutes to Mr. Zervopoulos.", "Zervopoulos", "el_GR-Latn"),
]))
def test_a_surname_no_list_has_takes_its_origin_from_its_ending(privacy_engine, seed, case):
    text, real, locale = case
    assert not lexicon().pool_locales(real.split()[-1])
    result, _ = sanitize(privacy_engine, text, seed, replace=[real])
    fake = sent_for(result, real, Label.PERSON)
    assert fake.split()[-1] in pool(locale, "last") | pool(locale, "last_male") | pool(locale, "last_female"), fake


@prop
@given(seed=seeds, case=st.sampled_from([
    ("Ask Zbigniew Wójcik to sign the lease.", "Zbigniew Wójcik", "pl_PL"),
]))
def test_a_tie_between_given_name_and_surname_origins_goes_to_the_surname(privacy_engine, seed, case):
    """One locale lists the given name (de_DE has Zbigniew), another the surname: the
    surname says the origin (a German stand-in for a Polish name before)."""
    text, real, locale = case
    names = lexicon()
    first, last = real.split()
    assert names.pool_locales(first) and names.pool_locales(last)
    assert not (set(names.pool_locales(first)) & set(names.pool_locales(last)))
    result, _ = sanitize(privacy_engine, text, seed, replace=[real])
    fake = sent_for(result, real, Label.PERSON)
    assert fake.split()[-1] in pool(locale, "last") | pool(locale, "last_male") | pool(locale, "last_female"), fake


@prop
@given(seed=seeds)
def test_a_double_barrelled_surname_no_list_has_whole_takes_its_halves_origin(privacy_engine, seed):
    """"Eze-Okafor": both halves Nigerian in the lists, the whole in none (an American
    stand-in before)."""
    text = "Name: Chidinma Eze-Okafor | Lagos, Nigeria | looking for roles in logistics"
    result, _ = sanitize(privacy_engine, text, seed, replace=["Chidinma Eze-Okafor"])
    fake = sent_for(result, "Chidinma Eze-Okafor", Label.PERSON)
    halves = fake.split()[-1].split("-")
    nigerian = pool("ig_NG", "last") | pool("en_NG", "last") | pool("yo_NG", "last") | pool("ha_NG", "last")
    assert any(h in nigerian for h in halves), fake


def test_a_short_listed_name_in_a_profile_link_changes(privacy_engine):
    from agent.session.conversation import Conversation

    text = "My LinkedIn: linkedin.com/in/chidinma-eze (please add it to the CV header)"
    result = privacy_engine.sanitize(text, Conversation("slug"))
    link = next(e.sent for e in result.entities if e.real.startswith("linkedin.com"))
    assert "eze" not in link and "chidinma" not in link, link
