"""Texts with code, logs and configuration, made at bench time from the source files of
the installed packages (nothing is copied into the repository), with and without personal
data planted in them.

- `code_snippets`: windows of 6-30 lines from .py, .js, .json, .toml, .cfg/.ini, .yaml
  files under site-packages, with lines that name people (copyright, author, e-mail, URL
  lines) left out, so nothing personal is in them.
- `log_lines`: log excerpts built from the same files' identifiers (timestamps, levels,
  module paths, durations, UUIDs, hex ids, ports).
- `technical_prose`: sentences from docstrings of the same files.
- `plant_pii`: a snippet with one planted value (an e-mail in a config, a key, a name in a
  string literal, a phone in a comment, a password in a .env line...).
"""

from __future__ import annotations

import random
import re
import sysconfig
import uuid
from dataclasses import dataclass
from pathlib import Path

_SUFFIXES = (".py", ".js", ".json", ".toml", ".cfg", ".ini", ".yaml", ".yml")
# Lines that may name a person or point at one: left out of the "nothing personal" texts.
_PERSONAL_LINE = re.compile(
    r"(?i)copyright|\(c\)|©|author|maintainer|credits?|thanks|contributor|written by|created by|@|https?://|www\.|"
    r"license|licence|\bby [A-Z]|signed-off|co-authored"
)


@dataclass(frozen=True)
class CodeText:
    text: str
    kind: str  # "code" | "log" | "config" | "prose"
    source: str  # package-relative path it came from


@dataclass(frozen=True)
class PlantedText:
    text: str
    value: str  # the planted personal value (must not survive sanitizing)
    kind: str  # what was planted


def _site_packages() -> Path:
    return Path(sysconfig.get_paths()["purelib"])


# Packages whose files are personal-data formats and examples (name lists, ID numbers,
# phone metadata, locale names of people and places): not "nothing personal".
_DATA_PACKAGES = frozenset({"faker", "stdnum", "phonenumbers", "babel", "pycountry", "presidio_analyzer",
                            "presidio_anonymizer", "spacy_lookups_data", "tzdata", "pytz", "dateutil"})


def source_files(limit: int = 4000, seed: int = 3) -> list[Path]:
    root = _site_packages()
    files = [
        p for p in root.rglob("*")
        if p.suffix in _SUFFIXES and p.is_file() and "test" not in p.name.lower()
        and p.relative_to(root).parts[0] not in _DATA_PACKAGES
    ]
    files.sort()
    random.Random(seed).shuffle(files)
    return files[:limit]


