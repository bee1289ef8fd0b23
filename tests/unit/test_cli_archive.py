"""``pywall verify`` on archives: phoenix-logs databases and zips, in parallel,
streamed (--jsonl, --json), filtered (--failures-only), with progress and Ctrl-C."""

from __future__ import annotations

import bz2
import gc
import json
import math
import operator
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from itertools import count, islice
from pathlib import Path
from typing import Any

import pytest

from pywall.cli import main
from pywall.cli.progress import Progress, bar_text, duration_text
from pywall.results.check import check_log
from pywall.results.exports import batch_dict
from pywall.run.pool import GC_YOUNG, ordered_map
from tests.helpers import TENHOU, fixture_paths
from tests.unit.test_archives import (
    bz2_bomb,
    corrupt_bz2,
    fixture_rows,
    log_id,
    phoenix_db,
    tampered_text,
)

ROOT = Path(__file__).resolve().parents[2]
TAMPERED_ID = "2019123123gm-00a9-0000-7a3e0000"
#: Special rows: (log_id, content, is_processed, was_error) -> expected verdict (None: skipped).
SPECIAL = [
    (("2019123123gm-00a9-0000-bad0b220", corrupt_bz2(), 1, 0), "error"),
    (("2019123123gm-00a9-0000-e770e770", b"", 1, 1), None),
    (("2019123123gm-00a9-0000-00000000", b"", 0, 0), None),
    ((TAMPERED_ID, bz2.compress(tampered_text().encode()), 1, 0), "mismatch"),
    (("2019123123gm-00a9-0000-b0b0b0b0", bz2_bomb(), 1, 0), "error"),
]
FIXTURES = len(fixture_paths())


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def houou(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every fixture twice (so that --jobs 2 really uses workers), the special rows in between."""
    rows = fixture_rows(copies=2)
    half = len(rows) // 2
    special = [row for row, _ in SPECIAL]
    return phoenix_db(
        tmp_path_factory.mktemp("db") / "houou2019.db", rows[:half] + special + rows[half:]
    )


def expected_verdicts(db: Path) -> dict[str, str]:
    verdicts = {f"{db}/{lid}": "verified" for lid, _ in fixture_rows(copies=2)}
    verdicts |= {f"{db}/{row[0]}": v for row, v in SPECIAL if v}
    return verdicts


def jsonl(out: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    lines = [json.loads(line) for line in out.splitlines()]
    assert set(lines[-1]) == {"summary"}
    return lines[:-1], lines[-1]["summary"]


# --- every row's verdict ----------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_every_row_has_its_verdict(
    houou: Path, jobs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["verify", "--jsonl", "--jobs", jobs, str(houou)], capsys)
    files, summary = jsonl(out)
    assert code == 2  # errors beat mismatches
    assert {f["path"]: f["status"] for f in files} == expected_verdicts(houou)
    assert len(files) == 2 * FIXTURES + 3  # was_error=1 and is_processed=0 rows are skipped
    assert summary == {
        "files": 2 * FIXTURES + 3,
        "verified": 2 * FIXTURES,
        "mismatch": 1,
        "error": 2,
        "checked": sum(f["checked"] for f in files),
    }


def test_jobs_1_and_2_give_the_same_output(houou: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outputs = {}
    for style in ([], ["--jsonl"], ["--json"]):
        for jobs in ("1", "2"):
            code, out, _ = run(["verify", *style, "--jobs", jobs, str(houou)], capsys)
            outputs[(tuple(style), jobs)] = (code, out)
        assert outputs[(tuple(style), "1")] == outputs[(tuple(style), "2")]
    human = outputs[((), "1")][1]
    names = [
        m.group(1) for m in re.finditer(r"^(?:OK|MISMATCH|ERROR) +(\S+):", human, re.MULTILINE)
    ]
    assert names == [f"{houou}/{lid}" for lid in row_ids_in_order()]


def row_ids_in_order() -> list[str]:
    rows = [lid for lid, _ in fixture_rows(copies=2)]
    half = len(rows) // 2
    special = [row[0] for row, v in SPECIAL if v]
    return rows[:half] + special + rows[half:]


def test_tampered_row_mismatch_at_the_right_round(
    houou: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(["verify", "--jsonl", "--failures-only", str(houou)], capsys)
    files, _ = jsonl(out)
    bad = next(f for f in files if f["path"].endswith(TAMPERED_ID))
    finding = bad["findings"][0]
    assert (finding["code"], finding["round"]) == ("draw_mismatch", 2)
    assert finding["message"].startswith(
        "East 2, 1 honba: draw 55 of the round (seat 1, event 117)"
    )
    assert bad["game"]["log_id"] == TAMPERED_ID and bad["game"]["date"] == "2019-12-31T23:00+09:00"


def test_bad_rows_say_why(houou: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["verify", "--failures-only", str(houou)], capsys)
    assert re.search(
        r"^ERROR +\S+/2019123123gm-00a9-0000-bad0b220: the bz2 data is corrupt", out, re.MULTILINE
    )
    assert re.search(
        r"^ERROR +\S+/2019123123gm-00a9-0000-b0b0b0b0: the bz2 data expands beyond "
        r"16,777,216 bytes; refused as a likely bomb",
        out,
        re.MULTILINE,
    )
    assert re.search(rf"^MISMATCH +\S+/{TAMPERED_ID}: 7 rounds", out, re.MULTILINE)


# --- output forms ---------------------------------------------------------------------------


def test_jsonl_lines_are_the_json_file_entries(
    houou: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out_l, _ = run(["verify", "--jsonl", "--jobs", "1", str(houou)], capsys)
    _, out_j, _ = run(["verify", "--json", "--jobs", "1", str(houou)], capsys)
    files, summary = jsonl(out_l)
    doc = json.loads(out_j)
    assert files == doc["files"] and summary == doc["summary"]
    assert all("\n" not in line for line in out_l.splitlines())
    assert set(files[0]) == {"schema", "path", "status", "checked", "game", "rounds", "findings"}


def test_streamed_json_is_byte_for_byte_the_batch_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = fixture_paths()[:3]
    junk = tmp_path / "junk.xml"
    junk.write_bytes(b"<mjloggm> broken <")
    reports = [check_log(str(p), p.read_bytes()) for p in [*paths, junk]]
    expected = json.dumps(batch_dict(reports), ensure_ascii=False, indent=2) + "\n"
    _, out, _ = run(["verify", "--json", *map(str, paths), str(junk)], capsys)
    assert out == expected


def test_json_with_nothing_to_show_is_still_a_document(
    houou: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["verify", "--json", "--failures-only", str(TENHOU / "jim137")], capsys)
    assert code == 0
    assert json.loads(out) == {
        "schema": 2,
        "files": [],
        "summary": {"files": 4, "verified": 4, "mismatch": 0, "error": 0, "checked": 2214},
    }
    assert out == json.dumps(json.loads(out), indent=2) + "\n"


def test_failures_only_shows_failures_and_counts_everything(
    houou: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["verify", "--failures-only", str(houou)], capsys)
    lines = [line for line in out.splitlines() if not line.startswith("    ")]
    assert code == 2
    assert [line.split()[0] for line in lines[:-1]] == ["ERROR", "MISMATCH", "ERROR"]
    assert lines[-1] == (
        f"{2 * FIXTURES + 3} files: {2 * FIXTURES} verified, 1 mismatch, 2 error; "
        f"{total_checked(houou, capsys):,} tiles checked"
    )
    assert re.search(rf"pywall: {2 * FIXTURES + 3} logs in [\d.]+ s, [\d,]+ per second", err)


def total_checked(db: Path, capsys: pytest.CaptureFixture[str]) -> int:
    _, out, _ = run(["verify", "--jsonl", "--failures-only", str(db)], capsys)
    return int(jsonl(out)[1]["checked"])


# --- sources -------------------------------------------------------------------------------


def test_database_is_recognised_by_content_not_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = phoenix_db(tmp_path / "archive.bin", fixture_rows()[:3])
    fake = tmp_path / "fake.db"
    fake.write_text("just text")
    code, out, _ = run(["verify", str(db), str(fake)], capsys)
    assert code == 2
    assert out.count("\nOK ") + out.startswith("OK ") == 3
    assert re.search(r"^ERROR +\S+fake.db: not a Tenhou mjlog", out, re.MULTILINE)


def test_database_in_a_folder_is_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sub").mkdir()
    phoenix_db(tmp_path / "sub" / "y.sqlite", fixture_rows()[:2])
    code, out, _ = run(["verify", str(tmp_path)], capsys)
    assert code == 0 and f"sub/y.sqlite/{log_id(1)}" in out


@pytest.mark.parametrize(
    "schema,message",
    [
        ("CREATE TABLE games(id text)", "without the phoenix-logs table 'logs'"),
        ("CREATE TABLE logs(log_id text, log_content text)", "no column is_processed, was_error"),
    ],
    ids=["other-database", "wrong-columns"],
)
def test_not_a_phoenix_database_is_one_clear_error(
    tmp_path: Path, schema: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as conn:
        conn.execute(schema)
    code, out, _ = run(["verify", str(db), str(fixture_paths()[0])], capsys)
    assert code == 2
    assert out.splitlines()[0].startswith(f"ERROR     {db}: ")
    assert message in out.splitlines()[0]
    assert out.splitlines()[1].startswith("OK")


def test_a_database_is_never_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = phoenix_db(tmp_path / "a.db", fixture_rows()[:2])
    before = (db.read_bytes(), sorted(p.name for p in tmp_path.iterdir()))
    run(["verify", str(db)], capsys)
    assert (db.read_bytes(), sorted(p.name for p in tmp_path.iterdir())) == before


def test_zip_with_a_truncated_member(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "logs.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in fixture_paths()[:3]:
            zf.write(p, p.name)
    raw = bytearray(archive.read_bytes())
    second = raw.find(b"PK\x03\x04", 10)
    raw[second + 80 : second + 600] = bytes(520)
    archive.write_bytes(bytes(raw))
    code, out, _ = run(["verify", "--jobs", "2", str(archive)], capsys)
    verdicts = [line.split()[0] for line in out.splitlines()[:-1]]
    assert code == 2 and verdicts == ["OK", "ERROR", "OK"]
    assert "this zip member cannot be read" in out.splitlines()[1]


def test_jobs_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["verify", "--jobs", "0", str(fixture_paths()[0])], capsys)
    assert code == 2 and "--jobs" in err


# --- the worker pool ------------------------------------------------------------------------


def test_ordered_map_keeps_input_order_across_workers() -> None:
    items = list(range(-500, 0))
    assert list(ordered_map(abs, items, jobs=2, batch=7)) == [abs(i) for i in items]


def test_workers_collect_young_objects_less_often() -> None:
    """Each worker raises the collector's young-object threshold (``GC_YOUNG``); the
    parent keeps Python's."""
    asked = [gc.get_threshold] * 40
    answers = set(ordered_map(operator.call, asked, jobs=2, batch=4))
    assert answers == {(GC_YOUNG, 10, 10)}
    assert gc.get_threshold()[0] != GC_YOUNG


def test_ordered_map_keeps_order_when_one_worker_runs_ahead() -> None:
    """The first batch is slow: the other worker takes batch after batch meanwhile (up to
    the results that may wait), and everything still comes out in input order."""
    items = [40_000 + i for i in range(4)] + list(range(200))
    assert list(ordered_map(math.factorial, items, jobs=2, batch=4)) == [
        math.factorial(i) for i in items
    ]


def test_ordered_map_reads_its_input_only_as_far_as_needed() -> None:
    taken = count()

    def endless() -> Iterator[int]:
        while True:
            next(taken)
            yield -1

    results = ordered_map(abs, endless(), jobs=2, batch=10)
    assert list(islice(results, 25)) == [1] * 25
    results.close()  # stops the workers
    # The 3 batches read from and one in flight per worker at least; at most also 2 x jobs
    # finished batches waiting their turn (how many finished depends on the workers' timing:
    # when two answer in the same wait, both get a new batch).
    assert 10 * (3 + 2) <= next(taken) <= 10 * (3 + 2 + 2 * 2)


# --- progress ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "seconds,text",
    [(0, "0:00"), (65, "1:05"), (3723, "1:02:03"), (float("nan"), "--:--"), (10**9, "--:--")],
    ids=["zero", "minutes", "hours", "unknown", "absurd"],
)
def test_duration_text(seconds: float, text: str) -> None:
    assert duration_text(seconds) == text


