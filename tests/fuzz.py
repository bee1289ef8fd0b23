"""The fuzz suite: every reader against mutated real logs, random bytes and hypothesis;
the page's API with altered real requests, the public Python API with arguments of many
types (tests/fuzz_public.py), links, the CLI's text for people, the draw walk on every
platform's calls (chi choices, kans, North) altered at random, saved audit parts altered
(``parts.merge``: refused, or exactly the honest part's counts), and inputs
small in bytes but large in work (tests/fuzz_cases.py).

    python -m tests.fuzz --seconds 60 [--seed N]     (or: python3 build.py fuzz --minutes 1)

A failure is any exception outside ``PywallError`` (or a broken property of the output:
an ``internal`` error from the API, an SVG that is not XML, a control character printed
for people), any case over 10 s of CPU, the process over 300 MB, or a ``work:`` case whose
own allocations peak over ``WORK_MB`` (tracemalloc, case by case). Cases run in a
worker process that announces each case before running it (its input saved under
``fuzz-failures/``), so a hang or a crash still names its reproducer. The run keeps
going after a failure: the worker goes on to the next case, and the parent starts a
new worker (with the next seed) after one it had to kill or that died; at the end it
lists every failure with the command that replays it, and exits 1 if there was any.
"""

from __future__ import annotations

import argparse
import bz2
import gzip
import hashlib
import io
import os
import queue
import random
import resource
import sqlite3
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from tests import fuzz_cases, fuzz_public

if TYPE_CHECKING:  # hypothesis is imported only where the properties run
    from hypothesis.strategies import SearchStrategy

ROOT = Path(__file__).resolve().parent.parent
FAILURES = ROOT / "fuzz-failures"
CASE_SECONDS = 10.0  # of the worker's CPU time (the machine is shared: wall time is not the case's)
HANG_SECONDS = 60.0  # of wall time without a word from the worker: a hang
MAX_RSS_MB = 300
WORK_MB = 200
PHOENIX_SCHEMA = (
    "CREATE TABLE logs(log_id text primary key, is_tonpusen int, is_hirosima int, "
    "is_processed int, was_error int, log_content text, log_hash text)"
)
SNIPPETS = [
    b"<T",
    b"<D",
    b"<INIT ",
    b'<GO type="16"/>',
    b'<N who="0" m="',
    b"/>",
    b'"',
    b"=",
    b"&#",
    b"\xc2\xb2",
    b"9" * 40,
    b"<!DOCTYPE",
    b'<UN n0="%1B',
    b"<AGARI ",
    b'<DORA hai="',
    b"\x00",
    b">",
    b'<SHUFFLE seed="mt19937ar-sha512-n288-base64,',
    b'<mjloggm ver="2.3">',
]


# --- the readers: each takes bytes and may raise only PywallError -------------------------------


def _readers() -> dict[str, Callable[[bytes], object]]:
    from pywall.core import archives
    from pywall.formats import majsoul, mjlog, parse_record, riichicity
    from pywall.inputs import zips
    from pywall.results.check import check_log

    readers: dict[str, Callable[[bytes], object]] = {
        "mjlog.parse": mjlog.parse,
        "check_log": lambda data: check_log("fuzz.xml", data),
        "majsoul.parse": majsoul.parse,
        "riichicity.parse": riichicity.parse,
        "parse_record": parse_record,
        "archives.log_from_content": archives.log_from_content,
        "archives.gunzip_bounded": lambda data: archives.gunzip_bounded(data, 1 << 24),
        "archives.bunzip_bounded": lambda data: archives.bunzip_bounded(data, 1 << 24),
        "zips.iter_zip": lambda data: list(zips.iter_zip(io.BytesIO(data), "fuzz.zip")),
        "sources.ArchiveSource": fuzz_cases.archive_source,
        "api.handle": fuzz_cases.api_reader,
        "pywall.public": fuzz_public.public_reader,
        "links.link_from_text": fuzz_cases.link_reader,
        "game_lists.games_from_text": fuzz_cases.game_list_reader,
        "cli.escaped_report": fuzz_cases.escape_reader,
        "draws.game_draws": fuzz_cases.walk_reader,
        "parts.merge": fuzz_cases.part_reader,
        **fuzz_cases.work_readers(),
    }
    broken = os.environ.get(
        "PYWALL_FUZZ_BREAK"
    )  # tests/unit/test_fuzz.py: a reader that always fails
    if broken in readers:
        readers[broken] = _broken
    return readers