def _clean_lines(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return []
    if len(text) > 400_000:
        return []
    return [line for line in text.splitlines() if not _PERSONAL_LINE.search(line) and len(line) < 160]


def code_snippets(count: int = 400, seed: int = 5) -> list[CodeText]:
    rng = random.Random(seed)
    root = _site_packages()
    out: list[CodeText] = []
    quota = {"code": count - count // 4, "config": count // 4}  # a quarter configuration files
    for path in source_files(limit=20000):
        if len(out) >= count:
            break
        kind = "code" if path.suffix in (".py", ".js") else "config"
        if sum(1 for c in out if c.kind == kind) >= quota[kind]:
            continue
        lines = _clean_lines(path)
        if len(lines) < 8:
            continue
        size = rng.randint(6, 30)
        start = rng.randrange(0, max(1, len(lines) - size))
        snippet = "\n".join(lines[start : start + size]).strip("\n")
        if len(re.findall(r"\w+", snippet)) < 12:
            continue
        out.append(CodeText(snippet, kind, str(path.relative_to(root))))
    return out


_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
_EVENTS = (
    "started {mod} in {ms} ms", "cache miss for key {hex}", "request {uuid} finished with status {status}",
    "listening on 0.0.0.0:{port}", "retrying {mod}.{fn} (attempt {n}/5)", "loaded {n} entries from {path}",
    "connection pool size={n} timeout={ms}ms", "job {hex} queued", "{fn}() took {ms} ms", "worker-{n} exited with code {code}",
    "GET /api/v{n}/{fn}?page={n} {status} {ms}ms", "checksum {hex} ok", "flushed {n} bytes to {path}",
)


def log_lines(count: int = 150, seed: int = 6) -> list[CodeText]:
    """Log excerpts whose module and function names come from real source files."""
    rng = random.Random(seed)
    names: list[tuple[str, str, str]] = []
    root = _site_packages()
    for path in source_files(limit=600):
        if path.suffix != ".py":
            continue
        module = ".".join(path.relative_to(root).with_suffix("").parts)
        for fn in re.findall(r"^\s*def (\w+)", "\n".join(_clean_lines(path)), re.MULTILINE)[:5]:
            names.append((module, fn, str(path.relative_to(root))))
    out = []
    for _ in range(count):
        lines = []
        for _ in range(rng.randint(3, 8)):
            module, fn, path = rng.choice(names)
            stamp = f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d}Z"
            event = rng.choice(_EVENTS).format(
                mod=module, fn=fn, ms=rng.randint(1, 9000), hex=f"{rng.getrandbits(48):012x}",
                uuid=uuid.UUID(int=rng.getrandbits(128)), status=rng.choice((200, 201, 204, 304, 404, 500)),
                port=rng.choice((80, 443, 5432, 6379, 8000, 8080, 9200)), n=rng.randint(1, 64), path=path,
                code=rng.choice((0, 1, 137)),
            )
            lines.append(f"{stamp} {rng.choice(_LEVELS):<7} [{module}] {event}")
        out.append(CodeText("\n".join(lines), "log", "generated"))
    return out


def technical_prose(count: int = 120, seed: int = 7) -> list[CodeText]:
    """Paragraphs of docstrings: technical English about code."""
    rng = random.Random(seed)
    root = _site_packages()
    out = []
    for path in source_files(limit=3000, seed=8):
        if len(out) >= count or path.suffix != ".py":
            continue
        text = "\n".join(_clean_lines(path))
        for doc in re.findall(r'"""(.{120,800}?)"""', text, re.DOTALL)[:1]:
            paragraph = " ".join(doc.split())
            if len(re.findall(r"[A-Za-z]{3,}", paragraph)) >= 15 and ">>>" not in paragraph:
                out.append(CodeText(paragraph, "prose", str(path.relative_to(root))))
    rng.shuffle(out)
    return out


def nothing_personal(seed: int = 5) -> list[CodeText]:
    """At least 500 texts with nothing personal: code, configuration, logs, prose."""
    return code_snippets(300, seed) + log_lines(150, seed + 1) + technical_prose(120, seed + 2)


# -- planted personal data ------------------------------------------------------------
_FIRST = ("Maria", "Jonas", "Priya", "Kwame", "Elena", "Tomasz", "Aiko", "Rafael", "Ingrid", "Olu")
_LAST = ("Lindqvist", "Okafor", "Deshmukh", "Moreau", "Kowalczyk", "Tanaka", "Alvarez", "Brennan", "Haddad", "Novak")
_DOMAINS = ("gmail.com", "outlook.com", "example-corp.io", "acme-health.org", "web.de")


def _planted_value(rng: random.Random, kind: str) -> tuple[str, str]:
    """(line to insert, the personal value in it)."""
    first, last = rng.choice(_FIRST), rng.choice(_LAST)
    email = f"{first.lower()}.{last.lower()}{rng.randint(1, 99)}@{rng.choice(_DOMAINS)}"
    phone = f"+44 20 7946 {rng.randint(0, 999):04d}"
    password = rng.choice(("Tr0ub4dor&3", "hunter2-Blue", "Sp1ce!Road", "wintermute77", "N0t-So-Secret"))
    key = "sk-" + "".join(rng.choice("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(40))
    lines = {
        "email_config": (f'    "contact_email": "{email}",', email),
        "email_comment": (f"# questions: {email}", email),
        "name_literal": (f'    reviewer = "{first} {last}"', f"{first} {last}"),
        "name_comment": (f"# TODO({first} {last}): check the retry logic", f"{first} {last}"),
        "phone_comment": (f"# on-call phone: {phone}", phone),
        "env_password": (f"DB_PASSWORD={password}", password),
        "yaml_password": (f"  password: {password}", password),
        "api_key": (f'OPENAI_API_KEY = "{key}"', key),
        "url_credentials": (f'DATABASE_URL = "postgres://app:{password}@db.internal:5432/app"', password),
        "log_email": (f"2026-03-02T10:11:12Z INFO  [auth] login ok for {email}", email),
    }
    return lines[kind]


PLANT_KINDS = ("email_config", "email_comment", "name_literal", "name_comment", "phone_comment", "env_password",
               "yaml_password", "api_key", "url_credentials", "log_email")


def plant_pii(texts: list[CodeText], count: int = 200, seed: int = 9) -> list[PlantedText]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        base = texts[i % len(texts)]
        kind = PLANT_KINDS[i % len(PLANT_KINDS)]
        line, value = _planted_value(rng, kind)
        lines = base.text.split("\n")
        at = rng.randrange(0, len(lines) + 1)
        out.append(PlantedText("\n".join(lines[:at] + [line] + lines[at:]), value, kind))
    return out
