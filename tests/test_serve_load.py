"""A bounded load test of `veil serve` on loopback: CLIENTS concurrent streaming clients
for VEIL_LOAD_SECONDS (default 60), each with its own real name and e-mail address,
against a fast fake upstream (its own process) that streams back what it was sent.

Checked: no errors; no cross-talk (each client's real values appear only in its own
answers, and its answers are its own text restored); nothing real reached the upstream;
the proxy's memory (RSS) stable. Measured: requests per second, and the latency the
proxy adds, both under this load and for one client alone, versus calling the upstream
directly with the same workload.

    VEIL_LOAD_SECONDS=60 .venv/bin/pytest tests/test_serve_load.py -s   # the real measurement
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

import httpx
import psutil
import pytest
from faker import Faker
from serve_support import REPO, mentions, start_veil_serve, stop_veil_serve

pytestmark = pytest.mark.slow

CLIENTS = 50
SECONDS = float(os.environ.get("VEIL_LOAD_SECONDS", "60"))
UPSTREAM_KEY = "sk-load-upstream-0123456789"
# RSS may grow this much between the end of the first quarter of the run and its end.
MAX_RSS_GROWTH_MB = 64

ECHO_UPSTREAM = """
import sys, json
sys.path.insert(0, "tests")
import provider_fakes
from provider_fakes import FakeProvider
provider_fakes._QuietServer.request_queue_size = 256  # 50 clients connect at once
with FakeProvider("openai", key=sys.argv[1]) as server:
    print(server.base_url, flush=True)
    sys.stdin.read()  # until the test closes stdin
    with open(sys.argv[2], "w") as out:
        json.dump([r.json for r in server.requests], out)
