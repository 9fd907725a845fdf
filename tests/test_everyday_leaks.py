"""Leaks a person meets in everyday prompts, each found by trying such prompts by hand:
a profile link written without its scheme, a card's security code, a cardholder's name in
capitals with a middle initial, a little-known employer named with a trade word, and a
stand-in of the wrong sex for "my son" / "his mother". Sentences of our own."""

from __future__ import annotations

import pytest

from agent.entities import Action, Label
from agent.knowledge.company_shapes import UnknownShape, unknown_shape
from agent.session.conversation import Conversation


@pytest.mark.parametrize(
    "text, handle",
    [
        ("My GitHub is github.com/okwuosa-dev if you want to see my code.", "okwuosa-dev"),
        ("Add linkedin.com/in/taavi-lindqvist-07 to the speaker bio.", "taavi-lindqvist"),
        ("Status page: status.brindlework.io/incidents/8812.", "brindlework"),
    ],
)
def test_a_link_without_its_scheme_is_swapped_with_its_path(privacy_engine, text, handle):
    spans = [s for s in privacy_engine.detect(text) if s.label is Label.URL]
    assert spans and handle in spans[0].text, spans
    result = privacy_engine.sanitize(text, Conversation("bare-link"))
    assert handle not in result.sanitized, result.sanitized


def test_a_bare_link_comes_back_in_the_answer(privacy_engine):
    conversation = Conversation("bare-link-restore", seed=5)
    text = "Review github.com/okwuosa-dev please"
    result = privacy_engine.sanitize(text, conversation)
    sent = next(e.sent for e in result.entities if e.label is Label.URL)
    restored = privacy_engine.restore(f"I looked at {sent} and it is tidy.", conversation)
    assert "github.com/okwuosa-dev" in restored.text, restored.text


def test_a_file_name_and_a_module_are_no_links(privacy_engine):
    for text in ("Open report.pdf and main.py", "from spellchecker.info import words"):
        assert not [s for s in privacy_engine.detect(text) if s.label is Label.URL], text


@pytest.mark.parametrize(
    "text, code",
    [
        ("card 4539 1488 0343 6467 exp 11/28 cvv 913", "913"),
        ("The CVC: 4702 is on the back.", "4702"),
        ("security code is 228, please charge it", "228"),
    ],
)
def test_a_card_security_code_is_a_secret(privacy_engine, text, code):
    spans = [s for s in privacy_engine.detect(text) if s.label is Label.SECRET]
    assert [s.text for s in spans] == [code], spans
    assert code not in privacy_engine.sanitize(text, Conversation("cvv")).sanitized


def test_a_cardholder_in_capitals_with_a_middle_initial(privacy_engine):
    text = "name on card: MIRELA T DOBRESCU, billing zip 60614"
    persons = [s.text for s in privacy_engine.detect(text) if s.label is Label.PERSON]
    assert "MIRELA T DOBRESCU" in persons, persons


def test_a_trade_word_makes_an_ordinary_word_a_little_known_firm():
    assert unknown_shape("Kestrel Logistics") is UnknownShape.TRADE_NAME
    assert unknown_shape("Willow Analytics") is UnknownShape.TRADE_NAME
    assert unknown_shape("Tableau") is None  # a household name on its own


def test_a_little_known_employer_of_a_private_person_is_swapped(privacy_engine):
    text = "Please write a reference for my former assistant. She worked at Thornbury Analytics for four years."
    result = privacy_engine.sanitize(text, Conversation("employer"))
    assert "Thornbury Analytics" not in result.sanitized, result.sanitized


