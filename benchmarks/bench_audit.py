"""Benchmark ``pywall audit`` on a phoenix-logs database, against ``pywall verify`` in the
same run; prints figures, asserts nothing.

The database (N games, default 4,000; build/bench/, reused when it exists) holds by
default distinct games (sim_logs.py: each from its own seed, played by the test
simulator's bots on the walls pywall rebuilds, so every hand differs, as in a real
archive); ``--copies`` uses bench_archive.py's copies of the Tenhou fixture logs instead
(about 50 games repeated: the audit counts 50 and excludes the rest as repeats, with the
shanten caches warmer than distinct games leave them). Each setting is timed R times
(default 3), alternating audit and verify so that both see the same machine load, each a
CLI subprocess with ``--jobs J`` (default 2). Prints each median in games per second and
the audit's time over verify's (the cost of the starting-hand, draw and wall tests on top
of checking every tile), and the same in CPU: the CPU of the whole process tree of each
(the workers too), the figure issue 45 bounds at 2.5 on distinct games.

``--baseline DIR`` times another checkout's audit and verify too (its pywall imported
from DIR: ``PYTHONPATH``, run from DIR), in the same alternation, pair by pair (this audit,
DIR's audit, this verify, DIR's verify), and prints both ratios and this audit's CPU over
DIR's verify's.

``--profile`` runs nothing: it times, in this process, each part of the audit's job and
of the verify's on the database's games, and the parts no redesign of the draw walk can
cut (``effective_of`` alone on the walk's hands, a stripped walk over the events): the
floor of the audit's CPU over the verify's in a pure-Python core.

Run: python3 benchmarks/bench_audit.py [--games N] [--jobs J] [--runs R] [--copies] [--baseline DIR] [--profile]
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import pickle
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import bench_archive, sim_logs
from pywall.core.model import Discard, Draw, Game


def timed(args: list[str], root: Path = ROOT) -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds of the whole process tree: the workers too) of
    ``pywall ARGS`` as the checkout ``root`` has it."""
    env = dict(os.environ)
    if root != ROOT:  # its pywall first: run from it (``-m`` puts the cwd first), and its workers
        env["PYTHONPATH"] = str(root)
        # its compiled modules kept here (it may be read-only), so its runs do not compile
        env["PYTHONPYCACHEPREFIX"] = str(ROOT / "build" / "bench" / "pycache")
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pywall", *args],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    sample = bench_archive.watch(proc)
    return time.perf_counter() - start, sum(sample.cpu_ticks.values()) / bench_archive.TICK


def report(
    name: str, games: int, audit: list[tuple[float, float]], verify: list[tuple[float, float]]
) -> float:
    """Print one checkout's audit and verify medians and their ratios; return the verify's
    median CPU."""
    a, v = statistics.median(t for t, _ in audit), statistics.median(t for t, _ in verify)
    ac, vc = statistics.median(c for _, c in audit), statistics.median(c for _, c in verify)
    print(
        f"{name} audit: {games / a:,.0f} games/s (median of {len(audit)}: {a:.2f} s; runs "
        f"{', '.join(f'{t:.2f}' for t, _ in audit)}); {ac / games * 1e3:.2f} ms of CPU a game"
    )
    print(
        f"{name} verify --failures-only: {games / v:,.0f} games/s (median {v:.2f} s); "
        f"{vc / games * 1e3:.2f} ms of CPU a game"
    )
    ratios = sorted(x[1] / y[1] for x, y in zip(audit, verify))
    print(
        f"{name} audit / verify: {a / v:.2f} in time, {ac / vc:.2f} in CPU "
        f"(pair by pair: {', '.join(f'{r:.2f}' for r in ratios)})"
    )
    return vc


def _cpu_per_game(job: Callable[[Any], object], inputs: list[Any], runs: int = 3) -> float:
    """The least CPU of ``runs`` passes of ``job`` over ``inputs``, in ms a game."""
    best = math.inf
    for _ in range(runs):
        start = time.process_time()
        for x in inputs:
            job(x)
        best = min(best, time.process_time() - start)
    return best / len(inputs) * 1e3


