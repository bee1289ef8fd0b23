"""Issue 13 through the real command: every hostile input gives a report or a clear
message with the documented exit code, in bounded time and memory, and never loses
the rest of a batch. Subprocess runs have generous limits (60 s, 300 MB) that catch
hangs and blow-ups; measured figures are in benchmarks/bench_hostile.py."""

from __future__ import annotations

import gzip
import io
import json
import os
import resource
import sqlite3
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pywall.cli import main
from pywall.cli.output import EXIT_OUTPUT, escaped
from tests.helpers import ROOT, TENHOU, fixture_paths, log_text

LOG = TENHOU / "tenhou-python-bot" / "1.txt"
TIMEOUT = 60
MAX_RSS_MB = 300
HASH = "a" * 128


@dataclass
class Run:
    code: int
    out: str
    err: str
    rss_mb: float


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        kids.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    return kids


def _hwm_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class PeakWatcher(threading.Thread):
    """The largest peak RSS (VmHWM) of any process in ``pid``'s tree while it runs.

    (``ru_maxrss`` from ``wait4`` would not do: after exec it still counts the
    forking parent's size, the test runner's.)
    """

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.done = pid, 0.0, threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.05):
            kids, tree = _children(), [self.pid]
            for pid in tree:
                tree.extend(kids.get(pid, []))
            self.peak = max([self.peak, *map(_hwm_mb, tree)])


def cli(
    *args: str, stdin: bytes = b"", stdout_path: str | None = None, timeout: float = TIMEOUT
) -> Run:
    """``python -m pywall ARGS`` with a time limit; the peak RSS of any process in its tree."""
    out_file = open(stdout_path, "wb") if stdout_path else None  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "pywall", *args],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=out_file or subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_limit_memory,  # noqa: PLW1509 (it only calls setrlimit)
    )
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    watcher = PeakWatcher(proc.pid)
    watcher.start()
    got: dict[str, bytes] = {}
    readers = [
        threading.Thread(target=lambda k=k, f=f: got.__setitem__(k, f.read()))
        for k, f in (("out", proc.stdout), ("err", proc.stderr))
        if f is not None
    ]
    for r in readers:
        r.start()
    try:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
        for r in readers:
            r.join()
        proc.wait()
    finally:
        watcher.done.set()
        timer.cancel()
        if out_file:
            out_file.close()
    assert proc.returncode != -9, f"pywall {' '.join(args)[:200]} ran over {timeout} s"
    out, err = got.get("out", b""), got.get("err", b"")
    return Run(
        proc.returncode,
        out.decode("utf-8", "replace"),
        err.decode("utf-8", "replace"),
        watcher.peak,
    )


def _limit_memory() -> None:
    """A hard stop (2 GB of address space) so a blow-up fails the test, not the machine."""
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def assert_clean(run: Run) -> None:
    assert "Traceback" not in run.err, run.err[-2000:]
    assert run.code in (0, 1, 2, EXIT_OUTPUT, 130)


# --- item 1 -------------------------------------------------------------------------------------


def test_superscript_digit_in_a_tag_is_a_clear_message(tmp_path: Path) -> None:
    bad = tmp_path / "a.xml"
    bad.write_bytes(b"<mjloggm><INIT/><T\xc2\xb2/>")
    run = cli("commitment", str(bad), "--hash", HASH)
    assert_clean(run)
    assert run.code == 2 and run.err.startswith("pywall: ")


# --- item 2 -------------------------------------------------------------------------------------


def test_a_late_go_tag_loses_nothing_else_in_verify_and_audit(tmp_path: Path) -> None:
    text = log_text(LOG)
    at = text.rindex("<INIT")
    (tmp_path / "a-late-go.xml").write_text(text[:at] + '<GO type="16"/>' + text[at:])
    for p in fixture_paths()[:3]:
        (tmp_path / p.name).write_bytes(p.read_bytes())
    run = cli("verify", "--jobs", "1", str(tmp_path))
    assert_clean(run)
    assert run.code == 2 and "player count changes" in run.out and run.out.count("\nOK") >= 2
    audit = cli("audit", "--json", str(tmp_path))
    assert_clean(audit)
    excluded = json.loads(audit.out)["games"]["excluded"] if audit.code == 0 else []
    assert audit.code in (0, 2)
    assert not excluded or any("a-late-go" in e["path"] for e in excluded)