def test_bar_text_has_count_rate_and_eta() -> None:
    assert (
        bar_text(250, 1000, 2.0) == f"[{'#' * 6}{'.' * 18}]  250/1,000   25%  125 games/s  ETA 0:06"
    )
    assert bar_text(1234, None, 2.0) == "1,234 games  617 games/s  0:02"


class FakeTerminal:
    def __init__(self, tty: bool) -> None:
        self.text = ""
        self.tty = tty

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return self.tty


def test_progress_draws_only_on_a_terminal_and_at_most_ten_times_a_second() -> None:
    assert not Progress.wanted(FakeTerminal(False), disabled=False)  # type: ignore[arg-type]
    assert not Progress.wanted(FakeTerminal(True), disabled=True)  # type: ignore[arg-type]
    term = FakeTerminal(True)
    clock = iter([0.0, 0.0, 0.05, 0.2, 0.21])
    bar = Progress(term, 100, Progress.wanted(term, False), clock=lambda: next(clock))  # type: ignore[arg-type]
    for done in (1, 2, 3, 4):
        bar.update(done)
    drawn = [m.group(1) for m in re.finditer(r"\]  (\d+)/100", term.text)]
    assert drawn == ["1", "3"]  # at 0.0 and 0.2 s; 0.05 and 0.21 are too soon
    bar.finish()
    assert term.text.endswith("\r\x1b[K")