def _broken(data: bytes) -> object:
    raise RuntimeError("broken on purpose (PYWALL_FUZZ_BREAK)")


def reproducer(reader: str, path: Path) -> str:
    return f"{sys.executable} -m tests.fuzz --replay {reader} {path}"


# --- inputs ----------------------------------------------------------------------------------


def seeds() -> list[bytes]:
    logs = [
        p.read_bytes()
        for p in sorted((ROOT / "tests" / "data" / "tenhou").rglob("*"))
        if p.is_file()
    ]
    data = ROOT / "tests" / "data"
    records = [
        p.read_bytes()
        for folder in (data / "vectors" / "majsoul", data / "majsoul", data / "riichicity")
        for p in sorted(folder.glob("*.json"))
    ]
    return logs + records


def mutate(data: bytes, rng: random.Random) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(6)
        at = rng.randrange(len(buf) + 1)
        if op == 0 and buf:
            buf[min(at, len(buf) - 1)] = rng.randrange(256)
        elif op == 1:
            buf[at:at] = rng.choice(SNIPPETS)
        elif op == 2:
            del buf[at : at + rng.randint(1, 400)]
        elif op == 3:
            end = min(len(buf), at + rng.randint(1, 2000))
            buf[at:at] = buf[at:end] * rng.randint(1, 4)
        elif op == 4:
            del buf[at:]
        else:
            buf[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    return bytes(buf)


def packed(data: bytes, rng: random.Random) -> bytes:
    """The log gzipped, bz2'd, zipped or in a phoenix-logs database, then maybe mutated."""
    kind = rng.randrange(4)
    if kind == 0:
        out = gzip.compress(data, mtime=0)
    elif kind == 1:
        out = bz2.compress(data)
    elif kind == 3:
        conn = sqlite3.connect(":memory:")
        conn.execute(PHOENIX_SCHEMA)
        conn.executemany(
            "INSERT INTO logs VALUES (?, 0, 0, 1, 0, ?, '')",
            [
                (f"2020010100gm-00a9-0000-{i:08x}", bz2.compress(data))
                for i in range(rng.randint(1, 40))
            ],
        )
        conn.commit()
        out = conn.serialize()
        conn.close()
    else:
        buf = io.BytesIO()
        method = rng.choice(
            [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]
        )
        with zipfile.ZipFile(buf, "w", method) as zf:
            zf.writestr("a.xml", data)
            zf.writestr("b.xml", data[: len(data) // 2])
        out = buf.getvalue()
    return mutate(out, rng) if rng.random() < 0.8 else out


def cases(rng: random.Random) -> Iterator[tuple[str, bytes]]:
    """An endless stream of (reader, input)."""
    pool = seeds()
    # random bytes go to every reader of bytes (not the walk's, whose cases name a game)
    names = [n for n in _readers() if not n.startswith("work:") and n != "draws.game_draws"]
    payloads = fuzz_cases.real_payloads()
    works = list(fuzz_cases.work_readers())
    # the draw walk's cases, every eighth, from their own generator (so the other cases
    # of a seed stay what they were)
    walks = random.Random(rng.getstate()[1][0])
    parts = random.Random(rng.getstate()[1][1])  # saved audit parts, every sixteenth, likewise
    count = 0
    while True:
        count += 1
        if count % 8 == 0:
            yield "draws.game_draws", fuzz_cases.walk_case(walks)
            continue
        if count % 16 == 4:
            yield "parts.merge", fuzz_cases.part_case(parts)
            continue
        base = rng.choice(pool)
        roll = rng.random()
        if roll < 0.25:
            yield from _beyond_readers(rng, payloads, works)
            continue
        roll = (roll - 0.25) / 0.75
        if roll < 0.5:
            data = mutate(base, rng)
            if (
                base.lstrip()[:1] == b"{"
            ):  # a JSON record: every reader that takes one, and the sniffing
                yield (
                    rng.choice(["check_log", "parse_record", "majsoul.parse", "riichicity.parse"]),
                    data,
                )
            else:
                yield ("check_log" if rng.random() < 0.7 else "mjlog.parse"), data
        elif roll < 0.8:
            data = packed(base if base.lstrip()[:1] != b"{" else pool[0], rng)
            yield (
                rng.choice(
                    [
                        "archives.log_from_content",
                        "archives.gunzip_bounded",
                        "archives.bunzip_bounded",
                        "zips.iter_zip",
                        "mjlog.parse",
                        "sources.ArchiveSource",
                    ]
                ),
                data,
            )
        else:
            yield rng.choice(names), rng.randbytes(rng.randint(0, 4096))


def _beyond_readers(
    rng: random.Random,
    payloads: list[tuple[str, dict[str, object], bytes | None]],
    works: list[str],
) -> Iterator[tuple[str, bytes]]:
    """One case past the readers: the API, links, the CLI's escaping, or much work."""
    roll = rng.random()
    if roll < 0.47:
        yield "api.handle", fuzz_cases.api_case(rng, payloads)
    elif roll < 0.55:
        yield "pywall.public", fuzz_public.public_case(rng)
    elif roll < 0.63:
        yield "links.link_from_text", fuzz_cases.link_case(rng)
    elif roll < 0.7:
        yield "game_lists.games_from_text", fuzz_cases.game_list_case(rng)
    elif roll < 0.85:
        yield (
            "cli.escaped_report",
            mutate(rng.choice(["x\x1b]0;t\x07\u202e".encode(), "東 ".encode(), b"a"]), rng),
        )
    else:
        data = fuzz_cases.work_case(rng)
        yield ("work:zips.iter_zip" if data[:2] == b"PK" else rng.choice(works[:2])), data


def run_case(reader: Callable[[bytes], object], name: str, data: bytes) -> float:
    """Run one case; the peak MB of its own allocations for a ``work:`` case, else 0."""
    if not name.startswith("work:"):
        reader(data)
        return 0.0
    import tracemalloc

    tracemalloc.start()
    try:
        reader(data)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def hypothesis_cases(seconds: float) -> int:
    """Hypothesis over every reader (structured text and raw bytes); how many failed (each
    printed as it fails)."""
    from hypothesis import strategies as st

    readers = _readers()
    tag = st.builds(
        lambda n, a, v: f'<{n} {a}="{v}"/>',
        st.sampled_from(["INIT", "T1", "N", "GO", "UN", "DORA", "AGARI", "REACH", "T\u00b2"]),
        st.sampled_from(["seed", "hai0", "who", "m", "type", "n0", "hai", "step"]),
        st.text(alphabet="0123456789,-%&#;x\u00b2 ", max_size=30),
    )
    logs = st.lists(tag, max_size=30).map(
        lambda tags: ('<mjloggm ver="2.3">' + "".join(tags)).encode()
    )
    deadline = time.monotonic() + seconds
    failed = 0
    for name, reader in readers.items():
        if time.monotonic() > deadline:
            break
        if name.startswith("work:"):
            continue
        try:
            _property(reader, st.one_of(st.binary(max_size=2048), logs))()
        except Exception as exc:  # noqa: BLE001 (a failure: hypothesis has printed the falsifying example)
            print(f"FAIL hypothesis {name}: {type(exc).__name__}: {str(exc)[:300]}", flush=True)
            failed += 1
    return failed


def _property(
    reader: Callable[[bytes], object], inputs: SearchStrategy[bytes]
) -> Callable[[], None]:
    from hypothesis import HealthCheck, given, settings

    from pywall.core.errors import PywallError

    @settings(
        max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(inputs)
    def check(data: bytes) -> None:
        try:
            reader(data)
        except PywallError:
            pass

    return check


# --- the worker and its watchdog --------------------------------------------------------------


def save(reader: str, data: bytes) -> Path:
    FAILURES.mkdir(exist_ok=True)
    path = FAILURES / f"{reader}-{hashlib.sha256(data).hexdigest()[:16]}.bin"
    path.write_bytes(data)
    return path


def replay(reader: str, path: Path) -> None:
    """Run one saved case in this process: a traceback here is the bug."""
    start = time.process_time()
    traced = 0.0
    try:
        traced = run_case(_readers()[reader], reader, path.read_bytes())
    except Exception as exc:
        from pywall.core.errors import PywallError

        if not isinstance(exc, PywallError):
            raise
        print(f"PywallError: {exc}")
    print(
        f"{time.process_time() - start:.2f} s of CPU, {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
        + (f", {traced:.0f} MB allocated at the peak" if traced else "")
    )


def worker(seconds: float, seed: int) -> int:
    """Runs cases until ``seconds`` pass; prints ``CASE reader path`` before each one and
    ``FAIL ...`` for each failure, and goes on (exit 3 when the process itself has grown
    past ``MAX_RSS_MB``: its high-water mark would flag every later case)."""
    from pywall.core.errors import PywallError

    readers = _readers()
    rng = random.Random(seed)
    current = FAILURES / f".current-{os.getpid()}.bin"
    FAILURES.mkdir(exist_ok=True)
    deadline = time.monotonic() + seconds * 0.8
    failed = 0
    for reader, data in cases(rng):
        if time.monotonic() > deadline:
            break
        current.write_bytes(data)
        print(f"CASE {reader} {current}", flush=True)
        start = time.process_time()
        traced = 0.0
        try:
            traced = run_case(readers[reader], reader, data)
        except PywallError:
            pass
        except Exception as exc:  # noqa: BLE001 (any other exception is the failure we look for)
            path = save(reader, data)
            print(
                f"FAIL {reader}: {type(exc).__name__}: {str(exc)[:300]}\n  replay: {reproducer(reader, path)}",
                flush=True,
            )
            failed += 1
            continue
        took = time.process_time() - start
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        if took > CASE_SECONDS or rss > MAX_RSS_MB or traced > WORK_MB:
            path = save(reader, data)
            print(
                f"FAIL {reader}: {took:.1f} s of CPU, {rss:.0f} MB process, {traced:.0f} MB case\n"
                f"  replay: {reproducer(reader, path)}",
                flush=True,
            )
            failed += 1
            if rss > MAX_RSS_MB:
                current.unlink(missing_ok=True)
                return 3
    current.unlink(missing_ok=True)
    failed += hypothesis_cases(max(seconds * 0.2, 1.0))
    print(f"DONE {failed} failures", flush=True)
    return 1 if failed else 0


def watch(seconds: float, seed: int) -> int:
    """Runs workers until ``seconds`` pass: one silent for over ``HANG_SECONDS`` is killed
    and its case named, and a new worker goes on with the next seed, as after one that
    died; every failure is listed again at the end."""
    deadline = time.monotonic() + seconds
    failures: list[str] = []
    count = 0
    for attempt in range(1000):
        left = deadline - time.monotonic()
        if left < 2:
            break
        ran, code, found = _one_worker(left, seed + attempt)
        count += ran
        failures += found
        if code in (0, 1):
            break
    print(f"fuzz: {count} cases, {len(failures)} failures", flush=True)
    for f in failures:
        print(f, flush=True)
    return 1 if failures else 0


def _one_worker(seconds: float, seed: int) -> tuple[int, int | None, list[str]]:
    """(cases run, the worker's exit code or None when killed, failures) of one worker."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.fuzz",
            "--worker",
            "--seconds",
            str(seconds),
            "--seed",
            str(seed),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_pump, args=(proc, lines), daemon=True).start()
    last, count = "", 0
    failures: list[str] = []
    while True:
        try:
            line = lines.get(timeout=HANG_SECONDS)
        except queue.Empty:
            proc.kill()
            proc.wait()
            return count, None, [*failures, _report_last(last, f"silent for {HANG_SECONDS:.0f} s")]
        if line is None:
            break
        if line.startswith("CASE "):
            last, count = line, count + 1
            continue
        print(line, flush=True)
        if line.startswith("FAIL"):
            failures.append(line)
        elif line.startswith("  replay:") and failures:
            failures[-1] += "\n" + line
    code = proc.wait()
    if code not in (0, 1, 3):
        failures.append(_report_last(last, f"the worker died (exit {code}; out of memory?)"))
    return count, code, failures


def _pump(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.put(line.rstrip("\n"))
    lines.put(None)


def _report_last(last: str, why: str) -> str:
    if not last:
        message = f"FAIL: {why} before any case"
    else:
        _, reader, path = last.split(" ", 2)
        saved = save(reader, Path(path).read_bytes())
        message = f"FAIL {reader}: {why}\n  replay: {reproducer(reader, saved)}"
    print(message, flush=True)
    return message


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--replay", nargs=2, metavar=("READER", "FILE"), help="run one saved case")
    args = p.parse_args(argv)
    if args.replay:
        replay(args.replay[0], Path(args.replay[1]))
        return 0
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    if args.worker:
        resource.setrlimit(
            resource.RLIMIT_AS, (2 << 30, 2 << 30)
        )  # a blow-up fails here, not the machine
        return worker(args.seconds, seed)
    print(f"fuzz: seed {seed}, {args.seconds:.0f} s", flush=True)
    code = watch(args.seconds, seed)
    print("fuzz: " + ("no failure" if code == 0 else "FAILED"), flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