# --- item 3 -------------------------------------------------------------------------------------


def lzma_zip_with_a_corrupt_member(path: Path) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_LZMA) as zf:
        zf.writestr("a-good.xml", log_text(LOG))
        zf.writestr("b-bad.xml", log_text(LOG))
        zf.writestr("c-good.xml", log_text(LOG))
    raw = bytearray(path.read_bytes())
    second = raw.find(b"PK\x03\x04", 10)
    raw[second + 60 : second + 400] = b"\xff" * 340
    path.write_bytes(bytes(raw))
    return path


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_corrupt_lzma_member_is_one_error_and_the_others_are_checked(
    tmp_path: Path, jobs: str
) -> None:
    archive = lzma_zip_with_a_corrupt_member(tmp_path / "logs.zip")
    run = cli("verify", "--jobs", jobs, str(archive), str(LOG))
    assert_clean(run)
    verdicts = [line.split()[0] for line in run.out.splitlines()[:-1]]
    assert run.code == 2 and verdicts == ["OK", "ERROR", "OK", "OK"], run.out


# --- item 4 -------------------------------------------------------------------------------------


def test_a_full_disk_is_a_clear_message_and_its_own_exit_code() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    run = cli("verify", str(TENHOU), stdout_path="/dev/full")
    assert_clean(run)
    assert run.code == EXIT_OUTPUT and "cannot write the output" in run.err


