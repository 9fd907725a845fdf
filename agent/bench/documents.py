"""The documents row of `veil bench`: whole files through `veil files` (the same runner,
readers and writers as the command), scored per type.

- TAB: each court case's paragraphs joined into one .txt document; ABCD: each dialogue a
  .txt transcript. Recall (the gold text no longer appears in the output document) and
  strict recall (no name word of 3+ letters survives either), per type, per half of the
  fit/validation split (agent/bench/split.py; validation is the figure to quote).
- Spoken transcripts generated here (agent/bench/spoken_set.py: 6 kinds of spoken
  identifier); strict there also means the written value cannot be read back from any
  spoken run of the output.
- Throughput: kB/s for .txt, and a 100-page .docx (seconds, peak memory of a fresh
  process that does only that).
"""

from __future__ import annotations

import multiprocessing
import queue as queue_module
import re
import resource
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from agent.bench.data import Example
from agent.bench.metrics import Counts, still_present, strictly_protected

Progress = Callable[[str], None]


def _run_files(folder: Path, out: Path, project: str, settings=None) -> None:
    from agent.config import default_settings
    from agent.files.project import open_project
    from agent.files.runner import sanitize_files
    from agent.files.sanitizer import ProjectSanitizer
    from agent.session.stores import MemoryStore

    store = MemoryStore()
    sanitizer = ProjectSanitizer(settings or default_settings(), open_project(store, project))
    result = sanitize_files(sanitizer, store, [folder], out)
    failed = [f for f in result.files if f.status == "failed"]
    if failed:
        raise RuntimeError(f"veil files failed on {failed[0].relative}: {failed[0].error}")


def _run_files_workers(folder: Path, out: Path, project: str, workers: int, vault: Path) -> None:
    """The same with `workers` processes sharing a throw-away vault (the map must be
    shared through a store the workers can open)."""
    import functools
    import os

    from agent.config import default_settings
    from agent.files.parallel import sanitize_files_parallel
    from agent.files.project import open_project
    from agent.vault import VaultStore

    os.environ.setdefault("VEIL_PASSPHRASE", "veil files bench (throw-away vault)")
    opener = functools.partial(VaultStore, vault, scrypt_n=2**12)
    store = opener()
    try:
        result = sanitize_files_parallel(default_settings(), open_project(store, project), store, [folder], out,
                                         workers=workers, open_store=opener)
    finally:
        store.close()
    failed = [f for f in result.files if f.status == "failed"]
    if failed:
        raise RuntimeError(f"veil files failed on {failed[0].relative}: {failed[0].error}")


def _documents(name: str, examples: list[Example]) -> dict[str, list[Example]]:
    grouped: dict[str, list[Example]] = defaultdict(list)
    for example in examples:
        grouped[example.group or example.id].append(example)
    return grouped


def _score(name: str, examples: list[Example], settings=None) -> dict:
    from agent.bench.split import half_of

    counts: dict[str, dict[str, dict[str, Counts]]] = {}
    with tempfile.TemporaryDirectory(prefix="veil-bench-docs-") as tmp:
        source, out = Path(tmp) / "in", Path(tmp) / "out"
        source.mkdir()
        documents = _documents(name, examples)
        for i, (group, items) in enumerate(documents.items()):
            (source / f"{i:04d}.txt").write_text("\n\n".join(e.text for e in items) + "\n", encoding="utf-8")
        started = time.perf_counter()
        _run_files(source, out, f"bench-{name}", settings)
        seconds = time.perf_counter() - started
        for i, (group, items) in enumerate(documents.items()):
            output = (out / f"{i:04d}.txt").read_text(encoding="utf-8")
            for example in items:
                half = half_of(name, example)
                for entity in example.entities:
                    if entity.relevant is True:
                        continue
                    by_label = counts.setdefault(half, {}).setdefault(entity.label, {"recall": Counts(), "strict": Counts()})
                    protected = not still_present(entity.text, output)
                    by_label["recall"].add(protected)
                    by_label["strict"].add(protected and strictly_protected(entity.text, output))
    chars = sum(len(e.text) for e in examples)
    return {"documents": len(documents), "chars": chars, "seconds": round(seconds, 2),
            "halves": {half: _table(labels) for half, labels in counts.items()}}


def _table(labels: dict[str, dict[str, Counts]]) -> dict:
    out = {}
    total, strict = Counts(), Counts()
    for label, c in sorted(labels.items()):
        out[label] = {"n": c["recall"].total, "recall": _r(c["recall"].recall), "strict": _r(c["strict"].recall)}
        total.total += c["recall"].total
        total.protected += c["recall"].protected
        strict.total += c["strict"].total
        strict.protected += c["strict"].protected
    out["all"] = {"n": total.total, "recall": _r(total.recall), "strict": _r(strict.recall)}
    return out


