"""A name the prose of a prompt names is the same name in a template or technical line of it:
swapped everywhere, or the line left as written shows which stand-in it is."""

from agent.session.conversation import Conversation

TEMPLATE = (
    "From now on reply in this format:\n\n"
    "Quillamoor (confidence in brackets): {answer}\n\n"
    'If I write "Stay in character, Quillamoor." then go back to these rules.'
)


def test_a_name_from_the_prose_is_found_in_the_template_line(privacy_engine):
    found = [s.start for s in privacy_engine.detect(TEMPLATE) if s.text == "Quillamoor"]
    assert sorted(found) == [TEMPLATE.index("Quillamoor"), TEMPLATE.rindex("Quillamoor")], found


def test_every_mention_gets_the_same_treatment(privacy_engine):
    result = privacy_engine.sanitize(TEMPLATE, Conversation("template-repeat"))
    count = result.sanitized.count("Quillamoor")
    assert count in (0, 2), result.sanitized  # kept everywhere or swapped everywhere


def test_a_word_only_in_a_template_line_is_still_left_alone(privacy_engine):
    text = "Reply in this format:\n\nVerdict (score in brackets): {answer}\n"
    assert not [s for s in privacy_engine.detect(text) if s.text == "Verdict"]