def test_a_pipe_closed_early_is_not_success(tmp_path: Path) -> None:
    for i in range(300):
        (tmp_path / f"{i:03}.xml").write_bytes(LOG.read_bytes())
    proc = subprocess.Popen(
        [sys.executable, "-m", "pywall", "verify", "--jobs", "1", str(tmp_path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # as `| head -1` does
    err = proc.stderr.read().decode()
    assert proc.wait(TIMEOUT) == EXIT_OUTPUT
    assert "Traceback" not in err and "cannot write the output" in err


def test_write_errors_in_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Full(io.StringIO):
        def write(self, s: str) -> int:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(sys, "stdout", Full())
    assert main(["verify", str(LOG)]) == EXIT_OUTPUT
    assert "No space left on device" in capsys.readouterr().err


# --- item 6 -------------------------------------------------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def test_a_fifo_argument_is_refused_without_blocking(fifo: Path) -> None:
    run = cli("verify", str(fifo), str(LOG), timeout=30)
    assert_clean(run)
    assert run.code == 2 and "a FIFO, not a regular file" in run.out and "\nOK" in run.out


def test_a_fifo_in_a_folder_is_skipped_with_its_reason(tmp_path: Path, fifo: Path) -> None:
    (tmp_path / "a.xml").write_bytes(LOG.read_bytes())
    run = cli("verify", str(tmp_path), timeout=30)
    assert_clean(run)
    assert run.code == 0 and run.out.startswith("OK") and "not a regular file (a FIFO)" in run.err


@pytest.mark.parametrize(
    "args",
    [
        ["commitment", str(LOG), "--list", "{fifo}"],
        ["commitment", "{fifo}", "--hash", HASH],
        ["majsoul", "{fifo}"],
        ["wall", "@{fifo}"],
        ["audit", "{fifo}"],
    ],
    ids=["commitment-list", "commitment-log", "majsoul", "wall", "audit"],
)
def test_every_command_refuses_a_fifo(fifo: Path, args: list[str]) -> None:
    run = cli(*[a.format(fifo=fifo) for a in args], timeout=30)
    assert_clean(run)
    assert run.code == 2 and ("FIFO" in run.err or "FIFO" in run.out)


# --- items 7, 10, 17: databases -----------------------------------------------------------------


def test_a_recursive_view_is_refused_at_once(tmp_path: Path) -> None:
    db = tmp_path / "view.db"
    with sqlite3.connect(db) as conn:
        conn.execute(
            "CREATE VIEW logs(log_id, is_processed, was_error, log_content) AS "
            "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) "
            "SELECT x, 1, 0, 'a' FROM r"
        )
    run = cli("verify", str(db), str(LOG), timeout=30)
    assert_clean(run)
    assert run.code == 2 and "'logs' is a view, not a table" in run.out and "\nOK" in run.out


def test_text_rows_of_four_byte_characters_are_measured_in_bytes(tmp_path: Path) -> None:
    db = tmp_path / "wide.db"
    with sqlite3.connect(db) as conn:
        conn.execute(
            "CREATE TABLE logs(log_id text, is_processed int, was_error int, log_content text)"
        )
        wide = "\U0001f004" * (6 * 1024 * 1024)  # 6 Mi characters, 24 MiB of UTF-8
        conn.executemany(
            "INSERT INTO logs VALUES (?, 1, 0, ?)", [(f"g{i}", wide) for i in range(8)]
        )
        conn.execute("INSERT INTO logs VALUES ('ok', 1, 0, ?)", (log_text(LOG),))
    run = cli("verify", "--jobs", "2", str(db))
    assert_clean(run)
    assert run.code == 2 and run.out.count("the cap is") == 8 and "ok: " in run.out
    assert run.rss_mb < MAX_RSS_MB


def test_a_wal_database_is_read_without_writing_beside_it(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "wal.db"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(
            "CREATE TABLE logs(log_id text, is_processed int, was_error int, log_content text)"
        )
        conn.execute("INSERT INTO logs VALUES ('g', 1, 0, ?)", (log_text(LOG),))
    conn.close()
    before = sorted(p.name for p in folder.iterdir())
    folder.chmod(0o555)
    try:
        run = cli("verify", str(db))
    finally:
        folder.chmod(0o755)
    assert_clean(run)
    assert run.code == 0 and sorted(p.name for p in folder.iterdir()) == before == ["wal.db"]


# --- items 11 -----------------------------------------------------------------------------------


def overlapping_zip(path: Path, entries: int = 2000) -> Path:
    """One 16 MiB member, and ``entries`` central-directory entries that all point at it."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("m.xml", b"<mjloggm>" + b" " * (16 * 1024 * 1024 - 9))
    raw = buf.getvalue()
    cd_at = raw.rfind(b"PK\x01\x02")
    eocd_at = raw.rfind(b"PK\x05\x06")
    cd = raw[cd_at:eocd_at]
    many = b"".join(cd.replace(b"m.xml", f"{i:05}".encode()[:5]) for i in range(entries))
    eocd = bytearray(raw[eocd_at : eocd_at + 22])
    eocd[8:10] = eocd[10:12] = entries.to_bytes(2, "little")
    eocd[12:16] = len(many).to_bytes(4, "little")
    eocd[16:20] = cd_at.to_bytes(4, "little")
    path.write_bytes(raw[:cd_at] + many + bytes(eocd))
    return path


def test_overlapping_zip_entries_are_refused_quickly(tmp_path: Path) -> None:
    archive = overlapping_zip(tmp_path / "overlap.zip")
    run = cli("verify", str(archive), str(LOG))
    assert_clean(run)
    assert run.code == 2 and "point at the same bytes" in run.out and "\nOK" in run.out
    assert run.rss_mb < MAX_RSS_MB


def test_many_maximal_members_keep_memory_flat(tmp_path: Path) -> None:
    archive = tmp_path / "big.zip"
    member = b"<mjloggm>" + b"<!-- -->" * (2 * 1024 * 1024 - 2)  # just under 16 MiB
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(40):
            zf.writestr(f"{i:03}.xml", member)
    run = cli("verify", "--jobs", "2", "--jsonl", str(archive))
    assert_clean(run)
    assert run.code == 2 and run.out.count('"status":"error"') == 40
    assert run.rss_mb < MAX_RSS_MB


# --- item 12 ------------------------------------------------------------------------------------


def test_a_log_of_millions_of_draws_is_bounded(tmp_path: Path) -> None:
    text = log_text(LOG)
    init_end = text.index(">", text.index("<INIT")) + 1
    draws = "<T0/>" * ((16 * 1024 * 1024 - init_end - 20) // 5)
    big = tmp_path / "draws.xml"
    big.write_text(text[:init_end] + draws + "</mjloggm>")
    for style in ([], ["--jsonl"]):
        run = cli("verify", *style, str(big), stdout_path=str(tmp_path / "out"))
        assert_clean(run)
        assert run.code in (1, 2)
        assert (tmp_path / "out").stat().st_size < 1024 * 1024
        assert run.rss_mb < MAX_RSS_MB


# --- item 13 ------------------------------------------------------------------------------------


def test_an_unreadable_folder_is_an_error_not_a_silent_gap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.xml").write_bytes(LOG.read_bytes())
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "b.xml").write_bytes(LOG.read_bytes())
    real = os.scandir

    def scandir(path: str | os.PathLike[str]) -> Iterator[os.DirEntry[str]]:
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr("pywall.inputs.files.os.scandir", scandir)
    assert main(["verify", str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert "ERROR" in out and "locked: cannot search this folder: Permission denied" in out


def test_symlinked_folders_are_followed_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "a.xml").write_bytes(LOG.read_bytes())
    (tmp_path / "link").symlink_to(real)
    (real / "loop").symlink_to(tmp_path)
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    assert main(["verify", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert out.count("OK ") == 1
    assert "a link to a folder already searched" in err and "a broken symbolic link" in err


# --- item 14 ------------------------------------------------------------------------------------


def test_control_and_bidi_characters_are_escaped_for_people(tmp_path: Path) -> None:
    name = "x\nOK        forged.xml: 9 rounds, 999 tiles checked\x1b]0;owned\x07\u202eevil.xml"
    archive = tmp_path / "e.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(name, b"not a log")
    run = cli("verify", str(archive))
    assert run.code == 2
    assert "\x1b" not in run.out and "\u202e" not in run.out and "\x07" not in run.out
    assert len(run.out.splitlines()) == 2 and "\\x1b]0;owned\\x07\\u202eevil.xml" in run.out
    exact = cli("verify", "--jsonl", str(archive))
    assert json.loads(exact.out.splitlines()[0])["path"] == f"{archive}/{name}"


def test_player_names_are_escaped_in_commitment(tmp_path: Path) -> None:
    text = log_text(LOG)
    start = text.index('n0="') + 4
    log = tmp_path / "names.xml"
    log.write_text(text[:start] + "%1B%5D0%3Bx%07%E2%80%AE" + text[text.index('"', start) :])
    run = cli("commitment", str(log), "--hash", HASH)
    assert run.code == 1 and "\x1b" not in run.out and "\\x1b]0;x\\x07\\u202e" in run.out


@pytest.mark.parametrize(
    "text,shown",
    [("a\x1bb", "a\\x1bb"), ("\u202e", "\\u202e"), ("ok", "ok"), ("\x9b", "\\x9b"), ("東", "東")],
    ids=repr,
)
def test_escaped(text: str, shown: str) -> None:
    assert escaped(text) == shown


# --- item 16 ------------------------------------------------------------------------------------


def test_mj_accepts_a_seed_of_dashes(capsys: pytest.CaptureFixture[str]) -> None:
    seeds = ["-" * 27, "a" * 27, "b" * 27, "c" * 27]
    assert main(["mj", "--uncertainty", "1", *seeds]) == 0
    assert main(["mj", *seeds, "--uncertainty", "1", "--json"]) == 0
    assert "unrecognized" not in capsys.readouterr().err


def test_gzip_of_many_empty_members_is_refused_quickly(tmp_path: Path) -> None:
    member = gzip.compress(b"", mtime=0)
    bomb = tmp_path / "members.mjlog"
    bomb.write_bytes(member * (16 * 1024 * 1024 // len(member)))
    run = cli("verify", str(bomb), str(LOG))
    assert_clean(run)
    assert run.code == 2 and "gzip streams" in run.out