def _r(value):
    return None if value is None else round(value, 4)


def spoken_row(count: int = 60, settings=None) -> dict:
    from agent.bench.spoken_set import spoken_set
    from agent.files.spoken import find_spoken

    transcripts = spoken_set(count)
    by_kind: dict[str, dict[str, Counts]] = {}
    with tempfile.TemporaryDirectory(prefix="veil-bench-spoken-") as tmp:
        source, out = Path(tmp) / "in", Path(tmp) / "out"
        source.mkdir()
        for t in transcripts:
            (source / f"{t.id}.txt").write_text(t.text, encoding="utf-8")
        started = time.perf_counter()
        _run_files(source, out, "bench-spoken", settings)
        seconds = time.perf_counter() - started
        for t in transcripts:
            output = (out / f"{t.id}.txt").read_text(encoding="utf-8")
            readable = {e.canonical.casefold() for e in find_spoken(output)}
            for gold in t.gold:
                c = by_kind.setdefault(gold.kind, {"recall": Counts(), "strict": Counts()})
                protected = gold.text not in output
                c["recall"].add(protected)
                value = gold.value.casefold()
                strict = protected and value not in readable and not any(value in r for r in readable if len(value) >= 5)
                if gold.kind in ("PERSON_SPELLED", "EMAIL"):
                    # The name words (of an e-mail, its local part: free-mail domains are kept).
                    local = re.split(r"\s+at\s+", gold.value)[0]
                    words = [w for w in re.split(r"\W+|\bdot\b|\bunderscore\b", local) if len(w) >= 3]
                    strict = strict and not any(re.search(rf"(?i)\b{re.escape(w)}\b", output) for w in words)
                c["strict"].add(strict)
    table = _table(by_kind)
    return {"transcripts": len(transcripts), "identifiers": table["all"]["n"], "seconds": round(seconds, 2),
            "kinds": table}


def documents_row(datasets: dict[str, list[Example]], progress: Progress | None = None, spoken_count: int = 60) -> dict:
    """The documents row: TAB and ABCD through `veil files`, and the spoken set."""
    out = {}
    for name in ("tab", "abcd_sample"):
        if name in datasets:
            out[name] = _score(name, datasets[name])
            if progress:
                progress(f"documents: {name}: {out[name]['documents']} documents in {out[name]['seconds']} s")
    out["spoken"] = spoken_row(spoken_count)
    if progress:
        progress(f"documents: spoken: {out['spoken']['identifiers']} identifiers")
    return out


def markdown(row: dict) -> str:
    lines = ["", "Documents through `veil files` (recall / strict recall; validation half for dev sets):", "",
             "| set | type | n | recall | strict |", "|---|---|---|---|---|"]
    for name in ("tab", "abcd_sample"):
        if name in row:
            halves = row[name]["halves"]
            half = "validation" if "validation" in halves else next(iter(halves), "")
            for label, c in halves.get(half, {}).items():
                lines.append(f"| {name} ({half}) | {label} | {c['n']} | {c['recall']} | {c['strict']} |")
    for label, c in row["spoken"]["kinds"].items():
        lines.append(f"| spoken (generated) | {label} | {c['n']} | {c['recall']} | {c['strict']} |")
    return "\n".join(lines) + "\n"


# -- throughput -------------------------------------------------------------------------
def _sample_text(target_chars: int) -> tuple[str, str]:
    """Realistic text of about target_chars: TAB court paragraphs when the dev data is
    there (only read, for speed), else the generated transcripts."""
    from agent.bench.data import DataMissing, load_datasets

    try:
        paragraphs = [e.text for e in load_datasets(names=["tab"])["tab"]]
        source = "TAB court paragraphs"
    except (DataMissing, KeyError):
        from agent.bench.spoken_set import spoken_set

        paragraphs = [t.text for t in spoken_set(40)]
        source = "generated transcripts"
    out, size, i = [], 0, 0
    while size < target_chars:
        out.append(paragraphs[i % len(paragraphs)])
        size += len(out[-1]) + 2
        i += 1
    return "\n\n".join(out), source


