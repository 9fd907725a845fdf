"""One-word names of story characters, role-play personas and chat participants
(agent/detect/one_word_names.py, and the markdown/role-play guards of code_zones): a made-up
word that speaks, smiles or has a mother is a person, and so is every other mention of it;
speaker labels dressed with time stamps, bold, brackets or stage directions are speakers.
Products, places, councils and spells that recur in the same way are not people."""

from __future__ import annotations

import pytest

from agent.config import default_settings
from agent.detect.base import DetectionContext
from agent.detect.code_zones import TechnicalZones, is_code
from agent.detect.one_word_names import OneWordNameDetector
from agent.detect.registry import build_registry
from agent.entities import Label, Span


@pytest.fixture(scope="module")
def registry():
    return build_registry(default_settings())


def _labels_of(registry, text: str, word: str) -> list[Label | None]:
    """The label covering each mention of `word` (None where it is not found)."""
    spans = registry.detect(text).spans
    out = []
    start = text.find(word)
    while start != -1:
        hit = [s for s in spans if s.start <= start and start + len(word) <= s.end]
        out.append(hit[0].label if hit else None)
        start = text.find(word, start + len(word))
    return out


@pytest.mark.parametrize(
    "text, word",
    [
        # Acts like a person; spaCy reads it as an organisation or a place.
        (
            ("Write a story where Torvik wakes up in a burning village. Torvik grabs his sword and runs "
            "to the well. Later that night Torvik nodded at the old woman."),
            "Torvik",
        ),
        (
            ("Write a long story. Characters: Maelis (a shy healer) and Quenby (a thief). On the road "
            "they meet Quenby, who offers to help for a price. Maelis does not trust Quenby."),
            "Quenby",
        ),
        (
            ("Everyone ignored the new member. Then Gloomfang replied with a joke and the whole server "
            "laughed, so Gloomfang smiled for the first time that week."),
            "Gloomfang",
        ),
        (
            ("Chapter two. The caravan stopped at the river, and Vessaly's eyes filled with tears. "
            "Nobody knew what Vessaly had seen there."),
            "Vessaly",
        ),
        # Written once, a word no English text has: one act of a person is enough.
        ("Please write a progress report for Odrin, he is a four year old who loves painting.", "Odrin"),
        ("The new intern Brauk said the server was down. Please draft an apology.", "Brauk"),
        # Said to be a person: an apposition or a pair of roommates.
        ("Natsumi and Brackwell are roommates. Brackwell is messy; Natsumi is tidy. Write their argument.",
         "Brackwell"),
        ("Write a story about Quelby, a shy farmer, and the storm that took Quelby's barn.", "Quelby"),
        # Role-play actions in asterisks: "*" before a name is markdown there, not a pointer.
        (
            ('*Brannoc leans against the doorframe, arms crossed.* "You are late." *He glances at the '
            'clock.* "We waited an hour." *Brannoc sighs and shakes his head.*'),
            "Brannoc",
        ),
        # A role-play card: "{{char}}" and "{{user}}" are people of the story, not code.
        (
            ("{{char}} is Solenne, a 24-year-old barista. Solenne is sarcastic with everyone. {{user}} is "
            "a regular customer. Solenne secretly likes {{user}}.\nScenario: {{user}} walks into the café "
            "during a storm. Solenne is alone behind the counter."),
            "Solenne",
        ),
        # Speaker labels: bold, time-stamped, stage directions.
        (
            ("**Thessaly:** I told you the bridge was out.\n**Corwin:** And I told you I'd find another way.\n"
            "**Thessaly:** You always do."),
            "Corwin",
        ),
        (
            ("[09:12] Mirabel: hey did u finish the slides\n[09:13] Oskarr: not yet lol\n"
            "[09:15] Mirabel: ok ping me when u do\n[09:20] Oskarr: will do"),
            "Mirabel",
        ),
        (
            "Flint (grinning): Did you miss me?\nJuniper (rolling her eyes): Not even a little.\nFlint: Liar.",
            "Flint",
        ),
        (
            "<Quillon> anyone around?\n<Pell> yeah whats up\n<Quillon> my build keeps failing again",
            "Quillon",
        ),
        # A dialogue run on one line: the label before quoted speech.
        (('Write the next scene. Corrik: "We need to move." Aleth: "Not until the scouts return." '
         'Corrik: "Then we wait."'), "Corrik"),
        # Short role-play lines of bold labels, actions and quotes read as prose, not code.
        (('**Velka:** *smiles* "Hi."\n**Torren:** *waves* "Hey!"\n**Velka:** "Ready?"\n'
         '**Torren:** *nods* "Yes."'), "Velka"),
    ],
)
def test_one_word_name_is_a_person_everywhere(registry, text, word):
    assert _labels_of(registry, text, word) == [Label.PERSON] * text.count(word)


