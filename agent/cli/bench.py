"""`veil bench`: measure Veil on the labelled evaluation data (and Presidio beside it)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from agent.cli import CliError


def register(subcommands: argparse._SubParsersAction) -> None:
    p = subcommands.add_parser(
        "bench",
        help="measure privacy recall, LOPSIDED errors, restore exactness and latency",
        description="Runs the engine over ../shared/data/dev/*.jsonl (or --data) and writes JSON and "
        "a Markdown table. Every source is split into a fit half and a validation half by a fixed "
        "hash of the item id; both are reported, the validation numbers are the ones to quote. "
        "Never downloads anything.",
    )
    p.add_argument("--data", type=Path, help="a folder of .jsonl files or one .jsonl file")
    p.add_argument("--datasets", help="comma-separated dataset names (default: all found)")
    p.add_argument("--limit", type=int, help="at most this many texts per dataset (a quick slice)")
    p.add_argument("--compare", choices=["presidio"], help="also run Microsoft Presidio on the same data")
    p.add_argument("--llm", metavar="MODEL", help="use a local model (catalog name or .gguf path) for its tasks")
    p.add_argument("--llm-tasks", default="relevance", help="comma-separated tasks for --llm (relevance,detect,surrogates,restore)")
    p.add_argument("--out", type=Path, default=Path("bench-results"), help="folder for bench.json and bench.md")
    p.add_argument("--no-speed", action="store_true", help="skip the 50-word latency run")
    p.add_argument("--documents", action="store_true",
                   help="also the documents row: TAB and ABCD as files through `veil files`, and generated spoken transcripts")
    p.add_argument("--no-strict", action="store_true", help="skip the strict run (relevance off, every entity swapped)")
    p.add_argument("--no-generated", action="store_true",
                   help="skip the generated sets (identifiers, code and logs, leaks, reformatted echoes)")
    p.set_defaults(func=run)


def strict_settings(settings):
    """Maximum privacy: no relevance judgement, every detected entity swapped."""
    import copy

    strict = copy.deepcopy(settings)
    strict.relevance = False
    strict.policy = {label: "replace" for label in strict.policy}
    return strict


def run(args: argparse.Namespace) -> int:
    from agent.bench.data import DataMissing, load_datasets
    from agent.bench.report import markdown
    from agent.bench.runner import BenchReport, run_engine, run_presidio, speed_50_words
    from agent.bench.split import split_datasets
    from agent.config import load_settings
    from agent.engine.core import Engine

    names = [n.strip() for n in args.datasets.split(",")] if args.datasets else None
    try:
        datasets = load_datasets(args.data, names, args.limit)
    except DataMissing as exc:
        print(f"veil bench: skipped: {exc}", file=sys.stderr)
        return 0
    settings = load_settings()
    local_tasks, extra = None, []
    notes = []
    if args.llm:
        from agent.engine.local_tasks import LocalModelUnavailable, find_local_models

        plugin = find_local_models()
        if plugin is None:
            raise CliError("local-model tasks are not available: no local-model package is installed")
        tasks = [t.strip() for t in args.llm_tasks.split(",") if t.strip()]
        try:
            local_tasks, extra = plugin.bench_tasks(args.llm, tasks, settings)
        except LocalModelUnavailable as exc:
            raise CliError(f"--llm {args.llm}: {exc}") from None
        notes.append(f"local model {args.llm} for: {', '.join(tasks)}")
    engine = Engine(settings, local_tasks=local_tasks, extra_detectors=extra)
    engine.warm_up()

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    halves = split_datasets(datasets)
    report = BenchReport(notes=notes)
    for half, scores_of in (("fit", "fit_engine"), ("validation", "engine")):
        if halves[half]:
            setattr(report, scores_of, run_engine(engine, halves[half], lambda line, h=half: progress(f"{h} {line}")))
    if not args.no_strict:
        strict = Engine(strict_settings(settings), local_tasks=local_tasks, extra_detectors=extra)
        for half, scores_of in (("fit", "fit_strict"), ("validation", "strict")):
            if halves[half]:
                setattr(report, scores_of, run_engine(strict, halves[half], lambda line, h=half: progress(f"{h} strict {line}")))
    if not args.no_speed:
        from agent.bench.speed import side_by_side

        report.speed_50_words = speed_50_words(engine, datasets)
        fast = Engine(settings) if args.llm else engine  # --fast: rules, NER and the judge's head
        report.speed_side_by_side = side_by_side(fast, datasets, settings.detectors.spacy_model,
                                                 llm_engine=engine if args.llm else None)
    if not args.no_generated:
        from agent.bench.generated import run_generated

        report.generated = run_generated(engine, progress, quick=args.limit is not None)
    if args.compare == "presidio":
        try:
            for half, scores_of in (("fit", "fit_presidio"), ("validation", "presidio")):
                if halves[half]:
                    setattr(report, scores_of, run_presidio(halves[half], lambda line, h=half: progress(f"{h} {line}")))
        except ImportError as exc:
            raise CliError(f"Presidio is not installed (pip install -e '.[dev]'): {exc}") from None
    documents = None
    if args.documents:
        from agent.bench.documents import documents_row

        documents = documents_row(datasets, progress)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bench.json").write_text(json.dumps(report.to_json() | ({"documents": documents} if documents else {}), indent=2) + "\n", encoding="utf-8")
    table = markdown(report)
    if documents:
        from agent.bench.documents import markdown as documents_markdown

        table += documents_markdown(documents)
    (args.out / "bench.md").write_text(table, encoding="utf-8")
    print(table)
    return 0
