"""Time and peak memory of ``pywall verify`` (and friends) on each hostile input class
of issues 13, 23, 32 (many players, copies of one game) and 43 (Dask; the fetcher, against
the tests' stand-in for Tenhou's log server on 127.0.0.1): the figures of the "Reliability"
table in benchmarks/RESULTS.md.

    .venv/bin/python benchmarks/bench_hostile.py [--only NAME]

Each case is built in a scratch folder, then run as a subprocess with a 120 s
limit; the peak RSS is the largest VmHWM of any process in its tree (sampled
every 50 ms: a process that is over 300 MB for less than that can be missed). Prints one Markdown row per case: the class, the exit code,
seconds and MB.
"""

from __future__ import annotations

import argparse
import atexit
import gzip
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers import DATA, TENHOU, log_text
from tests.tenhou_server import FIXTURES, HOSTILE, fixture_log, serving
from tests.unit.test_bounds import stored_zip
from tests.unit.test_cli_hostile import PeakWatcher, lzma_zip_with_a_corrupt_member, overlapping_zip
from tests.unit.test_cli_work import altered_rounds, bare_inits, gzip_of_objects

LOG = TENHOU / "tenhou-python-bot" / "1.txt"
MAJSOUL = DATA / "majsoul" / "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json"
LIMIT = 120.0


def measure(args: list[str], stdout: str = os.devnull) -> tuple[int, float, float]:
    """(exit code, seconds, peak MB) of ``python -m pywall ARGS`` (or, for ARGS that start
    with ``-c``, of ``python ARGS``: a driver of the page's API; with ``node``, of ARGS
    as they are: the page's API in Pyodide)."""
    node = args[:1] == ["node"]
    command = (
        args
        if node
        else [sys.executable, *args]
        if args[:1] == ["-c"]
        else [sys.executable, "-m", "pywall", *args]
    )
    with open(stdout, "wb") as out:
        start = time.monotonic()
        proc = subprocess.Popen(
            command,
            cwd=ROOT / "web" if node else ROOT,
            stdout=out,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
        )
        timer = threading.Timer(LIMIT, proc.kill)
        timer.start()
        watcher = PeakWatcher(proc.pid)
        watcher.start()
        proc.wait()
        seconds = time.monotonic() - start
        watcher.done.set()
        timer.cancel()
    return proc.returncode, seconds, watcher.peak


def digits(d: Path) -> list[str]:
    bad = d / "a.xml"
    bad.write_bytes(b"<mjloggm><INIT/><T\xc2\xb2/><T" + b"9" * 5000 + b"/>")
    return ["commitment", str(bad), "--hash", "a" * 128]


def late_go(d: Path) -> list[str]:
    text = log_text(LOG)
    at = text.rindex("<INIT")
    (d / "late.xml").write_text(text[:at] + '<GO type="16"/>' + text[at:])
    return ["verify", str(d / "late.xml")]


def lzma(d: Path) -> list[str]:
    return ["verify", "--jobs", "2", str(lzma_zip_with_a_corrupt_member(d / "l.zip"))]


def full_disk(d: Path) -> list[str]:
    return ["verify", str(TENHOU)]


def fifo(d: Path) -> list[str]:
    os.mkfifo(d / "f")
    (d / "a.xml").write_bytes(LOG.read_bytes())
    return ["verify", str(d / "f"), str(d)]


def view(d: Path) -> list[str]:
    with sqlite3.connect(d / "v.db") as conn:
        conn.execute(
            "CREATE VIEW logs(log_id, is_processed, was_error, log_content) AS WITH RECURSIVE "
            "r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT x, 1, 0, 'a' FROM r"
        )
    return ["verify", str(d / "v.db")]


