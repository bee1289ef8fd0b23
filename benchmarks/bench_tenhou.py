"""Benchmark the Tenhou core; prints figures, asserts nothing about time.

1. Wall generation through ``pywall.checks.tenhou.walls`` (a new seed each game,
   15 rounds per game) against a native C build (gcc + OpenSSL SHA-512, if
   gcc and the OpenSSL headers are present) and against a straightforward
   pure-Python mt19937ar port; both ratios are printed.
2. Parse + verify of a 17-round game (gimite/test.mjlog): median milliseconds.

Run: python3 benchmarks/bench_tenhou.py [--games N]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pywall.checks import tenhou
from pywall.checks.mt19937 import MT19937
from pywall.results.check import check_log

ROUNDS = 15


def seeds(games: int) -> list[bytes]:
    rng = os.urandom
    return [rng(2496) for _ in range(games)]


def pywall_walls(raw: list[bytes]) -> float:
    texts = [base64.b64encode(r).decode() for r in raw]
    t = time.perf_counter()
    for s in texts:
        tenhou.walls(s, ROUNDS)
    return time.perf_counter() - t


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


def native_walls(raw: list[bytes]) -> float | None:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None or not Path("/usr/include/openssl/sha.h").exists():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "walls"
        subprocess.run(
            [cc, "-O2", "-o", str(exe), str(ROOT / "benchmarks/c/tenhou_walls.c"), "-lcrypto"],
            check=True,
        )
        runs = [
            subprocess.run(
                [str(exe), str(len(raw)), str(ROUNDS)],
                input=b"".join(raw),
                capture_output=True,
                check=True,
            ).stdout.split()
            for _ in range(3)
        ]
        return min(float(out[1]) for out in runs)


def best_of(fn: Callable[[list[bytes]], float], raw: list[bytes], repeat: int = 3) -> float:
    return min(fn(raw) for _ in range(repeat))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    args = ap.parse_args()
    raw = seeds(args.games)
    n_rounds = args.games * ROUNDS
    fast = best_of(pywall_walls, raw, 5)
    naive_raw = raw[: max(1, args.games // 20)]
    naive = best_of(naive_walls, naive_raw, 1) * len(raw) / len(naive_raw)
    native = native_walls(raw)
    print(
        f"Wall generation, {args.games} games x {ROUNDS} rounds ({n_rounds:,} walls), Python {sys.version.split()[0]}"
    )
    print(
        f"  checks.tenhou.walls      {fast * 1e6 / n_rounds:8.2f} us/wall  {n_rounds / fast:10,.0f} walls/s"
    )
    print(
        f"  pure-Python port         {naive * 1e6 / n_rounds:8.2f} us/wall  (x{naive / fast:.1f} slower than pywall)"
    )
    if native is not None:
        print(f"  native C + OpenSSL       {native * 1e6 / n_rounds:8.2f} us/wall")
        print(
            f"  pywall speed vs C: 1/{fast / native:.2f}   pure-Python port vs C: 1/{naive / native:.1f}"
        )
    else:
        print(
            "  native C: not built (needs gcc and OpenSSL headers: apt-get install gcc libssl-dev)"
        )
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


if __name__ == "__main__":
    main()
