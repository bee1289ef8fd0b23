"""The CPU each test file costs, child processes included; prints a table, asserts nothing.

Runs pytest (one process, no xdist) over the given paths with this module as a plugin. Each
test's cost is the CPU time of pytest's whole process tree over its set-up, call and tear-down:
pytest itself, plus every live descendant read from ``/proc`` (Playwright's driver, Chromium
and its renderers and workers, ``build.py serve``, Node, the CLI's subprocesses), plus what
finished children left in their parents' ``cutime``/``cstime``. A session fixture's set-up
(the site server, the browser) falls to the first test that asks for it; the session's
tear-down (closing them) is not counted. CPU of a process that ends unreaped within a test
is lost (never counted below 0). Wall time is not used: the machine is shared, and CPU
time is what a run costs its cores (but a browser's own idle work grows with the wall time
a loaded machine gives a test: compare runs made side by side, alternating).

Run: .venv/bin/python benchmarks/bench_tests.py [--tree DIR] [--out FILE.json] PATH ...
(``--tree``: run the tests of another checkout, e.g. main before a change, with this venv.)
The table: each file's CPU seconds, its tests and its wall seconds, the heaviest first, and
the total; ``--out`` keeps the figures as JSON (``--compare A.json B.json`` prints both).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")


def _children() -> dict[int, list[int]]:
    """Every live process's children, from ``/proc/*/stat`` (parent id: field 4)."""
    tree: dict[int, list[int]] = defaultdict(list)
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        tree[int(fields[1])].append(int(entry.name))
    return tree


def _ticks(pid: int) -> int:
    """A process's utime + stime + cutime + cstime, in clock ticks (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return sum(int(x) for x in fields[11:15])


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and every live descendant, with their reaped children's."""
    tree = _children()
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += _ticks(pid)
        todo.extend(tree.get(pid, ()))
    return total / TICK


_cpu: dict[str, float] = defaultdict(float)
_wall: dict[str, float] = defaultdict(float)
_count: dict[str, int] = defaultdict(int)


def _measured(item: pytest.Item) -> Generator[None, None, None]:
    name = item.nodeid.split("::")[0]
    cpu, wall = tree_cpu(os.getpid()), time.monotonic()
    yield
    # never below 0: a process that ends unreaped takes its whole CPU time out of the tree
    # (what it used was counted while it ran)
    _cpu[name] += max(0.0, tree_cpu(os.getpid()) - cpu)
    _wall[name] += time.monotonic() - wall


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    _count[item.nodeid.split("::")[0]] += 1
    yield from _measured(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    yield from _measured(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, None, None]:
    if nextitem is None:  # the session's end: its browsers and servers close, not counted
        yield
    else:
        yield from _measured(item)


def pytest_sessionfinish() -> None:
    out = os.environ.get("BENCH_TESTS_OUT")
    if out:
        files = {n: {"cpu": _cpu[n], "wall": _wall[n], "tests": _count[n]} for n in _cpu}
        Path(out).write_text(json.dumps(files, indent=1), encoding="utf-8")


def table(files: dict[str, dict[str, float]]) -> list[str]:
    rows = sorted(files.items(), key=lambda kv: -kv[1]["cpu"])
    width = max([len(n) for n in files] + [5])
    lines = [f"{'file':<{width}}  {'CPU s':>8}  {'tests':>5}  {'wall s':>8}"]
    for name, f in rows:
        lines.append(f"{name:<{width}}  {f['cpu']:>8.1f}  {f['tests']:>5.0f}  {f['wall']:>8.1f}")
    cpu, wall = sum(f["cpu"] for f in files.values()), sum(f["wall"] for f in files.values())
    tests = sum(f["tests"] for f in files.values())
    lines.append(f"{'total':<{width}}  {cpu:>8.1f}  {tests:>5.0f}  {wall:>8.1f}")
    return lines


def compare(a: dict[str, dict[str, float]], b: dict[str, dict[str, float]]) -> list[str]:
    names = sorted(set(a) | set(b), key=lambda n: -a.get(n, b.get(n, {"cpu": 0.0}))["cpu"])
    width = max([len(n) for n in names] + [5])
    lines = [f"{'file':<{width}}  {'A CPU s':>8}  {'B CPU s':>8}  {'B/A':>5}"]
    for n in names + ["total"]:
        if n == "total":
            ca, cb = sum(f["cpu"] for f in a.values()), sum(f["cpu"] for f in b.values())
        else:
            ca, cb = a.get(n, {"cpu": 0.0})["cpu"], b.get(n, {"cpu": 0.0})["cpu"]
        ratio = f"{cb / ca:>5.2f}" if ca else "    -"
        lines.append(f"{n:<{width}}  {ca:>8.1f}  {cb:>8.1f}  {ratio}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose tests run")
    parser.add_argument("--out", type=Path, help="keep the figures as JSON")
    parser.add_argument("--compare", nargs=2, type=Path, metavar="JSON")
    args, rest = parser.parse_known_args()
    if args.compare:
        a, b = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        print("\n".join(compare(a, b)))
        return 0
    out = args.out or Path(f"/tmp/bench_tests_{os.getpid()}.json")
    env = {**os.environ, "BENCH_TESTS_OUT": str(out.resolve())}
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parent), str(args.tree)])
    cmd = [sys.executable, "-m", "pytest", "-p", "bench_tests", "-q", "-p", "no:cacheprovider"]
    proc = subprocess.run([*cmd, *rest, *args.paths], cwd=args.tree, env=env, check=False)
    print("\n".join(table(json.loads(out.read_text(encoding="utf-8")))))
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