def test_a_name_may_take_an_article_once_in_a_while():
    text = ("Ollwyn nodded at the gate. Years ago the Ollwyn family had owned the old mill by the river. "
            "Ollwyn sighed and walked on, and the rain followed Ollwyn all the way to the harbour.")
    assert "Ollwyn" in {s.text for s in OneWordNameDetector().detect(text, DetectionContext())}


def test_names_joined_by_apostrophe_or_hyphen_are_one_word():
    text = "K'vessa smiled at the moon. Later Zha-Rin nodded, and K'vessa's eyes met those of Zha-Rin."
    found = {s.text for s in OneWordNameDetector().detect(text, DetectionContext())}
    assert found == {"K'vessa", "Zha-Rin"}


def test_lower_case_chat_log_speakers(registry):
    text = ("make this chat funnier:\nmirka: did u eat my yogurt\ntoven: what yogurt\n"
            "mirka: the one with my name on it\ntoven: oh that yogurt")
    assert _labels_of(registry, text, "mirka") == [Label.PERSON] * 2
    assert _labels_of(registry, text, "toven") == [Label.PERSON] * 2


def test_lower_case_keys_of_a_configuration_are_no_speakers():
    text = "dbname: main store\npgdata: the data folder\ndbname: backup store\npgdata: another folder"
    assert OneWordNameDetector().detect(text, DetectionContext()) == []


def test_chat_handle_with_digits_is_a_username(registry):
    text = "<Quillon> anyone around?\n<Darnell_88> yeah whats up\n<Quillon> my build keeps failing again"
    assert _labels_of(registry, text, "Darnell_88") == [Label.USERNAME]


@pytest.mark.parametrize(
    "text, word",
    [
        ("I installed Docker yesterday, but Docker keeps crashing. My friend said Docker works fine for him.", "Docker"),
        ("We played Minecraft all weekend, and my brother says Minecraft is better. Minecraft has more mods, he thinks.", "Minecraft"),
        ("Our app Trackly helps teams plan. Trackly syncs with your calendar. Users say Trackly saved them hours.", "Trackly"),
        ("The Council met at dawn. At noon the Council said the border would close.", "Council"),
        ("The spell Fireball deals damage. Cast Fireball twice and then Fireball explodes.", "Fireball"),
        ("Hello Brackenford, the market opens at six! Visitors love Brackenford because of its castle.", "Brackenford"),
        ("We flew to Burkina Faso in May. In Burkina Faso, who you know matters more than the rules.", "Faso"),
        ("Install Kubelix first, then run it twice.", "Kubelix"),
        ("Trackly is a friend to busy teams. Trackly is free.", "Trackly"),
        ("Open Quarnix, which sorts the files.", "Quarnix"),
    ],
)
def test_recurring_words_that_are_no_one_stay_unnamed(text, word):
    # The detector's own verdict (NER has its own view of "Docker" or "Fireball").
    assert word not in [s.text for s in OneWordNameDetector().detect(text, DetectionContext())]


def test_emphasis_is_not_a_pointer():
    text = "*Ilka shrugs and walks away.*"
    assert not is_code(text, Span(1, 5, Label.PERSON, "Ilka", 0.8, "spacy"))
    bold = "**Ilka:** hello there"
    assert not is_code(bold, Span(2, 6, Label.PERSON, "Ilka", 0.8, "spacy"))
    code = "value = *Ptr;\nresult = a * Rate * b;"
    assert is_code(code, Span(9, 12, Label.PERSON, "Ptr", 0.8, "spacy"))


def test_w_plus_plus_character_card_is_not_code(registry):
    text = (
        '[Character("Ysmera")\n{\nSpecies("Elf")\nPersonality("Calm" + "Curious")\nLikes("Rain" + "Old maps")\n}]\n'
        "Ysmera lives in a tower by the sea. Ysmera collects maps and rarely speaks to strangers."
    )
    assert None not in _labels_of(registry, text, "Ysmera")
    assert not TechnicalZones(text).any()


def test_calls_in_code_without_a_card_stay_code():
    text = 'Setup("alpha")\n{\nRegister("beta" + "gamma")\n}\nrun()'
    assert TechnicalZones(text).any()


def test_code_with_quotes_and_stars_stays_code():
    text = 'names = ["x", "y"]\nvalue = a * "Quorra" * b\nprint("done")'
    assert TechnicalZones(text).any()


def test_role_play_slots_are_not_code():
    text = "{{char}} is a knight who guards {{user}}. {{char}} speaks softly and trusts {{user}} with her life."
    assert not TechnicalZones(text).any()
