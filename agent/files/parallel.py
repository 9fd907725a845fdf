"""`veil files --workers N`: the chunks of every document sanitized by N worker processes
(spaCy keeps one core busy per process; two cores give about twice the throughput, a
single large document included).

Each worker opens the vault itself and stores the map entries of each chunk with
render_and_store: when two workers map the same new value at the same time, the vault
takes the first and the second sanitizes its chunk again with the stored entry, so every
file still uses one stand-in per value. The parent reads each document, hands out its
chunks, puts the edits together, and writes the output once all its chunks are stored.
Needs a vault the workers can open without asking (keyring, VEIL_PASSPHRASE, or a
`open_store` callable for tests); corpus swapping runs with one worker.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from agent.detect.memory import ConversationMemoryDetector
from agent.engine.core import InputRejected
from agent.files.detectors import PreparedSpans
from agent.files.document import Document, Edit, FileRejected, output_name
from agent.files.formats import read_document
from agent.files.risk import assess, chunk_risk
from agent.files.runner import (
    FileJob,
    FileReport,
    Manifest,
    ProgressCallback,
    RunResult,
    collect,
    file_digest,
    is_vault_error,
    policy_fingerprint,
    progress_ticker,
    refuse_inputs_inside,
    write_atomically,
)
from agent.files.sanitizer import Chunk, DocumentOutcome, ProjectSanitizer, chunks_of
from agent.session.stores import render_and_store

log = logging.getLogger(__name__)

# -- in the worker process -------------------------------------------------------------
_WORKER: dict = {}


def _open_default_store():
    from agent.vault import open_default_store

    return open_default_store(interactive=False)


def _init_worker(settings, project_name: str, spoken: bool, open_store: Callable) -> None:
    from agent.files.project import open_project

    store = open_store()
    project = open_project(store, project_name)
    sanitizer = ProjectSanitizer(settings, project, spoken=spoken)
    registry = sanitizer.engine.registry
    if registry.pipeline is not None:
        registry.pipeline = RememberedParses(registry.pipeline)
    registry.detectors = [d if reads_the_map(d) else RememberedDetections(d) for d in registry.detectors]
    _WORKER.update(store=store, sanitizer=sanitizer, documents={})


def reads_the_map(detector) -> bool:
    """Detectors whose findings depend on more than the text: the conversation's map
    (what other workers stored since) or the chunk being prepared."""
    return isinstance(detector, (ConversationMemoryDetector, PreparedSpans))


class _LastTexts:
    """What was worked out for the last few texts, most recent last: a clash redoes the
    chunk's pieces (the engine cuts a chunk into 2), a few more cost a few MB."""

    KEEP = 4

    def __init__(self) -> None:
        self._by_text: dict[str, object] = {}

    def get(self, text: str, make: Callable[[], object]):
        value = self._by_text.pop(text, None)
        if value is None:
            value = make()
        self._by_text[text] = value
        while len(self._by_text) > self.KEEP:
            del self._by_text[next(iter(self._by_text))]
        return value


class RememberedDetections:
    """A detector of a worker that keeps what it found in the last few texts.

    After a clash the chunk is sanitized again with the stored map (RememberedParses);
    of the detectors only conversation memory (and the chunk's prepared spans) can find
    something else then: the others read the text alone, so their spans are taken as
    found (measured: a re-render 0.5 s -> 0.2 s of a 30,000-character chunk's ~1.1 s).
    Spans are frozen, so the same list items can be handed out twice."""

    def __init__(self, detector):
        self._detector = detector
        self._found = _LastTexts()

    def detect(self, text: str, context) -> list:
        return list(self._found.get(text, lambda: list(self._detector.detect(text, context))))

    def __getattr__(self, name: str):
        return getattr(self._detector, name)


class RememberedParses:
    """The spaCy pipeline of a worker, keeping the parses of the last few texts.

    When another worker stored a clashing map entry first (two workers met the same new
    person, or picked the same stand-in), render_and_store sanitizes the chunk again with
    the stored map: the text is the same, so its parse is too (about half of a chunk's
    time). Without this a clash cost a whole chunk, and with two workers storing a chunk
    every couple of seconds one of them could clash again and again (measured: 6 of 14
    chunks of a 400 kB text sanitized twice, one of them 7 times), so two workers were
    hardly faster than one. Detectors only read the parse (the map-dependent detection is
    run again); a different text is parsed afresh."""

    def __init__(self, pipeline):
        self._pipeline = pipeline
        self._parses = _LastTexts()

    def parse(self, text: str):
        return self._parses.get(text, lambda: self._pipeline.parse(text))

    def __getattr__(self, name: str):
        return getattr(self._pipeline, name)


@dataclass
class ChunkDone:
    file_index: int
    edits: dict[int, list[Edit]]
    findings: list
    chunk: Chunk | None
    warnings: list[str] = field(default_factory=list)


def _document(path: str, columns_policy) -> Document:
    cache: dict = _WORKER["documents"]
    if path not in cache:
        if len(cache) > 4:
            cache.clear()
        cache[path] = read_document(Path(path), columns_policy)
    return cache[path]