def gzip_members(d: Path) -> list[str]:
    member = gzip.compress(b"", mtime=0)
    (d / "m.mjlog").write_bytes(member * (16 * 1024 * 1024 // len(member)))
    return ["verify", str(d / "m.mjlog")]


def long_attribute(d: Path) -> list[str]:
    (d / "u.xml").write_text('<mjloggm ver="2.3"><UN ' + "a" * 100_000 + "=/>")
    return ["verify", str(d / "u.xml")]


def wide_rows(d: Path) -> list[str]:
    with sqlite3.connect(d / "w.db") as conn:
        conn.execute(
            "CREATE TABLE logs(log_id text, is_processed int, was_error int, log_content text)"
        )
        wide = "\U0001f004" * (6 * 1024 * 1024)
        conn.executemany(
            "INSERT INTO logs VALUES (?, 1, 0, ?)", [(f"g{i}", wide) for i in range(20)]
        )
    return ["verify", "--jobs", "2", str(d / "w.db")]


def big_members(d: Path) -> list[str]:
    member = b"<mjloggm>" + b"<!-- -->" * (2 * 1024 * 1024 - 2)
    with zipfile.ZipFile(d / "b.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(200):
            zf.writestr(f"{i:03}.xml", member)
    return ["verify", "--jobs", "2", str(d / "b.zip")]


def overlap(d: Path) -> list[str]:
    return ["verify", str(overlapping_zip(d / "o.zip"))]


def draws(d: Path) -> list[str]:
    text = log_text(LOG)
    end = text.index(">", text.index("<INIT")) + 1
    (d / "d.xml").write_text(
        text[:end] + "<T0/>" * ((16 * 1024 * 1024 - end - 20) // 5) + "</mjloggm>"
    )
    return ["verify", str(d / "d.xml")]


def locked(d: Path) -> list[str]:
    (d / "sub").mkdir()
    (d / "sub" / "a.xml").write_bytes(LOG.read_bytes())
    (d / "sub").chmod(0)
    return ["verify", str(d)]


def escapes(d: Path) -> list[str]:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("x\nOK        forged.xml\x1b]0;t\x07\u202e.xml", b"no")
    (d / "e.zip").write_bytes(buf.getvalue())
    return ["verify", str(d / "e.zip")]


def wal(d: Path) -> list[str]:
    with sqlite3.connect(d / "wal.db") as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(
            "CREATE TABLE logs(log_id text, is_processed int, was_error int, log_content text)"
        )
        conn.execute("INSERT INTO logs VALUES ('g', 1, 0, ?)", (log_text(LOG),))
    conn.close()  # checkpoints the WAL, as a downloader that finished does
    return ["verify", str(d / "wal.db")]


def signed_seed(d: Path) -> list[str]:
    return ["wall", "mt19937ar,-1,0,0,0,0,0,0,0"]


def majsoul_with(d: Path, old: str, new: str) -> Path:
    text = (MAJSOUL.read_text(encoding="utf-8")).replace(old, new, 1)
    (d / "r.json").write_text(text, encoding="utf-8")
    return d / "r.json"


def surrogate_id(d: Path) -> list[str]:
    return ["verify", str(majsoul_with(d, '"uuid": "', '"uuid": "\\ud800'))]


def json_escapes(d: Path) -> list[str]:
    return [
        "verify",
        "--json",
        str(majsoul_with(d, '"nickname": "', '"nickname": "\\u0085\\u202e\\ud800')),
    ]


def inits(d: Path) -> list[str]:
    return ["verify", "--json", str(bare_inits(d / "i.xml"))]


def altered(d: Path) -> list[str]:
    return ["verify", str(altered_rounds(d / "a.xml"))]


def objects(d: Path) -> list[str]:
    return ["verify", str(gzip_of_objects(d / "o.json.gz"))]


def deep(d: Path) -> list[str]:
    (d / "deep.json").write_text("[" * 200_000)
    return ["verify", str(d / "deep.json")]


def members(d: Path) -> list[str]:
    (d / "m.zip").write_bytes(stored_zip([f"{i:06}.xml".encode() for i in range(250_000)]))
    return ["verify", str(d / "m.zip")]


def walk(d: Path) -> list[str]:
    """Issue 32: ``pywall audit`` of a 100-round Riichi City record that verifies, whose
    every round has eight three-way chis naming no tiles and a misfit after them (3^8
    combinations a round for a search of every one; every round is then left out)."""
    from tests.unit.test_draw_walk import choice_record

    path = d / "choice.json"
    path.write_text(json.dumps(choice_record(100, misfit=True)))
    return ["audit", str(path)]


def walk_fits(d: Path) -> list[str]:
    """The same record with no misfit: every round's draws are tested."""
    from tests.unit.test_draw_walk import choice_record

    path = d / "choice.json"
    path.write_text(json.dumps(choice_record(100, misfit=False)))
    return ["audit", str(path)]


MANY_PLAYERS = 5_000  # one-round games, four new names each: 20,000 names
CACHE = ROOT / "build" / "cache"


def many_players(d: Path) -> list[str]:
    from benchmarks.sim_logs import many_players_zip

    CACHE.mkdir(parents=True, exist_ok=True)
    path = many_players_zip(CACHE / f"many-players-{MANY_PLAYERS}.zip", MANY_PLAYERS)
    return ["audit", "--json", "--jobs", "2", str(path)]


#: The page's audit of an archive, as its worker runs it (CPython here; the page runs the
#: same calls in Pyodide): the run's chunks, then the ``audit`` request; prints the reply's size.
PAGE_AUDIT = """
import json, sys
from pathlib import Path
from pywall.inputs.sources import ArchiveSource
from pywall.page import api
worker = api.Api(lambda path, label: ArchiveSource(Path(path), label))
ask = lambda kind, **p: json.loads(api.handle(kind, json.dumps(p), None, worker))
ask("archive_open", run="r", path=sys.argv[1], label="a.zip")
while not ask("archive_next", run="r", limit=200)["done"]:
    pass
reply = api.handle("audit", json.dumps({"runs": ["r"]}), None, worker)
print(len(reply), json.loads(reply)["games"]["used"])
"""


def many_players_page(d: Path) -> list[str]:
    return ["-c", PAGE_AUDIT, many_players(d)[-1]]


def many_players_pyodide(d: Path) -> list[str]:
    """The same in Pyodide under Node (benchmarks/pyodide_audit.mjs; needs build.py's
    build/pyodide): its JSON line (the audit request's seconds, the WebAssembly memory)
    goes to build/cache/pyodide-audit.json."""
    zip_path = many_players(d)[-1]
    index = ROOT / "build" / "pyodide"
    return ["node", str(ROOT / "benchmarks" / "pyodide_audit.mjs"), str(index), zip_path]


COPIES = 2_000
OTHER = TENHOU / "tenhou-python-bot" / "13.txt"


def renamed_copies(d: Path) -> list[str]:
    """2,000 copies of one log, each with seat 0 renamed (all verify; they conflict)."""
    text = log_text(TENHOU / "dnovikoff" / "example.xml")
    with zipfile.ZipFile(d / "renamed.zip", "w") as z:
        for i in range(COPIES):
            z.writestr(f"c{i:05d}.xml", text.replace('n0="', f'n0="x{i}', 1))
        z.writestr("other.txt", OTHER.read_bytes())
    return ["audit", "--json", "--jobs", "2", str(d / "renamed.zip")]


def cut_copies(d: Path) -> list[str]:
    """2,000 copies of one log, each cut at another event, and the whole log last."""
    text = log_text(TENHOU / "dnovikoff" / "example.xml")
    tags = [m.start() for m in re.finditer("<[DEFGTUVW][0-9]", text)][40:]
    with zipfile.ZipFile(d / "cut.zip", "w") as z:
        for i in range(COPIES):
            z.writestr(f"c{i:05d}.xml", text[: tags[i * len(tags) // COPIES]])
        z.writestr("whole.xml", text)
    return ["audit", "--json", "--jobs", "2", str(d / "cut.zip")]


#: Issue 43: ``audit_on_dask`` on a real ``LocalCluster`` (two worker processes) of a zip of
#: 40 logs that is rewritten with 5 right after the shards are planned; prints the games
#: counted and the exclusions by kind (every game planned is one or the other).
DASK_SHRINK = """
import sys
from collections import Counter
from pathlib import Path
from distributed import Client, LocalCluster
import pywall.scale
from tests.unit.test_scale import logs_zip
path = logs_zip(Path(sys.argv[1]), 40)
plan = pywall.scale.plan_shards
def shrink(sources, shards):
    planned = plan(sources, shards)
    logs_zip(path, 5)
    return planned
pywall.scale.plan_shards = shrink
with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address="127.0.0.1:0") as cluster:
    with Client(cluster) as client:
        result = pywall.scale.audit_on_dask([path], client, shards=4)
print(result.games, dict(Counter(e.kind for e in result.excluded)))
"""

#: Issue 43: a shard whose check of one game raises (an in-process ``LocalCluster``, so the
#: patched check runs on its worker): prints the ``ShardError``'s words, exit 2.
DASK_SHARD_ERROR = """
import sys
from pathlib import Path
from distributed import Client, LocalCluster
import pywall.scale, pywall.scale.shards as shards
from pywall.run.items import record_for
from tests.unit.test_scale import logs_zip
path = logs_zip(Path(sys.argv[1]), 12)
def failing(item):
    if item[0].endswith("test.mjlog"):
        raise RuntimeError("the worker ran out of something")
    return record_for(item)
shards.record_for = failing
with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                  dashboard_address="127.0.0.1:0") as cluster:
    with Client(cluster) as client:
        try:
            pywall.scale.audit_on_dask([path], client, shards=3)
        except pywall.scale.ShardError as exc:
            print(exc.message)
            sys.exit(2)
"""


def dask_shrink(d: Path) -> list[str]:
    return ["-c", DASK_SHRINK, str(d / "logs.zip")]


def dask_shard_error(d: Path) -> list[str]:
    return ["-c", DASK_SHARD_ERROR, str(d / "logs.zip")]


_SERVERS = ExitStack()
atexit.register(_SERVERS.close)


def fetching(game: str, *options: str) -> Callable[[Path], list[str]]:
    """Issue 43: ``pywall fetch`` of one game from the stand-in server (started once; the
    command's environment points at it)."""

    def build(d: Path) -> list[str]:
        if "PYWALL_TENHOU_LOG_URL" not in os.environ:
            os.environ["PYWALL_TENHOU_LOG_URL"] = _SERVERS.enter_context(serving()).log_url
        return ["fetch", "--no-progress", "--cache", str(d / "cache"), *options, game]

    return build


def planted_link(d: Path) -> list[str]:
    """A symbolic link planted as a cached log, to a file outside the cache."""
    game = next(iter(FIXTURES))
    (d / "cache").mkdir()
    (d / "outside.xml").write_bytes(fixture_log(game))
    (d / "cache" / f"{game}.xml").symlink_to(d / "outside.xml")
    return fetching(game)(d)


#: Issue 43: the public API on the issue's arguments, as a caller's script: exit 0 when
#: each call is refused (``TypeError`` or ``PywallError``; ``verify``: an error report).
API_CALLS = """
import itertools, sys
import pywall
from tests.helpers import vector_seed
seed = vector_seed()
calls = {
    "walls-billion": [lambda: pywall.walls(seed, 10**9)],
    "types": [
        lambda: pywall.walls(seed.encode(), 1), lambda: pywall.walls(None, 1),
        lambda: pywall.walls(seed, 2.5), lambda: pywall.audit([b"x"], jobs="2"),
        lambda: pywall.audit([b"x"], jobs=2.5),
    ],
    "endless-hand": [lambda: pywall.shanten(itertools.repeat(0))],
    "surrogate": [lambda: pywall.verify("<mjloggm>\\ud800").status == "error" or 1 / 0],
}[sys.argv[1]]
for call in calls:
    try:
        call()
    except (TypeError, pywall.PywallError) as exc:
        print(type(exc).__name__, exc)
"""


def api_case(name: str) -> Callable[[Path], list[str]]:
    return lambda d: ["-c", API_CALLS, name]


CASES: dict[str, tuple[str, Callable[[Path], list[str]], str]] = {
    "digits": ("1. non-ASCII / 5,000 digits in a tag", digits, os.devnull),
    "late-go": ("2. player count changes after INIT", late_go, os.devnull),
    "lzma": ("3. corrupt LZMA zip member (--jobs 2)", lzma, os.devnull),
    "full-disk": ("4. output to /dev/full", full_disk, "/dev/full"),
    "fifo": ("6. FIFO argument and folder", fifo, os.devnull),
    "view": ("7. recursive VIEW named logs", view, os.devnull),
    "gzip-members": ("8. 16 MiB of empty gzip members", gzip_members, os.devnull),
    "long-attribute": ("9. 100,000-character attribute name", long_attribute, os.devnull),
    "wide-rows": ("10. 20 TEXT rows of 24 MiB (4-byte chars)", wide_rows, os.devnull),
    "big-members": ("11. 200 zip members of 16 MiB (--jobs 2)", big_members, os.devnull),
    "overlap": ("11. 2,000 entries over one 16 MiB member", overlap, os.devnull),
    "draws": ("12. one INIT and 3.35 M draws (16 MiB)", draws, os.devnull),
    "locked": ("13. unreadable subfolder", locked, os.devnull),
    "escapes": ("14. ESC/OSC/newline/U+202E in a member name", escapes, os.devnull),
    "wal": ("17. WAL database", wal, os.devnull),
    "signed-seed": ("23. pywall wall 'mt19937ar,-1,0,...'", signed_seed, os.devnull),
    "surrogate-id": ("23. lone surrogate in a record's game id", surrogate_id, os.devnull),
    "json-escapes": ("23. C1, U+202E, lone surrogate in a name (--json)", json_escapes, os.devnull),
    "inits": ("23. 67,635 bare INIT tags (16 MiB, --json)", inits, os.devnull),
    "altered": ("23. 17,346 altered rounds (16 MiB)", altered, os.devnull),
    "objects": ("23. 16 KB gzip of 5.6 M empty JSON objects", objects, os.devnull),
    "deep": ("23. 200,000 [ as a JSON record", deep, os.devnull),
    "members": ("23. zip of 250,000 empty members", members, os.devnull),
    "walk": ("32. audit: 100 rounds of eight open three-way chis, a misfit", walk, os.devnull),
    "walk_fits": ("32. audit: the same 100 rounds, every choice fits", walk_fits, os.devnull),
    "api-walls-billion": ("43. pywall.walls(seed, 10**9)", api_case("walls-billion"), os.devnull),
    "api-types": (
        "43. walls(bytes | None | 2.5), audit(jobs='2' | 2.5)",
        api_case("types"),
        os.devnull,
    ),
    "api-endless-hand": (
        "43. pywall.shanten(itertools.repeat(0))",
        api_case("endless-hand"),
        os.devnull,
    ),
    "api-surrogate": (
        "43. pywall.verify of text with a lone surrogate",
        api_case("surrogate"),
        os.devnull,
    ),
    "many-players": (
        "32. 5,000 one-round games, 20,000 names (audit --json --jobs 2)",
        many_players,
        os.devnull,
    ),
    "many-players-page": (
        "32. the same, the page's archive run and audit request (CPython)",
        many_players_page,
        os.devnull,
    ),
    "many-players-pyodide": (
        "32. the same in Pyodide under Node (the page's engine)",
        many_players_pyodide,
        str(CACHE / "pyodide-audit.json"),
    ),
    "renamed-copies": (
        "32. 2,000 renamed copies of one log + 1 game (audit --json --jobs 2)",
        renamed_copies,
        os.devnull,
    ),
    "cut-copies": (
        "32. 2,000 copies of one log cut short + the whole (audit --json --jobs 2)",
        cut_copies,
        os.devnull,
    ),
    "dask-shrink": (
        "43. audit_on_dask: a zip of 40 logs rewritten with 5 after planning",
        dask_shrink,
        str(CACHE / "dask-shrink.txt"),
    ),
    "dask-shard-error": (
        "43. audit_on_dask: a shard whose check of a game raises",
        dask_shard_error,
        str(CACHE / "dask-shard-error.txt"),
    ),
    "drip": (
        "43. fetch: the answer a byte every 0.5 s (--timeout 5)",
        fetching(HOSTILE["drip"], "--timeout", "5"),
        os.devnull,
    ),
    "other-log": (
        "43. fetch: another game's log under the id",
        fetching(HOSTILE["other"]),
        os.devnull,
    ),
    "fake-log": ("43. fetch: a 44-byte fake log", fetching(HOSTILE["fake"]), os.devnull),
    "link": ("43. fetch: a symlink planted as the cached log", planted_link, os.devnull),
    "retry-after": (
        "43. fetch: 503 with Retry-After: 3600",
        fetching(HOSTILE["later"]),
        os.devnull,
    ),
}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", choices=sorted(CASES), action="append")
    args = p.parse_args()
    print("| input | exit | seconds | peak MB |\n| --- | --- | --- | --- |")
    for key in args.only or CASES:
        label, build, stdout = CASES[key]
        with tempfile.TemporaryDirectory() as tmp:
            command = build(Path(tmp))
            code, seconds, mb = measure(command, stdout)
            for sub in Path(tmp).rglob("*"):
                if sub.is_dir():
                    sub.chmod(0o755)
        print(f"| {label} | {code} | {seconds:.2f} | {mb:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
