"""A stand-in for Tenhou's log server, for tests: real fixture logs, served on 127.0.0.1.

``GET /0/log/?LOG_ID`` answers as Tenhou's server does (200 with the log, 404 for an
id it does not hold) and, for the ids in ``HOSTILE``, as a failing or hostile server
would: 500s (always, or for the first tries), a slow answer, a gzip body (by the
transport or as a file), a body cut short, 20 MiB, a redirect to another host or to
the same one, a web page, a 403, an answer dripped a byte at a time, another game's
log, a 44-byte fake, a 503 or 429 with ``Retry-After``. Every request's time (``time.monotonic``, one clock
for the whole machine) and id are kept, so a test measures the client's pace from the
server's side. Only the loopback address is bound; every loop in it is bounded (the
slow answer sleeps at most ``SLOW_SECONDS``, the big body is 20 MiB in 1 MiB writes).
"""

from __future__ import annotations

import gzip
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.helpers import ROOT

TENHOU = ROOT / "tests" / "data" / "tenhou"
SLOW_SECONDS = 3.0
BIG = 20 * 1024 * 1024


def _python_bot_id(n: int) -> str:
    """tenhou-python-bot's fixtures come without their ids: each is served under one made up
    in Tenhou's form that fits the log (its GO type and lobby, a date of today's seeds), as
    the client accepts no other (the logs are real; only the address is the test's)."""
    text = (TENHOU / "tenhou-python-bot" / f"{n}.txt").read_text(encoding="utf-8")
    go = re.search(r'<GO type="([0-9]+)" lobby="([0-9]+)"', text)
    assert go is not None, n
    return f"2019010100gm-{int(go[1]):04x}-{int(go[2]):04d}-{n:08x}"


#: Real fixture logs by the id they are served under (jim137's are their own ids, gzip files).
FIXTURES: dict[str, Path] = {
    "2022060222gm-0001-0000-a87679bc": TENHOU
    / "jim137"
    / "2022060222gm-0001-0000-a87679bc_tw3.mjlog",
    "2022060223gm-0001-0000-b8e20009": TENHOU
    / "jim137"
    / "2022060223gm-0001-0000-b8e20009_tw2.mjlog",
    "2022060222gm-0001-0000-f47dd061": TENHOU
    / "jim137"
    / "2022060222gm-0001-0000-f47dd061_tw3.mjlog",
    "2022060400gm-0001-0000-d6c5c8e7": TENHOU
    / "jim137"
    / "2022060400gm-0001-0000-d6c5c8e7_tw3.mjlog",
    **{
        _python_bot_id(n): TENHOU / "tenhou-python-bot" / f"{n}.txt"
        for n in (1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18)
    },
}

#: Ids the server answers badly, by what it does (those answered with a log have its GO
#: type and lobby: PLAIN's).
HOSTILE = {
    "fail": "2020010100gm-0001-7994-00000500",  # 500, always
    "flaky": "2020010100gm-0001-7994-00000501",  # 500 twice, then the log
    "slow": "2020010100gm-0001-7994-0000510e",  # the log after SLOW_SECONDS
    "gzip": "2020010100gm-0001-7994-000006a1",  # the log, Content-Encoding: gzip
    "cut": "2020010100gm-0001-7994-00000c07",  # half the log, Content-Length says all
    "big": "2020010100gm-0001-7994-0000b160",  # 20 MiB, announced
    "big_unannounced": "2020010100gm-0001-7994-0000b161",  # 20 MiB, no Content-Length
    "away": "2020010100gm-0001-7994-00000302",  # a redirect to another host
    "here": "2020010100gm-0001-7994-00000303",  # a redirect to a fixture on this server
    "page": "2020010100gm-0001-7994-00000200",  # a web page, 200
    "forbidden": "2020010100gm-0001-7994-00000403",  # 403
    "bomb": "2020010100gm-0001-7994-000000b0",  # gzip that inflates past the cap
    "drip": "2020010100gm-0001-7994-00000d1b",  # the answer, a byte every DRIP_SECONDS
    "other": "2019010100gm-00a9-0000-00000001",  # another game's log (type 1, not 0xa9)
    "old": "2008100100gm-0001-7994-00000001",  # a log of today's seeds under a 2008 id
    "fake": "2020010100gm-0001-7994-00000044",  # 44 bytes, <mjloggm> to </mjloggm>
    "later": "2020010100gm-0001-7994-00000e10",  # 503, Retry-After: 3600
    "soon": "2020010100gm-0001-7994-00000002",  # 429, Retry-After: 2, then the log
    "soon_date": "2020010100gm-0001-7994-00000003",  # 503, Retry-After: a date 3 s on
}
#: The fake log: well formed, 44 bytes, no game in it.
FAKE = b'<mjloggm ver="2.3"><GO type="1"/></mjloggm>\n'
DRIP_SECONDS = 0.5
#: The most bytes dripped (the client hangs up long before: this bounds the thread).
DRIP_BYTES = 60
UNKNOWN = "2020010100gm-0001-7994-00000404"