def _stripped_walk(game: Game) -> None:
    """The least a walk over every event does in Python: each event's type told apart and
    its seat's counts moved (no hand's shanten, no sums): the loop's floor."""
    for rnd in game.rounds:
        hands = [[0] * 34 for _ in rnd.hands]
        for ev in rnd.events:
            if type(ev) is Draw:
                hands[ev.seat][ev.tile // 4] += 1
            elif type(ev) is Discard:
                hands[ev.seat][ev.tile // 4] -= 1


def profile(db: Path, games: int) -> None:
    """Where a game's CPU goes in the audit's worker, in process (no pool, no parent):
    each part timed alone over the second half of ``games`` games, the caches warmed on the
    first half, the least of 3 passes (so every cache already holds those games' hands, as
    in no real run: each figure is at the low end of what a new game costs); then the parts
    no redesign of the walk can cut (``effective_of`` alone on the walk's hands, a stripped
    walk) as the audit's floor over the verify."""
    from pywall.analysis import draw_walk, efficiency
    from pywall.analysis.draws import game_draws
    from pywall.analysis.walls import game_walls
    from pywall.audits.copies import copy_key
    from pywall.checks.verify import red_fives, verify_game
    from pywall.core.archives import unpack
    from pywall.formats import parse_record
    from pywall.inputs import iter_packed_inputs
    from pywall.results.check import starting_hands
    from pywall.run.items import record_for, report_for

    items = list(itertools.islice(iter_packed_inputs([str(db)], []), games))
    warm, timed_items = items[: games // 2], items[games // 2 :]
    for item in warm:
        record_for(item)
    data = [(name, unpack(content)) for name, content in timed_items]
    parsed = [parse_record(content, name) for name, content in data]  # type: ignore[arg-type]
    calls: list[tuple[int, int, int, int]] = []
    asked = efficiency.effective_of

    def recorded(*ids: int) -> tuple[int, int] | None:
        calls.append(ids)  # type: ignore[arg-type]
        return asked(*ids)

    vars(draw_walk)["effective_of"] = recorded  # the walk reads it as a global
    for game in parsed:
        game_draws(game)
    vars(draw_walk)["effective_of"] = asked
    results = [(g, verify_game(g)) for g in parsed]
    n = len(parsed)
    rounds = [(r, g.player_count) for g in parsed for r in g.rounds]
    parts = {
        "verify's job (report_for + pickle)": _cpu_per_game(
            lambda i: pickle.dumps(report_for(i), 5), timed_items
        ),
        "audit's job (record_for + pickle)": _cpu_per_game(
            lambda i: pickle.dumps(record_for(i), 5), timed_items
        ),
        "  parse": _cpu_per_game(lambda d: parse_record(d[1], d[0]), data),
        "  verify": _cpu_per_game(verify_game, parsed),
        "  draw walk": _cpu_per_game(game_draws, parsed),
        "    effective_of alone": _cpu_per_game(lambda c: asked(*c), calls) * len(calls) / n,
        "    a stripped walk (the loop's floor)": _cpu_per_game(_stripped_walk, parsed),
        "  copy key": _cpu_per_game(copy_key, parsed),
        "  starting hands": _cpu_per_game(lambda r: starting_hands(*r), rounds) * len(rounds) / n,
        "  walls": _cpu_per_game(
            lambda gr: game_walls(
                [(r.layout.scheme, r.wall) for r in gr[1].rounds], red_fives(gr[0])
            ),
            results,
        ),
    }
    draws = sum(isinstance(e, Draw) for g in parsed for r in g.rounds for e in r.events)
    print(
        f"in process, {n:,} games ({db.name}; caches warmed on {len(warm):,} more), ms of CPU a game:"
    )
    for name, ms in parts.items():
        print(f"  {name:40s} {ms:6.3f}")
    print(f"  draws a game {draws / n:.0f}; effective_of asked {len(calls) / n:.0f} times a game")
    verify = parts["verify's job (report_for + pickle)"]
    audit = parts["audit's job (record_for + pickle)"]
    walk = parts["  draw walk"]
    floor = (
        audit
        - walk
        + parts["    effective_of alone"]
        + parts["    a stripped walk (the loop's floor)"]
    )
    print(
        f"audit / verify in the worker: {audit / verify:.2f}; with the walk cut to its floor "
        f"(effective_of alone + the stripped loop): {floor / verify:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--copies", action="store_true", help="copies of the fixture logs")
    parser.add_argument("--baseline", type=Path, help="another checkout, timed in turn")
    parser.add_argument(
        "--profile", action="store_true", help="where a game's CPU goes, in process (no runs)"
    )
    args = parser.parse_args()
    if args.copies:
        db = ROOT / "build" / "bench" / f"phoenix-{args.games}.db"
        bench_archive.build(db, args.games)
    else:
        db = ROOT / "build" / "bench" / f"simulated-{args.games}.db"
        sim_logs.build(db, args.games)
    if args.profile:
        profile(db, args.games)
        return
    jobs = ["--jobs", str(args.jobs)]
    audit_args = ["audit", *jobs, str(db)]
    verify_args = ["verify", "--failures-only", "--no-progress", *jobs, str(db)]
    roots = [ROOT] if args.baseline is None else [ROOT, args.baseline.resolve()]
    audit: dict[Path, list[tuple[float, float]]] = {root: [] for root in roots}
    verify: dict[Path, list[tuple[float, float]]] = {root: [] for root in roots}
    for _ in range(args.runs):
        for root in roots:
            audit[root].append(timed(audit_args, root))
        for root in roots:
            verify[root].append(timed(verify_args, root))
    print(
        f"load average at the end: {os.getloadavg()[0]:.2f} (other work on the machine slows both)"
    )
    print(f"pywall ... --jobs {args.jobs} on {args.games:,} games ({db.name})")
    this_verify = report("this", args.games, audit[ROOT], verify[ROOT])
    if args.baseline is not None:
        base = args.baseline.resolve()
        base_verify = report(f"baseline ({base})", args.games, audit[base], verify[base])
        ac = statistics.median(c for _, c in audit[ROOT])
        ratios = sorted(x[1] / y[1] for x, y in zip(audit[ROOT], audit[base]))
        print(
            f"this audit's CPU / the baseline's verify's: {ac / base_verify:.2f} "
            f"(this verify / the baseline's: {this_verify / base_verify:.2f}); "
            f"this audit / the baseline's, pair by pair: {', '.join(f'{r:.2f}' for r in ratios)}"
        )


if __name__ == "__main__":
    main()
