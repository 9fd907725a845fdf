"""Large texts are sanitized in bounded pieces (agent/engine/chunks.py): the pieces cover
the text, end at paragraph or sentence breaks, share one map (a value keeps its stand-in
from the first piece to the last) and the joined result has offsets in the whole text.
The memory test runs `veil sanitize` on 1 MB in a real process and reads its peak RSS."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent.engine.chunks import CHUNK_CHARS, split_text
from agent.session.conversation import Conversation

REPO = Path(__file__).resolve().parents[1]


def letters(n: int) -> str:
    """n short letters of my own making, each a paragraph, with people, e-mails and phones."""
    people = ["Orla Brennigan", "Tomasz Wielgosz", "Ines Carvalhal", "Dmitri Olenikov", "Maeve Ashcombe"]
    out = []
    for i in range(n):
        who = people[i % len(people)]
        first = who.split()[0].lower()
        out.append(f"Dear {who},\n\nThank you for the report of week {i}. The figures look right to me, and the "
                   f"shipment can leave on Monday. Please write to {first}.{i}@harbourmail.net or call "
                   f"+1 415 555 {1000 + i % 9000:04d} if anything changes. {who.split()[0]} will sign the form.\n\n"
                   "Kind regards,\nThe depot\n\n")
    return "".join(out)


def test_pieces_cover_the_text_within_the_limit_and_end_at_paragraphs():
    text = letters(400)
    assert len(text) > 3 * CHUNK_CHARS
    pieces = split_text(text)
    assert "".join(piece for _, piece in pieces) == text
    assert all(len(piece) <= CHUNK_CHARS for _, piece in pieces)
    assert [offset for offset, _ in pieces] == [sum(len(p) for _, p in pieces[:i]) for i in range(len(pieces))]
    assert all(piece.endswith("\n\n") for _, piece in pieces[:-1])
    # No paragraph breaks: sentences; no spaces at all: the hard limit.
    prose = "This is one sentence of a long report. " * 2000
    assert all(p.endswith(". ") for _, p in split_text(prose)[:-1])
    assert [len(p) for _, p in split_text("x" * 45_000)] == [CHUNK_CHARS, CHUNK_CHARS, 5_000]
    assert split_text("") == [(0, "")]


def test_a_big_text_keeps_one_stand_in_per_value_across_pieces_and_restores(privacy_engine):
    text = letters(300)
    conversation = Conversation()
    result = privacy_engine.sanitize(text, conversation)
    assert len(split_text(text)) > 2
    assert result.original == text
    for entity in result.entities:
        assert text[entity.start : entity.end] == entity.real
        assert result.sanitized[entity.sanitized_start : entity.sanitized_end] == entity.sent
    for name in ("Orla Brennigan", "Maeve Ashcombe"):
        sent = {e.sent for e in result.entities if e.real == name}
        assert len(sent) == 1 and name not in result.sanitized  # one stand-in, first piece to last
    assert privacy_engine.restore(result.sanitized, conversation).text == text


@pytest.mark.slow
def test_sanitizing_one_megabyte_stays_under_400_mb(tmp_path):
    text = letters(6000)[:1_000_000]
    (tmp_path / "in.txt").write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("VEIL_")}
    env.update(VEIL_HOME=str(tmp_path / "home"), VEIL_PASSPHRASE="chunk tests",
               PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
    # A parent of its own measures the child's peak RSS (RUSAGE_CHILDREN), nothing else's.
    measure = (
        "import resource, subprocess, sys\n"
        "with open(sys.argv[1], 'rb') as f, open(sys.argv[2], 'wb') as out:\n"
        "    code = subprocess.run([sys.executable, '-m', 'desktop.launcher', 'sanitize'], stdin=f, stdout=out).returncode\n"
        "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n"
    )
    done = subprocess.run([sys.executable, "-c", measure, str(tmp_path / "in.txt"), str(tmp_path / "out.txt")],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=1800)
    code, peak_mb = map(int, done.stdout.split())
    print(f"veil sanitize of 1 MB: peak RSS {peak_mb} MB")
    assert code == 0, done.stderr
    assert peak_mb < 400
    sanitized = (tmp_path / "out.txt").read_text(encoding="utf-8")
    assert "Orla Brennigan" not in sanitized and "@harbourmail.net" not in sanitized
