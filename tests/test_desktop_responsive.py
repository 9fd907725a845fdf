"""The window never freezes: a 50 kB prompt goes through the real engine (preview, send,
streamed answer restored) while a 10 ms timer measures how late the event loop runs it.

Why it holds: the engine runs in a helper process (spaCy keeps the GIL for hundreds of
milliseconds on big texts, which would freeze any Python UI thread), big texts are
rendered in slices, and answer chunks are coalesced before they reach the UI thread.
"""

from __future__ import annotations

import json
import time

import pytest
from desktop_support import app_settings, start_app, stop_app, wait_answer
from provider_fakes import Reply, last_user_text

pytestmark = [pytest.mark.gui, pytest.mark.slow]

# Measured on the shared 2-core machine (load average ~5 from other test suites): max gap
# 36-42 ms in most runs, one run in four with a single ~105 ms gap (the process descheduled
# by the OS), p99 23-29 ms, median 10.3 ms: the 50 ms design bar holds, and the figures are
# printed on every run. The test fails only on stalls no loaded machine explains: the
# engine on the UI thread holds the GIL for seconds on this text, and a GIL-bound call on
# the UI side stalls it 200-350 ms each time it runs.
MAX_GAP_S = 1.5
P99_GAP_S = 0.25
MAX_GAPS_OVER_200MS = 5

NAMES = ["Anjali Gupta", "Sarah Mitchell", "Tomás Ortega", "Mei Lin Chen", "Oluwaseun Adeyemi", "Hannah Becker",
         "Rahul Verma", "Claire Dubois", "Kenji Watanabe", "Fatima Al-Sayed"]


def big_prompt(size: int = 50_000) -> str:
    lines = []
    i = 0
    while sum(len(line) + 1 for line in lines) < size:
        name = NAMES[i % len(NAMES)]
        first = name.split()[0].lower()
        lines.append(
            f"Ticket {1000 + i}: {name} ({first}.{i}@example.com, +1 415 555 {i % 10000:04d}) reported that the "
            f"export fails since the update; asked for a call back on Tuesday about invoice INV-{20000 + i}."
        )
        i += 1
    return "\n".join(lines)[:size]


class GapMeter:
    """A 10 ms QTimer; the gaps between its ticks are how long the UI thread was busy."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.gaps: list[float] = []
        self._last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self._last)
        self._last = now

    def start(self) -> None:
        self._last = time.perf_counter()
        self.timer.start()

    def stop(self) -> dict:
        self.timer.stop()
        gaps = sorted(self.gaps)
        return {
            "ticks": len(gaps),
            "max_ms": round(gaps[-1] * 1000, 1),
            "p99_ms": round(gaps[int(len(gaps) * 0.99)] * 1000, 1),
            "median_ms": round(gaps[len(gaps) // 2] * 1000, 1),
            "over_50ms": sum(1 for g in gaps if g > 0.05),
            "over_200ms": sum(1 for g in gaps if g > 0.2),
        }


def test_a_50kb_prompt_through_the_real_engine_never_stalls_the_window(qtbot, desktop_env, shared_engine,
                                                                       fake_openai, tmp_path):
    veil = start_app(qtbot, shared_engine, app_settings(fake_openai.base_url))
    try:
        chat = veil.chat
        prompt = big_prompt()
        fake_openai.plan(Reply(chunk_size=48))  # echoes "You wrote: <what was sent>", streamed
        meter = GapMeter()
        meter.start()
        began = time.perf_counter()
        chat.composer.setPlainText(prompt)  # a paste
        qtbot.waitUntil(lambda: chat.last_draft is not None and not chat.preview.rendering, timeout=120_000)
        preview_s = time.perf_counter() - began
        sent_text = chat.preview.text()
        draft = chat.last_draft
        chat.send()
        answer = wait_answer(qtbot, chat, timeout=120_000)
        qtbot.waitUntil(lambda: not answer.body.rendering, timeout=30_000)
        total_s = time.perf_counter() - began
        stats = meter.stop()
        stats.update(prompt_chars=len(prompt), entities=len(draft.result.entities),
                     preview_s=round(preview_s, 2), total_s=round(total_s, 2))
        print("\nUI stall measurement:", json.dumps(stats))
        (tmp_path / "stalls.json").write_text(json.dumps(stats))
        # The flow really happened, with the real engine...
        assert stats["entities"] > 500
        got = last_user_text("openai", fake_openai.requests[-1].json)
        assert got == sent_text and "Anjali Gupta" not in got and "sarah.0@example.com" not in got
        assert answer.body.text().startswith("You wrote: Ticket 1000: Anjali Gupta")
        assert len(answer.body.marks()) > 500
        # ...and the window kept up while it did.
        assert stats["max_ms"] < MAX_GAP_S * 1000, stats
        assert stats["p99_ms"] < P99_GAP_S * 1000, stats
        assert stats["over_200ms"] <= MAX_GAPS_OVER_200MS, stats
    finally:
        stop_app(veil)
