"""Run `veil files` over files and folders: read each file, sanitize it into the
project's map, save the map, write the output atomically, record it in the manifest,
report progress; one bad file is reported and the others go on; a re-run skips the
files that are already done (same content, output still there).

What the output folder gets holds no real value that the outputs do not already show:
the manifest keeps hashes, the reports keep counts, kept values and leftovers.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from agent.engine.core import InputRejected
from agent.engine.interface import PrivacyEngine
from agent.files.document import Document, Edit, FileRejected, output_name
from agent.files.formats import read_document, supported
from agent.files.risk import DocumentRisk, assess
from agent.files.sanitizer import ProjectSanitizer, chunks_of, join_segments, place_changes
from agent.session.stores import render_and_store

log = logging.getLogger(__name__)

MANIFEST_NAME = ".veil-files.json"
REPORT_PREFIX = "veil-report"  # the run's reports in the output folder are never inputs


@dataclass(frozen=True, slots=True)
class FileJob:
    source: Path
    relative: Path  # where the output goes under the output folder
    size: int


@dataclass
class FileReport:
    source: str
    relative: str
    output: str = ""
    status: str = "pending"  # sanitized, restored, skipped (done before), failed
    error: str = ""
    warnings: list[str] = field(default_factory=list)
    size: int = 0
    chars: int = 0
    seconds: float = 0.0
    risk: DocumentRisk | None = None

    def to_json(self) -> dict:
        out = {
            "source": self.source, "relative": self.relative, "output": self.output, "status": self.status,
            "error": self.error, "warnings": self.warnings, "bytes": self.size, "chars": self.chars,
            "seconds": round(self.seconds, 3),
        }
        if self.risk is not None:
            out["risk"] = self.risk.to_json()
        return out

    @classmethod
    def from_json(cls, data: dict) -> FileReport:
        report = cls(data["source"], data["relative"], data.get("output", ""), data.get("status", ""),
                     data.get("error", ""), list(data.get("warnings", [])), data.get("bytes", 0),
                     data.get("chars", 0), data.get("seconds", 0.0))
        if data.get("risk"):
            report.risk = DocumentRisk.from_json(data["risk"])
        return report


@dataclass(frozen=True, slots=True)
class Progress:
    files_done: int
    files_total: int
    bytes_done: int
    bytes_total: int
    elapsed: float
    current: str = ""

    @property
    def eta_seconds(self) -> float | None:
        if self.bytes_done <= 0 or self.elapsed <= 0:
            return None
        rate = self.bytes_done / self.elapsed
        return max(0.0, (self.bytes_total - self.bytes_done) / rate)


ProgressCallback = Callable[[Progress], None]


def collect(paths: Iterable[Path]) -> tuple[list[FileJob], list[FileReport]]:
    """The files to process (folders walked, sorted) and reports for paths that cannot be
    (missing, unsupported type)."""
    jobs: list[FileJob] = []
    problems: list[FileReport] = []
    seen: set[Path] = set()
    paths = [Path(p) for p in paths]
    several = len(paths) > 1  # then each folder's files go under the folder's name
    for path in paths:
        path = Path(path)
        if path.is_dir():
            for file in sorted(p for p in path.rglob("*") if p.is_file()):
                relative = file.relative_to(path)
                if any(part.startswith(".") for part in relative.parts) or not supported(file) \
                        or file.name.startswith(REPORT_PREFIX):
                    continue
                if file.resolve() not in seen:
                    seen.add(file.resolve())
                    jobs.append(FileJob(file, Path(path.name) / relative if several else relative,
                                        file.stat().st_size))
        elif path.is_file():
            if not supported(path):
                problems.append(FileReport(str(path), path.name, status="failed",
                                           error=f"unsupported file type {path.suffix or '(none)'}"))
            elif path.resolve() not in seen:
                seen.add(path.resolve())
                jobs.append(FileJob(path, Path(path.name), path.stat().st_size))
        else:
            problems.append(FileReport(str(path), path.name, status="failed", error="no such file or folder"))
    return jobs, problems


def _read_umask() -> int:
    """The process's umask, read once at import (reading it means setting it, which is not
    safe while other threads create files)."""
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


_UMASK = _read_umask()


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, flush it to disk, then rename it over
    `path`: a reader (or a crash) never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        # mkstemp makes the file readable by its owner only; outputs are made to be shared,
        # so they get the permissions any new file of the user gets.
        os.fchmod(fd, 0o666 & ~_UMASK)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def policy_fingerprint(policy, spoken: bool = True) -> str:
    """What the manifest compares to decide that a finished file is still finished."""
    data = json.dumps({"policy": policy.to_json(), "spoken": spoken}, sort_keys=True)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:16]


class Manifest:
    """Which inputs are done, by content hash, in the output folder."""

    def __init__(self, folder: Path, project: str, policy: str = ""):
        self.path = folder / MANIFEST_NAME
        self.project = project
        # A file done under another policy (a new exclusion, another column choice) is done again.
        self.policy = policy
        self.files: dict[str, dict] = {}
        if self.path.exists():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                if data.get("project") == project:
                    self.files = dict(data.get("files", {}))
            except (OSError, ValueError):
                log.warning("manifest %s unreadable; every file is done again", self.path)

    def done(self, job: FileJob, digest: str, folder: Path) -> FileReport | None:
        entry = self.files.get(str(job.relative))
        if not entry or entry.get("sha256") != digest or not (folder / entry.get("output", "\0")).exists():
            return None
        if entry.get("policy", "") != self.policy:
            return None
        report = FileReport.from_json(entry["report"])
        report.status = "skipped"
        return report

    def record(self, job: FileJob, digest: str, report: FileReport) -> None:
        self.files[str(job.relative)] = {"sha256": digest, "policy": self.policy, "output": report.output,
                                         "finished_at": time.time(), "report": report.to_json()}
        data = {"project": self.project, "files": self.files}
        write_atomically(self.path, (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))


@dataclass
class RunResult:
    files: list[FileReport]
    seconds: float
    mode: str = "sanitize"

    @property
    def failed(self) -> list[FileReport]:
        return [f for f in self.files if f.status == "failed"]


def progress_ticker(jobs: Sequence[FileJob], progress: ProgressCallback | None):
    started = time.perf_counter()
    total = sum(j.size for j in jobs)
    state = {"files": 0, "bytes": 0}

    def tick(current: str = "", finished: FileJob | None = None) -> None:
        if finished is not None:
            state["files"] += 1
            state["bytes"] += finished.size
        if progress:
            progress(Progress(state["files"], len(jobs), state["bytes"], total, time.perf_counter() - started, current))

    return tick


def sanitize_files(
    sanitizer: ProjectSanitizer,
    store,
    paths: Sequence[Path],
    out_dir: Path,
    *,
    progress: ProgressCallback | None = None,
    force: bool = False,
) -> RunResult:
    started = time.perf_counter()
    jobs, reports = collect(paths)
    out_dir.mkdir(parents=True, exist_ok=True)
    refuse_inputs_inside(jobs, out_dir)
    manifest = Manifest(out_dir, sanitizer.project.name, policy_fingerprint(sanitizer.project.policy, sanitizer.spoken))
    tick = progress_ticker(jobs, progress)
    if sanitizer.corpus is not None:
        _collect_corpus(sanitizer, jobs, tick)
    for job in jobs:
        tick(str(job.relative))
        report = FileReport(str(job.source), str(job.relative), size=job.size)
        t0 = time.perf_counter()
        try:
            digest = file_digest(job.source)
            previous = None if force else manifest.done(job, digest, out_dir)
            if previous is not None:
                reports.append(previous)
                tick(finished=job)
                continue
            document = read_document(job.source, sanitizer.project.policy.column_mode)
            # The map is stored before the output is written: an output must never exist
            # whose stand-ins the vault lacks. When another process mapped one of the same
            # values meanwhile, the document is sanitized again with the stored map.
            outcome = render_and_store(
                store, sanitizer.conversation,
                lambda: sanitizer.sanitize(document, str(job.relative)),  # noqa: B023 (called at once)
                lambda _outcome: store.save_conversation(sanitizer.conversation),
            )
            output = job.relative.with_name(output_name(job.relative))
            write_atomically(out_dir / output, document.render(outcome.edits))
            report.output = str(output)
            report.status = "sanitized"
            report.warnings = outcome.warnings
            report.chars = sum(len(s.text) for s in document.segments)
            report.risk = assess(outcome, sanitizer.project.policy)
            report.seconds = time.perf_counter() - t0
            manifest.record(job, digest, report)
        except Exception as exc:  # noqa: BLE001 - one bad file must not end the run (vault errors are re-raised)
            fail_file(report, job.source, exc, "sanitizing")
        report.seconds = time.perf_counter() - t0
        reports.append(report)
        tick(finished=job)
    return RunResult(reports, time.perf_counter() - started)


def _collect_corpus(sanitizer: ProjectSanitizer, jobs: Sequence[FileJob], tick) -> None:
    """Corpus swapping's first pass: the organisations and places of every document."""
    for job in jobs:
        tick(f"reading {job.relative} (corpus)")
        try:
            document = read_document(job.source, sanitizer.project.policy.column_mode)
            for span in sanitizer.detect_only(document):
                sanitizer.corpus.add(str(job.relative), span.label, span.text)
        except (FileRejected, InputRejected, OSError):
            continue  # reported by the sanitize pass