"""


@dataclass
class Identity:
    name: str
    email: str


@dataclass
class Run:
    latencies: list[float] = field(default_factory=list)
    first_bytes: list[float] = field(default_factory=list)
    answers: list[tuple[int, str, str]] = field(default_factory=list)  # (client, asked, answer)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0


def identities() -> list[Identity]:
    fake = Faker("en_US")
    fake.seed_instance(8)
    people: list[Identity] = []
    firsts, lasts = set(), set()
    while len(people) < CLIENTS:
        first, last = fake.first_name(), fake.last_name()
        if first in firsts or last in lasts or first == last:
            continue  # every name part belongs to one client only: cross-talk is then unambiguous
        firsts.add(first)
        lasts.add(last)
        people.append(Identity(f"{first} {last}", f"{first}.{last}@{fake.domain_word()}-mail.com".lower()))
    return people


def prompt(client: int, n: int, person: Identity) -> str:
    return f"Request {client}-{n}: please write to {person.name} at {person.email} about the invoice."


async def one_request(http: httpx.AsyncClient, url: str, headers: dict, text: str, run: Run, client: int) -> None:
    started = time.perf_counter()
    first = None
    pieces: list[str] = []
    done = False
    try:
        body = {"model": "up-model", "stream": True, "messages": [{"role": "user", "content": text}]}
        if "x-veil-conversation" not in headers:
            body["user"] = "direct"  # marks the runs that bypass the proxy (it drops this field)
        async with http.stream("POST", url, json=body, headers=headers) as response:
            if response.status_code != 200:
                run.errors.append(f"HTTP {response.status_code}: {(await response.aread())[:200]!r}")
                return
            async for line in response.aiter_lines():
                if not line.startswith("data: "):
                    continue
                if line == "data: [DONE]":
                    done = True
                    break
                chunk = json.loads(line[6:])
                if "error" in chunk:
                    run.errors.append(f"error event: {chunk['error']}")
                    return
                if first is None:
                    first = time.perf_counter() - started
                for choice in chunk["choices"]:
                    pieces.append(choice["delta"].get("content") or "")
    except httpx.HTTPError as exc:
        run.errors.append(f"{type(exc).__name__}: {exc}")
        return
    if not done:
        run.errors.append("stream ended without [DONE]")
        return
    run.latencies.append(time.perf_counter() - started)
    run.first_bytes.append(first or 0.0)
    run.answers.append((client, text, "".join(pieces)))


async def drive(url: str, token: str | None, people: list[Identity], seconds: float, clients: int) -> Run:
    """`clients` concurrent clients, each sending its next request as soon as its last
    answer has ended, for `seconds`."""
    run = Run()
    headers = {"authorization": f"Bearer {token or UPSTREAM_KEY}"}
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(120)) as http:
        deadline = time.monotonic() + seconds

        async def client(index: int) -> None:
            n = 0
            while time.monotonic() < deadline:
                n += 1
                extra = {"x-veil-conversation": f"load-{index}"} if token else {}
                await one_request(http, f"{url}/chat/completions", headers | extra, prompt(index, n, people[index]),
                                  run, index)

        began = time.monotonic()
        await asyncio.gather(*(client(i) for i in range(clients)))
        run.seconds = time.monotonic() - began
    return run


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) >= 2 else (values[0] if values else 0.0)


def test_fifty_streaming_clients_without_errors_cross_talk_or_memory_growth(tmp_path, record_property):
    people = identities()
    dump = tmp_path / "upstream-requests.json"
    upstream = subprocess.Popen([sys.executable, "-c", ECHO_UPSTREAM, UPSTREAM_KEY, str(dump)], cwd=REPO,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proxy = None
    try:
        upstream_url = upstream.stdout.readline().strip()
        assert upstream_url.startswith("http://127.0.0.1:")
        proxy, proxy_url, token = start_veil_serve(tmp_path, upstream_url, key=UPSTREAM_KEY)
        process = psutil.Process(proxy.pid)

        # One client alone: what the proxy adds to a request when it is idle.
        alone_direct = asyncio.run(drive(upstream_url, None, people, min(5.0, SECONDS / 6), 1))
        alone_proxy = asyncio.run(drive(proxy_url, token, people, min(5.0, SECONDS / 6), 1))
        # The same workload with all the clients at once, directly, then through the proxy.
        direct = asyncio.run(drive(upstream_url, None, people, max(3.0, SECONDS / 6), CLIENTS))

        rss: list[tuple[float, int]] = []

        async def loaded() -> Run:
            async def sample() -> None:
                while True:
                    rss.append((time.monotonic(), process.memory_info().rss))
                    await asyncio.sleep(0.5)

            sampler = asyncio.create_task(sample())
            try:
                return await drive(proxy_url, token, people, SECONDS, CLIENTS)
            finally:
                sampler.cancel()

        proxied = asyncio.run(loaded())
        assert stop_veil_serve(proxy) == 0
        proxy = None
    finally:
        if proxy is not None:
            proxy.kill()
        upstream.communicate(timeout=30)

    answers = proxied.answers + alone_proxy.answers
    exact = sum(answer == f"You wrote: {asked}" for _, asked, answer in answers)
    report = {
        "clients": CLIENTS,
        "seconds": round(proxied.seconds, 1),
        "requests": len(proxied.latencies),
        "requests_per_s": round(proxied.rate, 1),
        "direct_requests_per_s": round(direct.rate, 1),
        "loaded_latency_ms": {"proxy_p50": ms(pct(proxied.latencies, 50)), "proxy_p95": ms(pct(proxied.latencies, 95)),
                              "direct_p50": ms(pct(direct.latencies, 50)), "direct_p95": ms(pct(direct.latencies, 95))},
        "loaded_added_ms": {"p50": ms(pct(proxied.latencies, 50) - pct(direct.latencies, 50)),
                            "p95": ms(pct(proxied.latencies, 95) - pct(direct.latencies, 95))},
        "alone_added_ms": {"p50": ms(pct(alone_proxy.latencies, 50) - pct(alone_direct.latencies, 50)),
                           "p95": ms(pct(alone_proxy.latencies, 95) - pct(alone_direct.latencies, 95)),
                           "first_byte_p50": ms(pct(alone_proxy.first_bytes, 50) - pct(alone_direct.first_bytes, 50))},
        "alone_direct_p50_ms": ms(pct(alone_direct.latencies, 50)),
        "rss_mb": rss_summary(rss),
        "errors": len(proxied.errors),
        "answers_restored_exactly": f"{exact}/{len(answers)}",
    }
    print("\nveil serve load:", json.dumps(report, indent=1))
    record_property("veil_serve_load", report)

    assert not direct.errors and not alone_proxy.errors, (direct.errors + alone_proxy.errors)[:5]
    assert proxied.errors == [], proxied.errors[:5]
    served = {c for c, _, _ in proxied.answers}
    assert served == set(range(CLIENTS)), "every client got answers"

    # No cross-talk: each answer is its own text restored, with no other client's values.
    for client, asked, answer in answers:
        own = people[client]
        assert own.email in answer, (asked, answer)
        for other, person in enumerate(people):
            if other != client:
                assert not mentions(answer, person.email) and not mentions(answer, person.name), (client, other, answer)
    assert exact / len(answers) >= 0.99, f"only {exact}/{len(answers)} answers restored exactly"

    # Nothing real reached the upstream: each proxied request against its client's values.
    sent = [r for r in json.loads(dump.read_text()) if r.get("user") != "direct"]
    assert len(sent) == len(proxied.answers) + len(alone_proxy.answers)
    for request in sent:
        text = request["messages"][-1]["content"]
        client = int(text.split("-", 1)[0].removeprefix("Request "))
        for value in (*people[client].name.split(), people[client].email):
            assert not mentions(text, value), text

    growth = report["rss_mb"]["growth"]
    assert growth <= MAX_RSS_GROWTH_MB, report["rss_mb"]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def rss_summary(samples: list[tuple[float, int]]) -> dict[str, float]:
    if not samples:
        return {"start": 0, "after_first_quarter": 0, "end": 0, "peak": 0, "growth": 0}
    values = [v / 2**20 for _, v in samples]
    quarter = values[len(values) // 4]
    return {"start": round(values[0], 1), "after_first_quarter": round(quarter, 1), "end": round(values[-1], 1),
            "peak": round(max(values), 1), "growth": round(values[-1] - quarter, 1)}