def fixture_bytes(game_id: str) -> bytes:
    """The log as a file holds it (gzip or plain)."""
    return FIXTURES[game_id].read_bytes()


def fixture_log(game_id: str) -> bytes:
    """The plain mjlog (what the cache keeps)."""
    data = fixture_bytes(game_id)
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


@dataclass
class StandIn:
    """The running server: its address (the setting's value) and what it was asked."""

    port: int
    requests: list[tuple[float, str]] = field(default_factory=list)
    tries: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: how long each dripped answer went on before the client hung up, in seconds
    dripped: list[float] = field(default_factory=list)
    #: from this request on (1 = the first), each answer waits for ``release`` (a test
    #: that must act while the client waits: Ctrl-C mid-run, never after the run ended)
    hold_from: int | None = None
    release: threading.Event = field(default_factory=threading.Event)

    @property
    def log_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/0/log/?"

    def asked(self, game_id: str | None = None) -> list[str]:
        with self.lock:
            return [g for _, g in self.requests if game_id in (None, g)]

    def times(self) -> list[float]:
        with self.lock:
            return [t for t, _ in self.requests]


PLAIN = fixture_log(_python_bot_id(1))


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        stand_in = self.server.stand_in
        path, _, game_id = self.path.partition("?")
        with stand_in.lock:
            stand_in.requests.append((time.monotonic(), game_id))
            stand_in.tries[game_id] = tries = stand_in.tries.get(game_id, 0) + 1
            held = stand_in.hold_from is not None and len(stand_in.requests) >= stand_in.hold_from
        if held:
            stand_in.release.wait(30)
        if path != "/0/log/":
            self._send(404, b"not here")
        elif game_id in FIXTURES:
            self._send(200, fixture_bytes(game_id))
        else:
            self._hostile(game_id, tries)

    def _hostile(self, game_id: str, tries: int) -> None:
        h = HOSTILE
        if game_id == h["fail"] or (game_id == h["flaky"] and tries <= 2):
            self._send(500, b"Internal Server Error")
        elif game_id == h["flaky"]:
            self._send(200, PLAIN)
        elif game_id == h["slow"]:
            time.sleep(SLOW_SECONDS)
            self._send(200, PLAIN)
        elif game_id == h["gzip"]:
            self._send(200, gzip.compress(PLAIN), {"Content-Encoding": "gzip"})
        elif game_id == h["cut"]:
            self._send(200, PLAIN[: len(PLAIN) // 2], {"Content-Length": str(len(PLAIN))})
        elif game_id in (h["big"], h["big_unannounced"]):
            self._big(announced=game_id == h["big"])
        elif game_id in (h["away"], h["here"]):
            to = (
                "http://example.invalid/0/log/?" + game_id
                if game_id == h["away"]
                else f"{stand_in_url(self)}{_python_bot_id(2)}"
            )
            self._send(302, b"", {"Location": to})
        elif game_id == h["page"]:
            self._send(200, b"<!DOCTYPE html><html><body>Tenhou</body></html>")
        elif game_id == h["forbidden"]:
            self._send(403, b"Forbidden")
        elif game_id == h["bomb"]:
            self._send(200, gzip.compress(b"<mjloggm" + b" " * (17 * 1024 * 1024)))
        else:
            self._hostile_more(game_id, tries)

    def _hostile_more(self, game_id: str, tries: int) -> None:
        h = HOSTILE
        if game_id == h["drip"]:
            self._drip()
        elif game_id == h["other"]:
            self._send(200, fixture_log("2022060222gm-0001-0000-a87679bc"))
        elif game_id == h["old"]:
            self._send(200, PLAIN)
        elif game_id == h["fake"]:
            self._send(200, FAKE)
        elif game_id == h["later"]:
            self._send(503, b"Service Unavailable", {"Retry-After": "3600"})
        elif game_id in (h["soon"], h["soon_date"]) and tries == 1:
            after = "2" if game_id == h["soon"] else formatdate(time.time() + 3, usegmt=True)
            self._send(429 if game_id == h["soon"] else 503, b"later", {"Retry-After": after})
        elif game_id in (h["soon"], h["soon_date"]):
            self._send(200, PLAIN)
        else:
            self._send(404, b"Not Found")

    def _send(self, code: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        headers = {"Content-Length": str(len(body)), **(headers or {})}
        self.send_response(code)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Connection", "close")
        self.end_headers()
        self._write(body)
        self.close_connection = True

    def _drip(self) -> None:
        """The whole answer, status line and headers too, a byte at a time."""
        answer = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(PLAIN) + PLAIN
        started = time.monotonic()
        for i in range(DRIP_BYTES):
            if not self._write(answer[i : i + 1]):
                break
            self.wfile.flush()
            time.sleep(DRIP_SECONDS)
        with self.server.stand_in.lock:
            self.server.stand_in.dripped.append(time.monotonic() - started)
        self.close_connection = True

    def _big(self, announced: bool) -> None:
        self.send_response(200)
        if announced:
            self.send_header("Content-Length", str(BIG))
        self.send_header("Connection", "close")
        self.end_headers()
        chunk = b"<mjloggm>" + b" " * (1024 * 1024 - 9)
        for _ in range(BIG // len(chunk)):
            if not self._write(chunk):
                break
        self.close_connection = True

    def _write(self, data: bytes) -> bool:
        try:
            self.wfile.write(data)
            return True
        except (BrokenPipeError, ConnectionResetError):
            return False


def stand_in_url(handler: _Handler) -> str:
    return handler.server.stand_in.log_url


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    stand_in: StandIn


@contextmanager
def serving() -> Iterator[StandIn]:
    """The stand-in, on a free port of 127.0.0.1, for the block's length."""
    server = _Server(("127.0.0.1", 0), _Handler)
    server.stand_in = StandIn(server.server_address[1])
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield server.stand_in
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


# --- tenhou.net as a browser meets it (the page's list exchange) -----------------------------


class TenhouSite(ThreadingHTTPServer):
    """tenhou.net for a browser: /0/log/?ID (the fixtures, as files hold them; 404 for
    others), a page listing ``listed`` games (/list), any other path a viewer-like page.
    It answers requests sent to it directly (a browser mapping tenhou.net to it) and as an
    HTTP proxy (``GET http://tenhou.net/... HTTP/1.1``), so an engine that can map no host
    reaches it through its proxy setting. Each log request's time and id are kept."""

    daemon_threads = True

    def __init__(self, listed: list[str]) -> None:
        super().__init__(("127.0.0.1", 0), _SiteHandler)
        self.listed = listed
        self.asked: list[tuple[float, str]] = []

    @property
    def port(self) -> int:
        return int(self.server_address[1])


class _SiteHandler(BaseHTTPRequestHandler):
    server: TenhouSite

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        path = self.path
        if path.startswith("http://"):  # as a proxy: only tenhou.net is served
            host, _, rest = path.removeprefix("http://").partition("/")
            if host != "tenhou.net":
                self._send(502, b"not tenhou.net", "text/plain")
                return
            path = "/" + rest
        if path.startswith("/0/log/?"):
            game = path.split("?", 1)[1]
            self.server.asked.append((time.monotonic(), game))
            if game not in FIXTURES:
                self._send(404, b"Not Found", "text/plain")
            else:
                self._send(200, fixture_bytes(game), "text/xml")
        elif path == "/list":
            rows = "".join(
                f'<li><a href="/0/?log={g}&amp;tw=2">{g}</a></li>' for g in self.server.listed
            )
            self._send(
                200, f"<!doctype html><title>my games</title><ol>{rows}</ol>".encode(), "text/html"
            )
        else:
            self._send(200, b"<!doctype html><title>tenhou.net</title><p>Tenhou</p>", "text/html")

    def _send(self, code: int, body: bytes, ctype: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def tenhou_site(listed: list[str]) -> Iterator[TenhouSite]:
    server = TenhouSite(listed)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
