"""Tenhou's log server, asked politely.

The only module that touches the network. A game's record (the mjlog XML) is at
the server's address with the log id appended (``https://tenhou.net/0/log/?LOG_ID``;
the CLI reads the address from ``PYWALL_TENHOU_LOG_URL`` so tests can point it at a
local server). ``LogServer.fetch`` asks for one log:

- at most one request a second, retries and redirects included (``INTERVAL``): a
  request starts a whole interval after the previous one ended, so the server sees
  them at least that far apart whatever the network's delays; with ``turns`` (a file
  in the log cache, ``log_cache.Turns``) runs that share a cache keep that pace too;
- one deadline for each request as a whole (``timeout``: connecting, the headers and
  the body together), kept by a timer that shuts the socket: a server that sends a
  byte now and then is given up on at the deadline as one that sends nothing;
- an answer of 5xx or 429, no answer in time, or an answer cut short is tried again
  after a pause that doubles (``BACKOFF``), at most ``RETRIES`` more times; a
  ``Retry-After`` (seconds or an HTTP date) sets the pause instead, and past
  ``MAX_RETRY_AFTER`` the run stops (``TryLater``, naming the time); a 404 (the game is
  still running, or the id is wrong), any other refusal, or an unreachable server is
  not tried again;
- a redirect is followed only to the same scheme and host, at most ``MAX_REDIRECTS``
  times, each request in its turn;
- at most ``MAX_INPUT_BYTES`` read (as for files), a gzip body (compressed by the
  transport or as a file) inflated within the same cap;
- the answer must be a whole mjlog (``<mjloggm`` to ``</mjloggm>``) that reads as a game
  and fits the id asked for (``checked_log``: its rule, lobby and seed format against
  the id's, ``formats.tenhou_rules.log_misfit``), else it is refused and nothing is kept.
"""

from __future__ import annotations

import email.utils
import http.client
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any, Protocol, Self
from urllib.parse import urljoin, urlsplit

from pywall.core.archives import MAX_INPUT_BYTES, gunzip_bounded, is_gzip
from pywall.core.errors import InputTooLargeError, PywallError
from pywall.core.version import VERSION as __version__
from pywall.formats.mjlog import parse
from pywall.formats.tenhou_rules import log_misfit

DEFAULT_LOG_URL = "https://tenhou.net/0/log/?"
INTERVAL = 1.0
TIMEOUT = 30.0
RETRIES = 2
BACKOFF = 2.0
#: The longest ``Retry-After`` waited for within a run; a longer one stops the run.
MAX_RETRY_AFTER = 60.0
#: A shared turn (``Turns``) further ahead than this is not believed (a clock put back, a
#: file written by hand): the request goes at the usual pace.
MAX_SHARED_WAIT = 24 * 3600.0
USER_AGENT = f"pywall/{__version__} (mahjong wall verifier; one request a second)"
NOT_FOUND = "not found on the log server: the game may still be running, or its id is wrong"


class FetchError(PywallError):
    """A log the server did not give: why, in words for the player."""

    code = "fetch_failed"


class NotFound(FetchError):
    code = "not_found"


class Refused(FetchError):
    code = "refused"


class NotALog(FetchError):
    code = "not_a_log"


class NotCached(FetchError):
    code = "not_cached"


class TryLater(FetchError):
    """The server asked for a pause longer than a run waits: no more requests this run."""

    code = "try_later"


class _Again(Exception):
    """A failure worth another try (5xx, 429, no answer in time, an answer cut short);
    ``after``: the pause the server asked for (``Retry-After``), in seconds."""

    def __init__(self, why: str, after: float | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.after = after


class Turns(Protocol):
    """When the next request may start (a wall-clock time), shared by runs."""

    def read(self) -> float: ...

    def write(self, at: float) -> None: ...


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """Redirects come back as ``HTTPError``: ``LogServer`` follows them itself, at its pace."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


REDIRECTS = (301, 302, 303, 307, 308)
MAX_REDIRECTS = 3


def check_base_url(url: str) -> str:
    """The server's address, if it is an http(s) address (else ``FetchError``)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise FetchError(
            f"the log server's address {url[:100]!r} (PYWALL_TENHOU_LOG_URL) is not an "
            "http:// or https:// address"
        )
    return url


