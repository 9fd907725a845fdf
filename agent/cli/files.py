"""`veil files`: sanitize and restore documents and transcripts with one map per project."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from agent.cli import CliError


def register(subcommands: argparse._SubParsersAction) -> None:
    p = subcommands.add_parser(
        "files",
        help="sanitize or restore files and folders (txt, md, csv, tsv, json, jsonl, docx, pdf, srt, vtt)",
        description="Documents and transcripts: one project = one map in the vault, shared by every file "
        "of every run. Inputs are never modified.",
    )
    commands = p.add_subparsers(dest="files_command", metavar="COMMAND")
    p.set_defaults(func=lambda args: (p.print_help(), 0)[1])

    s = commands.add_parser("sanitize", help="write sanitized copies of files and folders, with a risk report",
                            description="Writes sanitized copies under --out (PDFs as Markdown), a manifest (a re-run "
                            "skips finished files) and veil-report.html/.json (documents sorted by residual risk).")
    s.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    s.add_argument("--out", type=Path, required=True, metavar="DIR", help="output folder (must not hold the inputs)")
    s.add_argument("--project", default="default", help="the project whose map and policy to use (default: default)")
    s.add_argument("--exclude", action="append", default=[], metavar="TERM",
                   help="never replace this term (e.g. your own product names); saved with the project")
    s.add_argument("--always", action="append", default=[], metavar="TERM",
                   help="always replace this term ('Jane Doe' or 'PERSON: Jane Doe'); saved with the project")
    s.add_argument("--hotword", action="append", default=[], metavar="PHRASE[=TYPE]",
                   help="the number after this phrase is an entity (default type ID), e.g. 'policy number'")
    s.add_argument("--type", action="append", default=[], metavar="TYPE=CHOICE",
                   help="per entity type: replace (default), label or keep, e.g. DATE=keep")
    s.add_argument("--column", action="append", default=[], metavar="NAME=CHOICE",
                   help="per table column: auto (default), never, always or always:TYPE, e.g. Name=always:PERSON")
    s.add_argument("--corpus-swap", action="store_true",
                   help="organisations and places get stand-ins taken from other documents of the project")
    s.add_argument("--no-spoken", action="store_true", help="do not look for spoken identifiers (transcripts)")
    s.add_argument("--force", action="store_true", help="do every file again, even those done before")
    s.add_argument("--workers", type=_workers_arg, default="auto", metavar="N",
                   help="worker processes (each ~300 MB; 2 on two cores is about twice as fast); needs a vault "
                   "that opens without asking (keyring or VEIL_PASSPHRASE). Default auto: one per core (at most "
                   f"{AUTO_MAX_WORKERS}) when the files add up to {AUTO_WORKERS_FROM_BYTES // 1000} kB or more, else 1")
    s.add_argument("--json", action="store_true", help="print the run's report as JSON on stdout")
    s.set_defaults(func=run_sanitize)

    r = commands.add_parser("restore", help="put the project's real values back into sanitized files",
                            description="Writes NAME.restored.EXT beside each input, or under --out.")
    r.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    r.add_argument("--project", required=True)
    r.add_argument("--out", type=Path, metavar="DIR")
    r.set_defaults(func=run_restore)

    ls = commands.add_parser("projects", help="list the projects in the vault, with their policies")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=run_projects)

    b = commands.add_parser("bench", help="throughput: .txt kB/s and a 100-page .docx (time, peak memory)")
    b.add_argument("--kb", type=int, default=400, help="size of the generated .txt corpus in kB (default 400)")
    b.add_argument("--pages", type=int, default=100, help="pages of the generated .docx (default 100)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=run_bench)


def _policy_from(args: argparse.Namespace):
    from agent.files.policy import PolicyError, ProjectPolicy, parse_choice, parse_hotword

    try:
        policy = ProjectPolicy(
            exclusions=list(args.exclude), dictionary=list(args.always),
            hotwords=[parse_hotword(h) for h in args.hotword],
            types=dict(parse_choice(t, "--type") for t in args.type),
            columns=dict(parse_choice(c, "--column") for c in args.column),
            corpus_swap=args.corpus_swap,
        )
        policy.validate()
    except PolicyError as exc:
        raise CliError(str(exc)) from None
    return policy


def _open(project_name: str, *, create: bool, policy_update=None):
    from agent.cli.text import open_store
    from agent.files.project import ProjectError, open_project
    from agent.session.stores import MemoryStore

    store = open_store()
    if isinstance(store, MemoryStore):
        print("veil: warning: without the vault this project's map is lost when the command ends: "
              "the outputs cannot be restored later", file=sys.stderr)
    try:
        return store, open_project(store, project_name, create=create, policy_update=policy_update)
    except ProjectError as exc:
        _close(store)
        raise CliError(str(exc)) from None


def _close(store) -> None:
    close = getattr(store, "close", None)
    if close:
        close()


def _settings(store=None):
    """The saved settings, with the protection lists kept in the vault (`store`)."""
    from agent.config import ConfigError
    from agent.vault.lists import settings_for

    try:
        return settings_for(store)
    except ConfigError as exc:
        raise CliError(str(exc)) from None


def run_sanitize(args: argparse.Namespace) -> int:
    from agent.files.corpus import CorpusPool
    from agent.files.document import FileRejected
    from agent.files.progress import ProgressBar
    from agent.files.report import run_summary, write_reports
    from agent.files.runner import sanitize_files
    from agent.files.sanitizer import ProjectSanitizer

    policy = _policy_from(args)
    store, project = _open(args.project, create=True, policy_update=policy)
    try:
        sanitizer = ProjectSanitizer(_settings(store), project, spoken=not args.no_spoken,
                                     corpus=CorpusPool() if project.policy.corpus_swap else None)
        bar = ProgressBar(sys.stderr)
        workers = _usable_workers(args.workers, store, project, args.paths)
        try:
            if workers > 1:
                from agent.files.parallel import sanitize_files_parallel

                print(f"veil: {workers} worker processes", file=sys.stderr)

                result = sanitize_files_parallel(sanitizer.settings, project, store, args.paths, args.out,
                                                 workers=workers, spoken=not args.no_spoken, progress=bar.update,
                                                 force=args.force)
            else:
                result = sanitize_files(sanitizer, store, args.paths, args.out, progress=bar.update, force=args.force)
        except FileRejected as exc:
            raise CliError(str(exc)) from None
        finally:
            bar.close()
        _, html_path = write_reports(result, project.name, project.policy, args.out)
    finally:
        _close(store)
    for report in result.files:
        if report.status == "failed":
            print(f"veil: {report.relative}: {report.error}", file=sys.stderr)
    summary = run_summary(result, project.name, project.policy)
    totals = summary["totals"]
    print(f"veil: {totals['sanitized']} sanitized, {totals['skipped_done_before']} done before, {totals['failed']} failed "
          f"in {totals['seconds']} s; report: {html_path}", file=sys.stderr)
    if summary["read_first"]:
        print("veil: read first: " + ", ".join(summary["read_first"]), file=sys.stderr)
    if args.json:
        json.dump(summary, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    return 1 if result.failed else 0


# `--workers auto`: each worker starts in ~5 s (spaCy, the name and place lists, the
# vault) and then does ~25 kB/s on its core; one process does ~22 kB/s from the start.
# Two workers pay back from ~200-300 kB of text; under that one process is as fast and
# needs half the memory (a 100-page .docx, ~120 kB on disk, stays in one process).
AUTO_WORKERS_FROM_BYTES = 256_000
AUTO_MAX_WORKERS = 4  # more workers meet the same new values more often (map clashes)


def _workers_arg(value: str) -> int | str:
    if value == "auto":
        return value
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number or auto, not {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError("at least 1 worker")
    return n


def _usable_workers(asked: int | str, store, project, paths=()) -> int:
    """More than one worker only where each can open the vault by itself; `auto` only for
    enough text to pay for their start-up, and then without a word when it cannot."""
    import os

    from agent.session.stores import MemoryStore

    if asked == "auto":
        from agent.files.runner import collect

        jobs, _ = collect(paths)
        if sum(job.size for job in jobs) < AUTO_WORKERS_FROM_BYTES or (os.cpu_count() or 1) < 2:
            return 1
        quiet, asked = True, min(os.cpu_count() or 1, AUTO_MAX_WORKERS)
    else:
        quiet = False
    if asked <= 1:
        return 1
    why = None
    if isinstance(store, MemoryStore):
        why = "there is no vault to share the map through"
    elif project.policy.corpus_swap:
        why = "corpus swapping needs every document in one process"
    elif getattr(store, "mode", "keyring") != "keyring" and not os.environ.get("VEIL_PASSPHRASE"):
        why = "the vault's passphrase was typed here (set VEIL_PASSPHRASE for workers)"
    if why:
        if not quiet:
            print(f"veil: one worker: {why}", file=sys.stderr)
        return 1
    return min(asked, os.cpu_count() or 1)


def run_restore(args: argparse.Namespace) -> int:
    from agent.files.progress import ProgressBar
    from agent.files.runner import restore_files
    from agent.files.sanitizer import ProjectSanitizer

    store, project = _open(args.project, create=False)
    try:
        sanitizer = ProjectSanitizer(_settings(store), project, spoken=False)
        bar = ProgressBar(sys.stderr)
        try:
            result = restore_files(sanitizer.engine, project.conversation, args.paths, args.out, progress=bar.update)
        finally:
            bar.close()
    finally:
        _close(store)
    for report in result.files:
        if report.status == "failed":
            print(f"veil: {report.relative}: {report.error}", file=sys.stderr)
        else:
            print(f"veil: {report.relative} -> {report.output}", file=sys.stderr)
        for warning in report.warnings:
            print(f"veil: warning: {report.relative}: {warning}", file=sys.stderr)
    return 1 if result.failed else 0


def run_projects(args: argparse.Namespace) -> int:
    from agent.cli.text import open_store
    from agent.files.project import list_projects, load_policy

    store = open_store()
    try:
        projects = {name: load_policy(store, name).to_json() for name in list_projects(store)}
    finally:
        _close(store)
    if args.json:
        json.dump(projects, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        for name, policy in projects.items():
            print(f"{name}: never {policy['exclusions'] or '-'}; always {policy['dictionary'] or '-'}; "
                  f"hotwords {[h['phrase'] for h in policy['hotwords']] or '-'}; types {policy['types'] or '-'}; "
                  f"corpus swap {'on' if policy['corpus_swap'] else 'off'}")
    return 0


def run_bench(args: argparse.Namespace) -> int:
    from agent.bench.documents import throughput

    result = throughput(kb=args.kb, pages=args.pages, progress=lambda line: print(line, file=sys.stderr, flush=True))
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0
