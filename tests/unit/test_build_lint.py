"""build.py's lint step (ruff check, ruff format --check, mypy --strict) covers the project's
Python: the package, the worker's Python, the tests, build.py and the benchmarks (issue 22)."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

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


def test_the_stage_table_gives_each_stages_core_seconds_and_their_sum() -> None:
    """build.py's stages with the machine's busy CPU over each (``name=seconds/cores``),
    pytest's folders with their processes' CPU: a column of core-seconds, and their sum."""
    import build as project_build
    from tests.conftest import stage_rows

    env = ";".join(
        [
            project_build.stage_figures("set-up and site", 3.5, 6.25),
            project_build.stage_figures("lint (ruff, mypy)", 40.0, None),
        ]
    )
    assert env == "set-up and site=3.5/6.2;lint (ruff, mypy)=40.0"
    lines = stage_rows(
        env,
        {"tests/unit": 100.25, "tests/browser": 200.0},
        {"tests/unit": 2400, "tests/browser": 150},
        wall=260.5,
        busy=700.0,
        cpu={"tests/unit": 90.5, "tests/browser": 310.0},
    )
    assert lines[0].split() == ["stage", "tests", "seconds", "core-s"]
    assert lines[1].split()[-2:] == ["3.5", "6.2"]
    assert lines[2].split()[-1] == "40.0"  # no core-seconds known: the column left blank
    assert lines[3].split()[-3:] == ["150", "200.0", "310.0"]
    assert lines[4].split()[-3:] == ["2,400", "100.2", "90.5"]
    assert lines[5].split() == ["sum", "2,550", "343.8", "406.7"]
    assert lines[-1].split() == ["busy", "core-seconds", "700.0"]


def test_a_test_file_gives_its_folder_the_cpu_of_its_process_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tear-down of a file's last test in a process carries the CPU its pytest process
    tree used since the last file's end (what reaches the table from pytest-xdist's
    processes too); the table's folder adds it up."""
    from tests import conftest

    monkeypatch.setattr(conftest, "_tree_cpu_at", [])
    monkeypatch.setattr(conftest, "_folder_cpu", defaultdict(float))
    conftest.pytest_sessionstart()
    first, last = (
        SimpleNamespace(nodeid=f"tests/x/test_a.py::t{i}", user_properties=[]) for i in (1, 2)
    )
    other = SimpleNamespace(nodeid="tests/x/test_b.py::t", user_properties=[])

    def torn_down(item: Any, nextitem: Any) -> list[tuple[str, object]]:
        steps = conftest.pytest_runtest_teardown(item, nextitem)
        next(steps)
        with pytest.raises(StopIteration):
            next(steps)
        return list(item.user_properties)

    assert torn_down(first, last) == []  # the file goes on: /proc is not read
    sum(i * i for i in range(2_000_000))  # CPU the file's tests used
    (name, figure), *rest = torn_down(last, other)
    assert name == "tree_cpu" and isinstance(figure, float) and figure > 0.05 and not rest
    report = SimpleNamespace(
        nodeid=last.nodeid, when="teardown", duration=0.0, user_properties=[(name, figure)]
    )
    conftest.pytest_runtest_logreport(report)  # type: ignore[arg-type]
    assert conftest._folder_cpu["tests/x"] == figure


def test_busy_core_seconds_read_the_whole_machine_and_only_grow() -> None:
    import build as project_build

    first = project_build.busy_core_seconds()
    if first is None:  # no /proc/stat: the table says nothing of it
        assert not Path("/proc/stat").exists()
        return
    sum(i * i for i in range(2_000_000))  # some work of this process's own
    second = project_build.busy_core_seconds()
    assert second is not None and second > first
