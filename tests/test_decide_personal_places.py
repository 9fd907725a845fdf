"""Where someone comes from, has their home or is right now (agent/decide/place_cues.py)
is swapped as the decider's last word; a place the prompt travels to, moves to or asks
about, a country the writer is in, and a place of a named work are not. Sentences and
places written for these tests."""

import pytest

from agent.config import default_settings
from agent.decide.decider import Decider
from agent.decide.place_cues import origin_or_home, where_the_writer_is
from agent.decide.relevance import RelevanceRules, Verdict
from agent.entities import Action, Label, Span

PUBLIC_PLACE = Verdict(True, 0.7, "public place")


def _span(text: str, value: str, label: Label = Label.LOCATION) -> Span:
    start = text.index(value)
    return Span(start, start + len(value), label, value, 0.9, "spacy")


def _last_word(text: str, value: str, label: Label = Label.LOCATION, rule: Verdict | None = PUBLIC_PLACE):
    return RelevanceRules.personal_place(text, _span(text, value, label), rule)


@pytest.mark.parametrize("text, place", [
    ("My grandmother is originally from Tralee and still speaks with the accent.", "Tralee"),
    ("Our neighbours moved over here from Portugal, how do I welcome them in their language?", "Portugal"),
    ("Last spring my cousin relocated from Ghent; suggest a housewarming gift.", "Ghent"),
    ("I am booking my flight home to Brno for Christmas, write a note to my team.", "Brno"),
    ("She is a native of Cluj and wants a birthday poem.", "Cluj"),
    ("Born and raised in Tampere, he now writes software; draft his bio.", "Tampere"),
    ("My husband is from Matosinhos, suggest a dinner menu he would like.", "Matosinhos"),
    ("I'm a long-time resident of Lahti and need a letter to the council about noise.", "Lahti"),
    ("I'm in Aarhus for two days at a workshop, rewrite my out-of-office reply.", "Aarhus"),
    ("Here in Leuven it rained all week, so write a gloomy haiku.", "Leuven"),
    ("Write a birthday card for my aunt in Kortrijk who turns eighty.", "Kortrijk"),
    ("I commute to work from Zaandam, how can I use the train time better?", "Zaandam"),
    ("Every summer I go back to my hometown Ohrid; write a short nostalgic paragraph.", "Ohrid"),
])
def test_where_someone_comes_from_or_is_gets_swapped(text, place):
    verdict = _last_word(text, place)
    assert verdict is not None and not verdict.keep, verdict


@pytest.mark.parametrize("text, place", [
    ("We are moving to Lisbon next year, which districts suit a family?", "Lisbon"),
    ("I'm flying to Kraków on Friday, what should I see?", "Kraków"),
    ("Plan a three-day trip to Seville for two people.", "Seville"),
    ("List five famous painters who are from Spain.", "Spain"),
    ("Our steel came from Sweden, which tariffs apply?", "Sweden"),
    ("My son came back from Zanzibar with a fever and a rash; what could it be?", "Zanzibar"),
    ("My wife is just back from Zanzibar and has a cough; which tests should she ask for?", "Zanzibar"),
    ("I'm in Canada, how do I file my taxes as a freelancer?", "Canada"),
    ("I'm in Porto for the weekend, what are the best things to do?", "Porto"),
    ("What is the population of Lyon?", "Lyon"),
    ("Write an e-mail to our customers in Germany about the new invoice format.", "Germany"),
    ("Which university is best for my daughter to study in Utrecht?", "Utrecht"),
])
def test_a_destination_a_topic_or_a_region_is_left_alone(text, place):
    assert _last_word(text, place) is None


def test_an_origin_the_prompt_asks_about_stays_kept():
    text = "My mother is originally from Galway; what is the history of Galway?"
    assert _last_word(text, "Galway", rule=Verdict(True, 0.85, "public place")) is None


def test_a_place_of_a_named_work_stays_kept():
    text = "In the story the hobbit is originally from Bree; summarise his journey."
    assert _last_word(text, "Bree", rule=Verdict(True, 0.6, "part of a known work")) is None


def test_a_town_ner_took_for_a_company_is_swapped():
    text = "My dentist grew up in Vrchlabí and misses the mountains; suggest a card text."
    verdict = _last_word(text, "Vrchlabí", Label.ORG, rule=Verdict(False, 0.6, "an organisation"))
    assert verdict is not None and not verdict.keep


def test_a_well_known_organisation_is_not_taken_for_a_place():
    text = "My brother is originally from Microsoft's Seattle team."
    assert _last_word(text, "Microsoft", Label.ORG, rule=Verdict(True, 0.85, "well-known organisation")) is None


@pytest.mark.parametrize("text, place", [
    ("My aunt is originally from Tralee and wants a short poem about rain.", "Tralee"),
    ("We moved here from Tralee last year; write a short poem about rain.", "Tralee"),
    ("She moved here from Norway, write her a welcome card.", "Norway"),
])
def test_the_decider_swaps_a_kept_origin_after_the_judge(text, place):
    decisions = Decider(default_settings()).decide(text, [_span(text, place)])
    assert decisions[0].action is not Action.KEEP, decisions[0]


def test_cues_read_only_the_words_just_before():
    assert origin_or_home("we moved here from ")
    assert not origin_or_home("we moved here from the city to ")
    assert where_the_writer_is("Right now I'm in ")
    assert not where_the_writer_is("I'm interested in ")
