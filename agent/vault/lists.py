"""The user's protection lists, kept in the vault (encrypted): always-protect terms (by
definition the names the user most wants hidden: their own, their employer's, their
clients'), never-protect terms and custom patterns. They used to sit in config.toml.

In memory they travel as `Settings.lists`, which is what the detectors read
(agent.detect.user_lists via the registry): whoever builds an engine fills them from
the vault first (`open_default_store(settings=...)` does it for the settings it is
given, `load_lists_into`). The Settings dialog edits `settings.lists` as before; saving
goes through `write_lists`. On first unlock a [lists] table left in config.toml is moved
here and removed from the file (`move_config_lists_into_vault`).
"""

from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path
from typing import Protocol

from agent.config import (
    ConfigError,
    CustomPattern,
    ListSettings,
    Settings,
    lists_in_file,
    remove_lists_from_file,
)
from agent.entities import Label

LISTS_SETTING = "protection.lists"


class SettingsStore(Protocol):
    """The part of VaultStore the lists need."""

    def get_setting(self, key: str, default: object = None) -> object: ...

    def set_setting(self, key: str, value: object) -> None: ...


def read_lists(store: SettingsStore) -> ListSettings:
    """The lists kept in the vault (empty ones when none were ever saved)."""
    data = store.get_setting(LISTS_SETTING)
    if not isinstance(data, dict):
        return ListSettings()
    return ListSettings(
        always_protect=[str(t) for t in data.get("always_protect", [])],
        never_protect=[str(t) for t in data.get("never_protect", [])],
        custom_patterns=[CustomPattern(**p) for p in data.get("custom_patterns", [])],
    )


def write_lists(store: SettingsStore, lists: ListSettings, config: Path | None = None) -> None:
    """Keep these lists in the vault (one transaction), and take a [lists] table out of
    config.toml (what it held was merged into what the user saw: load_lists_into).
    Raises ConfigError for a custom pattern that is not a valid regex or names an unknown
    type (nothing is written)."""
    for pattern in lists.custom_patterns:
        try:
            Label.parse(pattern.label)
            re.compile(pattern.pattern)
        except (ValueError, re.error) as exc:
            raise ConfigError(f"custom pattern {pattern.pattern!r}: {exc}") from exc
    store.set_setting(LISTS_SETTING, asdict(lists))
    remove_lists_from_file(config)  # after the vault has them: a crash leaves them in both


def load_lists_into(settings: Settings, store: SettingsStore, config: Path | None = None) -> bool:
    """Put the vault's lists into `settings.lists` (with anything config.toml still holds
    from before they moved: nothing the user listed is ever left out). True when that
    changed them."""
    lists = read_lists(store)
    left = lists_in_file(config)
    if left is not None:
        lists = merge_lists(lists, left)
    changed = lists != settings.lists
    settings.lists = lists
    return changed


def settings_for(store: object | None = None) -> Settings:
    """The saved settings (load_settings) with the protection lists from `store` when it
    is the vault (a MemoryStore has none: the lists are then what config.toml still
    holds, if anything). What an engine for the user's text is built from. Raises
    ConfigError like load_settings."""
    from agent.config import load_settings

    settings = load_settings()
    if store is not None and hasattr(store, "get_setting"):
        load_lists_into(settings, store)  # type: ignore[arg-type]
    return settings


def merge_lists(first: ListSettings, second: ListSettings) -> ListSettings:
    """Both lists, `first`'s order first, each term and pattern once."""

    def terms(a: list[str], b: list[str]) -> list[str]:
        seen: set[str] = set()
        out = []
        for term in [*a, *b]:
            head, sep, rest = term.partition(":")  # "PERSON: Jane Doe" protects "Jane Doe" too
            text = rest if sep and head.strip().upper() in Label.__members__ and rest.strip() else term
            key = " ".join(text.casefold().split())
            if key and key not in seen:
                seen.add(key)
                out.append(term)
        return out

    patterns: list[CustomPattern] = []
    for pattern in [*first.custom_patterns, *second.custom_patterns]:
        if all((p.label, p.pattern) != (pattern.label, pattern.pattern) for p in patterns):
            patterns.append(pattern)
    return ListSettings(
        always_protect=terms(first.always_protect, second.always_protect),
        never_protect=terms(first.never_protect, second.never_protect),
        custom_patterns=patterns,
    )


def move_config_lists_into_vault(store: SettingsStore, config: Path | None = None) -> int:
    """Move a [lists] table of config.toml into the vault (merged with what the vault has),
    then remove it from the file: the vault is written first, so a crash in between
    leaves the lists in both places and the next unlock merges them again. Returns how
    many entries the file held (0: nothing to move)."""
    left = lists_in_file(config)
    if left is None:
        return 0
    write_lists(store, merge_lists(read_lists(store), left), config)
    return len(left.always_protect) + len(left.never_protect) + len(left.custom_patterns)


__all__ = [
    "LISTS_SETTING",
    "load_lists_into",
    "merge_lists",
    "move_config_lists_into_vault",
    "read_lists",
    "settings_for",
    "write_lists",
]