@pytest.mark.parametrize(
    "text, name, sex",
    [
        ("Thank you for seeing my son Tobi last week.", "Tobi", "male"),  # Tobi is a girl's name in the en list
        ("We argue about his mother Ilkaye's visits.", "Ilkaye", "female"),  # no list knows Ilkaye
        ("My daughter, Quorvelle, starts school.", "Quorvelle", "female"),
    ],
)
def test_a_relative_before_a_name_says_its_sex(privacy_engine, text, name, sex):
    from agent.knowledge.names import lexicon

    for seed in range(6):
        result = privacy_engine.sanitize(text, Conversation(f"kin-{seed}", seed=seed))
        sent = next(e.sent for e in result.entities if e.real == name)
        assert lexicon().gender_of(sent, "") in (sex, "any"), (sent, lexicon().gender_of(sent, ""))
        assert lexicon().info(sent).is_first, sent


def test_a_house_number_and_street_word_outweigh_a_name_read_inside_the_street(privacy_engine):
    # "Santos" looks like a surname to NER; with "Rua" and the number it is an address.
    text = "My landlord keeps entering my flat at 27 Rua dos Santos, Porto without notice."
    spans = [(s.text, s.label) for s in privacy_engine.detect(text)]
    assert any(t.startswith("27 Rua dos Santos") and label is Label.ADDRESS for t, label in spans), spans


@pytest.mark.parametrize(
    "text, city",
    [
        ("Write a card for my colleague Ilse Marquardt who just moved to Tampere.", "Tampere"),
        ("My brother moved to Lausanne and loves it.", "Lausanne"),
    ],
)
def test_where_someone_the_writer_knows_moved_is_swapped(privacy_engine, text, city):
    assert city not in privacy_engine.sanitize(text, Conversation("moved")).sanitized


@pytest.mark.parametrize(
    "text, city",
    [
        ("We are moving to Tampere next year; what should we know?", "Tampere"),
        ("My brother is moving to Lausanne; which districts are good?", "Lausanne"),
        ("What is the population of Tampere?", "Tampere"),
    ],
)
def test_a_move_being_planned_keeps_the_city(privacy_engine, text, city):
    assert city in privacy_engine.sanitize(text, Conversation("moving")).sanitized


@pytest.mark.parametrize(
    "text, name",
    [
        # "Raj" is listed only as a surname (en_IN): after "my husband" it is his given name
        ("I keep arguing with my husband Raj about money.", "Raj"),
        ("Could you help me thank our tutor Raj for the lessons?", "Raj"),
    ],
)
def test_a_relative_named_by_one_name_gets_a_given_name(privacy_engine, text, name):
    from agent.knowledge.names import lexicon

    for seed in range(6):
        result = privacy_engine.sanitize(text, Conversation(f"relative-{seed}", seed=seed))
        sent = next(e.sent for e in result.entities if e.real == name)
        assert lexicon().info(sent).is_first, sent


@pytest.mark.parametrize(
    "text, name, sex",
    [
        ("Can you remind Hollis that her rent is due on Friday?", "Hollis", "female"),  # any sex in the lists
        ("Draft a note to Marion saying his parcel arrived.", "Marion", "male"),  # a woman's name in the en list
        ("Tell Quorvane she can pick up the keys at noon.", "Quorvane", "female"),  # no list knows Quorvane
    ],
)
def test_a_pronoun_after_a_name_says_its_sex(privacy_engine, text, name, sex):
    from agent.knowledge.names import lexicon

    for seed in range(6):
        result = privacy_engine.sanitize(text, Conversation(f"pronoun-{seed}", seed=seed), {name: Action.REPLACE})
        sent = next(e.sent for e in result.entities if e.real == name)
        info = lexicon().info(sent)  # a name some locale's list gives to that sex
        assert info.female_in if sex == "female" else info.male_in, (sent, info)


def test_a_pronoun_after_another_name_says_nothing_of_the_first():
    from agent.substitute.persons import pronoun_after

    assert pronoun_after(" whether Tom liked his gift.") is None
    assert pronoun_after(" left. Then she called.") is None  # another sentence
    assert pronoun_after(" that her rent is due") == "female"
    assert pronoun_after(", who lost his keys") == "male"


def test_a_town_after_a_place_preposition_is_a_place_not_a_person(privacy_engine):
    text = "My wife works for Ostrander Labs in Boise and hates the commute."
    labels = {s.text: s.label for s in privacy_engine.detect(text)}
    assert labels.get("Boise") is Label.LOCATION, labels


