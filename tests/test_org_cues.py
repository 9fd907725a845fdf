"""Organisation names that only the sentence reveals (agent/detect/org_cues.py): coined or
oddly cased brands NER misses are found through the user's employer cue, "X is a ...
company", business relations, "our X ads" and the company line of a signature block;
ordinary sentences with the same words find nothing."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.detect.registry import build_registry
from agent.entities import Label


@pytest.fixture(scope="module")
def registry():
    return build_registry(default_settings())


def _orgs(registry, text: str) -> list[str]:
    return [s.text for s in registry.detect(text).spans if s.label is Label.ORG]


@pytest.mark.parametrize(
    "text, name",
    [
        ("I work for Tellaro and I need a cover letter.", "Tellaro"),
        ("My previous job at Quorvex was in sales.", "Quorvex"),
        ("She was employed by Brindle Analytics for two years.", "Brindle Analytics"),
        ("Zentrik is the only company to offer folding kayaks in the region.", "Zentrik"),
        ("Anchor is a small logistics firm based in Leeds.", "Anchor"),
        ("Next year Velomar may acquire the company Druvit for cash.", "Druvit"),
        ("Next year Velomar may acquire the company Druvit for cash.", "Velomar"),
        ("Last year we signed a cooperation with Veyra and Lusk.", "Veyra"),
        ("Last year we signed a cooperation with Veyra and Lusk.", "Lusk"),
        ("Tallow bought the company in 2019 and renamed it.", "Tallow"),
        ("What is the payback if Orrly enters the market next spring?", "Orrly"),
        ("Please improve the targeting of our Fernly ads this spring.", "Fernly"),
        ("Customers love our Fernly products.", "Fernly"),
        ("The Quillmere Ensemble was founded in 1991 by two cellists.", "Quillmere Ensemble"),
        ("The largest employers in the valley: Trevanto, Hollisk and Marrowgate Mills.", "Hollisk"),
        ("Our dinner is booked at Quenby, 4 Dock Street, Leith.", "Quenby"),
        ("Partners: Lintrest, Bluecap and Orvane Studios.", "Lintrest"),
        ("Jonas Pereira\nField service technician\nSkyvane\n41 Harbour Road, Dunmore\nMobile: 555 0199", "Skyvane"),
        ("The film credits thank Harlow Pictures, Dovetail Films, Greyline and Orbis Studios.", "Greyline"),
        ("Mara Lind\nSenior buyer\nTallowmere\nPO Box 31, Ely", "Tallowmere"),
        ("I have an interview with Vesterholt next week.", "Vesterholt"),
        ("Write a cover letter for a job at Quorvex.", "Quorvex"),
        ("I run a small bakery called Crumb Theory in town.", "Crumb Theory"),
        ("She founded a startup named Tidewell last year.", "Tidewell"),
        ("He is the founder of Marrowby and lives in Bath.", "Marrowby"),
        ("Describe the Fernly app in two lines.", "Fernly"),
        ("Credits: Harlow Pictures, Dovetail Film and Greyline.", "Dovetail Film"),
        ("Our startup, Quillory, helps teachers grade essays.", "Quillory"),
        ("My bakery Crumbwell needs a new logo.", "Crumbwell"),
        ("I'm the marketing lead at Brightnook and need 5 slogans.", "Brightnook"),
        ("Rewrite this: At Mirebrook we believe every child deserves a book.", "Mirebrook"),
        ("At Fennloch, our bakers start at dawn.", "Fennloch"),
        ("Rosa Quint\nField engineer\nSummit\n12 Dock Road, Ely", "Summit"),
        ("> Ilse Drummond\n> Corvantis\n> Ilse Drummond\n> 18 Mill Street\n> Apt. 4", "Corvantis"),
    ],
)
def test_a_business_named_by_its_sentence_is_found(registry, text, name):
    assert name in _orgs(registry, text)


@pytest.mark.parametrize(
    "text",
    [
        "I work for John Carter on weekends.",
        "I work at home most days.",
        "Sarah is a bank teller in Ohio.",
        "This is a company that sells shoes.",
        "We work for ourselves.",
        "I worked at Night and slept all day.",
        "Our Summer campaign starts in June.",
        "Life is a business and you are its owner.",
        "We visited Paris, Lyon, Nice and Lille.",
        "I work for the government.",
        "Our client, the city council, wants a report.",
        "I have an interview with Sarah next week.",
        "My sister works at night and sleeps all day.",
        "At Paris we ate crepes.",
        "As the sun set at Sandhaven Beach we swam.",
        "I am a guest at the hotel.",
        "Our company policy is strict.",
        "Invite Anna, Bob, Carl and Dora.",
    ],
)
def test_the_same_words_in_ordinary_sentences_find_no_organisation(registry, text):
    assert _orgs(registry, text) == []
