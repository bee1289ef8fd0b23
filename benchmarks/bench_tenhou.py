"""Benchmark the Tenhou core against C; prints figures, asserts nothing about time.

1. Wall generation: ``pywall.checks.tenhou.walls`` (a new seed each game, 15 rounds a
   game) against a native C build of the same walls (benchmarks/c/tenhou_walls.c: gcc +
   OpenSSL SHA-512, if gcc and the OpenSSL headers are present), and with ``--against
   DIR`` another checkout's walls too. Each run is a fresh process per side over the same
   seeds, the sides in turn (the machine is shared and noisy: compare within one run);
   each side times its walls in wall-clock and in CPU seconds (the process's own, which
   other work on the machine adds little to; Python after a warm-up over the first 100
   games, as a long run goes), and every run's walls are checked against
   C's (a checksum of the same walls). Printed: each side's median and the median of the
   pair ratios. Then a straightforward pure-Python port (one run).
2. ``pywall verify --jobs 2`` on a phoenix-logs database of simulated games
   (benchmarks/sim_logs.py, build/bench/), this tree and ``--against`` in turn: games/s
   over C's one-core wall rate for games of as many rounds (C's walls/s from the same
   run, divided by the database's rounds a game). ``--verify-games 0`` skips it.
3. The floor: what the steps no Tenhou wall can skip cost in this Python, timed alone in
   this process (CPU, median of five): 288 words from CPython's MT19937 (``getrandbits``,
   C code), the nine SHA-512 calls, the shuffle as pywall does it (straight-line code), and
   the bare arithmetic of any shuffle (135 modulos through ``map``, no swap); their sum over
   C's CPU per wall is the least ratio this design can reach.
4. Parse + verify of a 17-round game (gimite/test.mjlog): median milliseconds.

Run: .venv/bin/python benchmarks/bench_tenhou.py [--games N] [--runs R] [--against DIR]
     [--verify-games N]   (DIR: e.g. ``git worktree add /tmp/main main``)
"""

from __future__ import annotations

import argparse
import hashlib
import operator
import os
import random
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import sim_logs
from pywall.checks import tenhou
from pywall.checks.mt19937 import MT19937
from pywall.results.check import check_log

ROUNDS = 15
GAMES = "<games>"  # in a command: the number of seeds given on stdin
#: One side's run of the walls: the seeds on stdin, the rounds in argv; prints what C prints.
CHILD = """
import base64, sys, time
from pywall.checks import tenhou
raw, rounds = sys.stdin.buffer.read(), int(sys.argv[1])
texts = [base64.b64encode(raw[i : i + 2496]).decode() for i in range(0, len(raw), 2496)]
for s in texts[:100]:  # warm-up, not timed: a long run's steady state is what counts
    tenhou.walls(s, rounds)
t, c = time.perf_counter(), time.process_time()
for s in texts:
    tenhou.walls(s, rounds)
c, t = time.process_time() - c, time.perf_counter() - t
check = sum(
    w.tiles[0] + w.tiles[135] * 7 + w.dice[0] + w.dice[1] - 2
    for s in texts for w in tenhou.walls(s, rounds)
)
print(check, t, c)
"""


@dataclass(frozen=True)
class Side:
    """One side of the comparison: a command that prints ``checksum wall cpu``."""

    name: str
    command: list[str]
    env: dict[str, str]


@dataclass(frozen=True)
class Timing:
    check: int
    wall: float
    cpu: float


def python_side(name: str, tree: Path) -> Side:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return Side(name, [sys.executable, "-c", CHILD, str(ROUNDS)], env)


def c_side(tmp: Path) -> Side | None:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None or not Path("/usr/include/openssl/sha.h").exists():
        return None
    exe = tmp / "walls"
    source = ROOT / "benchmarks/c/tenhou_walls.c"
    subprocess.run([cc, "-O2", "-o", str(exe), str(source), "-lcrypto"], check=True)
    return Side("native C + OpenSSL", [str(exe), GAMES, str(ROUNDS)], dict(os.environ))