def test_a_trip_to_a_mid_size_town_keeps_the_town(privacy_engine):
    text = "I'm flying to Spokane next week for a conference, what should I pack for the weather there?"
    assert "Spokane" in privacy_engine.sanitize(text, Conversation("trip")).sanitized


def test_an_illness_someone_was_diagnosed_with_is_not_their_workplace(privacy_engine):
    # "with" after "diagnosed" names the illness; the acronym once became a made-up firm.
    text = "My dad was diagnosed with COPD last month, what questions should we ask his doctor?"
    assert "COPD" in privacy_engine.sanitize(text, Conversation("illness")).sanitized


def test_role_nouns_used_as_titles_introduce_a_person(privacy_engine):
    text = "Summarize: Patient Rosalind Achterberg, 54, presented at Linden Park Clinic with chest pain."
    sent = privacy_engine.sanitize(text, Conversation("patient")).sanitized
    assert "Rosalind" not in sent and "Achterberg" not in sent, sent
    text = "Log in to the Patient Portal to see your results."
    assert not [s for s in privacy_engine.detect(text) if s.label is Label.PERSON]


def test_person_stand_ins_are_never_everyday_words():
    from agent.knowledge.words import word_frequency
    from agent.substitute.persons import PersonSurrogates

    persons = PersonSurrogates()
    for locale in ("en_US", "nl_NL", "de_DE"):
        for role, gender in (("first", "male"), ("first", "female"), ("last", "any")):
            pool = persons._pool(role, locale, gender)
            assert pool and not [n for n in pool if word_frequency(n) >= 20_000], (locale, role)


@pytest.mark.parametrize(
    "text, address",
    [
        ("Our HOA keeps fining us. 4471 Sable Ridge Ct, Henderson NV. Draft a complaint.", "4471 Sable Ridge Ct, Henderson NV"),
        ("Ship it to 12 Oak Park Ave, Cedar Falls, IA please.", "12 Oak Park Ave, Cedar Falls, IA"),
    ],
)
def test_a_street_named_with_a_kind_word_and_a_town_without_zip_is_one_address(privacy_engine, text, address):
    spans = [(s.text, s.label) for s in privacy_engine.detect(text)]
    assert (address, Label.ADDRESS) in spans, spans
    sent = privacy_engine.sanitize(text, Conversation("address-kind")).sanitized
    town = address.split(", ")[1].removesuffix(" NV")
    assert town not in sent, sent