def test_progress_is_quiet_when_stderr_is_not_a_terminal(houou: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pywall", "verify", "--failures-only", str(houou)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 2
    assert "\r" not in proc.stderr and "ETA" not in proc.stderr and "\x1b" not in proc.stdout


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_progress_bar_on_a_terminal(houou: Path) -> None:
    master, slave = os.openpty()
    try:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pywall",
                "verify",
                "--failures-only",
                "--jobs",
                "1",
                str(houou),
            ],
            stdout=subprocess.PIPE,
            stderr=slave,
            text=True,
            cwd=ROOT,
            check=False,
        )
        os.close(slave)
        shown = read_all(master)
    finally:
        os.close(master)
    assert proc.returncode == 2
    assert re.search(rf"\d+/{2 * FIXTURES + 3} +\d+% +[\d,]+ games/s +ETA \d+:\d\d", shown)
    assert "\x1b[K" in shown
    assert "\r" not in proc.stdout


def read_all(fd: int) -> str:
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO once the other end is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode(errors="replace")


def read_until(fd: int, marker: bytes) -> bytes:
    """Raw bytes from ``fd`` up to and including the first ``marker`` (or end of file)."""
    got = b""
    while marker not in got:
        chunk = os.read(fd, 1)
        if not chunk:
            break
        got += chunk
    return got


