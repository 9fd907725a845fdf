"""First run: choose where answers come from (default: the local model, no account), the
provider's URL, model (Test connection lists the provider's models) and API key, done.

The wizard only collects: nothing is saved or created while it is open, and Cancel
leaves everything as it was (the app asks again at the next start). It says plainly
where a key will be kept (the system keyring, or Veil's encrypted vault where there is
no usable keyring) and whether a vault passphrase comes next.
"""

from __future__ import annotations

import copy
from typing import Any

from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from agent.config import Settings
from agent.providers import DEFAULT_BASE_URLS
from agent.providers.keys import KEYRING, KeyHome
from agent.providers.kinds import KINDS, provider_name
from desktop import icons
from desktop.connection_test import ConnectionTest
from desktop.key_recorder import pretty
from desktop.tasks import Background

SUGGESTED_MODELS = {"openai": "gpt-4o-mini", "anthropic": "claude-3-5-haiku-latest", "gemini": "gemini-2.0-flash"}


class ProviderPage(QWizardPage):
    def __init__(self, current: str) -> None:
        super().__init__()
        self.setTitle("Where should answers come from?")
        self.setSubTitle("Veil replaces personal data before anything is sent, whichever you choose. "
                         "You can change this later in Settings.")
        layout = QVBoxLayout(self)
        self.group = QButtonGroup(self)
        self.buttons: dict[str, QRadioButton] = {}
        for each in KINDS:
            button = QRadioButton(each.name)
            button.setObjectName(f"provider-{each.kind}")
            self.group.addButton(button)
            self.buttons[each.kind] = button
            note = QLabel(each.detail)
            note.setWordWrap(True)
            note.setIndent(24)
            note.setEnabled(False)  # greyed, secondary text
            layout.addWidget(button)
            layout.addWidget(note)
        self.buttons.get(current, self.buttons["local"]).setChecked(True)
        layout.addStretch(1)

    def kind(self) -> str:
        for kind, button in self.buttons.items():
            if button.isChecked():
                return kind
        return "local"


class DetailsPage(QWizardPage):
    def __init__(self, settings: Settings, background: Background, key_home: KeyHome) -> None:
        super().__init__()
        self.settings = settings
        self.key_home = key_home
        layout = QVBoxLayout(self)
        self.info = QLabel()
        self.info.setWordWrap(True)
        layout.addWidget(self.info)
        self.form_box = QWidget()
        form = QFormLayout(self.form_box)
        self.base_url = QLineEdit()
        self.base_url.setObjectName("base_url")
        self.model = QComboBox()
        self.model.setObjectName("model")
        self.model.setEditable(True)
        self.api_key = QLineEdit()
        self.api_key.setObjectName("api_key")
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setPlaceholderText("paste it here (not needed for a server on this computer)")
        self.key_note = QLabel(key_home.describe())
        self.key_note.setObjectName("key-home")
        self.key_note.setWordWrap(True)
        self.key_note.setEnabled(False)
        self.test = ConnectionTest(background, self._test_values, self.model)
        form.addRow("&Base URL:", self.base_url)
        form.addRow("API &key:", self.api_key)
        form.addRow("", self.key_note)
        form.addRow("&Model:", self.model)
        form.addRow("", self.test)
        layout.addWidget(self.form_box)
        layout.addStretch(1)

    def initializePage(self) -> None:
        kind = self.wizard().provider_page.kind()
        local = kind == "local"
        self.form_box.setVisible(not local)
        if local:
            self.setTitle("The local model")
            self.setSubTitle("")
            self.info.setText(
                "Veil will answer with the tiny local model (Gemma 3 270M, 253 MB, shipped with Veil). "
                "It is small: good for trying Veil out, not for hard questions. Nothing is sent anywhere. "
                "Larger local models can be downloaded in Settings › Local model."
            )
            return
        self.setTitle("Connect to " + provider_name(kind))
        self.setSubTitle("Only sanitized text is ever sent to it.")
        self.info.setText(
            "Leave the base URL empty for the provider's own endpoint. For a server on this computer "
            "(e.g. Ollama: http://127.0.0.1:11434/v1) no key is needed. Test connection lists the "
            "models the provider offers."
        )
        self.base_url.setPlaceholderText(DEFAULT_BASE_URLS.get(kind, ""))
        profile = self.settings.provider.profile(kind)  # what this kind remembers, if anything
        self.base_url.setText(profile.base_url)
        self.model.clear()
        self.model.setCurrentText(profile.model or SUGGESTED_MODELS.get(kind, ""))
        self.test.result.clear()

    def _test_values(self) -> tuple[Settings, str | None]:
        return self.wizard().result_settings(), self.api_key.text().strip() or None


