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


def test_the_stage_table_lists_build_pys_stages_then_pytests_folders_the_sum_and_the_wall() -> None:
    from tests.conftest import stage_rows

    lines = stage_rows(
        "set-up and site=3.5;lint (ruff, mypy)=40.0",
        {"tests/unit": 100.25, "tests/browser": 200.0},
        {"tests/unit": 2400, "tests/browser": 150},
        wall=260.5,
    )
    assert lines[0].split() == ["stage", "tests", "seconds"]
    assert [line.split()[-1] for line in lines[1:]] == [
        "3.5",
        "40.0",
        "200.0",
        "100.2",
        "343.8",
        "260.5",
    ]
    assert "2,400" in lines[4] and lines[4].startswith("pytest tests/unit")
    assert lines[-2].startswith("sum") and "2,550" in lines[-2]
    assert lines[-1].startswith("whole command (wall)")
    assert stage_rows("", {"tests/unit": 1.0}, {"tests/unit": 1})[-1].startswith("sum")
    busy = stage_rows("", {"tests/unit": 1.0}, {"tests/unit": 1}, wall=2.0, busy=3.25)
    assert busy[-1].split() == ["busy", "core-seconds", "3.2"]


def test_busy_core_seconds_read_the_whole_machine_and_only_grow() -> None:
    import build as project_build

    first = project_build.busy_core_seconds()
    if first is None:  # no /proc/stat: the table says nothing of it
        assert not Path("/proc/stat").exists()
        return
    sum(i * i for i in range(2_000_000))  # some work of this process's own
    second = project_build.busy_core_seconds()
    assert second is not None and second > first