def _measure_txt(kb: int, queue) -> None:
    text, source = _sample_text(kb * 1000)
    with tempfile.TemporaryDirectory() as tmp:
        source_dir = Path(tmp) / "in"
        source_dir.mkdir()
        (source_dir / "big.txt").write_text(text, encoding="utf-8")
        _run_files(source_dir, Path(tmp) / "warm", "warm")  # loads spaCy and the lists
        (source_dir / "big.txt").write_text(text.replace("the ", "The "), encoding="utf-8")
        started = time.perf_counter()
        _run_files(source_dir, Path(tmp) / "out", "txt")
        seconds = time.perf_counter() - started
        # What starting two workers costs (spawn, vault, loading spaCy and the lists in
        # each): a run over one short file. The one-process figure above is warm.
        tiny_dir = Path(tmp) / "tiny"
        tiny_dir.mkdir()
        (tiny_dir / "tiny.txt").write_text(text[:300], encoding="utf-8")
        started = time.perf_counter()
        _run_files_workers(tiny_dir, Path(tmp) / "out-tiny", "tiny", 2, Path(tmp) / "vault-tiny.db")
        startup = time.perf_counter() - started
        (source_dir / "big.txt").write_text(text.replace("the ", "THE "), encoding="utf-8")
        started = time.perf_counter()
        _run_files_workers(source_dir, Path(tmp) / "out2", "txt2", 2, Path(tmp) / "vault.db")
        seconds_two = time.perf_counter() - started  # includes starting the two workers
    size = len(text.encode("utf-8"))
    queue.put({"txt_kb": round(size / 1000, 1), "txt_seconds": round(seconds, 2),
               "txt_kb_per_s": round(size / 1000 / seconds, 1), "txt_source": source,
               "txt_2_workers_seconds": round(seconds_two, 2),
               "txt_2_workers_kb_per_s": round(size / 1000 / seconds_two, 1),
               "txt_2_workers_startup_seconds": round(startup, 2),
               # Without the start-up (comparable with the warm one-process figure).
               "txt_2_workers_warm_kb_per_s": round(size / 1000 / max(seconds_two - startup, 0.01), 1)})


def _measure_docx(pages: int, workers: int, queue) -> None:
    import docx

    text, source = _sample_text(pages * 3000)  # ~500 words a page
    paragraphs = text.split("\n\n")
    with tempfile.TemporaryDirectory() as tmp:
        source_dir = Path(tmp) / "in"
        source_dir.mkdir()
        document = docx.Document()
        per_page = max(1, len(paragraphs) // pages)
        for i, paragraph in enumerate(paragraphs):
            p = document.add_paragraph()
            words = paragraph.split(" ")
            cut = len(words) // 3
            p.add_run(" ".join(words[:cut]) + " ").bold = True
            p.add_run(" ".join(words[cut:]))
            if i % per_page == per_page - 1:
                document.add_page_break()
        document.save(str(source_dir / "hundred.docx"))
        started = time.perf_counter()
        if workers > 1:
            _run_files_workers(source_dir, Path(tmp) / "out", "docx", workers, Path(tmp) / "vault.db")
        else:
            _run_files(source_dir, Path(tmp) / "out", "docx")
        seconds = time.perf_counter() - started
    # Peak resident memory of this process, and with workers, of the largest worker.
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    key = "docx" if workers == 1 else f"docx_{workers}_workers"
    queue.put({f"{key}_pages": pages, f"{key}_chars": len(text), f"{key}_seconds": round(seconds, 2),
               f"{key}_peak_mb": round(peak_kb / 1024), **({f"{key}_worker_peak_mb": round(children_kb / 1024)}
                                                          if workers > 1 else {}), "docx_source": source})


def _in_child(target, *args) -> dict:
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=target, args=(*args, queue))
    process.start()
    while True:
        try:
            result = queue.get(timeout=1.0)
            break
        except queue_module.Empty:  # still working, or dead
            if not process.is_alive():
                raise RuntimeError(f"the measuring process died (exit code {process.exitcode}); its error is above") from None
    process.join()
    return result


def throughput(kb: int = 400, pages: int = 100, progress: Progress | None = None) -> dict:
    """Each measure in a fresh process (so the .docx peak memory is its own); the machine's
    load average is reported with it, since other work on the cores changes the figures."""
    import os

    load_before = os.getloadavg()
    out = {"cpus": os.cpu_count(), "load_average_before": [round(x, 2) for x in load_before]}
    out.update(_in_child(_measure_txt, kb))
    if progress:
        # Throughput is the rate once the workers run (what a folder of any size gets);
        # their start is a fixed cost per run, given beside it, and so is the whole run.
        progress(f"files bench: .txt with 2 workers (what --workers auto starts on 2 cores for 256 kB or more): "
                 f"{out['txt_2_workers_warm_kb_per_s']} kB/s once started, start {out['txt_2_workers_startup_seconds']} s "
                 f"({kb} kB in {out['txt_2_workers_seconds']} s: {out['txt_2_workers_kb_per_s']} kB/s in all); "
                 f"one process {out['txt_kb_per_s']} kB/s")
    out.update(_in_child(_measure_docx, pages, 1))
    if progress:
        progress(f"files bench: {pages}-page .docx {out['docx_seconds']} s, peak {out['docx_peak_mb']} MB")
    out.update(_in_child(_measure_docx, pages, 2))
    if progress:
        progress(f"files bench: {pages}-page .docx with 2 workers {out['docx_2_workers_seconds']} s")
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return out
