"""Each way a value is written gets a stand-in written the same way, so restore gives
back each form (an answer that repeats "Computer Science" must not get "computer
science" back because the text also had it in lower case)."""

from __future__ import annotations

import pytest

from agent.entities import Label
from agent.substitute.case_forms import mention_form, new_stand_in_case


@pytest.mark.parametrize(("mention", "real", "stand_in", "want"), [
    ("MITCHELL", "Mitchell", "Clarke", "CLARKE"),
    ("Half-Time", "half-time", "marcus-albert", "Marcus-Albert"),
    ("Half-time", "half-time", "marcus-albert", "Marcus-albert"),
    ("sarah-jane", "Sarah-Jane", "Mary-Ann", "mary-ann"),
    ("Computer Science", "computer science", "rock wave", "Rock Wave"),
    ("O'Brien", "o'brien", "mccarthy", "Mccarthy"),  # runs differ in number: as a whole
])
def test_a_mention_gets_the_stand_in_in_its_own_case(mention, real, stand_in, want):
    assert mention_form(mention, real, stand_in) == want


def test_new_stand_ins_of_word_values_follow_lower_and_upper_case():
    assert new_stand_in_case(Label.ORG, "computer science", "Rock Wave") == "rock wave"
    assert new_stand_in_case(Label.LOCATION, "NORTHFIELD", "Eastbrook") == "EASTBROOK"
    assert new_stand_in_case(Label.ORG, "Brightfield Legal", "Rock Wave") == "Rock Wave"
    # Formats keep their own case: an identifier or a secret is not recased.
    assert new_stand_in_case(Label.ID, "ab12cd", "XY98ZW") == "XY98ZW"


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_form_of_a_value_comes_back_as_written(veil_home, seed):
    """An LLM that repeats the text gets every form back as written: a lower-case mention
    of an organisation whose words were mapped in a longer one first ("quantum
    informatics" after "Quantum Informatics or Applied Robotics"), and forms that differ
    after a hyphen ("Long-Term", "long-term", "Long-term")."""
    from agent.config import default_settings
    from agent.engine.core import Engine
    from agent.session.conversation import Conversation

    settings = default_settings()
    settings.lists.always_protect = ["ORG: Quantum Informatics or Applied Robotics", "ORG: quantum informatics",
                                     "MISC: long-term"]
    engine = Engine(settings)
    conversation = Conversation("case-forms", seed=seed)
    for text in ("She applied for Quantum Informatics or Applied Robotics at Brightwater College. "
                 "She thinks quantum informatics is easier, and Quantum Informatics pays better.",
                 "Our Long-Term plan: long-term bonds now, Long-term equities later.",
                 "Then QUANTUM INFORMATICS and quantum informatics again, Long-Term."):
        result = engine.sanitize(text, conversation)
        assert "informatics" not in result.sanitized.casefold() and "long-term" not in result.sanitized.casefold()
        assert engine.restore(result.sanitized, conversation).text == text