# --- Ctrl-C --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def big_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return phoenix_db(tmp_path_factory.mktemp("big") / "big.db", fixture_rows(copies=60))


def group_members(pgid: int) -> list[int]:
    """The other processes of process group ``pgid`` (Linux's /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != pgid:
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[2]) == pgid:
                out.append(int(entry.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="Linux's /proc")
def test_ctrl_c_while_the_worker_processes_start_is_clean(big_db: Path) -> None:
    # The moment the first helper process appears (multiprocessing's resource tracker or
    # fork server, still starting Python), Ctrl-C: it used to kill the fork server in its
    # start-up (a KeyboardInterrupt traceback, then EOFError in pywall) or a worker.
    proc = subprocess.Popen(
        [sys.executable, "-m", "pywall", "verify", "--jobs", "2", "--json", str(big_db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while not group_members(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    os.killpg(proc.pid, signal.SIGINT)
    out, err_bytes = proc.communicate(timeout=60)
    err = err_bytes.decode()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err and "Error" not in err, err
    if out.strip():
        doc = json.loads(out)
        assert doc["summary"]["interrupted"] is True and doc["summary"]["files"] == len(
            doc["files"]
        )


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX process groups")
def test_ctrl_c_pressed_again_while_stdout_is_full_leaves_a_whole_json_document(
    big_db: Path,
) -> None:
    # Nobody reads stdout for a second, so the run blocks writing an entry into a full
    # pipe; Ctrl-C then comes six times. A KeyboardInterrupt inside that write cut the
    # entry in two (the CI failure of test_ctrl_c_stops_cleanly_with_a_partial_summary[json]).
    proc = subprocess.Popen(
        [sys.executable, "-m", "pywall", "verify", "--jobs", "2", "--json", str(big_db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        start_new_session=True,
    )
    assert proc.stdout is not None
    first = read_until(proc.stdout.fileno(), b'"path"')
    time.sleep(1.0)
    for _ in range(6):
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(0.05)
    rest, err_bytes = proc.communicate(timeout=60)
    err = err_bytes.decode()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    doc = json.loads((first + rest).decode())
    assert doc["summary"]["interrupted"] is True
    assert doc["summary"]["files"] == len(doc["files"]) > 0
    assert all(f["status"] == "verified" for f in doc["files"])


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX process groups")
@pytest.mark.parametrize("style", ["human", "jsonl", "json"])
def test_ctrl_c_stops_cleanly_with_a_partial_summary(big_db: Path, style: str) -> None:
    flags = {"human": [], "jsonl": ["--jsonl"], "json": ["--json"]}[style]
    proc = subprocess.Popen(
        [sys.executable, "-m", "pywall", "verify", "--jobs", "2", *flags, str(big_db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        start_new_session=True,
    )
    assert proc.stdout is not None
    first = read_until(proc.stdout.fileno(), b'"path"' if style == "json" else b"\n")  # under way
    time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: parent and workers alike
    rest, err_bytes = proc.communicate(timeout=60)
    out, err = (first + rest).decode(), err_bytes.decode()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    total = 60 * FIXTURES
    if style == "human":
        m = re.search(
            r"^([\d,]+) files: ([\d,]+) verified, 0 mismatch, 0 error; [\d,]+ tiles checked "
            r"\(interrupted\)$",
            out,
            re.MULTILINE,
        )
        assert m and 0 < int(m.group(1).replace(",", "")) < total
        assert int(m.group(1).replace(",", "")) == out.count("\nOK ") + out.startswith("OK ")
    elif style == "jsonl":
        lines = [json.loads(line) for line in out.splitlines()]
        summary = lines[-1]["summary"]
        assert summary["interrupted"] is True and summary["files"] == len(lines) - 1 < total
    else:
        doc = json.loads(out)
        assert (
            doc["summary"]["interrupted"] is True
            and doc["summary"]["files"] == len(doc["files"]) < total
        )
