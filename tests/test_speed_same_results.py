"""Speed-only shortcuts must give what the long way gives (issue 11 speed bar: `--fast`
p95 against bare spaCy NER). Sentences written for these tests."""

import re

import pytest

from agent.decide import relevance
from agent.decide.judge import features


def _without_optional_parts(alternative: str) -> str:
    """'fan\\s*fic(?:tion)?s?' -> 'fanfic': the letters every match of it has."""
    alternative = re.sub(r"\(\?:[^()]*\)\?", "", alternative)
    alternative = re.sub(r".\?", "", alternative)
    return alternative.replace(r"\s+", " ").replace(r"\s*", "")


def test_every_kind_of_work_holds_a_prefilter_stem():
    kinds = relevance._WORK_KINDS.split("|")
    assert len(kinds) > 20
    for kind in kinds:
        letters = _without_optional_parts(kind)
        assert any(stem in letters for stem in relevance._WORK_KIND_STEMS), (kind, letters)


@pytest.mark.parametrize("text", [
    "Write a scene for the Harbor Lights sitcom where Tova and Brann argue.",
    "An EPISODE OF Starfall Academy in which two cadets get lost.",
    "Which Moon Garden characters would win a quiz?",
    "My spin-off idea: Kettle Street, a drama about bakers.",
    "Lunch at noon with Priya, then a walk by the river.",
])
def test_names_a_work_with_and_without_the_prefilter(text):
    full = relevance.names_a_work.__wrapped__
    assert full(text) == full(text + " ſ")  # the non-ASCII path reads the regexes in full
    assert full(text) is (any(stem in text.lower() for stem in relevance._WORK_KIND_STEMS) and full(text + " ſ"))


def test_prompt_cues_read_from_lower_case_text_match_ignore_case():
    assert all(p.pattern == p.pattern.lower() and p.flags & re.IGNORECASE for p in features.PROMPT_CUES.values())
    assert len(features._LOWER_CUES) == len(features.PROMPT_CUES)
    for text in ["WHO wrote the Poem I read? Translate it IN FRENCH for My Client.",
                 "Calculate The AVERAGE; Act As my travel AGENT and plan a TRIP.",
                 "def main(): return None  # I'm Done"]:
        expected = [1.0 if p.search(text) else 0.0 for p in features.PROMPT_CUES.values()]
        words = max(1, len(re.findall(r"\w+", text)))
        expected.append(min(1.0, 10 * len(features._FIRST_PERSON.findall(text)) / words))
        assert features.prompt_features(text, 2)[: len(expected)] == expected


def test_pos_lookup_is_the_same_on_a_second_parse_and_on_empty_text():
    from agent.detect.nlp import SpacyPipeline

    pipeline = SpacyPipeline()
    text = "Mara Quint said she'd mail the forms to Oslo on Friday; i'm not sure they'll arrive."
    first = [(t.tag_, t.pos_) for t in pipeline.parse(text)]
    second = [(t.tag_, t.pos_) for t in pipeline.parse(text)]
    assert first == second and ("NNP", "PROPN") in first
    assert len(pipeline.parse("")) == 0


def test_folded_search_answers_as_the_ignore_case_regex():
    from agent.detect.ascii_fold import FoldedSearch

    cue = re.compile(r"(?i)\b(?:story|tour\w*|cover letter)\b")
    folded = FoldedSearch(cue)
    for text in ["Tell me a STORY about a lighthouse.", "Plan a Tournament weekend", "My Cover Letter draft",
                 "no cue here at all", "a ſtory in old print", "ein STORY-Abend in Köln", "Tours of İzmir"]:
        assert bool(folded.search(text)) == bool(cue.search(text)), text
        assert bool(folded.search(text, text.lower() if text.isascii() else None)) == bool(cue.search(text)), text
    with pytest.raises(ValueError):
        FoldedSearch(re.compile(r"(?i)\bmy\b(?:\s+\S+)$"))  # \S lower-cased would mean another class
    with pytest.raises(ValueError):
        FoldedSearch(re.compile(r"\b(?:story)\b"))  # not (?i)
