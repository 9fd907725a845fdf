"""What each local-model task changes, measured in one process against the same engine
without it (the engine changes from commit to commit, so numbers from separate runs are
not comparable).

    python -m models.evaluate --llm gemma3-270m-q4 [--limit 60] [--out DIR]

For each configuration (rules only, each task alone, all tasks) it runs the `veil bench`
loop (agent.bench.runner.run_engine) on the same data and reports the quality-bar
figures and the latency per text. It adds per-task figures the end-to-end numbers hide:
the judge's accuracy and coverage on the LOPSIDED gold entities, how many extra gold
entities the detector finds (and how many of its spans are wrong), how often a proposed
stand-in passes validation, and how many inflected stand-ins the fallback restorer repairs.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from agent.bench.data import Example, load_datasets
from agent.bench.metrics import bench_conversation
from agent.bench.runner import BenchReport, run_engine
from agent.config import Settings, load_settings
from agent.detect.base import DetectionContext
from agent.engine.core import Engine
from agent.entities import Action, Label, Span
from models.tasks import ALL_TASKS, tasks_for_model
from models.tasks.surrogates import PROPOSED_LABELS

DEFAULT_LIMITS = {"lopsided": None, "pupa": 40, "presidio_synth": 40, "wnut17_test": 40, "abcd_sample": None}


def _ms(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"mean": None, "p95": None}
    ordered = sorted(values)
    return {
        "mean": round(statistics.fmean(ordered), 1),
        "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
    }


def end_to_end(
    settings: Settings,
    model: str,
    datasets: dict[str, list[Example]],
    budget: float,
    log,
    only: list[str] | None = None,
) -> dict:
    configs: list[tuple[str, list[str]]] = [("rules only", [])]
    configs += [(f"+{task}", [task]) for task in ALL_TASKS]
    configs.append(("all tasks", list(ALL_TASKS)))
    if only:
        configs = [c for c in configs if c[0] in only]
    out = {}
    for name, tasks in configs:
        s = copy.deepcopy(settings)
        if "surrogates" in tasks:
            s.substitution_level = 2  # the proposer is only asked at level 2
        local, extra = tasks_for_model(model, tasks, time_budget_s=budget) if tasks else (None, [])
        engine = Engine(s, local_tasks=local, extra_detectors=extra)
        engine.warm_up()
        started = time.monotonic()
        scores = run_engine(engine, datasets)
        summary = BenchReport().summary(scores)
        latencies = [ms for score in scores.values() for ms in score.latencies_ms]
        restore = [ms for score in scores.values() for ms in score.restore_latencies_ms]
        summary["sanitize_ms"] = _ms(latencies)
        summary["restore_ms"] = _ms(restore)
        summary["recall_by_dataset"] = {k: _round(v.recall_all().recall) for k, v in scores.items()}
        summary["wall_s"] = round(time.monotonic() - started, 1)
        out[name] = summary
        log(f"{name}: {json.dumps(summary)}")
    return out


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def judge_accuracy(model: str, examples: list[Example], budget: float) -> dict:
    """The judge on the gold LOPSIDED entities (all of them, not only those the engine
    would ask about): accuracy where it answers, how often it answers, AUC of its margin."""
    local, _ = tasks_for_model(model, ["relevance"], time_budget_s=budget)
    judge = local.judge
    answered = correct = 0
    margins: list[tuple[bool, float]] = []
    per_entity: list[float] = []
    total = 0
    for ex in examples:
        for e in ex.entities:
            if e.relevant is None:
                continue
            total += 1
            span = Span(e.start, e.end, Label(e.label), e.text, 1.0, "gold")
            started = time.perf_counter()
            margin = judge.margin(ex.text, span)
            per_entity.append((time.perf_counter() - started) * 1000)
            if margin is None:
                continue
            margins.append((bool(e.relevant), margin))
            verdict = judge.verdict(span.label, margin, span.text)
            if verdict is not None:
                answered += 1
                correct += verdict == bool(e.relevant)
    pos = [m for rel, m in margins if rel]
    neg = [m for rel, m in margins if not rel]
    auc = (
        sum((p > q) + 0.5 * (p == q) for p in pos for q in neg) / (len(pos) * len(neg))
        if pos and neg
        else None
    )
    return {
        "entities": total,
        "coverage": _round(answered / total if total else None),
        "accuracy_when_answering": _round(correct / answered if answered else None),
        "auc_of_margin": _round(auc),
        "ms_per_entity": _ms(per_entity),
    }


def detector_yield(model: str, settings: Settings, datasets: dict[str, list[Example]], budget: float) -> dict:
    """Gold entities that only the local_llm detector finds, and its spans that match no
    gold entity (a rough precision: the gold annotation is not exhaustive)."""
    _, detectors = tasks_for_model(model, ["detect"], time_budget_s=budget)
    detector = detectors[0]
    base = Engine(settings)
    new = spans = wrong = gold_total = 0
    per_text: list[float] = []
    for examples in datasets.values():
        for ex in examples:
            found = base.detect(ex.text)
            started = time.perf_counter()
            mine = detector.detect(ex.text, DetectionContext())
            per_text.append((time.perf_counter() - started) * 1000)
            spans += len(mine)
            for s in mine:
                if not any(s.start < e.end and e.start < s.end for e in ex.entities):
                    wrong += 1
            for e in ex.entities:
                gold_total += 1
                covered = any(f.start < e.end and e.start < f.end for f in found)
                if not covered and any(s.start < e.end and e.start < s.end for s in mine):
                    new += 1
    return {
        "gold_entities": gold_total,
        "found_only_by_local_llm": new,
        "local_llm_spans": spans,
        "spans_matching_no_gold_entity": wrong,
        "ms_per_text": _ms(per_text),
    }


def surrogate_acceptance(model: str, datasets: dict[str, list[Example]], budget: float, cap: int = 80) -> dict:
    local, _ = tasks_for_model(model, ["surrogates"], time_budget_s=budget)
    asked = accepted = 0
    per_call: list[float] = []
    samples: list[tuple[str, str]] = []
    for examples in datasets.values():
        for ex in examples:
            for e in ex.entities:
                label = Label(e.label)
                if label not in PROPOSED_LABELS or asked >= cap:
                    continue
                asked += 1
                started = time.perf_counter()
                proposal = local.surrogates.propose(ex.text, Span(e.start, e.end, label, e.text, 1.0, "gold"))
                per_call.append((time.perf_counter() - started) * 1000)
                if proposal is not None:
                    accepted += 1
                    if len(samples) < 8:
                        samples.append((e.text, proposal))
    return {
        "asked": asked,
        "accepted_after_validation": accepted,
        "acceptance_rate": _round(accepted / asked if asked else None),
        "examples": samples,
        "ms_per_call": _ms(per_call),
    }


def restore_repairs(model: str, settings: Settings, examples: list[Example], budget: float, cap: int = 60) -> dict:
    """Answers where each stand-in comes back inflected ("Priyas") or misspelled: how many
    the rules alone restore, and how many the fallback restorer repairs on top."""
    local, _ = tasks_for_model(model, ["restore"], time_budget_s=budget)
    engine_rules = Engine(settings)
    engine_llm = Engine(settings, local_tasks=local)
    rng = random.Random(7)
    cases = rules_ok = llm_ok = 0
    per_call: list[float] = []
    for ex in examples:
        if cases >= cap:
            break
        conversation = bench_conversation(ex.id)
        result = engine_rules.sanitize(ex.text, conversation)
        swapped = [r for r in result.entities if r.action is Action.REPLACE and re.search(r"[^\W\d_]{4,}", r.sent)]
        if not swapped:
            continue
        target = rng.choice(swapped)
        words = target.sent.split()
        index = rng.randrange(len(words))
        word = words[index]
        if rng.random() < 0.5:
            changed = word + "s"
        else:  # one letter doubled: a common LLM misspelling
            i = rng.randrange(1, len(word))
            changed = word[:i] + word[i - 1] + word[i:]
        form = " ".join(words[:index] + [changed] + words[index + 1 :])
        answer = f"Here is what I found about {form}: see above."
        real_words = target.real.split()
        expected_part = real_words[index] if len(real_words) == len(words) else None
        cases += 1
        plain = engine_rules.restore(answer, conversation).text
        started = time.perf_counter()
        fixed = engine_llm.restore(answer, conversation).text
        per_call.append((time.perf_counter() - started) * 1000)
        rules_ok += form not in plain
        llm_ok += form not in fixed and (expected_part is None or expected_part.casefold() in fixed.casefold())
    return {
        "answers_with_a_changed_stand_in": cases,
        "fixed_by_rules": rules_ok,
        "fixed_with_fallback_restorer": llm_ok,
        "ms_per_restore": _ms(per_call),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.evaluate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--llm", default="gemma3-270m-q4", help="catalog name or .gguf path")
    parser.add_argument("--data", type=Path, help="folder of .jsonl files (default ../shared/data/dev)")
    parser.add_argument("--limit", type=int, help="texts per dataset (default: all of lopsided and abcd, 40 of the others)")
    parser.add_argument("--e2e-limit", type=int, default=120, help="texts per dataset in the end-to-end runs")
    parser.add_argument(
        "--config", action="append",
        help="end-to-end configurations to run (repeatable): 'rules only', '+relevance', "
        "'+detect', '+surrogates', '+restore', 'all tasks' (default: all of them)",
    )
    parser.add_argument("--budget", type=float, default=8.0, help="time budget per task call (s)")
    parser.add_argument("--skip-e2e", action="store_true", help="only the per-task figures")
    parser.add_argument(
        "--only", choices=["judge", "detect", "surrogates", "restore", "e2e"], action="append",
        help="run only these parts (repeatable)",
    )
    parser.add_argument("--out", type=Path, default=Path("bench-results"))
    args = parser.parse_args(argv)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    datasets: dict[str, list[Example]] = {}
    for name, default_limit in DEFAULT_LIMITS.items():
        limit = args.limit if args.limit is not None else default_limit
        datasets.update(load_datasets(args.data, [name], limit))
    settings = load_settings()
    slice_desc = {k: len(v) for k, v in datasets.items()}
    log(f"data slice: {slice_desc}")
    report: dict[str, Any] = {"model": args.llm, "slice": slice_desc, "budget_s": args.budget}
    def wanted(part: str) -> bool:
        return not args.only or part in args.only

    if "lopsided" in datasets and wanted("judge"):
        report["judge"] = judge_accuracy(args.llm, datasets["lopsided"], args.budget)
        log(f"judge: {report['judge']}")
    if wanted("detect"):
        report["detect"] = detector_yield(args.llm, settings, datasets, args.budget)
        log(f"detect: {report['detect']}")
    if wanted("surrogates"):
        report["surrogates"] = surrogate_acceptance(args.llm, datasets, args.budget)
        log(f"surrogates: {report['surrogates']}")
    if wanted("restore"):
        prompts = [ex for name in ("presidio_synth", "lopsided", "abcd_sample") for ex in datasets.get(name, [])]
        report["restore"] = restore_repairs(args.llm, settings, prompts, args.budget)
        log(f"restore: {report['restore']}")
    if not args.skip_e2e and wanted("e2e"):
        e2e = {k: v[: args.e2e_limit] for k, v in datasets.items()}
        report["end_to_end_slice"] = {k: len(v) for k, v in e2e.items()}
        report["end_to_end"] = end_to_end(settings, args.llm, e2e, args.budget, log, args.config)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "local-model-tasks.json"
    path.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
