"""build.py's lint step (ruff check, ruff format --check, mypy --strict) covers the project's
Python: the package, the worker's Python, the tests, build.py and the benchmarks (issue 22)."""

from __future__ import annotations

import os
from pathlib import Path

from tests.helpers import ROOT, load_build

#: Folders that hold no source of ours (made by the build, pip, npm or the tools) and
#: tools/ (two one-off generators, run by hand: not linted yet).
NOT_SOURCE = {
    ".git",
    ".venv",
    "build",
    "dist",
    "site",
    "node_modules",
    "fuzz-failures",
    "test-artifacts",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "__pycache__",
    "tools",
}


def python_files() -> list[Path]:
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [
            d for d in subfolders if d not in NOT_SOURCE and not d.endswith(".egg-info")
        ]
        found += [Path(folder, f) for f in files if f.endswith(".py")]
    return found


def test_the_lint_step_covers_every_python_file_of_the_project() -> None:
    linted = [ROOT / p for p in load_build().LINTED]
    files = python_files()
    assert len(files) > 150  # the package, the tests and the benchmarks were found
    missed = [
        f.relative_to(ROOT) for f in files if not any(f == p or p in f.parents for p in linted)
    ]
    assert not missed, f"build.LINTED misses {missed}"
