"""The side panel next to the preview: every item detected in the message being written,
grouped by type, with its real value, what is sent instead, and why; a box per value
(and per type, for all its values) says "send the real value"; "Reset my choices" hands
every decision back to the engine.

The panel only renders a SanitizeResult and reports what the user clicked (signals); the
window turns that into choices through agent.decide.choices, so what a click means is
decided in one place.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from agent.decide.choices import can_keep
from agent.entities import Action, Label
from agent.session.conversation import fold
from desktop.colors import entity_style

ROLE_ENTITY = Qt.ItemDataRole.UserRole  # a value's row: its first Replacement
ROLE_LABEL = Qt.ItemDataRole.UserRole + 1  # a type's row: its Label
COLUMNS = ("Real value (✓ = sent as is)", "Sent as", "Why")


class DetailsPanel(QWidget):
    value_toggled = Signal(object)  # a Replacement whose keep/replace the user flipped
    type_toggled = Signal(object, bool, list)  # (Label, keep, its values) for every value of a type
    reset_requested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("details-panel")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 8, 8, 8)
        head = QHBoxLayout()
        head.addWidget(QLabel("<b>Detected in this message</b>"))
        head.addStretch(1)
        self.reset_button = QPushButton("Reset my choices")
        self.reset_button.setToolTip("Forget your keep/replace choices in this conversation: Veil decides again")
        self.reset_button.setEnabled(False)
        self.reset_button.clicked.connect(self.reset_requested.emit)
        head.addWidget(self.reset_button)
        layout.addLayout(head)
        self.summary = QLabel("Nothing yet: type a message.")
        self.summary.setEnabled(False)
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.tree = QTreeWidget()
        self.tree.setObjectName("details")
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels(COLUMNS)
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        header = self.tree.header()
        # The columns share the panel's width (long values are elided in the middle; the
        # whole value is in the row's tooltip): no sideways scrolling to see why.
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.tree.setRootIsDecorated(False)  # the groups stay open: no arrows, more room
        self.tree.setIndentation(14)
        self.tree.headerItem().setToolTip(0, "Checked: the real value is sent as it is")
        self.tree.itemChanged.connect(self._changed)
        layout.addWidget(self.tree, 1)
        self._filling = False

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        width = self.tree.viewport().width()
        self.tree.header().resizeSection(1, int(width * 0.30))
        self.tree.header().resizeSection(2, int(width * 0.27))

    def sizeHint(self) -> QSize:
        return QSize(480, 400)  # room for a value, its stand-in and why, side by side

    # -- rendering -------------------------------------------------------------------------------
    def show_result(self, result, *, choices: int = 0) -> None:
        """Every detected value of a SanitizeResult (each once), grouped by type.
        `choices`: how many choices the conversation holds (enables Reset)."""
        self._filling = True
        self.tree.clear()
        groups: dict[Label, list] = {}
        seen: set[tuple[Label, str]] = set()
        for entity in result.entities:
            key = (entity.label, fold(entity.real))
            if key not in seen:
                seen.add(key)
                groups.setdefault(entity.label, []).append(entity)
        palette = self.palette()
        for label, entities in groups.items():
            style = entity_style(label.value, palette)
            group = QTreeWidgetItem([f"{label.value} ({len(entities)})", "", ""])
            group.setData(0, ROLE_LABEL, label.value)  # a str enum would come back as a plain str
            group.setBackground(0, QBrush(style.background))
            group.setForeground(0, QBrush(style.foreground))
            if can_keep(label):
                group.setFlags(group.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                kept = sum(e.action is Action.KEEP for e in entities)
                group.setCheckState(0, Qt.CheckState.Checked if kept == len(entities) else
                                    Qt.CheckState.Unchecked if kept == 0 else Qt.CheckState.PartiallyChecked)
                group.setToolTip(0, f"Check to send every {label.value.lower()} as it is; uncheck to swap them all")
            else:
                group.setFlags(group.flags() & ~Qt.ItemFlag.ItemIsUserCheckable)
                group.setToolTip(0, "Secrets are never sent")
            for entity in entities:
                group.addChild(self._row(entity))
            self.tree.addTopLevelItem(group)
            group.setExpanded(True)
        replaced = sum(e.action is not Action.KEEP for e in result.entities)
        kept = len(result.entities) - replaced
        self.summary.setText(
            f"{len(seen)} value{'s' if len(seen) != 1 else ''} found ({len(result.entities)} mentions): "
            f"{replaced} replaced, {kept} sent as they are." if result.entities else "Nothing personal found.")
        self.reset_button.setEnabled(choices > 0)
        self._filling = False

    def _row(self, entity) -> QTreeWidgetItem:
        sent = "(the real value)" if entity.action is Action.KEEP else entity.sent
        row = QTreeWidgetItem([entity.real, sent, entity.reason])
        row.setData(0, ROLE_ENTITY, entity)
        for column, tip in enumerate((entity.real, entity.sent, entity.reason)):
            row.setToolTip(column, tip)
        if can_keep(entity.label):
            row.setFlags(row.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            row.setCheckState(0, Qt.CheckState.Checked if entity.action is Action.KEEP else Qt.CheckState.Unchecked)
        else:  # a secret: no box to tick
            row.setFlags(row.flags() & ~Qt.ItemFlag.ItemIsUserCheckable)
            row.setToolTip(0, "Secrets are never sent")
        return row

    def clear(self) -> None:
        self._filling = True
        self.tree.clear()
        self.summary.setText("Nothing yet: type a message.")
        self.reset_button.setEnabled(False)
        self._filling = False

    # -- what the user clicked -------------------------------------------------------------------------
    def _changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._filling or column != 0:
            return
        entity = item.data(0, ROLE_ENTITY)
        if entity is not None:
            self.value_toggled.emit(entity)
            return
        label = item.data(0, ROLE_LABEL)
        if label is not None and item.checkState(0) != Qt.CheckState.PartiallyChecked:
            values = [item.child(i).data(0, ROLE_ENTITY).real for i in range(item.childCount())]
            self.type_toggled.emit(Label(label), item.checkState(0) == Qt.CheckState.Checked, values)

    def rows(self) -> list[QTreeWidgetItem]:
        """The value rows, in order (tests and keyboard users' counterpart of the tree)."""
        return [self.tree.topLevelItem(i).child(j) for i in range(self.tree.topLevelItemCount())
                for j in range(self.tree.topLevelItem(i).childCount())]

    def group(self, label: Label) -> QTreeWidgetItem | None:
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item.data(0, ROLE_LABEL) == label.value:
                return item
        return None
