"""Settings for every test, and the table of each stage's time."""

import os
import signal
import time
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

# No per-example deadline: on a shared or loaded machine a slow example is not a
# failure (what a property asserts never depends on time; benchmarks measure time).
settings.register_profile("pywall", deadline=None)
settings.load_profile("pywall")


def _sigint_state() -> tuple[object, bool]:
    """SIGINT's handler in this process, and whether it is blocked."""
    blocked = (
        signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
        if hasattr(signal, "pthread_sigmask")
        else False
    )
    return signal.getsignal(signal.SIGINT), blocked


@pytest.fixture(autouse=True)
def _sigint_left_as_found() -> Iterator[None]:
    """Every test leaves SIGINT as it found it: a handler left behind (SIG_IGN) or a block
    left on is inherited by the next tests' children (the Ctrl-C fetch test's run)."""
    before = _sigint_state()
    yield
    after = _sigint_state()
    assert after == before, f"the test left SIGINT's handling changed: {before} -> {after}"


# --- the stage table: what each part of the test command took ---------------------------
# build.py test passes the times of the stages before pytest (set-up, lint, node units) in
# PYWALL_STAGE_TIMES ("name=seconds/core-seconds;..."); pytest adds each test folder's time
# (set-up, call and tear-down of its tests, summed) and its CPU (``_folder_cpu``) and prints
# the table before its closing line.

_folder_seconds: dict[str, float] = defaultdict(float)
_folder_tests: dict[str, int] = defaultdict(int)
_folder_cpu: dict[str, float] = defaultdict(float)
_started = time.monotonic()
#: this pytest process's tree's CPU seconds when its last test file began (a one-item list:
#: read again at each file's end, the difference is that file's)
_tree_cpu_at: list[float] = []


#: The test command's two processes (pytest-xdist, ``--dist loadscope
#: --no-loadscope-reorder``) take whole test files, one file at a time, each to whichever
#: process is nearly done with its last, in the order below: the Chromium folder first,
#: then Firefox/WebKit and Pyodide in Node (long files, started while much is left to
#: share), then the unit tests (the long files first, then many short ones, which even out
#: the two processes' ends). A file's tests run in one process, so its module-scoped
#: fixtures (a loaded page, a Dask cluster, a simulation) are made once, not in each.
_ORDER = ("tests/browser", "tests/engines", "tests/node")
#: The unit files that take longest (tens of seconds to minutes: Dask, archives, fetches
#: paced one a second, fuzzing, calibration), first among the unit files, so that neither
#: process is left running one of them alone at the end.
_LONG_UNIT_FILES = (
    "test_scale.py",
    "test_api_archives.py",
    "test_cli_archive.py",
    "test_cli_hostile.py",
    "test_fetch.py",
    "test_audit_order.py",
    "test_fuzz.py",
    "test_audit_calibration.py",
)


def _order(item: pytest.Item) -> tuple[int, int]:
    folder = _folder(item.nodeid)
    if folder in _ORDER:
        return _ORDER.index(folder), 0
    name = item.nodeid.split("::")[0].rsplit("/", 1)[-1]
    long = _LONG_UNIT_FILES.index(name) if name in _LONG_UNIT_FILES else len(_LONG_UNIT_FILES)
    return len(_ORDER), long


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_order)  # stable: each folder keeps its own order