def restore_files(
    engine: PrivacyEngine,
    conversation,
    paths: Sequence[Path],
    out_dir: Path | None,
    *,
    progress: ProgressCallback | None = None,
) -> RunResult:
    """Real values back into sanitized files (outputs of `sanitize_files`, or answers
    about them). Outputs go to out_dir, or beside each input as NAME.restored.EXT."""
    started = time.perf_counter()
    jobs, reports = collect(paths)
    tick = progress_ticker(jobs, progress)
    for job in jobs:
        tick(str(job.relative))
        report = FileReport(str(job.source), str(job.relative), size=job.size)
        t0 = time.perf_counter()
        try:
            document = read_document(job.source)
            edits, unrestored = restore_document(engine, conversation, document)
            name = output_name(job.relative)
            if out_dir is None:
                target = job.source.with_name(f"{Path(name).stem}.restored{Path(name).suffix}")
            else:
                target = out_dir / job.relative.with_name(name)
            if target.resolve() == job.source.resolve():
                raise FileRejected(f"{job.source.name}: the restored file would overwrite its input; pass --out")
            write_atomically(target, document.render(edits))
            report.output, report.status = str(target), "restored"
            if unrestored:
                report.warnings.append("stand-ins left (changed beyond recognition?): " + ", ".join(sorted(unrestored)[:10]))
            report.chars = sum(len(s.text) for s in document.segments)
        except Exception as exc:  # noqa: BLE001 - one bad file must not end the run (vault errors are re-raised)
            fail_file(report, job.source, exc, "restoring")
        report.seconds = time.perf_counter() - t0
        reports.append(report)
        tick(finished=job)
    return RunResult(reports, time.perf_counter() - started, mode="restore")


