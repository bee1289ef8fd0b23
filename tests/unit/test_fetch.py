"""``pywall fetch`` and the games ``verify`` and ``audit`` fetch: real fixture logs served
by a stand-in for Tenhou's log server on 127.0.0.1 (tests/tenhou_server.py), no network.

Each request is at least a second after the one before (the client's rule), so these
tests take seconds: the lists are kept short, and the hostile answers share one run.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise
from pathlib import Path

import pytest

from pywall.cli import main
from pywall.cli.games import game_of_word
from pywall.inputs.files import write_atomically
from pywall.inputs.log_cache import TURNS_FILE
from pywall.inputs.tenhou_logs import FetchError, LogServer
from tests.helpers import ROOT
from tests.tenhou_server import (
    FAKE,
    FIXTURES,
    HOSTILE,
    PLAIN,
    UNKNOWN,
    StandIn,
    fixture_log,
    serving,
)
from tests.unit.test_links import hide

IDS = list(FIXTURES)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandIn]:
    with serving() as stand_in:
        monkeypatch.setenv("PYWALL_TENHOU_LOG_URL", stand_in.log_url)
        yield stand_in


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def cached(cache: Path) -> dict[str, bytes]:
    """Every file of the cache folder but the shared turn (``TURNS_FILE``), by stem."""
    return {p.stem: p.read_bytes() for p in cache.iterdir() if p.name != TURNS_FILE}


def assert_polite(stand_in: StandIn) -> None:
    times = stand_in.times()
    gaps = [b - a for a, b in pairwise(times)]
    # the client waits a second after each answer has ended: the server, which saw the
    # request before it answered, sees the next one a second or more later
    assert gaps and all(g >= 1.0 for g in gaps), gaps


def test_fetch_keeps_each_log_once_and_asks_once_a_second(
    server: StandIn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache, out = tmp_path / "cache", tmp_path / "out"
    # an id, a link with the id hidden (the real one is asked for), a python-bot log's id
    games = [IDS[0], f"https://tenhou.net/0/?log={hide(IDS[1])}&tw=2", IDS[4]]
    code, text, err = run(["fetch", "--cache", str(cache), "--out", str(out), *games], capsys)
    assert code == 0, err
    assert [line.split()[:2] for line in text.splitlines()[:3]] == [
        ["fetched", IDS[0]],
        ["fetched", IDS[1]],
        ["fetched", IDS[4]],
    ]
    assert "3 games: 3 fetched, 0 already in the cache, 0 failed" in text
    assert "one a second" in err
    # the gzip files (jim137) are kept inflated: the plain mjlog, byte for byte
    assert cached(cache) == {g: fixture_log(g) for g in (IDS[0], IDS[1], IDS[4])}
    assert cached(out) == cached(cache)
    assert server.asked() == [IDS[0], IDS[1], IDS[4]]
    assert_polite(server)
    code, text, _ = run(["fetch", "--cache", str(cache), IDS[1], IDS[0]], capsys)
    assert code == 0 and text.splitlines()[0].split()[:2] == ["cached", IDS[1]]
    assert "2 games: 0 fetched, 2 already in the cache" in text
    assert len(server.asked()) == 3  # nothing asked again


def test_every_hostile_answer_is_an_error_with_words_and_the_rest_are_kept(
    server: StandIn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    names = ["cut", "big", "big_unannounced", "away", "page", "forbidden", "bomb", "fail"]
    games = [HOSTILE[n] for n in names] + [UNKNOWN, HOSTILE["gzip"], HOSTILE["here"], IDS[6]]
    code, text, err = run(["fetch", "--cache", str(cache), *games], capsys)
    assert code == 2, err
    lines = {m[1]: m[2] for m in re.finditer(r"^ERROR +(\S+): (.*)$", text, re.MULTILINE)}
    words = {
        "cut": "the answer was cut short (5,651 bytes of 11,302), 3 times; try again later",
        "big": "the answer is over 16,777,216 bytes (20,971,520); pywall reads less",
        "big_unannounced": "the answer is over 16,777,216 bytes; pywall reads less",
        "away": "the log server sent the request elsewhere (http://example.invalid); not followed",
        "page": "the answer is not a Tenhou log (it starts '<!DOCTYPE html><html><bo')",
        "forbidden": "the log server refused it (HTTP 403 Forbidden)",
        "bomb": "the gzip data expands beyond 16,777,216 bytes; refused as a likely bomb",
        "fail": "the log server failed (HTTP 500), 3 times; try again later",
    }
    assert {name: lines[HOSTILE[name]] for name in names} == words
    assert lines[UNKNOWN] == (
        "not found on the log server: the game may still be running, or its id is wrong"
    )
    assert "12 games: 3 fetched, 0 already in the cache, 9 failed" in text
    # what was refused is not kept; what came whole is, and no temporary file stays
    assert cached(cache) == {
        HOSTILE["gzip"]: PLAIN,
        HOSTILE["here"]: fixture_log(IDS[5]),  # where the server sent the request
        IDS[6]: fixture_log(IDS[6]),
    }
    # 5xx and cut answers were tried three times, refusals and 404 once, the redirect
    # within the server followed in its own turn
    assert len(server.asked(HOSTILE["cut"])) == len(server.asked(HOSTILE["fail"])) == 3
    assert len(server.asked(HOSTILE["forbidden"])) == len(server.asked(UNKNOWN)) == 1
    assert server.asked(IDS[5]) == [IDS[5]]
    assert_polite(server)


def test_a_slow_answer_within_the_timeout_is_kept_and_past_it_is_tried_again(
    server: StandIn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = str(tmp_path / "cache")
    code, text, _ = run(["fetch", "--cache", cache, "--timeout", "8", HOSTILE["slow"]], capsys)
    assert code == 0 and text.startswith("fetched")
    code, text, _ = run(
        ["fetch", "--cache", cache + "2", "--timeout", "0.5", HOSTILE["slow"]], capsys
    )
    assert code == 2
    assert f"ERROR    {HOSTILE['slow']}: no answer in 0.5 s, 3 times; try again later" in text
    assert len(server.asked(HOSTILE["slow"])) == 4
    code, text, _ = run(["fetch", "--cache", cache, HOSTILE["flaky"]], capsys)
    assert code == 0 and text.startswith("fetched")  # two 500s, then the log
    assert len(server.asked(HOSTILE["flaky"])) == 3


def test_verify_takes_ids_links_and_lists_and_a_missing_game_is_an_error_row(
    server: StandIn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = tmp_path / "games.html"
    listing.write_text(
        f'<ul><li><a href="https://tenhou.net/0/?log={IDS[2]}&amp;tw=3">game</a></li>\n'
        f"<li>{UNKNOWN}</li><li>{IDS[0]} again: {IDS[0]}</li><li>2022060222gm-0001-00</li></ul>",
        encoding="utf-8",
    )
    cache = str(tmp_path / "cache")
    argv = ["verify", "--json", "--jobs", "1", "--cache", cache, IDS[0], "--from", str(listing)]
    code, text, err = run(argv, capsys)
    assert code == 2, err
    doc = json.loads(text)
    rows = [(f["path"], f["status"]) for f in doc["files"]]
    assert rows == [(IDS[0], "verified"), (IDS[2], "verified"), (UNKNOWN, "error")]
    assert "the game may still be running" in doc["files"][2]["findings"][0]["message"]
    assert f"{listing}: 3 games found (1 named again); 1 not understood" in err
    assert "not understood: '2022060222gm-0001-00' (not a whole Tenhou log id)" in err
    code, text, err = run([*argv[:-2], "--offline", "--from", str(listing)], capsys)
    doc = json.loads(text)
    assert [f["status"] for f in doc["files"]] == ["verified", "verified", "error"]
    assert doc["files"][2]["findings"][0]["message"] == (
        "not in the cache, and --offline: not fetched"
    )
    assert f"--offline: 1 game not in the cache ({cache}): {UNKNOWN}" in err
    assert server.asked() == [IDS[0], IDS[2], UNKNOWN]  # --offline asked nothing


def test_audit_of_a_list_of_ids_is_the_audit_of_the_files_and_asks_once(
    server: StandIn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = IDS[:8]
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(games) + "\n", encoding="utf-8")
    cache = str(tmp_path / "cache")
    argv = ["audit", "--json", "--jobs", "1", "--cache", cache, "--from", str(ids)]
    code, fetched, _ = run(argv, capsys)
    assert code == 0
    files = [str(FIXTURES[g]) for g in games]
    code, direct, _ = run(["audit", "--json", "--jobs", "1", *files], capsys)
    assert code == 0
    assert json.loads(fetched)["games"]["used"] == 8
    assert json.loads(fetched) == json.loads(direct)
    assert server.asked() == games
    code, again, err = run(argv, capsys)
    assert code == 0 and again == fetched and "fetching" not in err
    assert server.asked() == games  # the second run asked nothing


@contextmanager
def sigint_default() -> Iterator[None]:
    """Within the block SIGINT has its default handling and is not blocked, so a child
    started there does not inherit an ignored or blocked SIGINT (an exec keeps both: a
    test process started with SIGINT ignored, as a shell does for a job in the
    background, gave its children an ignored SIGINT, and the Ctrl-C test failed)."""
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    blocked = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        signal.signal(signal.SIGINT, handler)


def test_ctrl_c_keeps_whole_logs_and_the_next_run_goes_on(server: StandIn, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(IDS[:6]), encoding="utf-8")
    env = {**os.environ, "PYWALL_TENHOU_LOG_URL": server.log_url}
    argv = [sys.executable, "-m", "pywall", "fetch", "--cache", str(cache), "--from", str(ids)]
    with sigint_default():  # whatever this process inherited (SIG_IGN, SIGINT blocked)
        proc = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
    server.hold_from = 3  # the third answer waits: Ctrl-C lands mid-run, however slow the machine
    deadline = time.monotonic() + 30
    while len(server.asked()) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before its third request"
    proc.send_signal(signal.SIGINT)
    here = (signal.getsignal(signal.SIGINT), signal.pthread_sigmask(signal.SIG_BLOCK, []))
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    finally:
        server.release.set()
    assert proc.returncode == 130, f"{err}\n(this process's SIGINT handler and blocked set: {here})"
    assert "interrupted" in err and "the same command goes on from there" in err
    kept = cached(cache)
    assert 2 <= len(kept) <= 3 and all(kept[g] == fixture_log(g) for g in kept)
    first = len(server.asked())
    server.hold_from = None
    again = subprocess.run(
        argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert again.returncode == 0, again.stderr
    assert cached(cache) == {g: fixture_log(g) for g in IDS[:6]}
    assert server.asked()[first:] == [g for g in IDS[:6] if g not in kept]
    assert f"6 games: {6 - len(kept)} fetched, {len(kept)} already in the cache" in again.stdout


def test_a_list_of_100000_lines_is_refused_before_any_request(
    server: StandIn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(f"2022060222gm-0001-0000-{i:08x}" for i in range(100_000)))
    for command in ("fetch", "audit", "verify"):
        code, _, err = run([command, "--cache", str(tmp_path), "--from", str(ids)], capsys)
        assert code == 2
        assert "more than 1,000 games (100,000 log ids); pywall takes at most 1,000" in err
    assert server.asked() == []


@pytest.mark.parametrize(
    ("setting", "words"),
    [
        ("ftp://tenhou.net/0/log/?", "is not an http:// or https:// address"),
        ("http://127.0.0.1:9/0/log/?", "cannot reach the log server 127.0.0.1:9"),
    ],
    ids=["not-http", "nobody-there"],
)
def test_a_bad_server_setting_has_words(
    setting: str,
    words: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PYWALL_TENHOU_LOG_URL", setting)
    code, out, err = run(["verify", "--cache", str(tmp_path), IDS[0]], capsys)
    assert code == 2 and words in out + err


def test_a_word_is_a_path_when_it_exists_or_looks_like_one(tmp_path: Path) -> None:
    named = tmp_path / f"{IDS[0]}.mjlog"
    named.write_bytes(b"")
    assert game_of_word(str(named)) is None
    assert game_of_word(f"missing/{IDS[0]}.mjlog") is None
    assert game_of_word("notes.txt") is None
    found = game_of_word(f"https://tenhou.net/0/?log={IDS[0]}&tw=1")
    assert found is not None and (found.game_id, found.seat) == (IDS[0], 1)
    assert game_of_word(f"{IDS[0]}_tw2.mjlog") is not None  # no such file: the game


def test_no_input_at_all_has_words(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("verify", "audit", "fetch"):
        code, _, err = run([command], capsys)
        assert code == 2 and "--from FILE" in err
    code, _, err = run(["fetch", "hello.txt"], capsys)
    assert code == 2 and "not a Tenhou log id or link: hello.txt" in err


class Terminal(io.StringIO):
    """stderr as a terminal: the progress bar is drawn there."""

    def isatty(self) -> bool:
        return True


def test_the_progress_bar_is_drawn_only_on_a_terminal(
    server: StandIn,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    captured = sys.stderr
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["fetch", "--cache", str(tmp_path / "a"), IDS[0], IDS[4]]) == 0
    drawn = terminal.getvalue()
    assert "\r\x1b[K[############............]  1/2" in drawn
    assert "2/2" in drawn and drawn.endswith("\r\x1b[K")  # erased at the end
    assert "\x1b" not in capsys.readouterr().out  # the lines for people stay clean
    quiet = Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    assert main(["fetch", "--no-progress", "--cache", str(tmp_path / "b"), IDS[0]]) == 0
    assert "\x1b" not in quiet.getvalue() and "one a second" in quiet.getvalue()
    monkeypatch.setattr(sys, "stderr", captured)
    assert main(["fetch", "--cache", str(tmp_path / "c"), IDS[4]]) == 0
    assert "\x1b" not in capsys.readouterr().err  # not a terminal: no bar


# --- round five: the deadline, logs that fit their id, the cache's files, Retry-After --------


def test_an_answer_dripped_a_byte_at_a_time_is_given_up_at_the_deadline(
    server: StandIn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --timeout bounds each request as a whole: the headers and the body never come whole
    server_side = LogServer(server.log_url, timeout=1.5, sleep=lambda _: None)
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"^no answer in 1.5 s, 3 times; try again later$"):
        server_side.fetch(HOSTILE["drip"])
    assert time.monotonic() - started < 3 * 1.5 + 2.0
    assert len(server.asked(HOSTILE["drip"])) == 3
    # the server saw each hang up at the deadline (its next byte or two then failed)
    until = time.monotonic() + 5
    while len(server.dripped) < 3 and time.monotonic() < until:
        time.sleep(0.05)
    assert len(server.dripped) == 3 and all(d <= 1.5 + 1.5 for d in server.dripped), server.dripped
    code, text, _ = run(
        ["fetch", "--cache", str(tmp_path), "--timeout", "1", HOSTILE["drip"]], capsys
    )
    assert code == 2
    assert f"ERROR    {HOSTILE['drip']}: no answer in 1 s, 3 times; try again later" in text
    assert cached(tmp_path) == {}


def test_a_log_that_does_not_fit_its_id_is_an_error_and_is_not_kept(
    server: StandIn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    games = [HOSTILE["other"], HOSTILE["old"], HOSTILE["fake"], IDS[4]]
    code, text, err = run(["fetch", "--cache", str(cache), *games], capsys)
    assert code == 2, err
    lines = {m[1]: m[2] for m in re.finditer(r"^ERROR +(\S+): (.*)$", text, re.MULTILINE)}
    assert lines == {
        HOSTILE["other"]: "the answer is not this game's log: its rule is type 1 (4-player, "
        "Ippan lobby, East only, open tanyao, red fives), the id's is 169",
        HOSTILE["old"]: "the answer is not this game's log: its seed's format was not used "
        "in 2008-10, the id's date",
        HOSTILE["fake"]: "the answer does not read as a game (it has no round)",
    }
    assert len(FAKE) == 44
    assert cached(cache) == {IDS[4]: fixture_log(IDS[4])}  # only the log that fits
    code, text, _ = run(["fetch", "--cache", str(cache), *games], capsys)
    assert code == 2 and "4 games: 0 fetched, 1 already in the cache, 3 failed" in text
    assert all(len(server.asked(g)) == 2 for g in games[:3])  # not "cached": asked again
    argv = ["verify", "--json", "--offline", "--cache", str(cache), HOSTILE["other"], IDS[4]]
    code, text, _ = run(argv, capsys)
    assert [f["status"] for f in json.loads(text)["files"]] == ["error", "verified"]


def test_the_cache_follows_no_link_and_keeps_no_log_that_does_not_fit(
    server: StandIn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache, outside = tmp_path / "cache", tmp_path / "outside.xml"
    cache.mkdir()
    outside.write_bytes(fixture_log(IDS[0]))
    (cache / f"{IDS[0]}.xml").symlink_to(outside)  # a link planted as a cached log
    (cache / f"{IDS[4]}.xml").write_bytes(FAKE)  # a fake an earlier version kept
    (cache / f"{IDS[5]}.xml").write_bytes(fixture_log(IDS[6]))  # another game's log
    games = [IDS[0], IDS[4], IDS[5]]
    code, text, _ = run(["verify", "--json", "--offline", "--cache", str(cache), *games], capsys)
    words = [f["findings"][0]["message"] for f in json.loads(text)["files"]]
    assert code == 2 and words == [
        "not in the cache, and --offline: not fetched",
        (
            "the log in the cache does not read as a game (it has no round); "
            "pywall fetch asks for it again"
        ),
        (
            "the log in the cache is not this game's log: its rule is type 9 (4-player, Ippan "
            "lobby, East-South, open tanyao, red fives), the id's is 1; "
            "pywall fetch asks for it again"
        ),
    ]
    code, text, _ = run(["fetch", "--cache", str(cache), *games], capsys)
    assert code == 0 and "3 games: 3 fetched, 0 already in the cache, 0 failed" in text
    assert cached(cache) == {g: fixture_log(g) for g in games}
    assert not (cache / f"{IDS[0]}.xml").is_symlink()  # the link replaced, never written through
    assert outside.read_bytes() == fixture_log(IDS[0])


def test_a_link_planted_as_the_temporary_file_is_never_written_through(
    server: StandIn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache, outside = tmp_path / "cache", tmp_path / "outside.txt"
    cache.mkdir()
    outside.write_bytes(b"not yours")
    # the temporary name pywall used to write through (known in advance), and others
    for name in (f".part-{os.getpid()}-{IDS[0]}.xml", f".part-{IDS[0]}.xml"):
        (cache / name).symlink_to(outside)
    code, _, err = run(["fetch", "--cache", str(cache), IDS[0]], capsys)
    assert code == 0, err
    assert outside.read_bytes() == b"not yours"
    assert (cache / f"{IDS[0]}.xml").read_bytes() == fixture_log(IDS[0])
    target = tmp_path / "out" / "x.xml"
    write_atomically(target, b"1")
    write_atomically(target, b"2")
    assert target.read_bytes() == b"2" and [p.name for p in target.parent.iterdir()] == ["x.xml"]


def test_retry_after_is_honoured_and_past_a_minute_the_run_stops_naming_the_time(
    server: StandIn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = str(tmp_path / "cache")
    code, text, _ = run(["fetch", "--cache", cache, HOSTILE["soon"], HOSTILE["soon_date"]], capsys)
    assert code == 0, text
    for game_id, least in ((HOSTILE["soon"], 2.0), (HOSTILE["soon_date"], 1.5)):
        times = [t for t, g in server.requests if g == game_id]
        assert len(times) == 2 and times[1] - times[0] >= least, (game_id, times)
    games = [HOSTILE["later"], IDS[0], IDS[4]]
    code, text, err = run(["fetch", "--cache", cache, *games], capsys)
    assert code == 2
    stop = re.search(
        r"the log server asked pywall to wait 3,600 s \(Retry-After\): stopped; try again "
        r"after (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[+-]\d\d:\d\d)",
        text,
    )
    assert stop is not None, text
    assert stop[0] in err  # said as the run stops, not only in its line
    assert f"ERROR    {IDS[0]}: not asked: {stop[0]}" in text
    assert server.asked(HOSTILE["later"]) == [HOSTILE["later"]]  # once, never again
    assert IDS[0] not in server.asked() and IDS[4] not in server.asked()
    # the next run that shares the cache asks nothing before that time
    code, text, _ = run(["fetch", "--cache", cache, IDS[0]], capsys)
    assert code == 2 and "asked an earlier run to wait: try again after" in text
    assert IDS[0] not in server.asked()


def test_runs_that_share_a_cache_keep_one_request_a_second_between_them(
    server: StandIn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = str(tmp_path / "cache")
    for game_id in IDS[:3]:
        code, _, err = run(["fetch", "--cache", cache, game_id], capsys)
        assert code == 0, err
    assert server.asked() == IDS[:3]
    assert_polite(server)
    (tmp_path / "cache" / TURNS_FILE).write_text("not a time")  # a spoilt file: the usual pace
    code, _, err = run(["fetch", "--cache", cache, IDS[3]], capsys)
    assert code == 0, err
