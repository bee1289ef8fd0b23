"""The core does no I/O: only the drivers (cli) may open files, print or exit."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pywall

PACKAGE = Path(pywall.__file__).parent
DRIVERS = {"cli", "inputs"}
FORBIDDEN_MODULES = {"os", "sys", "subprocess", "socket", "pathlib", "shutil", "tempfile", "sqlite3"}
FORBIDDEN_CALLS = {"print", "open", "input", "exit", "quit"}


def core_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if p.relative_to(PACKAGE).parts[0] not in DRIVERS and p.name != "__main__.py")


@pytest.mark.parametrize("path", core_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_module_does_no_io(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names = {(node.module or "").split(".")[0]}
        else:
            names = set()
        assert not names & FORBIDDEN_MODULES, f"{path.name}:{node.lineno} imports {names & FORBIDDEN_MODULES}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {node.func.id}()"


def test_core_never_imports_the_drivers() -> None:
    for path in core_modules():
        text = path.read_text(encoding="utf-8")
        assert "pywall.cli" not in text, path
