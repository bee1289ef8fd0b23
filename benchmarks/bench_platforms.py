"""Benchmark parse + verify of a stated-wall record beside a Tenhou game; prints figures,
asserts nothing about time.

The 12-round Riichi City record (tests/data/riichicity/4ma_gin_han_sample.json:
every dealt tile, draw, replacement and indicator, and 60 SHA-256 digests) and the
17-round Tenhou game (tests/data/tenhou/gimite/test.mjlog: its walls rebuilt from
the seed), in the same run, through ``check.check_log`` exactly as the CLI calls
it: median milliseconds over ``--repeat`` runs each. The Mahjong Soul 2021 record
(9 rounds, MD5 era) is timed too.

Run: python3 benchmarks/bench_platforms.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pywall.results.check import check_log

DATA = ROOT / "tests" / "data"
RECORDS = {
    "Riichi City, 12 rounds (4ma_gin_han_sample.json)": DATA
    / "riichicity"
    / "4ma_gin_han_sample.json",
    "Tenhou, 17 rounds (gimite/test.mjlog)": DATA / "tenhou" / "gimite" / "test.mjlog",
    "Mahjong Soul, 9 rounds (paipu_210815, MD5 era)": DATA
    / "majsoul"
    / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json",
}


def median_ms(path: Path, repeat: int) -> tuple[float, int]:
    data = path.read_bytes()
    report = check_log(path.name, data)
    assert report.status == "verified", report.findings[:3]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        check_log(path.name, data)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, report.checked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="runs per record (default 30)")
    args = parser.parse_args()
    print(f"parse + verify, median of {args.repeat} runs (same process, same run)")
    for label, path in RECORDS.items():
        ms, checked = median_ms(path, args.repeat)
        print(f"  {label:<52} {ms:8.2f} ms  ({checked:,} tiles checked)")


if __name__ == "__main__":
    main()