def log_from_body(body: bytes, gzipped: bool) -> bytes:
    """The mjlog an answer carries (inflated), or why it is none."""
    if gzipped or is_gzip(body):
        try:
            body = gunzip_bounded(body, MAX_INPUT_BYTES)
        except InputTooLargeError:
            raise
        except PywallError as exc:
            raise NotALog(f"the answer is not a log ({exc.message})") from None
    head = body[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"<mjloggm"):
        shown = head[:24].decode("utf-8", "replace")
        raise NotALog(f"the answer is not a Tenhou log (it starts {shown!r})")
    if not body.rstrip().endswith(b"</mjloggm>"):
        raise _Again("the log ends early (no </mjloggm>)")
    return body


def checked_log(game_id: str, log: bytes, what: str = "the answer") -> bytes:
    """``log`` if it reads as a game and fits ``game_id`` (else ``NotALog``, with why,
    ``what`` naming the log)."""
    try:
        game = parse(log)
    except PywallError as exc:
        raise NotALog(f"{what} does not read as a game ({exc.message})") from None
    if not game.rounds:
        raise NotALog(f"{what} does not read as a game (it has no round)")
    misfit = log_misfit(game_id, game)
    if misfit:
        raise NotALog(f"{what} is not this game's log: {misfit}")
    return log


class LogServer:
    """Tenhou's log server (or a stand-in), one polite request at a time."""

    def __init__(
        self,
        base_url: str = DEFAULT_LOG_URL,
        timeout: float = TIMEOUT,
        interval: float = INTERVAL,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        turns: Turns | None = None,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.base_url = check_base_url(base_url)
        self.timeout = timeout
        self.interval = interval
        self.sleep = sleep
        self.clock = clock
        self.turns = turns
        self.wall_clock = wall_clock
        self.requests = 0
        self._last = float("-inf")
        self._not_before = 0.0  # a wall-clock time the server asked to wait for

    @property
    def host(self) -> str:
        return urlsplit(self.base_url).netloc

    def fetch(self, game_id: str) -> bytes:
        """The log of ``game_id`` (the plain mjlog, checked against the id), or
        ``FetchError`` with the reason (``TryLater``: ask nothing more this run)."""
        pause = BACKOFF
        for attempt in range(RETRIES + 1):
            try:
                return checked_log(game_id, self._following(self.base_url + game_id))
            except _Again as exc:
                wait = pause if exc.after is None else exc.after
                if wait > MAX_RETRY_AFTER:
                    raise self._stop(wait) from None
                if attempt == RETRIES:
                    raise FetchError(f"{exc.why}, {RETRIES + 1} times; try again later") from None
                self.sleep(wait)
                pause *= 2
        raise AssertionError("unreachable")  # pragma: no cover

    def _stop(self, wait: float) -> TryLater:
        self._not_before = self.wall_clock() + wait
        if self.turns is not None:
            self.turns.write(self._not_before)
        return TryLater(
            f"the log server asked pywall to wait {wait:,.0f} s (Retry-After): stopped; "
            f"try again after {_when(self._not_before)}"
        )

    def _wait_turn(self) -> None:
        wait = self._last + self.interval - self.clock()
        if self.turns is not None:
            shared = self.turns.read() - self.wall_clock()
            if shared > MAX_SHARED_WAIT:
                shared = 0.0
            if shared > MAX_RETRY_AFTER:
                raise TryLater(
                    "the log server asked an earlier run to wait: try again after "
                    f"{_when(self.wall_clock() + shared)}"
                )
            wait = max(wait, shared)
        if wait > 0:
            self.sleep(wait)
        self.requests += 1

    def _following(self, url: str) -> bytes:
        """The log at ``url``, redirects followed (same scheme and host only), each
        request in its turn."""
        for _ in range(MAX_REDIRECTS + 1):
            answer = self._once(url)
            if isinstance(answer, bytes):
                return answer
            new = urlsplit(urljoin(url, answer))
            old = urlsplit(url)
            if (old.scheme, old.netloc) != (new.scheme, new.netloc):
                raise Refused(
                    f"the log server sent the request elsewhere ({new.scheme}://"
                    f"{new.netloc[:80]}); not followed"
                )
            url = new.geturl()
        raise Refused(f"the log server sent the request on more than {MAX_REDIRECTS} times")

    def _once(self, url: str) -> bytes | str:
        """The log at ``url``, or where a redirect sends the request."""
        self._wait_turn()
        request = urllib.request.Request(
            url, headers={"User-Agent": USER_AGENT, "Accept-Encoding": "gzip"}
        )
        deadline = _Deadline(self.timeout)
        opener = urllib.request.build_opener(
            _NoRedirects(), _WatchedHTTP(deadline), _WatchedHTTPS(deadline)
        )
        try:
            with deadline, opener.open(request, timeout=self.timeout) as answer:
                body, gzipped = _read_capped(answer)
            if deadline.expired:
                raise _Again(self._no_answer)
        except urllib.error.HTTPError as exc:
            exc.close()
            location = exc.headers.get("Location") if exc.headers else None
            if exc.code in REDIRECTS and location:
                return str(location)
            after = _retry_after(exc.headers.get("Retry-After") if exc.headers else None, self)
            raise _refusal(exc.code, exc.reason, after) from None
        except _Again:
            if deadline.expired:
                raise _Again(self._no_answer) from None
            raise
        except (OSError, http.client.HTTPException) as exc:
            raise self._failure(exc, deadline.expired) from None
        finally:
            # the next request waits a whole interval after this one has ended: the
            # server sees them at least that far apart, however long each took
            self._last = self.clock()
            if self.turns is not None:
                self.turns.write(max(self.wall_clock() + self.interval, self._not_before))
        return log_from_body(body, gzipped)

    @property
    def _no_answer(self) -> str:
        return f"no answer in {self.timeout:g} s"

    def _failure(self, exc: Exception, expired: bool) -> Exception:
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        if expired or isinstance(reason, TimeoutError | socket.timeout):
            return _Again(self._no_answer)
        if isinstance(exc, urllib.error.URLError):
            return FetchError(f"cannot reach the log server {self.host} ({exc.reason})")
        if isinstance(exc, http.client.HTTPException | ConnectionError):
            return _Again(f"the answer was cut short ({type(exc).__name__})")
        return FetchError(f"cannot reach the log server {self.host} ({exc})")


def _refusal(code: int, reason: object, after: float | None) -> Exception:
    if code == 404:
        return NotFound(NOT_FOUND)
    if code >= 500 or code == 429:
        return _Again(f"the log server failed (HTTP {code})", after)
    return Refused(f"the log server refused it (HTTP {code} {str(reason)[:60]})")


def _retry_after(value: str | None, server: LogServer) -> float | None:
    """The seconds a ``Retry-After`` asks for (a number of seconds or an HTTP date),
    ``None`` when there is none or it cannot be read."""
    text = (value or "").strip()[:64]
    if text.isdigit():
        return float(min(int(text), 10**9))
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - server.wall_clock())


