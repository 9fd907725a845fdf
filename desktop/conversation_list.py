"""The chat window's list of conversations: New conversation, the vault's chats, rename
(F2) and delete (Delete, after asking).

Only conversations started in the chat window (origin "chat") are listed; the ones that
`veil` commands, the clipboard hotkeys, the local proxy and `veil files` keep their maps
in are behind the "Show others" box, marked with where they come from. Opening one of
those makes it a chat (the window calls store.set_conversation_origin), so it stays.
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
    QCheckBox,
    QInputDialog,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from agent.session.conversation import ConversationSummary
from desktop.dialogs import confirm
from desktop.state import AppState

CHAT = "chat"
TITLE_ROLE = Qt.ItemDataRole.UserRole + 1  # the stored title (the text may name the origin too)
# Where the conversations that are not chats come from, in the user's words.
ORIGIN_WORDS = {
    "cli": "veil command",
    "clipboard": "clipboard",
    "proxy": "local proxy",
    "files": "veil files",
}
OTHERS_TIP = ("Also list the conversations that veil commands, the clipboard hotkeys, the local proxy and "
              "veil files keep their maps in. Opening one moves it to your chats.")


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
        self.show_others = QCheckBox("Show others")
        self.show_others.setToolTip(OTHERS_TIP)
        self.show_others.toggled.connect(lambda _: self._show(self._summaries))
        layout.addWidget(self.show_others)
        self._summaries: list[ConversationSummary] = []
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

    def _show(self, summaries: list[ConversationSummary]) -> None:
        if self.frozen:
            return  # listed before the lock: not shown now
        self._summaries = list(summaries)
        others = sum(1 for summary in summaries if summary.origin != CHAT)
        self.show_others.setText(f"Show others ({others})" if others else "Show others")
        self.list.clear()
        for summary in summaries:
            if summary.origin != CHAT and not self.show_others.isChecked():
                continue
            self.list.addItem(self._item(summary))
            if summary.id == self.current_id:
                item = self.list.item(self.list.count() - 1)
                item.setSelected(True)
                self.list.setCurrentItem(item)

    def _item(self, summary: ConversationSummary) -> QListWidgetItem:
        title = summary.title or "(untitled)"
        count = f"{summary.message_count} message{'s' if summary.message_count != 1 else ''}"
        if summary.origin == CHAT:
            item = QListWidgetItem(title)
            item.setToolTip(f"{html.escape(title, quote=False)}<br>{count} · F2 renames, Delete deletes")
        else:
            source = ORIGIN_WORDS.get(summary.origin, summary.origin)
            item = QListWidgetItem(f"{title} · {source}")
            item.setForeground(self.palette().placeholderText())
            item.setToolTip(f"{html.escape(title, quote=False)}<br>{count} · from: {source} "
                            f"({html.escape(summary.id, quote=False)})<br>Opening it moves it to your chats")
        item.setData(Qt.ItemDataRole.UserRole, summary.id)
        item.setData(TITLE_ROLE, summary.title)
        return item

    def origin_of(self, conversation_id: str) -> str:
        """Where a listed conversation comes from ("chat" when it is not listed)."""
        return next((s.origin for s in self._summaries if s.id == conversation_id), CHAT)

    def clear(self) -> None:
        self.list.clear()
        self._summaries = []

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
        conversation_id, title = item.data(Qt.ItemDataRole.UserRole), item.data(TITLE_ROLE)
        menu = QMenu(self)
        menu.addAction("Rename…", lambda: self.rename(conversation_id, current=title))
        menu.addAction("Delete…", lambda: self.delete(conversation_id, current=title))
        menu.exec(self.list.mapToGlobal(point))

    def rename_current(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.rename(item.data(Qt.ItemDataRole.UserRole), current=item.data(TITLE_ROLE))

    def delete_current(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.delete(item.data(Qt.ItemDataRole.UserRole), current=item.data(TITLE_ROLE))

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
