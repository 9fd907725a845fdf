"""Settings › Protection: how values are replaced (labels, stand-ins, context-aware), the
policy per entity type, the always/never-protect lists and the custom patterns."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from agent.config import POLICY_VALUES, CustomPattern, Settings
from agent.detect.table import label_names
from agent.entities import DIRECT_IDENTIFIERS, Label
from desktop.settings_tabs.common import button_row, guard_wheel

# One display name per type, from the type table (the README's 'What Veil protects' too).
LABEL_NAMES = label_names()
POLICY_TITLES = {"auto": "auto (keep if asked about)", "replace": "replace", "label": "label ([TYPE_1])",
                 "keep": "keep"}
POLICY_HELP = (
    "<b>auto</b>: replaced by a stand-in, unless the text asks <i>about</i> it: a public person, place or "
    "organisation the question depends on (\"What is the population of Chicago?\") is sent as it is. "
    "<b>replace</b>: always a realistic stand-in. <b>label</b>: a placeholder such as [PERSON_1]. "
    "<b>keep</b>: sent as it is. E-mail addresses, phone and card numbers, IBANs and other direct "
    "identifiers, and secrets, are always replaced, whatever is chosen here."
)


class ProtectionTab(QScrollArea):
    def __init__(self, settings: Settings):
        super().__init__()
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(self._general_box(settings))
        layout.addWidget(self._policy_box(settings))
        layout.addWidget(self._lists_box(settings))
        layout.addStretch(1)
        self.setWidget(page)

    def _general_box(self, settings: Settings) -> QGroupBox:
        general = QGroupBox("How values are replaced")
        g = QFormLayout(general)
        self.level_combo = QComboBox()
        self.level_combo.setObjectName("substitution_level")
        self.level_combo.addItem("Labels, e.g. [PERSON_1]", 0)
        self.level_combo.addItem("Realistic stand-ins of the same kind", 1)
        self.level_combo.addItem("Context-aware stand-ins (needs a capable local model)", 2)
        self.level_combo.setCurrentIndex(settings.substitution_level)
        g.addRow("Stand-ins:", self.level_combo)
        self.relevance_check = QCheckBox("Keep public names and places the question is about (e.g. \"population of Chicago\")")
        self.relevance_check.setChecked(settings.relevance)
        g.addRow(self.relevance_check)
        return general

    def _policy_box(self, settings: Settings) -> QGroupBox:
        policy_box = QGroupBox("Per type")
        grid = QGridLayout(policy_box)
        help_text = QLabel(POLICY_HELP)
        help_text.setObjectName("policy-help")
        help_text.setWordWrap(True)
        grid.addWidget(help_text, 0, 0, 1, 4)
        self.policy_combos: dict[str, QComboBox] = {}
        for row, label in enumerate(Label):
            name = QLabel(LABEL_NAMES.get(label.value, label.value))
            combo = QComboBox()
            combo.setObjectName(f"policy-{label.value}")
            for value in POLICY_VALUES:
                combo.addItem(POLICY_TITLES[value], value)
            combo.setToolTip("auto: replaced, unless the text asks about it (a public person, place or "
                             "organisation); replace: a realistic stand-in; label: [PERSON_1]; keep: sent as it is")
            combo.setCurrentIndex(max(0, combo.findData(settings.policy_for(label))))
            if label in DIRECT_IDENTIFIERS or label is Label.SECRET:
                combo.setToolTip("Direct identifiers and secrets are always replaced: 'keep' and 'auto' act as 'replace'.")
            self.policy_combos[label.value] = combo
            grid.addWidget(name, 1 + row // 2, (row % 2) * 2)
            grid.addWidget(combo, 1 + row // 2, (row % 2) * 2 + 1)
        return policy_box

    def _lists_box(self, settings: Settings) -> QGroupBox:
        lists = QGroupBox("Lists")
        lg = QGridLayout(lists)
        lg.addWidget(QLabel("Always protect (your name, employer, clients), one per line:"), 0, 0)
        lg.addWidget(QLabel("Never protect (terms to leave alone), one per line:"), 0, 1)
        self.always_edit = QPlainTextEdit("\n".join(settings.lists.always_protect))
        self.always_edit.setObjectName("always_protect")
        self.always_edit.setTabChangesFocus(True)
        self.never_edit = QPlainTextEdit("\n".join(settings.lists.never_protect))
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
        for pattern in settings.lists.custom_patterns:
            self.add_pattern_row(pattern.label, pattern.pattern, pattern.name)
        lg.addWidget(self.patterns_table, 3, 0, 1, 2)
        add = QPushButton("Add pattern")
        add.clicked.connect(lambda: self.add_pattern_row("ID", "", ""))
        remove = QPushButton("Remove selected")
        remove.clicked.connect(self.remove_selected_patterns)
        lg.addLayout(button_row(add, remove), 4, 0, 1, 2)
        return lists

    def add_pattern_row(self, label: str, pattern: str, name: str) -> None:
        row = self.patterns_table.rowCount()
        self.patterns_table.insertRow(row)
        combo = QComboBox()
        for item in Label:
            combo.addItem(item.value)
        combo.setCurrentText(label.upper())
        guard_wheel(combo)
        self.patterns_table.setCellWidget(row, 0, combo)
        self.patterns_table.setItem(row, 1, QTableWidgetItem(pattern))
        self.patterns_table.setItem(row, 2, QTableWidgetItem(name))

    def remove_selected_patterns(self) -> None:
        for index in sorted(self.patterns_table.selectionModel().selectedRows(), key=lambda i: -i.row()):
            self.patterns_table.removeRow(index.row())

    def collect(self, settings: Settings) -> None:
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


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]