def _run_chunk(file_index: int, path: str, indexes: list[int]) -> ChunkDone:
    sanitizer: ProjectSanitizer = _WORKER["sanitizer"]
    store = _WORKER["store"]
    document = _document(path, sanitizer.project.policy.column_mode)

    def render() -> DocumentOutcome:
        outcome = DocumentOutcome([[] for _ in document.segments], [], [], [])
        sanitizer.sanitize_chunk(document.segments, indexes, outcome)
        return outcome

    outcome = render_and_store(store, sanitizer.conversation, render,
                               lambda _o: store.save_conversation(sanitizer.conversation))
    edits = {i: outcome.edits[i] for i in indexes if outcome.edits[i]}
    chunk = outcome.chunks[0] if outcome.chunks else None
    if chunk is not None:
        chunk.risk = chunk_risk(chunk)  # here, in parallel, not in the parent at the end
    return ChunkDone(file_index, edits, outcome.findings, chunk, outcome.warnings)


# -- in the parent -----------------------------------------------------------------------
@dataclass
class _Pending:
    job: FileJob
    digest: str
    document: Document
    chunks_left: int
    started: float
    outcome: DocumentOutcome
    report: FileReport


def sanitize_files_parallel(
    settings,
    project,
    store,
    paths: Sequence[Path],
    out_dir: Path,
    *,
    workers: int = 2,
    spoken: bool = True,
    progress: ProgressCallback | None = None,
    force: bool = False,
    open_store: Callable | None = None,
) -> RunResult:
    started = time.perf_counter()
    jobs, reports = collect(paths)
    out_dir.mkdir(parents=True, exist_ok=True)
    refuse_inputs_inside(jobs, out_dir)
    manifest = Manifest(out_dir, project.name, policy_fingerprint(project.policy, spoken))
    tick = progress_ticker(jobs, progress)
    context = multiprocessing.get_context("spawn")
    # One math thread per worker: N workers with N BLAS threads each would fight over the
    # same cores (measured: each worker several times slower). Children inherit this.
    saved = {name: os.environ.get(name) for name in _THREAD_VARIABLES}
    os.environ.update({name: "1" for name in _THREAD_VARIABLES})
    try:
        return _run_pool(context, settings, project, store, jobs, reports, out_dir, manifest, tick, workers, spoken,
                         force, open_store, started)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def _run_pool(context, settings, project, store, jobs, reports, out_dir, manifest, tick, workers, spoken, force,
              open_store, started) -> RunResult:
    pending: dict[int, _Pending] = {}
    futures: dict[Future, int] = {}
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init_worker,
                             initargs=(settings, project.name, spoken, open_store or _open_default_store)) as pool:
        for index, job in enumerate(jobs):
            report = FileReport(str(job.source), str(job.relative), size=job.size)
            try:
                digest = file_digest(job.source)
                previous = None if force else manifest.done(job, digest, out_dir)
                if previous is not None:
                    reports.append(previous)
                    tick(finished=job)
                    continue
                document = read_document(job.source, project.policy.column_mode)
            except (FileRejected, OSError) as exc:
                report.status, report.error = "failed", str(exc)
                reports.append(report)
                tick(finished=job)
                continue
            groups = list(chunks_of(document.segments))
            outcome = DocumentOutcome([[] for _ in document.segments], [], [], list(getattr(document, "warnings", [])))
            pending[index] = _Pending(job, digest, document, len(groups), time.perf_counter(), outcome, report)
            for indexes in groups:
                futures[pool.submit(_run_chunk, index, str(job.source), indexes)] = index
            if not groups:
                _finish(pending.pop(index), out_dir, manifest, project, reports, tick)
        while futures:
            done, _ = wait(list(futures), return_when=FIRST_COMPLETED)
            for future in done:
                index = futures.pop(future)
                item = pending.get(index)
                if item is None:
                    continue  # the file failed already
                try:
                    result: ChunkDone = future.result()
                except (InputRejected, FileRejected) as exc:
                    item.report.status, item.report.error = "failed", str(exc)
                except Exception as exc:
                    if is_vault_error(exc):
                        raise
                    log.error("a worker failed on %s: %s", item.job.source, exc)
                    item.report.status, item.report.error = "failed", f"internal error ({exc.__class__.__name__}: {exc})"
                else:
                    for segment, edits in result.edits.items():
                        item.outcome.edits[segment].extend(edits)
                    item.outcome.findings.extend(result.findings)
                    if result.chunk is not None:
                        item.outcome.chunks.append(result.chunk)
                    item.outcome.warnings.extend(w for w in result.warnings if w not in item.outcome.warnings)
                if item.report.status == "failed":
                    pending.pop(index)
                    item.report.seconds = time.perf_counter() - item.started
                    reports.append(item.report)
                    tick(finished=item.job)
                    continue
                item.chunks_left -= 1
                if item.chunks_left == 0:
                    _finish(pending.pop(index), out_dir, manifest, project, reports, tick)
    return RunResult(reports, time.perf_counter() - started)


def _finish(item: _Pending, out_dir: Path, manifest: Manifest, project, reports: list, tick) -> None:
    """All chunks of a file are stored in the vault: write its output and its report."""
    report = item.report
    try:
        output = item.job.relative.with_name(output_name(item.job.relative))
        write_atomically(out_dir / output, item.document.render(item.outcome.edits))
        report.output, report.status = str(output), "sanitized"
        report.warnings = item.outcome.warnings
        report.chars = sum(len(s.text) for s in item.document.segments)
        report.risk = assess(item.outcome, project.policy)
        report.seconds = time.perf_counter() - item.started
        manifest.record(item.job, item.digest, report)
    except OSError as exc:
        report.status, report.error = "failed", f"{exc.strerror or exc}: {exc.filename or item.job.source}"
    reports.append(report)
    tick(finished=item.job)

