"""Settings: provider and key, protection policy and lists, hotkeys, local model, vault.

The dialog edits a copy of the Settings; OK/Apply hands it to AppState.apply_settings
(validated, saved with agent.config.save_settings, engine reloaded in a worker). Keys go
to the OS keyring (agent.providers.keys), never into the config file. Network, keyring,
download and vault calls run in workers.
"""

from __future__ import annotations

import copy
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from agent.config import POLICY_VALUES, ConfigError, CustomPattern, Settings
from agent.entities import DIRECT_IDENTIFIERS, Label
from agent.providers import DEFAULT_BASE_URLS
from desktop import icons
from desktop.dialogs import PassphraseDialog, confirm
from desktop.hotkeys import check_hotkey
from desktop.state import AppState
from desktop.wizard import PROVIDER_CHOICES

log = logging.getLogger("veil.desktop")

LOCAL_TASKS = (
    ("relevance", "Relevance: judge which entities the answer needs"),
    ("detect", "Detection: find what rules and NER miss"),
    ("surrogates", "Context-aware stand-ins (substitution level 2)"),
    ("restore", "Restore stand-ins the answer re-worded"),
)
LABEL_NAMES = {
    "PERSON": "Person names", "ORG": "Organisations", "LOCATION": "Places", "ADDRESS": "Postal addresses",
    "EMAIL": "Email addresses", "PHONE": "Phone numbers", "DATE": "Dates", "ID": "IDs and account numbers",
    "URL": "URLs", "IP": "IP addresses", "MAC": "MAC addresses", "CREDIT_CARD": "Card numbers",
    "IBAN": "IBANs", "SSN": "Social security numbers", "USERNAME": "Usernames", "SECRET": "Secrets (API keys, passwords)",
    "NORP": "Nationalities, religions, groups", "MISC": "Other",
}


def _human(n: int | None) -> str:
    if not n:
        return "?"
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit in ("B", "KB") else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"