def _when(at: float) -> str:
    """A wall-clock time as people read it, with its offset from UTC."""
    try:
        return datetime.fromtimestamp(at).astimezone().isoformat(sep=" ", timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return "a long while"


def _read_capped(answer: http.client.HTTPResponse) -> tuple[bytes, bool]:
    length = answer.headers.get("Content-Length", "")
    if length.isdigit() and int(length) > MAX_INPUT_BYTES:
        raise InputTooLargeError(
            f"the answer is over {MAX_INPUT_BYTES:,} bytes ({int(length):,}); pywall reads less"
        )
    body = answer.read(MAX_INPUT_BYTES + 1)
    if len(body) > MAX_INPUT_BYTES:
        raise InputTooLargeError(f"the answer is over {MAX_INPUT_BYTES:,} bytes; pywall reads less")
    if answer.length:  # bytes the server announced and never sent
        raise _Again(f"the answer was cut short ({len(body):,} bytes of {int(length):,})")
    return body, answer.headers.get("Content-Encoding", "").strip().lower() == "gzip"


# --- one deadline for a whole request ----------------------------------------------------------


class _Deadline:
    """A request's deadline: at ``seconds`` every socket it opened is shut, which ends
    any read or connect under way (urllib's own timeout bounds each read only)."""

    def __init__(self, seconds: float) -> None:
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> Self:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            expired = self.expired
        if expired:
            _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _watched(
    base: type[http.client.HTTPConnection], deadline: _Deadline, *args: Any, **kwargs: Any
) -> http.client.HTTPConnection:
    """A connection whose sockets ``deadline`` watches."""
    conn = base(*args, **kwargs)
    make = conn._create_connection  # type: ignore[attr-defined]

    def create(*a: Any, **k: Any) -> socket.socket:
        sock: socket.socket = make(*a, **k)
        deadline.watch(sock)
        return sock

    conn._create_connection = create  # type: ignore[attr-defined]
    return conn


class _WatchedHTTP(urllib.request.HTTPHandler):
    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self.deadline = deadline

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(partial(_watched, http.client.HTTPConnection, self.deadline), req)


class _WatchedHTTPS(urllib.request.HTTPSHandler):
    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self.deadline = deadline

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(
            partial(_watched, http.client.HTTPSConnection, self.deadline),
            req,
            context=getattr(self, "_context", None),
        )
