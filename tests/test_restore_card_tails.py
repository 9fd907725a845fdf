"""An answer that names a swapped card by its last digits ("the card ending 6467", "the
last four digits of your card are 6467", "•••• 6467") gets the real card's last digits
back, in a one-shot restore and in a streamed answer however it is cut into chunks
(agent/restore/tails.py through agent/restore/restorer.py). A card of our own."""

from __future__ import annotations

import random

import pytest

from agent.session.conversation import Conversation

CARD = "4539 1488 0343 6467"


@pytest.fixture()
def card_conversation(privacy_engine):
    conversation = Conversation("card-tails", seed=4)
    result = privacy_engine.sanitize(f"My card {CARD} was charged twice, please help.", conversation)
    stand_in = next(e.sent for e in result.entities if e.real == CARD)
    assert stand_in[-4:] != CARD[-4:]
    return conversation, stand_in[-4:]


def _answer(tail: str) -> str:
    return (f"I see two charges on the card ending {tail}. The last four digits of your card are {tail}, "
            f"shown as •••• {tail} on the statement. Order 2024 0815 is unrelated.")


def test_a_one_shot_restore_puts_the_real_last_digits_back(privacy_engine, card_conversation):
    conversation, tail = card_conversation
    restored = privacy_engine.restore(_answer(tail), conversation)
    assert restored.text == _answer("6467"), restored.text
    assert sum(s.real == "6467" for s in restored.spans) == 3
    assert "2024 0815" in restored.text  # digits with no cue stay as written


def test_a_streamed_answer_puts_them_back_however_it_is_cut(privacy_engine, card_conversation):
    conversation, tail = card_conversation
    answer = _answer(tail)
    whole = privacy_engine.restore(answer, conversation).text
    assert whole == _answer("6467")
    for seed in range(60):
        rng = random.Random(seed)
        streamer = privacy_engine.streaming_restorer(conversation)
        shown, position = [], 0
        while position < len(answer):
            size = rng.randint(1, 7)
            shown.append(streamer.feed(answer[position : position + size]).text)
            position += size
        shown.append(streamer.finish().text)
        assert "".join(shown) == whole, (seed, "".join(shown))
