"""A prompt that is mostly a pasted document with no "Rewrite this:" line before it: a
passage in quotes, a letter with its greeting or sign-off, a text followed by a short
request ("Correct it") or by a request in another script. The names in such a document are
its details, so a keep read from the document's own cues (a trip word near a place, a year
after an author) becomes a swap. Every sentence and name here is made up for these tests."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.decide.decider import Decider
from agent.decide.pasted import in_pasted_document, pasted_regions
from agent.decide.relevance import RelevanceRules
from agent.entities import Action, Label, Span

_REASON = "in a text handed over to work on"

_NOTE = (
    "the walking tour of Portugal moves from the second week of May to the first week of June, "
    "because the coach company needs the earlier dates for a school group. The hotel deposits "
    "stay as they are and nobody has to pay more."
)


def _span(text: str, value: str, label: Label) -> Span:
    start = text.index(value)
    return Span(start, start + len(value), label, value, 0.8, "spacy")


def _verdict(text: str, value: str, label: Label = Label.LOCATION):
    return RelevanceRules().verdict(text, _span(text, value, label))


@pytest.mark.parametrize(
    "text",
    [
        # a quoted passage after the request, in place of a colon
        "Please rephrase this paragraph 'Soil warms faster after rain, as Varga (2017) showed in a "
        "long field study of clay plots across three dry summers.'",
        # "proof read" written in two words
        "proof read this: Soil warms faster after rain, as Varga (2017) showed.",
    ],
)
def test_a_handed_over_text_in_quotes_or_after_proof_read(text):
    verdict = _verdict(text, "Varga", Label.PERSON)
    assert verdict is not None and not verdict.keep and verdict.reason == _REASON


@pytest.mark.parametrize(
    "text",
    [
        # a long quotation the user introduces
        f'My neighbour sent me this and I do not follow it: "Hi, {_NOTE}"',
        # a letter greeting someone by name
        f"Hello Marta,\n{_NOTE}\nSee you soon",
        # a greeting for the time of day, to someone by name
        f"Good morning Marta,\n{_NOTE}\nSee you soon",
        # a letter's sign-off, with no greeting
        f"Quick update: {_NOTE} Kind regards, Ines",
        # a short request after the text
        f"Update: {_NOTE} Correct it",
        # a request in another script after the text
        f"Update: {_NOTE} 这段话通顺吗？",
    ],
)
def test_a_pasted_document_without_an_introductory_line(text):
    assert in_pasted_document(text, *(lambda s: (s.start, s.end))(_span(text, "Portugal", Label.LOCATION)))
    verdict = _verdict(text, "Portugal")
    assert verdict is not None and not verdict.keep and verdict.reason == _REASON


@pytest.mark.parametrize(
    "text",
    [
        # a whole prompt in quotes is the request itself
        '"Plan a walking tour of Portugal for my parents: two weeks in May, small hotels, no long '
        'drives, a day by the sea now and then, and one or two cooking classes. Say what each day '
        'costs and where we sleep, and keep the plan simple enough to print."',
        # greeting the assistant opens a request, not a letter
        "Hi ChatGPT, plan a walking tour of Portugal for my parents in May.",
        # a foreign name inside a question is not a request in another script
        "Какие туры по Portugal лучше всего подходят для пожилых людей весной и сколько они стоят в среднем?",
    ],
)
def test_a_request_is_not_a_pasted_document(text):
    assert pasted_regions(text) == ()
    verdict = _verdict(text, "Portugal")
    assert verdict is not None and verdict.keep


def test_a_short_quoted_title_is_not_a_handed_over_text():
    text = "Summarize the essay 'Rivers' by Varga (2017) and say how its views on soil have aged."
    verdict = _verdict(text, "Varga", Label.PERSON)
    assert verdict is not None and verdict.keep


def test_the_decider_swaps_a_weak_keep_of_a_pasted_letter():
    # a known place with no trip word: a weak keep the rules leave to the judge; inside a
    # letter it is the letter's detail, whatever the judge says
    text = "Hello Odile,\nthe signed forms went to Lisbon on Monday and the rest follows soon.\nSee you soon"
    span = _span(text, "Lisbon", Label.LOCATION)
    rule = RelevanceRules().verdict(text, span)
    assert rule is not None and rule.keep and rule.confidence < 0.8
    decision = Decider(default_settings()).decide(text, [span])[0]
    assert decision.action is not Action.KEEP and decision.reason == _REASON


def test_what_a_new_song_must_have_is_not_a_handed_over_text():
    text = "Write a song with the following:\n- a girl visits Portugal for the first time\n- she misses home"
    verdict = _verdict(text, "Portugal")
    assert verdict is not None and verdict.keep


def test_a_quoted_setting_of_a_new_story_is_not_a_pasted_document():
    text = (
        'Write me a story about a fox who lives in "a quiet valley of northern Portugal, where the '
        "rivers run cold all year, the villages are small and old, the roads are narrow and steep, "
        'and the people still bake their bread in shared stone ovens on Sundays"'
    )
    assert pasted_regions(text) == ()


def test_a_short_question_with_a_tag_in_another_script_is_the_request():
    text = "Lately teenagers in Portugal seem to watch only streaming shows at home and rarely go to the cinema. Why? 지금 번역하기"
    assert pasted_regions(text) == ()


def test_a_request_ending_in_a_second_task_is_not_a_pasted_document():
    text = (
        "Write a short paragraph about the history of Lisbon for my class, with three dates, one "
        "famous building, one person who shaped the city and one thing a visitor should eat there, "
        "and translate it into French"
    )
    assert pasted_regions(text) == ()


def test_a_passage_quoted_from_a_named_work_is_not_a_pasted_document():
    text = (
        'Explain what this speech from The Lantern Keepers means: "Orla, the lamps we tend were lit '
        "before your mother was born and they will burn after your children are grown, so do not ask "
        'me whether the night is long; ask only whether the oil will last until the grey boats come home."'
    )
    assert pasted_regions(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "At Harwick Tools, I led a team of four engineers and rebuilt the billing system.",
        "During my time at Harwick Tools I learned to plan a budget.",
        "My previous role at Harwick Tools was in the sales team.",
    ],
)
def test_a_line_of_the_users_own_work_history_names_their_employer(text):
    verdict = _verdict(text, "Harwick Tools", Label.ORG)
    assert verdict is not None and not verdict.keep and verdict.confidence >= 0.8