# What a person types, and the values in it that must not be sent (session 12). Each row
# was sent as written, or in part, before its fix.
NOT_SENT = [
    # the employer of a stretch of working life, and the town of a workplace
    ("After 6 years at Halvorsen Freight in Tacoma, I want to change careers. Rewrite my summary.",
     ("Halvorsen Freight", "Tacoma")),
    ("I spent two years with Pellworth Dynamics in Spokane before this job; how do I explain the gap?",
     ("Pellworth Dynamics", "Spokane")),
    ("My wife works for Ostrander Labs in Boise and hates the commute.", ("Ostrander Labs", "Boise")),
    ("I'm a pharmacist at a CVS in Dayton and my manager keeps scheduling 12 hour shifts. Legal in Ohio?", ("Dayton",)),
    ("I work at the Eastgate Food Pantry on Sundays, write a flyer.", ("Eastgate",)),
    ("I volunteer at Eastgate Food Pantry on Sundays, write a flyer.", ("Eastgate",)),
    # a workplace, hospital or school NER typed as a place; people who serve the writer
    ("My partner works at Mercy Vale as a nurse and I need a gift idea.", ("Mercy Vale",)),
    ("She is a nurse at Saint Aldric General and works nights; suggest a thank-you note.", ("Saint Aldric General",)),
    ("My mum was treated at Whitcombe Infirmary for her hip, how long is recovery?", ("Whitcombe Infirmary",)),
    ("Our son studies at Penbury Hall and is homesick.", ("Penbury Hall",)),
    ("My mortgage broker at Kestrel Home Loans says my rate is 6.8%. Is that good?", ("Kestrel Home Loans",)),
    ("My sister is with Brantwood Partners now, what should I get her for her promotion?", ("Brantwood Partners",)),
    # names: lower case after a relation, a message signed with a dash
    ("my bf jasper keeps ghosting me on snap, what do i say", ("jasper",)),
    ("our neighbour ingrid keeps parking in our spot, how do i bring it up", ("ingrid",)),
    ("Text from my landlord: 'Rent goes up to $2,150 from March. -Kwabena'. How should I reply?", ("Kwabena",)),
    ("Reply to this for me: see you at 6 — Ines", ("Ines",)),
    # a Reddit user name
    ("My handle on reddit is u/quietfernbyte, can you write me a bio?", ("quietfernbyte",)),
    # where the writer studied, where a child goes to school, a saint's hospice
    ("I graduated from Harwick University in 2021; write my LinkedIn summary.", ("Harwick",)),
    ("I studied at Wexcombe College for two years before transferring.", ("Wexcombe",)),
    ("My daughter goes to St Bride's Primary School and needs a costume.", ("Bride",)),
    ("I'm a nurse at St. Columba's Hospice in Norwich. Write a short bio for our newsletter.", ("Columba",)),
    # a firm written in camel case with its trade ("AquaFix" alone reads as code)
    ("Translate to Spanish: our plumber, Jorge from AquaFix Services, will come on Friday.", ("AquaFix",)),
    # a first name that is also a name particle, alone after a greeting
    ("Thanks Van, see you Monday. Can you make this sound friendlier?", ("Van",)),
    # a first name no list has, before a surname one has
    ("Special thanks to Priyanka Nair and the whole team.", ("Priyanka",)),
    ("Interview notes: Nkechi Obi was confident and clear.", ("Nkechi",)),
]


@pytest.mark.parametrize("text, secrets", NOT_SENT, ids=[secrets[0] for _, secrets in NOT_SENT])
def test_what_a_person_types_is_not_sent(privacy_engine, text, secrets):
    sent = privacy_engine.sanitize(text, Conversation("not-sent")).sanitized
    assert not [s for s in secrets if s in sent], sent


def test_a_reddit_user_keeps_its_prefix_and_a_subreddit_is_kept(privacy_engine):
    text = "Post this to r/AskReddit and tag /u/mossy_lantern_22 please"
    sent = privacy_engine.sanitize(text, Conversation("reddit")).sanitized
    assert "r/AskReddit" in sent and "/u/" in sent and "mossy_lantern_22" not in sent, sent


def test_a_role_noun_before_a_name_is_not_part_of_the_name(privacy_engine):
    sent = privacy_engine.sanitize("Applicant Tomas Arvelo Lima applied for a loan in May. Summarise his file.",
                                   Conversation("role")).sanitized
    assert sent.startswith("Applicant ") and not {"Tomas", "Arvelo", "Lima"} & set(sent.split()), sent


def test_a_school_named_with_a_particle_is_one_school_and_a_feast_day_no_firm(privacy_engine):
    result = privacy_engine.sanitize("I graduated from De Montfort University in 2023.", Conversation("particle"))
    assert not [e for e in result.entities if e.label is Label.PERSON], result.entities
    result = privacy_engine.sanitize("We celebrate St. Patrick's Day with a parade.", Conversation("feast"))
    assert not [e for e in result.entities if e.label is Label.ORG], result.entities


def test_a_saints_hospice_keeps_its_kind_of_place(privacy_engine):
    text = "I'm a nurse at St. Columba's Hospice in Norwich. Write a short bio for our newsletter."
    result = privacy_engine.sanitize(text, Conversation("hospice"), {"St. Columba's Hospice": Action.REPLACE})
    sent = next(e.sent for e in result.entities if e.real == "St. Columba's Hospice")
    assert sent.startswith("St. ") and sent.endswith("'s Hospice") and "Columba" not in sent, sent
