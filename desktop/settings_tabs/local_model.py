"""Settings › Local model: the model catalog (download with progress and cancel, or use
an installed one), any .gguf file with the metadata it declares, which optional tasks
use the local model, and when its memory is freed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHeaderView,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from agent.config import Settings
from agent.sizes import human_size
from desktop.settings_tabs.common import button_row, note, status_label
from desktop.tasks import Background

LOCAL_TASKS = (
    ("relevance", "Relevance: judge which entities the answer needs"),
    ("detect", "Detection: find what rules and NER miss"),
    ("surrogates", "Context-aware stand-ins (substitution level 2)"),
    ("restore", "Restore stand-ins the answer re-worded"),
)


class LocalModelTab(QWidget):
    def __init__(self, settings: Settings, background: Background):
        super().__init__()
        self.settings = settings  # the dialog's copy: "Use selected" and a chosen file change it
        self.background = background
        self._download_cancel: Any = None
        layout = QVBoxLayout(self)
        self.catalog_tree = QTreeWidget()
        self.catalog_tree.setObjectName("catalog")
        self.catalog_tree.setHeaderLabels(["Model", "Size", "Installed", "Licence", "Good for"])
        self.catalog_tree.setRootIsDecorated(False)
        header = self.catalog_tree.header()
        header.setStretchLastSection(True)
        for column in range(4):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.catalog_tree, 1)
        self.download_button = QPushButton("&Download")
        self.download_button.clicked.connect(lambda: self.download_selected())
        self.cancel_download_button = QPushButton("Cancel download")
        self.cancel_download_button.setEnabled(False)
        self.cancel_download_button.clicked.connect(self.cancel_download)
        self.use_button = QPushButton("&Use selected")
        self.use_button.clicked.connect(self.use_selected)
        self.choose_file_button = QPushButton("Choose a .gguf &file…")
        self.choose_file_button.clicked.connect(lambda: self.choose_file())
        layout.addLayout(button_row(self.download_button, self.cancel_download_button, self.use_button,
                                    self.choose_file_button))
        self.progress = QProgressBar()
        self.progress.setObjectName("download-progress")
        self.progress.setVisible(False)
        layout.addWidget(self.progress)
        self.model_info = status_label("model-info")
        layout.addWidget(self.model_info)
        tasks_box = QGroupBox("Use the local model for")
        t = QVBoxLayout(tasks_box)
        self.task_checks: dict[str, QCheckBox] = {}
        for name, text in LOCAL_TASKS:
            check = QCheckBox(text)
            check.setChecked(name in settings.local_model.tasks)
            self.task_checks[name] = check
            t.addWidget(check)
        t.addWidget(note("The tiny default model is too small for these tasks; they are worth it with a "
                         "1-4 B instruct model."))
        layout.addWidget(tasks_box)
        form = QFormLayout()
        self.release_after = QSpinBox()
        self.release_after.setObjectName("release_after_minutes")
        self.release_after.setRange(0, 24 * 60)
        self.release_after.setSpecialValueText("never (keep it loaded)")
        self.release_after.setSuffix(" minutes unused")
        self.release_after.setValue(round(settings.local_model.release_after_minutes))
        self.release_after.setToolTip("The model is loaded again, in about a second, the next time it is needed.")
        form.addRow("Free the model's memory after:", self.release_after)
        layout.addLayout(form)
        self._current_model_label()
        self.refresh_catalog()

    def _current_model_label(self) -> None:
        lm = self.settings.local_model
        self.model_info.setText(f"Current local model: <b>{lm.path or lm.name}</b>")

    def refresh_catalog(self) -> None:
        def load():
            from models.catalog import load_catalog

            catalog = load_catalog()
            return [(e, e.is_installed()) for e in catalog]

        def show(rows) -> None:
            self.catalog_tree.clear()
            for entry, installed in rows:
                item = QTreeWidgetItem([
                    entry.title, human_size(entry.size),
                    "yes" if installed else ("bundled" if entry.is_bundled else "no"),
                    entry.licence, ", ".join(entry.tasks) or "answers",
                ])
                item.setData(0, Qt.ItemDataRole.UserRole, entry)
                item.setToolTip(0, f"{entry.name}: {entry.notes or entry.title}")
                self.catalog_tree.addTopLevelItem(item)
                if entry.name == self.settings.local_model.name and not self.settings.local_model.path:
                    item.setSelected(True)
                    self.catalog_tree.setCurrentItem(item)

        self.background.submit(load, show, lambda exc: self.model_info.setText(f"Catalog unavailable: {exc}"))

    def _selected_entry(self):
        item = self.catalog_tree.currentItem()
        return item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None

    def download_selected(self, entry=None) -> None:
        from models.download import CancelToken
        from models.store import install

        entry = entry or self._selected_entry()
        if entry is None:
            return
        cancel = CancelToken()
        self._download_cancel = cancel
        self.progress.setVisible(True)
        self.progress.setRange(0, 0)
        self.progress.setFormat(f"{entry.name}: starting…")
        self.download_button.setEnabled(False)
        self.cancel_download_button.setEnabled(True)
        invoker = self.background

        def progress(p) -> None:
            invoker.post(lambda: self._show_progress(entry.name, p))

        def done(path) -> None:
            self._download_finished()
            self.model_info.setText(f"Downloaded and verified: {path}")
            self.refresh_catalog()

        def failed(exc: BaseException) -> None:
            self._download_finished()
            self.model_info.setText(f"Download stopped: {exc}")

        self.background.submit(lambda: install(entry, progress=progress, cancel=cancel), done, failed)

    def _show_progress(self, name: str, p) -> None:
        if p.total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * p.downloaded / p.total))
            eta = f", {p.eta_s:.0f} s left" if p.eta_s is not None else ""
            self.progress.setFormat(f"{name}: {human_size(p.downloaded)} of {human_size(p.total)}{eta}")
        else:
            self.progress.setFormat(f"{name}: {human_size(p.downloaded)}")

    def cancel_download(self) -> None:
        if self._download_cancel is not None:
            self._download_cancel.cancel()

    def _download_finished(self) -> None:
        self._download_cancel = None
        self.progress.setVisible(False)
        self.download_button.setEnabled(True)
        self.cancel_download_button.setEnabled(False)

    def use_selected(self) -> None:
        entry = self._selected_entry()
        if entry is None:
            return
        self.settings.local_model.name, self.settings.local_model.path = entry.name, ""
        self._current_model_label()

    def choose_file(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, "Choose a GGUF model", str(Path.home()), "GGUF models (*.gguf)")
            if not path:
                return

        def read():
            from models.gguf_info import read_gguf_info

            return read_gguf_info(path).summary()

        def show(info: dict) -> None:
            self.settings.local_model.path = path
            self.settings.local_model.name = ""
            self.model_info.setText(
                f"<b>{info.get('name') or Path(path).name}</b> — {info.get('architecture')}, "
                f"{info.get('size_label')} parameters, {info.get('quantization')}, "
                f"context {info.get('context_length')}, chat template: "
                f"{'yes' if info.get('chat_template') else 'no'}, licence: {info.get('licence') or '?'}<br>{path}"
            )

        self.background.submit(read, show, lambda exc: self.model_info.setText(f"Not a usable GGUF file: {exc}"))

    def collect(self, settings: Settings) -> None:
        settings.local_model.name = self.settings.local_model.name
        settings.local_model.path = self.settings.local_model.path
        settings.local_model.tasks = [name for name, check in self.task_checks.items() if check.isChecked()]
        settings.local_model.release_after_minutes = float(self.release_after.value())
