"""The Files window: sanitize files and folders into a project's map (veil files), with a
progress bar (files, bytes, time left) and the residual-risk report one click away.

The work runs in a QThread (agent.files does the work; this window only shows state and
emits intents); the store is the app's open vault.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QThread, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class RunCancelled(BaseException):
    """Raised from the progress callback to stop a run between files (BaseException: the
    runner's per-file error handling must not swallow it)."""


class FilesRun(QThread):
    progressed = Signal(object)  # agent.files.runner.Progress
    done = Signal(object, object)  # RunResult, path of the HTML report
    failed = Signal(str)

    def __init__(self, store: Any, settings: Any, paths: list[Path], out_dir: Path, project: str,
                 corpus_swap: bool, parent=None):
        super().__init__(parent)
        self.store, self.settings = store, settings
        self.paths, self.out_dir, self.project, self.corpus_swap = paths, out_dir, project, corpus_swap
        self.cancelled = False

    def run(self) -> None:
        from agent.files.corpus import CorpusPool
        from agent.files.document import FileRejected
        from agent.files.policy import ProjectPolicy
        from agent.files.project import ProjectError, open_project
        from agent.files.report import write_reports
        from agent.files.runner import sanitize_files
        from agent.files.sanitizer import ProjectSanitizer

        def progress(state) -> None:
            if self.cancelled:
                raise RunCancelled
            self.progressed.emit(state)

        try:
            project = open_project(self.store, self.project,
                                   policy_update=ProjectPolicy(corpus_swap=True) if self.corpus_swap else None)
            sanitizer = ProjectSanitizer(self.settings, project,
                                         corpus=CorpusPool() if project.policy.corpus_swap else None)
            result = sanitize_files(sanitizer, self.store, self.paths, self.out_dir, progress=progress)
            _, html_path = write_reports(result, project.name, project.policy, self.out_dir)
        except RunCancelled:
            self.failed.emit("Stopped. Finished files are kept; run again to do the rest.")
            return
        except (ProjectError, FileRejected, OSError) as exc:
            self.failed.emit(str(exc))
            return
        except Exception as exc:  # a vault error or a bug: said, never a crash of the app  # noqa: BLE001
            self.failed.emit(f"{exc.__class__.__name__}: {exc}")
            return
        self.done.emit(result, html_path)


class FilesWindow(QWidget):
    """Pick files or a folder, an output folder and a project; Run; read the report."""

    def __init__(self, store: Any, settings: Any, parent=None):
        super().__init__(parent)
        self.store, self.settings = store, settings
        self.run_thread: FilesRun | None = None
        self.report_path: Path | None = None
        self.setWindowTitle("Veil — Files")
        self.setAcceptDrops(True)
        self.resize(640, 520)

        self.inputs = QListWidget()
        self.inputs.setToolTip("Files and folders to sanitize (drop them here)")
        add_files = QPushButton("Add files…", clicked=self._add_files)
        add_folder = QPushButton("Add folder…", clicked=self._add_folder)
        clear = QPushButton("Clear", clicked=self.inputs.clear)
        self.out_dir = QLineEdit()
        self.out_dir.setPlaceholderText("Output folder (not one of the inputs)")
        browse = QPushButton("Browse…", clicked=self._choose_out)
        self.project = QLineEdit("default")
        self.corpus_swap = QCheckBox("Take stand-ins for organisations and places from other documents")
        self.run_button = QPushButton("Sanitize", clicked=self._run_or_stop)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.status = QLabel("Add files or a folder, choose an output folder, then Sanitize.")
        self.status.setWordWrap(True)
        self.results = QListWidget()
        self.open_report = QPushButton("Open report", clicked=self._open_report)
        self.open_report.setEnabled(False)

        buttons = QHBoxLayout()
        for button in (add_files, add_folder, clear):
            buttons.addWidget(button)
        buttons.addStretch()
        out_row = QHBoxLayout()
        out_row.addWidget(self.out_dir)
        out_row.addWidget(browse)
        form = QFormLayout()
        form.addRow("Output", out_row)
        form.addRow("Project", self.project)
        layout = QVBoxLayout(self)
        layout.addWidget(self.inputs)
        layout.addLayout(buttons)
        layout.addLayout(form)
        layout.addWidget(self.corpus_swap)
        layout.addWidget(self.run_button)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.results)
        layout.addWidget(self.open_report)

    # -- intents ---------------------------------------------------------------------
    def add_paths(self, paths: list[Path]) -> None:
        present = {self.inputs.item(i).text() for i in range(self.inputs.count())}
        for path in paths:
            if str(path) not in present:
                present.add(str(path))
                self.inputs.addItem(str(path))

    def _add_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Files to sanitize", "",
                                                "Documents (*.txt *.md *.csv *.tsv *.json *.jsonl *.docx *.pdf *.srt *.vtt)")
        self.add_paths([Path(f) for f in files])

    def _add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Folder to sanitize")
        if folder:
            self.add_paths([Path(folder)])

    def _choose_out(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Output folder")
        if folder:
            self.out_dir.setText(folder)

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        self.add_paths([Path(url.toLocalFile()) for url in event.mimeData().urls() if url.isLocalFile()])

    def _run_or_stop(self) -> None:
        if self.run_thread is not None:
            self.run_thread.cancelled = True
            self.status.setText("Stopping after the current file…")
            return
        self.start()

    def start(self) -> bool:
        paths = [Path(self.inputs.item(i).text()) for i in range(self.inputs.count())]
        if not paths or not self.out_dir.text().strip():
            self.status.setText("Add at least one file or folder and choose an output folder.")
            return False
        if self.store is None:
            self.status.setText("The vault is not open: unlock it first (the project's map lives there).")
            return False
        self.results.clear()
        self.open_report.setEnabled(False)
        self.progress.setValue(0)
        self.run_thread = FilesRun(self.store, self.settings, paths, Path(self.out_dir.text().strip()),
                                   self.project.text().strip() or "default", self.corpus_swap.isChecked(), self)
        self.run_thread.progressed.connect(self._progressed)
        self.run_thread.done.connect(self._done)
        self.run_thread.failed.connect(self._failed)
        self.run_thread.finished.connect(self._thread_finished)
        self.run_button.setText("Stop")
        self.status.setText("Loading the privacy engine…")
        self.run_thread.start()
        return True

    # -- state -------------------------------------------------------------------------
    def _progressed(self, state) -> None:
        from agent.files.progress import describe

        share = state.bytes_done / state.bytes_total if state.bytes_total else 0
        self.progress.setValue(int(share * 1000))
        current = f" — {state.current}" if state.current else ""
        self.status.setText(describe(state).split("] ", 1)[-1] + current)

    def _done(self, result, html_path: Path) -> None:
        self.report_path = Path(html_path)
        self.progress.setValue(1000)
        ordered = sorted(result.files, key=lambda f: -(f.risk.score if f.risk else 1e9))
        for report in ordered:
            if report.status == "failed":
                self.results.addItem(f"FAILED  {report.relative}: {report.error}")
            else:
                score = report.risk.score if report.risk else 0
                self.results.addItem(f"risk {score:>5g}  {report.relative} ({report.status})")
        failed = len(result.failed)
        self.status.setText(f"Done: {len(result.files) - failed} files, {failed} failed, in {result.seconds:.1f} s. "
                            "The report lists the documents to read first.")
        self.open_report.setEnabled(True)

    def _failed(self, message: str) -> None:
        self.status.setText(message)

    def _thread_finished(self) -> None:
        self.run_thread = None
        self.run_button.setText("Sanitize")

    def _open_report(self) -> None:
        if self.report_path is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.report_path)))

    def closeEvent(self, event) -> None:
        if self.run_thread is not None:
            self.run_thread.cancelled = True
            self.run_thread.wait(30_000)
        super().closeEvent(event)
