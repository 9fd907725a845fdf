"""The chat window's list of conversations: New conversation, the vault's conversations
(the clipboard's daily maps left out), rename (F2) and delete (Delete, after asking).

It lists, renames and deletes through the vault in workers and reports the user's picks
by signals; which conversation is open is the window's business.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QInputDialog,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.dialogs import confirm
from desktop.state import AppState

CLIPBOARD_PREFIX = "clipboard-"


class ConversationList(QWidget):
    chosen = Signal(str)  # a conversation id the user picked
    new_requested = Signal()
    renamed = Signal(str, str)  # id, new title
    deleted = Signal(str)  # id

    def __init__(self, state: AppState, on_error: Callable[[BaseException], None], parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self.on_error = on_error
        self.current_id: str | None = None  # highlighted when the list is shown
        self.frozen = False  # locked: nothing is listed, late results included
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 0, 8)
        self.new_button = QPushButton("New conversation")
        self.new_button.setToolTip("Start a new conversation (Ctrl+N)")
        self.new_button.clicked.connect(self.new_requested.emit)
        layout.addWidget(self.new_button)
        self.list = QListWidget()
        self.list.setObjectName("conversations")
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.itemActivated.connect(self._picked)
        self.list.itemClicked.connect(self._picked)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        layout.addWidget(self.list, 1)
        rename = QAction("Rename", self.list)
        rename.setShortcut(QKeySequence("F2"))
        rename.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        rename.triggered.connect(self.rename_current)
        delete = QAction("Delete", self.list)
        delete.setShortcut(QKeySequence.StandardKey.Delete)
        delete.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        delete.triggered.connect(self.delete_current)
        self.list.addAction(rename)
        self.list.addAction(delete)

    def refresh(self) -> None:
        if not self.state.vault_is_open() or self.frozen:
            return
        self.state.background.submit(self.state.store.list_conversations, self._show, self.on_error)

    def _show(self, summaries) -> None:
        if self.frozen:
            return  # listed before the lock: not shown now
        self.list.clear()
        for summary in summaries:
            if summary.id.startswith(CLIPBOARD_PREFIX) or getattr(summary, "origin", "chat") == "clipboard":
                continue  # the clipboard's maps: kept for restoring, not chats
            title = summary.title or "(untitled)"
            item = QListWidgetItem(title)
            item.setData(Qt.ItemDataRole.UserRole, summary.id)
            item.setToolTip(f"{html.escape(title, quote=False)}<br>{summary.message_count} "
                            f"message{'s' if summary.message_count != 1 else ''} · F2 renames, Delete deletes")
            self.list.addItem(item)
            if summary.id == self.current_id:
                item.setSelected(True)
                self.list.setCurrentItem(item)

    def clear(self) -> None:
        self.list.clear()

    def select(self, conversation_id: str | None) -> None:
        self.current_id = conversation_id
        if conversation_id is None:
            self.list.clearSelection()

    def _picked(self, item: QListWidgetItem) -> None:
        self.chosen.emit(item.data(Qt.ItemDataRole.UserRole))

    def _menu(self, point) -> None:
        item = self.list.itemAt(point)
        if item is None:
            return
        # The list may be refreshed (its items deleted) while the menu is open: keep the id.
        conversation_id, title = item.data(Qt.ItemDataRole.UserRole), item.text()
        menu = QMenu(self)
        menu.addAction("Rename…", lambda: self.rename(conversation_id, current=title))
        menu.addAction("Delete…", lambda: self.delete(conversation_id, current=title))
        menu.exec(self.list.mapToGlobal(point))

    def rename_current(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.rename(item.data(Qt.ItemDataRole.UserRole), current=item.text())

    def delete_current(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.delete(item.data(Qt.ItemDataRole.UserRole), current=item.text())

    def rename(self, conversation_id: str, title: str | None = None, *, current: str = "") -> None:
        if title is None:
            title, ok = QInputDialog.getText(self, "Rename conversation", "Title:", text=current)
            if not ok:
                return
        title = title.strip()
        if not title:
            return
        store = self.state.store

        def done(_: object) -> None:
            self.renamed.emit(conversation_id, title)
            self.refresh()

        self.state.background.submit(lambda: store.rename_conversation(conversation_id, title), done, self.on_error)

    def delete(self, conversation_id: str, *, current: str = "", confirmed: bool = False) -> None:
        if not confirmed and not confirm(
            self, "Delete conversation",
            f"Delete “{current or 'this conversation'}” with its messages and its map of real values? "
            "This cannot be undone.",
            "Delete",
        ):
            return
        store = self.state.store

        def done(_: object) -> None:
            self.deleted.emit(conversation_id)
            self.refresh()

        self.state.background.submit(lambda: store.delete_conversation(conversation_id), done, self.on_error)