def restore_document(engine: PrivacyEngine, conversation, document: Document) -> tuple[list[list[Edit]], set[str]]:
    """Per segment, edits that put the real values back where the stand-ins are (edits,
    not whole new texts, so a Word run keeps its formatting). Segments are joined in
    chunks as for sanitizing, so a stand-in over two subtitle cues is found whole."""
    segments = document.segments
    all_edits: list[list[Edit]] = [[] for _ in segments]
    warnings: list[str] = []
    unrestored: set[str] = set()
    for indexes in chunks_of(segments):
        text, starts = join_segments(segments, indexes)
        result = engine.restore(text, conversation)
        unrestored.update(result.unrestored)
        changes = []
        shift = 0  # restored offset minus input offset, so far
        for span in result.spans:
            start = span.start - shift
            changes.append((start, start + len(span.stand_in), span.stand_in, span.real))
            shift += len(span.real) - len(span.stand_in)
        place_changes(changes, segments, indexes, starts, all_edits, warnings)
    return all_edits, unrestored


def refuse_inputs_inside(jobs: Sequence[FileJob], out_dir: Path) -> None:
    target = out_dir.resolve()
    for job in jobs:
        if job.source.resolve().parent == target or target in job.source.resolve().parents:
            raise FileRejected(f"the output folder {out_dir} holds input {job.source}; choose another --out")


def is_vault_error(exc: Exception) -> bool:
    from agent.vault import VaultError

    return isinstance(exc, VaultError)


def fail_file(report: FileReport, source: Path, exc: Exception, doing: str) -> None:
    """Mark one file failed, in words, so the other files go on; a vault error is no
    file's fault and ends the run (re-raised)."""
    if isinstance(exc, (FileRejected, InputRejected)):
        report.status, report.error = "failed", str(exc)
    elif isinstance(exc, OSError):
        report.status, report.error = "failed", f"{exc.strerror or exc}: {exc.filename or source}"
    elif is_vault_error(exc):
        raise exc
    else:
        log.exception("%s %s failed", doing, source)
        report.status, report.error = "failed", f"internal error ({exc.__class__.__name__}: {exc}); other files go on"