class SettingsDialog(QDialog):
    applied = Signal()

    def __init__(self, state: AppState, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self.background = state.background
        self.settings: Settings = copy.deepcopy(state.settings)
        self._download_cancel: Any = None
        self.setWindowTitle("Veil — Settings")
        self.setWindowIcon(icons.icon())
        self.resize(860, 640)
        layout = QVBoxLayout(self)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._provider_tab(), "&Provider")
        self.tabs.addTab(self._protection_tab(), "P&rotection")
        self.tabs.addTab(self._hotkeys_tab(), "&Hotkeys")
        self.tabs.addTab(self._model_tab(), "&Local model")
        self.tabs.addTab(self._vault_tab(), "&Vault")
        layout.addWidget(self.tabs)
        self.error_label = QLabel()
        self.error_label.setObjectName("settings-error")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #ffffff; background: #b3261e; padding: 4px; border-radius: 3px;")
        self.error_label.setVisible(False)
        layout.addWidget(self.error_label)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Apply
            | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._ok)
        self.buttons.rejected.connect(self.reject)
        self.buttons.button(QDialogButtonBox.StandardButton.Apply).clicked.connect(self.apply)
        layout.addWidget(self.buttons)
        self.refresh_vault_status()

    # -- provider -------------------------------------------------------------------------------------------------
    def _provider_tab(self) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        p = self.settings.provider
        self.kind_combo = QComboBox()
        self.kind_combo.setObjectName("kind")
        for kind, title, _ in PROVIDER_CHOICES:
            self.kind_combo.addItem(title, kind)
        self.kind_combo.setCurrentIndex(max(0, self.kind_combo.findData(p.kind)))
        self.kind_combo.currentIndexChanged.connect(self._kind_changed)
        form.addRow("&Type:", self.kind_combo)
        self.base_url_edit = QLineEdit(p.base_url)
        self.base_url_edit.setObjectName("base_url")
        form.addRow("&Base URL:", self.base_url_edit)
        self.model_edit = QComboBox()
        self.model_edit.setObjectName("model")
        self.model_edit.setEditable(True)
        self.model_edit.setCurrentText(p.model)
        form.addRow("&Model:", self.model_edit)
        key_row = QHBoxLayout()
        self.api_key_edit = QLineEdit()
        self.api_key_edit.setObjectName("api_key")
        self.api_key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        key_row.addWidget(self.api_key_edit, 1)
        self.key_status = QLabel()
        self.key_status.setEnabled(False)
        key_row.addWidget(self.key_status)
        form.addRow("API key:", key_row)
        self.temperature = QDoubleSpinBox()
        self.temperature.setRange(0.0, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setValue(p.temperature)
        form.addRow("Temperature:", self.temperature)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(16, 200_000)
        self.max_tokens.setValue(p.max_tokens)
        form.addRow("Max answer tokens:", self.max_tokens)
        test_row = QHBoxLayout()
        self.test_button = QPushButton("&Test connection")
        self.test_button.clicked.connect(self.test_connection)
        test_row.addWidget(self.test_button)
        self.test_result = QLabel()
        self.test_result.setObjectName("test-result")
        self.test_result.setWordWrap(True)
        test_row.addWidget(self.test_result, 1)
        form.addRow(test_row)
        note = QLabel("Only sanitized text is sent to the provider. API keys are kept in the system keyring.")
        note.setWordWrap(True)
        note.setEnabled(False)
        form.addRow(note)
        self._kind_changed()
        return page

    def _kind_changed(self, *_: object) -> None:
        kind = self.kind_combo.currentData()
        remote = kind != "local"
        for widget in (self.base_url_edit, self.api_key_edit):
            widget.setEnabled(remote)
        self.model_edit.setEnabled(remote)
        self.base_url_edit.setPlaceholderText(DEFAULT_BASE_URLS.get(kind, "") or "(not used)")
        self.api_key_edit.setPlaceholderText("stored key unchanged" if remote else "not needed")
        if kind != self.settings.provider.kind:
            self.base_url_edit.clear()
            self.model_edit.setCurrentText("")
        else:
            self.base_url_edit.setText(self.settings.provider.base_url)
            self.model_edit.setCurrentText(self.settings.provider.model)
        self.key_status.setText("")
        if remote:
            self.background.submit(lambda: _key_state(kind), lambda text: self.key_status.setText(text))

    def _provider_values(self, settings: Settings) -> None:
        p = settings.provider
        p.kind = self.kind_combo.currentData()
        p.base_url = self.base_url_edit.text().strip() if p.kind != "local" else ""
        p.model = self.model_edit.currentText().strip() if p.kind != "local" else ""
        p.temperature = float(self.temperature.value())
        p.max_tokens = int(self.max_tokens.value())

    def test_connection(self) -> None:
        """list_models with the values in the dialog (typed key, else the stored one)."""
        from agent.providers import provider_from_settings

        settings = copy.deepcopy(self.settings)
        self._provider_values(settings)
        typed = self.api_key_edit.text().strip() or None
        self.test_result.setText("connecting…")
        self.test_button.setEnabled(False)

        def work():
            provider = provider_from_settings(settings, api_key=typed)
            try:
                return provider.list_models()
            finally:
                provider.close()

        def done(models) -> None:
            self.test_button.setEnabled(True)
            self.test_result.setStyleSheet("color: #2e7d32;")
            self.test_result.setText(f"Connected: {len(models)} model{'s' if len(models) != 1 else ''} available.")
            current = self.model_edit.currentText()
            self.model_edit.clear()
            self.model_edit.addItems(list(models))
            self.model_edit.setCurrentText(current or (models[0] if models else ""))

        def failed(exc: BaseException) -> None:
            self.test_button.setEnabled(True)
            self.test_result.setStyleSheet("color: #c62828;")
            self.test_result.setText(f"Failed: {exc}")

        self.background.submit(work, done, failed)

    # -- protection -------------------------------------------------------------------------------------------------
    def _protection_tab(self) -> QWidget:
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        page = QWidget()
        layout = QVBoxLayout(page)
        general = QGroupBox("How values are replaced")
        g = QFormLayout(general)
        self.level_combo = QComboBox()
        self.level_combo.setObjectName("substitution_level")
        self.level_combo.addItem("Labels, e.g. [PERSON_1]", 0)
        self.level_combo.addItem("Realistic stand-ins of the same kind", 1)
        self.level_combo.addItem("Context-aware stand-ins (needs a capable local model)", 2)
        self.level_combo.setCurrentIndex(self.settings.substitution_level)
        g.addRow("Stand-ins:", self.level_combo)
        self.relevance_check = QCheckBox("Keep public names and places the question is about (e.g. \"population of Chicago\")")
        self.relevance_check.setChecked(self.settings.relevance)
        g.addRow(self.relevance_check)
        layout.addWidget(general)

        policy_box = QGroupBox("Per type")
        grid = QGridLayout(policy_box)
        self.policy_combos: dict[str, QComboBox] = {}
        for row, label in enumerate(Label):
            name = QLabel(LABEL_NAMES.get(label.value, label.value))
            combo = QComboBox()
            combo.setObjectName(f"policy-{label.value}")
            for value in POLICY_VALUES:
                combo.addItem({"auto": "auto", "replace": "replace", "label": "label ([TYPE_1])",
                               "keep": "keep"}[value], value)
            combo.setToolTip("auto: replaced, unless the text asks about it (a public person, place or "
                             "organisation); replace: a realistic stand-in; label: [PERSON_1]; keep: sent as it is")
            combo.setCurrentIndex(max(0, combo.findData(self.settings.policy_for(label))))
            if label in DIRECT_IDENTIFIERS or label is Label.SECRET:
                combo.setToolTip("Direct identifiers and secrets are always replaced: 'keep' and 'auto' act as 'replace'.")
            self.policy_combos[label.value] = combo
            grid.addWidget(name, row // 2, (row % 2) * 2)
            grid.addWidget(combo, row // 2, (row % 2) * 2 + 1)
        layout.addWidget(policy_box)

        lists = QGroupBox("Lists")
        lg = QGridLayout(lists)
        lg.addWidget(QLabel("Always protect (your name, employer, clients), one per line:"), 0, 0)
        lg.addWidget(QLabel("Never protect (terms to leave alone), one per line:"), 0, 1)
        self.always_edit = QPlainTextEdit("\n".join(self.settings.lists.always_protect))
        self.always_edit.setObjectName("always_protect")
        self.always_edit.setTabChangesFocus(True)
        self.never_edit = QPlainTextEdit("\n".join(self.settings.lists.never_protect))
        self.never_edit.setObjectName("never_protect")
        self.never_edit.setTabChangesFocus(True)
        for edit in (self.always_edit, self.never_edit):
            edit.setMaximumHeight(90)
        lg.addWidget(self.always_edit, 1, 0)
        lg.addWidget(self.never_edit, 1, 1)
        lg.addWidget(QLabel("Custom patterns (regular expressions):"), 2, 0, 1, 2)
        self.patterns_table = QTableWidget(0, 3)
        self.patterns_table.setObjectName("custom_patterns")
        self.patterns_table.setHorizontalHeaderLabels(["Type", "Pattern", "Name"])
        self.patterns_table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.patterns_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.patterns_table.setMaximumHeight(130)
        for pattern in self.settings.lists.custom_patterns:
            self.add_pattern_row(pattern.label, pattern.pattern, pattern.name)
        lg.addWidget(self.patterns_table, 3, 0, 1, 2)
        row = QHBoxLayout()
        add = QPushButton("Add pattern")
        add.clicked.connect(lambda: self.add_pattern_row("ID", "", ""))
        remove = QPushButton("Remove selected")
        remove.clicked.connect(lambda: [self.patterns_table.removeRow(i.row())
                                        for i in sorted(self.patterns_table.selectionModel().selectedRows(),
                                                        key=lambda i: -i.row())])
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        lg.addLayout(row, 4, 0, 1, 2)
        layout.addWidget(lists)
        layout.addStretch(1)
        scroll.setWidget(page)
        return scroll

    def add_pattern_row(self, label: str, pattern: str, name: str) -> None:
        row = self.patterns_table.rowCount()
        self.patterns_table.insertRow(row)
        combo = QComboBox()
        for item in Label:
            combo.addItem(item.value)
        combo.setCurrentText(label.upper())
        self.patterns_table.setCellWidget(row, 0, combo)
        self.patterns_table.setItem(row, 1, QTableWidgetItem(pattern))
        self.patterns_table.setItem(row, 2, QTableWidgetItem(name))

    def _protection_values(self, settings: Settings) -> None:
        settings.substitution_level = int(self.level_combo.currentData())
        settings.relevance = self.relevance_check.isChecked()
        settings.policy = {label: combo.currentData() for label, combo in self.policy_combos.items()}
        settings.lists.always_protect = _lines(self.always_edit.toPlainText())
        settings.lists.never_protect = _lines(self.never_edit.toPlainText())
        patterns = []
        for row in range(self.patterns_table.rowCount()):
            label = self.patterns_table.cellWidget(row, 0).currentText()
            pattern = (self.patterns_table.item(row, 1).text() if self.patterns_table.item(row, 1) else "").strip()
            name = (self.patterns_table.item(row, 2).text() if self.patterns_table.item(row, 2) else "").strip()
            if pattern:
                patterns.append(CustomPattern(label=label, pattern=pattern, name=name))
        settings.lists.custom_patterns = patterns

    # -- hotkeys --------------------------------------------------------------------------------------------------------
    def _hotkeys_tab(self) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        hk = self.settings.hotkeys
        self.hotkeys_enabled = QCheckBox("Use global hotkeys")
        self.hotkeys_enabled.setChecked(hk.enabled)
        form.addRow(self.hotkeys_enabled)
        self.sanitize_hotkey = QLineEdit(hk.sanitize)
        self.sanitize_hotkey.setObjectName("sanitize_hotkey")
        form.addRow("Sanitize the clipboard:", self.sanitize_hotkey)
        self.restore_hotkey = QLineEdit(hk.restore)
        self.restore_hotkey.setObjectName("restore_hotkey")
        form.addRow("Restore the clipboard:", self.restore_hotkey)
        help_text = QLabel("Write keys as pynput does: modifiers in angle brackets, joined with +, e.g. "
                           "<ctrl>+<alt>+s or <cmd>+<shift>+r.")
        help_text.setWordWrap(True)
        help_text.setEnabled(False)
        form.addRow(help_text)
        self.hotkey_status = QLabel()
        self.hotkey_status.setObjectName("hotkey-status")
        self.hotkey_status.setWordWrap(True)
        form.addRow(self.hotkey_status)
        return page

    def set_hotkey_status(self, text: str) -> None:
        self.hotkey_status.setText(text or "Hotkeys are active.")

    def _hotkey_values(self, settings: Settings) -> None:
        settings.hotkeys.enabled = self.hotkeys_enabled.isChecked()
        settings.hotkeys.sanitize = self.sanitize_hotkey.text().strip()
        settings.hotkeys.restore = self.restore_hotkey.text().strip()
        if settings.hotkeys.enabled:
            for name, value in (("sanitize", settings.hotkeys.sanitize), ("restore", settings.hotkeys.restore)):
                problem = check_hotkey(value)
                if problem:
                    raise ConfigError(f"{name} hotkey {value!r}: {problem}")
            if settings.hotkeys.sanitize == settings.hotkeys.restore:
                raise ConfigError("the two hotkeys must differ")

    # -- local model --------------------------------------------------------------------------------------------------------
    def _model_tab(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.catalog_tree = QTreeWidget()
        self.catalog_tree.setObjectName("catalog")
        self.catalog_tree.setHeaderLabels(["Model", "Size", "Installed", "Licence", "Good for"])
        self.catalog_tree.setRootIsDecorated(False)
        header = self.catalog_tree.header()
        header.setStretchLastSection(True)
        for column in range(4):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.catalog_tree, 1)
        row = QHBoxLayout()
        self.download_button = QPushButton("&Download")
        self.download_button.clicked.connect(self.download_selected)
        self.cancel_download_button = QPushButton("Cancel download")
        self.cancel_download_button.setEnabled(False)
        self.cancel_download_button.clicked.connect(self.cancel_download)
        self.use_button = QPushButton("&Use selected")
        self.use_button.clicked.connect(self.use_selected)
        self.choose_file_button = QPushButton("Choose a .gguf &file…")
        self.choose_file_button.clicked.connect(lambda: self.choose_file())
        for b in (self.download_button, self.cancel_download_button, self.use_button, self.choose_file_button):
            row.addWidget(b)
        row.addStretch(1)
        layout.addLayout(row)
        self.progress = QProgressBar()
        self.progress.setObjectName("download-progress")
        self.progress.setVisible(False)
        layout.addWidget(self.progress)
        self.model_info = QLabel()
        self.model_info.setObjectName("model-info")
        self.model_info.setWordWrap(True)
        self.model_info.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.model_info)
        tasks_box = QGroupBox("Use the local model for")
        t = QVBoxLayout(tasks_box)
        self.task_checks: dict[str, QCheckBox] = {}
        for name, text in LOCAL_TASKS:
            check = QCheckBox(text)
            check.setChecked(name in self.settings.local_model.tasks)
            self.task_checks[name] = check
            t.addWidget(check)
        note = QLabel("The tiny default model is too small for these tasks; they are worth it with a 1-4 B instruct model.")
        note.setWordWrap(True)
        note.setEnabled(False)
        t.addWidget(note)
        layout.addWidget(tasks_box)
        form = QFormLayout()
        self.release_after = QSpinBox()
        self.release_after.setObjectName("release_after_minutes")
        self.release_after.setRange(0, 24 * 60)
        self.release_after.setSpecialValueText("never (keep it loaded)")
        self.release_after.setSuffix(" minutes unused")
        self.release_after.setValue(round(self.settings.local_model.release_after_minutes))
        self.release_after.setToolTip("The model is loaded again, in about a second, the next time it is needed.")
        form.addRow("Free the model's memory after:", self.release_after)
        layout.addLayout(form)
        self._current_model_label()
        self.refresh_catalog()
        return page

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
                    entry.title, _human(entry.size),
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
            self.progress.setFormat(f"{name}: {_human(p.downloaded)} of {_human(p.total)}{eta}")
        else:
            self.progress.setFormat(f"{name}: {_human(p.downloaded)}")

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

    def _model_values(self, settings: Settings) -> None:
        settings.local_model.name = self.settings.local_model.name
        settings.local_model.path = self.settings.local_model.path
        settings.local_model.tasks = [name for name, check in self.task_checks.items() if check.isChecked()]
        settings.local_model.release_after_minutes = float(self.release_after.value())

    # -- vault --------------------------------------------------------------------------------------------------------------
    def _vault_tab(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.vault_status = QLabel("…")
        self.vault_status.setObjectName("vault-status")
        self.vault_status.setWordWrap(True)
        self.vault_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.vault_status)
        form = QFormLayout()
        self.retention = QSpinBox()
        self.retention.setObjectName("retention_days")
        self.retention.setRange(0, 3650)
        self.retention.setSpecialValueText("keep everything")
        self.retention.setSuffix(" days")
        self.retention.setValue(self.settings.vault.retention_days)
        form.addRow("Delete conversations older than:", self.retention)
        self.auto_lock = QSpinBox()
        self.auto_lock.setRange(0, 24 * 60)
        self.auto_lock.setSpecialValueText("never")
        self.auto_lock.setSuffix(" minutes idle")
        self.auto_lock.setValue(self.settings.vault.auto_lock_minutes)
        form.addRow("Lock automatically after:", self.auto_lock)
        layout.addLayout(form)
        row = QHBoxLayout()
        self.lock_button = QPushButton("&Lock now")
        self.lock_button.clicked.connect(self._lock)
        self.passphrase_button = QPushButton("Change &passphrase…")
        self.passphrase_button.clicked.connect(lambda: self.change_passphrase())
        self.wipe_button = QPushButton("&Wipe everything…")
        self.wipe_button.setObjectName("wipe")
        self.wipe_button.clicked.connect(lambda: self.wipe())
        for b in (self.lock_button, self.passphrase_button, self.wipe_button):
            row.addWidget(b)
        row.addStretch(1)
        layout.addLayout(row)
        self.vault_message = QLabel()
        self.vault_message.setObjectName("vault-message")
        self.vault_message.setWordWrap(True)
        layout.addWidget(self.vault_message)
        layout.addWidget(self._proxy_box())
        layout.addStretch(1)
        return page

    def _proxy_box(self) -> QWidget:
        """The local proxy (veil serve): where it listens and the token clients need."""
        box = QGroupBox("Local proxy (veil serve)")
        form = QFormLayout(box)
        self.proxy_port = QSpinBox()
        self.proxy_port.setObjectName("proxy_port")
        self.proxy_port.setRange(1024, 65535)
        self.proxy_port.setValue(self.settings.server.port)
        form.addRow("Port on 127.0.0.1:", self.proxy_port)
        self.proxy_status = QLabel()
        self.proxy_status.setObjectName("proxy-status")
        self.proxy_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow("Status:", self.proxy_status)
        self.proxy_token_field = QLineEdit()
        self.proxy_token_field.setObjectName("proxy_token")
        self.proxy_token_field.setReadOnly(True)
        self.proxy_token_field.setEchoMode(QLineEdit.EchoMode.Password)
        row = QHBoxLayout()
        row.addWidget(self.proxy_token_field, 1)
        show = QPushButton("Show")
        show.setCheckable(True)
        show.toggled.connect(lambda on: self.proxy_token_field.setEchoMode(
            QLineEdit.EchoMode.Normal if on else QLineEdit.EchoMode.Password))
        copy_button = QPushButton("Copy")
        copy_button.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.proxy_token_field.text()))
        rotate = QPushButton("New token")
        rotate.setToolTip("Clients using the old token get 401 until they use the new one.")
        rotate.clicked.connect(lambda: self.refresh_proxy(rotate=True))
        for button in (show, copy_button, rotate):
            row.addWidget(button)
        form.addRow("Bearer token:", row)
        self.refresh_proxy()
        return box

    def refresh_proxy(self, *, rotate: bool = False) -> None:
        proxy = self.state.proxy
        self.proxy_status.setText(
            f"on at {proxy.url}" if proxy is not None else "off (turn it on from the tray menu)"
        )
        token = self.state.proxy_token(rotate=rotate)
        self.proxy_token_field.setText(token or "")
        self.proxy_token_field.setPlaceholderText("" if token else "unlock the vault to see it")

    def refresh_vault_status(self) -> None:
        if not self.state.vault_is_open():
            self.vault_status.setText(f"The vault is {self.state.vault_phase.replace('-', ' ')}.")
            return
        store = self.state.store

        def show(status) -> None:
            mode = "a random key in the system keyring" if status.mode == "keyring" else "your passphrase"
            self.vault_status.setText(
                f"<b>{status.path}</b><br>Encrypted with {mode}. {status.conversations} conversations, "
                f"{status.messages} messages, {status.entities} map entries, {_human(status.size_bytes)}."
            )

        self.background.submit(store.status, show, lambda exc: self.vault_status.setText(f"Vault: {exc}"))

    def _lock(self) -> None:
        self.state.lock_vault()
        self.vault_message.setText("Locked. Veil asks to unlock it when it is needed.")

    def change_passphrase(self, passphrase: str | None = None) -> None:
        if not self.state.vault_is_open():
            self.vault_message.setText("Unlock the vault first.")
            return
        if passphrase is None:
            dialog = PassphraseDialog(self, new=True, intro="Choose a new passphrase for the vault. "
                                      "Everything is re-encrypted; nothing is lost.")
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return
            passphrase = dialog.value()
        store = self.state.store
        self.vault_message.setText("Re-encrypting…")
        self.background.submit(
            lambda: store.change_key("passphrase", passphrase=passphrase),
            lambda _: (self.vault_message.setText("The vault now uses the new passphrase."), self.refresh_vault_status()),
            lambda exc: self.vault_message.setText(f"Not changed: {exc}"),
        )

    def wipe(self, *, confirmed: bool = False) -> None:
        if not self.state.vault_is_open():
            self.vault_message.setText("Unlock the vault first.")
            return
        if not confirmed and not confirm(
            self, "Wipe the vault",
            "Delete every conversation, message, map of real values and the audit log? "
            "This cannot be undone.", "Wipe everything",
        ):
            return
        store = self.state.store

        def done(_: object) -> None:
            self.vault_message.setText("Wiped: the vault is empty.")
            self.refresh_vault_status()
            self.state.conversations_changed.emit()

        self.background.submit(store.wipe, done, lambda exc: self.vault_message.setText(f"Not wiped: {exc}"))

    def _vault_values(self, settings: Settings) -> None:
        settings.vault.retention_days = int(self.retention.value())
        settings.vault.auto_lock_minutes = int(self.auto_lock.value())
        settings.server.port = int(self.proxy_port.value())

    # -- apply ---------------------------------------------------------------------------------------------------------------
    def collect(self) -> Settings:
        settings = copy.deepcopy(self.state.settings)
        self._provider_values(settings)
        self._protection_values(settings)
        self._hotkey_values(settings)
        self._model_values(settings)
        self._vault_values(settings)
        settings.validate()
        return settings

    def apply(self) -> bool:
        try:
            settings = self.collect()
        except (ConfigError, ValueError) as exc:
            self.show_error(str(exc))
            return False
        key = self.api_key_edit.text().strip()
        kind = settings.provider.kind
        if key and kind != "local":
            from agent.providers.keys import set_api_key

            def stored(_: object) -> None:
                self.api_key_edit.clear()
                self.key_status.setText("key stored in the keyring")

            self.background.submit(lambda: set_api_key(kind, key), stored,
                                   lambda exc: self.show_error(f"The API key was not stored: {exc}"))
        retention_changed = settings.vault.retention_days != self.state.settings.vault.retention_days
        try:
            self.state.apply_settings(settings, on_error=lambda exc: self.show_error(str(exc)))
        except (ConfigError, OSError, ValueError) as exc:
            self.show_error(str(exc))
            return False
        if retention_changed and settings.vault.retention_days > 0 and self.state.vault_is_open():
            store, days = self.state.store, settings.vault.retention_days
            self.background.submit(lambda: store.apply_retention(days),
                                   lambda _: self.state.conversations_changed.emit())
        self.settings = copy.deepcopy(settings)
        self.error_label.setVisible(False)
        self.applied.emit()
        return True

    def show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(True)

    def _ok(self) -> None:
        if self.apply():
            self.accept()

    def reject(self) -> None:
        self.cancel_download()
        super().reject()


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _key_state(kind: str) -> str:
    from agent.providers.keys import get_api_key

    try:
        return "a key is stored" if get_api_key(kind) is not None else "no key stored"
    except Exception as exc:
        return f"keyring: {exc}"
