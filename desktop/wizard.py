"""First run: choose where answers come from (default: the local model, no account),
paste an API key (kept in the OS keyring), done."""

from __future__ import annotations

import copy

from PySide6.QtWidgets import (
    QButtonGroup,
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
from desktop import icons

PROVIDER_CHOICES = (
    ("local", "Local model only", ("No account, nothing leaves this computer. A small model answers "
                                   "(the tiny one ships with Veil; larger ones can be downloaded in Settings).")),
    ("openai", "OpenAI-compatible", ("OpenAI, OpenRouter, Groq, Together, Mistral, or a server on this "
                                     "computer (Ollama, LM Studio, llama.cpp) — any Chat Completions API.")),
    ("anthropic", "Anthropic", "Claude, through the Messages API."),
    ("gemini", "Google Gemini", "Gemini, through the Generative Language API."),
)
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
        for kind, title, detail in PROVIDER_CHOICES:
            button = QRadioButton(title)
            button.setObjectName(f"provider-{kind}")
            self.group.addButton(button)
            self.buttons[kind] = button
            note = QLabel(detail)
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
    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        layout = QVBoxLayout(self)
        self.info = QLabel()
        self.info.setWordWrap(True)
        layout.addWidget(self.info)
        self.form_box = QWidget()
        form = QFormLayout(self.form_box)
        self.base_url = QLineEdit()
        self.base_url.setObjectName("base_url")
        self.model = QLineEdit()
        self.model.setObjectName("model")
        self.api_key = QLineEdit()
        self.api_key.setObjectName("api_key")
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setPlaceholderText("paste it here (kept in the system keyring, never in a file)")
        form.addRow("&Base URL:", self.base_url)
        form.addRow("&Model:", self.model)
        form.addRow("API &key:", self.api_key)
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
        self.setTitle("Connect to " + {k: t for k, t, _ in PROVIDER_CHOICES}[kind])
        self.setSubTitle("Only sanitized text is ever sent to it.")
        self.info.setText(
            "Leave the base URL empty for the provider's own endpoint. For a server on this computer "
            "(e.g. Ollama: http://127.0.0.1:11434/v1) no key is needed."
        )
        self.base_url.setPlaceholderText(DEFAULT_BASE_URLS.get(kind, ""))
        same = self.settings.provider.kind == kind
        self.base_url.setText(self.settings.provider.base_url if same else "")
        self.model.setText(self.settings.provider.model if same and self.settings.provider.model
                           else SUGGESTED_MODELS.get(kind, ""))


class DonePage(QWizardPage):
    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.setTitle("Done")
        layout = QVBoxLayout(self)
        hk = settings.hotkeys
        text = QLabel(
            "Veil now lives in the system tray.<br><br>"
            "<b>Chat:</b> tray › Open chat. Before anything is sent you see exactly what leaves this "
            "computer, with stand-ins highlighted.<br><br>"
            f"<b>Anywhere else:</b> copy text and press <b>{_pretty(hk.sanitize)}</b>: the clipboard "
            "then holds the sanitized text. Paste the LLM's answer back to the clipboard and press "
            f"<b>{_pretty(hk.restore)}</b> to put the real values back."
        )
        text.setWordWrap(True)
        layout.addWidget(text)
        layout.addStretch(1)


def _pretty(hotkey: str) -> str:
    return "+".join(p.strip("<>").capitalize() if len(p) > 1 else p.upper() for p in hotkey.split("+"))


class FirstRunWizard(QWizard):
    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = copy.deepcopy(settings)
        self.setWindowTitle("Welcome to Veil")
        self.setWindowIcon(icons.icon())
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setPixmap(QWizard.WizardPixmap.LogoPixmap, icons.icon().pixmap(48, 48))
        self.setMinimumSize(560, 420)
        self.provider_page = ProviderPage(self.settings.provider.kind)
        self.details_page = DetailsPage(self.settings)
        self.addPage(self.provider_page)
        self.addPage(self.details_page)
        self.addPage(DonePage(self.settings))

    def result_settings(self) -> Settings:
        settings = copy.deepcopy(self.settings)
        kind = self.provider_page.kind()
        settings.provider.kind = kind
        if kind == "local":
            settings.provider.base_url = ""
            settings.provider.model = ""
        else:
            settings.provider.base_url = self.details_page.base_url.text().strip()
            settings.provider.model = self.details_page.model.text().strip()
        settings.first_run_done = True
        return settings

    def api_key(self) -> str:
        if self.provider_page.kind() == "local":
            return ""
        return self.details_page.api_key.text().strip()