class DonePage(QWizardPage):
    def __init__(self, settings: Settings, vault_next: str) -> None:
        super().__init__()
        self.setTitle("Done")
        layout = QVBoxLayout(self)
        hk = settings.hotkeys
        text = QLabel(
            "Veil now lives in the system tray.<br><br>"
            "<b>Chat:</b> tray › Open chat. Before anything is sent you see exactly what leaves this "
            "computer, with stand-ins highlighted.<br><br>"
            f"<b>Anywhere else:</b> copy text and press <b>{pretty(hk.sanitize)}</b>: the clipboard "
            "then holds the sanitized text. Paste the LLM's answer back to the clipboard and press "
            f"<b>{pretty(hk.restore)}</b> to put the real values back."
            + (f"<br><br><b>Next:</b> {vault_next}" if vault_next else "")
        )
        text.setObjectName("done-text")
        text.setWordWrap(True)
        layout.addWidget(text)
        layout.addStretch(1)


class FirstRunWizard(QWizard):
    """`key_home`: where a key typed here will be kept; `vault_next`: a sentence about the
    vault passphrase that is asked once the wizard closes ("" when none is)."""

    def __init__(self, settings: Settings, background: Background, *, key_home: KeyHome | None = None,
                 vault_next: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = copy.deepcopy(settings)
        self.setWindowTitle("Welcome to Veil")
        self.setWindowIcon(icons.icon())
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setPixmap(QWizard.WizardPixmap.LogoPixmap, icons.icon().pixmap(48, 48))
        self.setMinimumSize(580, 460)
        self.provider_page = ProviderPage(self.settings.provider.kind)
        self.details_page = DetailsPage(self.settings, background, key_home or KeyHome(KEYRING))
        self.addPage(self.provider_page)
        self.addPage(self.details_page)
        self.addPage(DonePage(self.settings, vault_next))

    def result_settings(self) -> Settings:
        """The settings chosen so far (first_run_done set; nothing is saved here)."""
        settings = copy.deepcopy(self.settings)
        kind = self.provider_page.kind()
        settings.provider.kind = kind
        if kind != "local":
            settings.provider.base_url = self.details_page.base_url.text().strip()
            settings.provider.model = self.details_page.model.currentText().strip()
        settings.first_run_done = True
        return settings

    def api_key(self) -> str:
        if self.provider_page.kind() == "local":
            return ""
        return self.details_page.api_key.text().strip()


def wizard_facts() -> dict[str, Any]:
    """What the wizard says about keys and the vault on this machine (no side effects):
    where a key goes, and whether a passphrase will be asked after it."""
    import os

    from agent.providers.keys import key_home
    from agent.vault import PASSPHRASE_ENV, describe_vault

    home = key_home()
    vault_next = ""
    info = describe_vault()
    mode = info.header.mode if info.header is not None else ""
    if info.exists and mode == "passphrase" and not os.environ.get(PASSPHRASE_ENV):
        vault_next = "Veil asks for your vault passphrase to unlock its vault."
    elif not info.exists and not info.keyring.usable and not os.environ.get(PASSPHRASE_ENV):
        vault_next = ("this computer has no usable system keyring, so Veil asks you to choose a passphrase "
                      "for its encrypted vault (your conversations"
                      + (" and API key" if home.place != KEYRING else "") + " are kept there).")
    return {"key_home": home, "vault_next": vault_next}