def _folder(nodeid: str) -> str:
    parts = nodeid.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def pytest_sessionstart() -> None:
    from benchmarks.bench_tests import tree_cpu

    _tree_cpu_at[:] = [tree_cpu(os.getpid())]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """At a test file's last test in this process, the CPU its process tree (pytest, its
    browsers, servers, Node and CLI children) used since the file's first: given to the
    tear-down's report, which reaches the table in pytest-xdist's main process too. Read at
    file ends only (a read walks ``/proc``: a millisecond or two)."""
    yield
    file = item.nodeid.split("::")[0]
    if nextitem is not None and nextitem.nodeid.split("::")[0] == file:
        return
    from benchmarks.bench_tests import tree_cpu

    now = tree_cpu(os.getpid())
    if _tree_cpu_at:
        item.user_properties.append(("tree_cpu", max(0.0, now - _tree_cpu_at[0])))
    _tree_cpu_at[:] = [now]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    folder = _folder(report.nodeid)
    _folder_seconds[folder] += report.duration
    if report.when == "call":
        _folder_tests[folder] += 1
    for name, value in report.user_properties:
        if name == "tree_cpu" and report.when == "teardown" and isinstance(value, float):
            _folder_cpu[folder] += value


def stage_rows(
    env: str,
    folders: dict[str, float],
    tests: dict[str, int],
    wall: float | None = None,
    busy: float | None = None,
    cpu: dict[str, float] | None = None,
) -> list[str]:
    """The table's lines: the stages build.py timed, then pytest's folders (each the time of
    its tests, one after another), their sum, the whole command's wall time (``wall``):
    less than the sum, as the folders run side by side in pytest's two processes; and the
    machine's busy CPU over the whole command (``busy``, core-seconds: what the run cost the
    cores, and anything else running then). Where build.py gave a stage's core-seconds
    (``name=seconds/core-seconds``: the whole machine's busy CPU over it) or ``cpu`` a
    folder's (the CPU of the pytest processes' trees over its files), a column shows them."""
    rows: list[tuple[str, str, float, float | None]] = []
    for item in filter(None, env.split(";")):
        name, _, figures = item.rpartition("=")
        seconds, _, cores = figures.partition("/")
        rows.append((name, "", float(seconds), float(cores) if cores else None))
    cpu = cpu or {}
    rows += [(f"pytest {f}", f"{tests[f]:,}", s, cpu.get(f)) for f, s in sorted(folders.items())]
    shown = any(c is not None for *_, c in rows)
    width = max([len(name) for name, *_ in rows] + [len("whole command (wall)")])

    def line(name: str, count: str, seconds: float, cores: float | None) -> str:
        text = f"{name:<{width}}  {count:>6}  {seconds:>8.1f}"
        figure = "" if cores is None else f"{cores:.1f}"
        return f"{text}  {figure:>8}" if shown else text

    lines = [
        f"{'stage':<{width}}  {'tests':>6}  {'seconds':>8}" + (f"  {'core-s':>8}" if shown else "")
    ]
    lines += [line(name, count, s, c) for name, count, s, c in rows]
    known = [c for *_, c in rows if c is not None]
    total = f"{sum(tests.values()):,}"
    lines.append(line("sum", total, sum(s for _, _, s, _ in rows), sum(known) if known else None))
    if wall is not None:
        lines.append(f"{'whole command (wall)':<{width}}  {'':>6}  {wall:>8.1f}")
    if busy is not None:
        lines.append(f"{'busy core-seconds':<{width}}  {'':>6}  {busy:>8.1f}")
    return lines


def pytest_terminal_summary(terminalreporter: Any) -> None:
    env = os.environ.get("PYWALL_STAGE_TIMES")
    if env is None:  # only the test command's whole run prints the table
        return
    started = os.environ.get("PYWALL_TEST_STARTED")
    wall = time.time() - float(started) if started else None
    busy_started = os.environ.get("PYWALL_BUSY_STARTED")
    if busy_started:
        import build as project_build  # the project's build.py (its root is on the path)

        busy_now = project_build.busy_core_seconds()
    else:
        busy_now = None
    busy = busy_now - float(busy_started) if busy_now is not None and busy_started else None
    terminalreporter.section("time of each stage")
    for line in stage_rows(env, _folder_seconds, _folder_tests, wall, busy, _folder_cpu):
        terminalreporter.write_line(line)
    own = time.monotonic() - _started
    terminalreporter.write_line(f"(pytest's own wall time: {own:,.1f} s)")
