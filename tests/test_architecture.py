"""The house rules of docs/architecture.md, read from the source: agent/ never imports Qt,
desktop/ or models/ (the local models reach the engine through the veil.local_models entry
point), and no module takes another module's private names (a leading underscore means
"this file only")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("agent", "models", "desktop")


def _imports(package: str):
    """(file, line, imported module, names) for every import in a package's files."""
    for path in sorted((REPO / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                yield path.relative_to(REPO), node.lineno, node.module, [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    yield path.relative_to(REPO), node.lineno, alias.name, []


def test_the_engine_imports_no_qt_no_desktop_and_no_local_models():
    found = [
        f"{path}:{line} imports {module}"
        for path, line, module, _ in _imports("agent")
        if module.split(".")[0] in ("PySide6", "PyQt5", "PyQt6", "desktop", "models")
    ]
    assert found == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_takes_private_names_of_another(package):
    found = [
        f"{path}:{line} takes {name} from {module}"
        for path, line, module, names in _imports(package)
        if module.split(".")[0] in PACKAGES
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert found == []