def timed(side: Side, seeds: bytes) -> Timing:
    games = str(len(seeds) // tenhou.SEED_BYTES)
    command = [games if a == GAMES else a for a in side.command]
    out = subprocess.run(command, input=seeds, capture_output=True, check=True, env=side.env)
    check, wall, cpu = out.stdout.split()
    return Timing(int(check), float(wall), float(cpu))


def alternate(sides: list[Side], seeds: bytes, runs: int) -> dict[str, list[Timing]]:
    """Each run: every side once, the order turned by one each run."""
    times: dict[str, list[Timing]] = {s.name: [] for s in sides}
    for r in range(runs):
        for side in sides[r % len(sides) :] + sides[: r % len(sides)]:
            times[side.name].append(timed(side, seeds))
    return times


def naive_walls(raw: list[bytes]) -> float:
    """A straightforward port: pure-Python MT19937, hashlib, the same shuffle."""
    t = time.perf_counter()
    for r in raw:
        g = MT19937(struct.unpack("<624I", r))
        for _ in range(ROUNDS):
            src = struct.pack("<288I", *(g.genrand_int32() for _ in range(288)))
            rnd = struct.unpack(
                "<144I",
                b"".join(hashlib.sha512(src[i : i + 128]).digest() for i in range(0, 1152, 128)),
            )
            tenhou.wall_from_rnd(rnd)
    return time.perf_counter() - t


def medians_of_pairs(a: list[Timing], b: list[Timing]) -> str:
    """The medians of the run-by-run ratios a / b, wall clock and CPU."""
    by_wall = statistics.median(x.wall / y.wall for x, y in zip(a, b, strict=True))
    by_cpu = statistics.median(x.cpu / y.cpu for x, y in zip(a, b, strict=True))
    return f"{by_wall:.2f} (wall clock), {by_cpu:.2f} (CPU)"


def report_walls(times: dict[str, list[Timing]], walls: int, reference: str | None) -> None:
    checks = {t.check for side in times.values() for t in side}
    same = "the same walls on every side" if len(checks) == 1 else "WALLS DIFFER"
    runs = len(next(iter(times.values())))
    print(f"Wall generation, {walls:,} walls a run, {runs} runs ({same})")
    for name, side in times.items():
        wall = statistics.median(t.wall for t in side) * 1e6 / walls
        cpu = statistics.median(t.cpu for t in side) * 1e6 / walls
        line = f"  {name:26s} {wall:7.2f} us/wall (wall clock)  {cpu:7.2f} us/wall (CPU)"
        if reference is not None and name != reference:
            line += f"  / C: {medians_of_pairs(side, times[reference])}"
        print(line)
    ours, theirs = (times.get(f"pywall ({name})") for name in ("this tree", "--against"))
    if ours and theirs:
        print(f"  this tree / --against: {medians_of_pairs(ours, theirs)}")


def verify_rate(tree: Path, db: Path, games: int) -> float:
    cmd = [sys.executable, "-m", "pywall", "verify", "--jobs", "2", "--no-progress"]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    done = subprocess.run(
        [*cmd, "--failures-only", str(db)], cwd=tree, env=env, capture_output=True, check=False
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:  # simulated games all verify: anything else is not a rate
        raise SystemExit(f"verify in {tree} exited {done.returncode}: {done.stderr[-300:]!r}")
    return games / seconds


def report_verify(trees: dict[str, Path], games: int, runs: int, c_walls_per_s: float) -> None:
    db = ROOT / "build" / "bench" / f"simulated-{games}.db"
    sim_logs.build(db, games)
    c_games = c_walls_per_s / sim_logs.ROUNDS
    rates: dict[str, list[float]] = {name: [] for name in trees}
    names = list(trees)
    for r in range(runs):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            rates[name].append(verify_rate(trees[name], db, games))
    print(
        f"pywall verify --jobs 2, {games:,} simulated games of {sim_logs.ROUNDS} rounds, "
        f"{runs} runs; C's one-core wall rate {c_walls_per_s:,.0f} walls/s = {c_games:,.0f} "
        "such games/s (wall clock, this run)"
    )
    for name, got in rates.items():
        rate = statistics.median(got)
        print(
            f"  {name:26s} {rate:7,.0f} games/s  = {rate / c_games:.3f} of C's one-core wall rate"
        )


def cpu_per_call(step: Callable[[], object], calls: int = 5000) -> float:
    """Microseconds of this process's CPU a call: the median of five rounds of ``calls``."""
    rounds = []
    for _ in range(5):
        start = time.process_time()
        for _ in range(calls):
            step()
        rounds.append((time.process_time() - start) / calls * 1e6)
    return statistics.median(rounds)


def report_floor(c_cpu: float | None) -> None:
    """The steps every wall needs, each timed alone, and their sum over C's CPU a wall."""
    mt = random.Random(2009)
    src = tenhou.src_from_mt(mt)
    digests = tenhou.digests_from_src(src)
    words = struct.unpack("<144I", digests)
    moduli = range(136, 1, -1)
    steps = {
        "288 words (MT19937 in C)": lambda: tenhou.src_from_mt(mt),
        "9 SHA-512 (hashlib)": lambda: tenhou.digests_from_src(src),
        "the shuffle (pywall's)": lambda: tenhou.wall_from_rnd(words),
        "135 modulos alone (map)": lambda: list(map(operator.mod, words, moduli)),
    }
    cost = {name: cpu_per_call(step) for name, step in steps.items()}
    print("The floor: each step alone, this process's CPU (us a wall)")
    for name, us in cost.items():
        share = f"  = {us / c_cpu:.2f} of C's wall" if c_cpu else ""
        print(f"  {name:26s} {us:7.2f}{share}")
    if c_cpu:
        needed = cost["288 words (MT19937 in C)"] + cost["9 SHA-512 (hashlib)"]
        with_ours = needed + cost["the shuffle (pywall's)"]
        bare = needed + cost["135 modulos alone (map)"]
        print(
            f"  words + hashes + pywall's shuffle: {with_ours / c_cpu:.2f} x C; "
            f"words + hashes + bare modulos (no swap, no wall): {bare / c_cpu:.2f} x C"
        )


def gimite() -> None:
    log = ROOT / "tests/data/tenhou/gimite/test.mjlog"
    data = log.read_bytes()
    times = []
    for _ in range(50):
        t = time.perf_counter()
        report = check_log(log.name, data)
        times.append(time.perf_counter() - t)
    assert report.status == "verified"
    print(
        f"Parse + verify, {log.name} ({len(report.rounds)} rounds, {report.checked} tiles): "
        f"median {statistics.median(times) * 1e3:.2f} ms over {len(times)} runs"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000, help="games of 15 rounds a run")
    ap.add_argument("--runs", type=int, default=5, help="alternating runs (default 5)")
    ap.add_argument("--against", type=Path, help="another checkout, timed in the same runs")
    ap.add_argument("--verify-games", type=int, default=1000, help="0: no verify rate")
    args = ap.parse_args()
    seeds = os.urandom(tenhou.SEED_BYTES * args.games)
    trees = {"this tree": ROOT, **({"--against": args.against} if args.against else {})}
    sides = [python_side(f"pywall ({name})", tree) for name, tree in trees.items()]
    with tempfile.TemporaryDirectory() as tmp:
        native = c_side(Path(tmp))
        times = alternate(sides + ([native] if native else []), seeds, args.runs)
    walls = args.games * ROUNDS
    print(f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}")
    report_walls(times, walls, native.name if native else None)
    if native is None:
        print(
            "  native C: not built (needs gcc and OpenSSL headers: apt-get install gcc libssl-dev)"
        )
    raw = [seeds[i : i + tenhou.SEED_BYTES] for i in range(0, len(seeds), tenhou.SEED_BYTES)]
    naive_raw = raw[: max(1, args.games // 20)]
    naive = naive_walls(naive_raw) * 1e6 / (len(naive_raw) * ROUNDS)
    print(f"  {'pure-Python port':26s} {naive:7.2f} us/wall (wall clock, one run)")
    if native is not None and args.verify_games:
        c_rate = walls / statistics.median(t.wall for t in times[native.name])
        report_verify(trees, args.verify_games, args.runs, c_rate)
    c_cpu = statistics.median(t.cpu for t in times[native.name]) * 1e6 / walls if native else None
    report_floor(c_cpu)
    gimite()


if __name__ == "__main__":
    main()
