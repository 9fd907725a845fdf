"""Small dialogs: unlocking the vault, choosing a new passphrase, confirmations; and
bringing a window to the front."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from desktop import icons

MIN_PASSPHRASE = 8


class PassphraseDialog(QDialog):
    """Asks for the vault passphrase; with `new=True` asks twice (creating or changing).

    With `keep_open=True` it emits `submitted(passphrase)` and stays open, so the caller
    can try the passphrase and show "wrong passphrase" in the same dialog."""

    submitted = Signal(str)

    def __init__(self, parent: QWidget | None = None, *, new: bool = False, error: str = "", intro: str = "",
                 keep_open: bool = False):
        super().__init__(parent)
        self.new = new
        self.keep_open = keep_open
        self.setWindowTitle("Veil — new vault passphrase" if new else "Veil — unlock the vault")
        self.setWindowIcon(icons.icon())
        layout = QVBoxLayout(self)
        # The dialog grows with its text: a wrapped message that appears after a wrong
        # passphrase must push the dialog taller, not squeeze the lines above it.
        layout.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        text = intro or (
            "Choose a passphrase for Veil's encrypted vault. It protects your conversations and the map "
            "between real values and stand-ins. There is no way to recover it if you forget it."
            if new else
            "Veil's vault is protected by a passphrase (no system keyring is available). Type it to unlock."
        )
        about = QLabel(text)
        about.setWordWrap(True)
        about.setMinimumWidth(400)
        layout.addWidget(about)
        form = QFormLayout()
        self.passphrase = QLineEdit()
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase.setObjectName("passphrase")
        form.addRow("&Passphrase:", self.passphrase)
        self.confirm = QLineEdit()
        self.confirm.setEchoMode(QLineEdit.EchoMode.Password)
        self.confirm.setObjectName("confirm")
        if new:
            form.addRow("&Again:", self.confirm)
        layout.addLayout(form)
        self.error = QLabel(error)
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #ffffff; background: #b3261e; padding: 4px; border-radius: 3px;")
        self.error.setVisible(bool(error))
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create" if new else "Unlock")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.passphrase.setFocus(Qt.FocusReason.OtherFocusReason)

    def show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(bool(message))
        self.adjustSize()  # taller when the message wraps: nothing above it is clipped

    def _accept(self) -> None:
        value = self.passphrase.text()
        if not value:
            self.show_error("Type the passphrase.")
            return
        if self.new:
            if len(value) < MIN_PASSPHRASE:
                self.show_error(f"Use at least {MIN_PASSPHRASE} characters.")
                return
            if value != self.confirm.text():
                self.show_error("The two passphrases differ.")
                return
        if self.keep_open:
            self.submitted.emit(value)
        else:
            self.accept()

    def value(self) -> str:
        return self.passphrase.text()


def confirm(parent: QWidget | None, title: str, text: str, action: str, *, destructive: bool = True) -> bool:
    """A yes/no question whose 'yes' button names the action ("Delete", "Wipe")."""
    box = QMessageBox(parent)
    box.setWindowTitle(title)
    box.setText(text)
    box.setIcon(QMessageBox.Icon.Warning if destructive else QMessageBox.Icon.Question)
    yes = box.addButton(action, QMessageBox.ButtonRole.DestructiveRole if destructive else QMessageBox.ButtonRole.AcceptRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)  # Enter must not destroy data by accident
    box.exec()
    return box.clickedButton() is yes


def bring_to_front(window: QWidget) -> None:
    """Show a window (or dialog) above the others with the keyboard focus, as a click on
    the tray or a second `veil` start asks for."""
    window.show()
    window.raise_()
    window.activateWindow()
