"""Tenhou's log server, asked politely, and the cache that keeps what it gave.

The only module that touches the network. A game's record (the mjlog XML) is at
the server's address with the log id appended (``https://tenhou.net/0/log/?LOG_ID``;
the CLI reads the address from ``PYWALL_TENHOU_LOG_URL`` so tests can point it at a
local server). ``LogServer.fetch`` asks for one log:

- at most one request a second, retries and redirects included (``INTERVAL``): a
  request starts a whole interval after the previous one ended, so the server sees
  them at least that far apart whatever the network's delays;
- a timeout on each request; an answer of 5xx or 429, no answer in time, or an
  answer cut short is tried again after a pause that doubles (``BACKOFF``), at most
  ``RETRIES`` more times; a 404 (the game is still running, or the id is wrong), any
  other refusal, or an unreachable server is not;
- a redirect is followed only to the same scheme and host, at most ``MAX_REDIRECTS``
  times, each request in its turn;
- at most ``MAX_INPUT_BYTES`` read (as for files), a gzip body (compressed by the
  transport or as a file) inflated within the same cap;
- the answer must be a whole mjlog (``<mjloggm`` to ``</mjloggm>``), else it is
  refused and nothing is kept.

``LogCache`` keeps each log as ``LOG_ID.xml`` in a folder; a log there is never
fetched again. Each is written to a temporary file in the folder and renamed
into place, so a run stopped at any moment (Ctrl-C) leaves whole logs only, and
the next run goes on from where it stopped.
"""

from __future__ import annotations

import http.client
import os
import socket
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from pywall.core.archives import MAX_INPUT_BYTES, gunzip_bounded, is_gzip
from pywall.core.errors import InputTooLargeError, PywallError
from pywall.core.version import VERSION as __version__
from pywall.inputs.files import read_capped

DEFAULT_LOG_URL = "https://tenhou.net/0/log/?"
INTERVAL = 1.0
TIMEOUT = 30.0
RETRIES = 2
BACKOFF = 2.0
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


class _Again(Exception):
    """A failure worth another try (5xx, 429, no answer in time, an answer cut short)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


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


class LogServer:
    """Tenhou's log server (or a stand-in), one polite request at a time."""

    def __init__(
        self,
        base_url: str = DEFAULT_LOG_URL,
        timeout: float = TIMEOUT,
        interval: float = INTERVAL,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.base_url = check_base_url(base_url)
        self.timeout = timeout
        self.interval = interval
        self.sleep = sleep
        self.clock = clock
        self.requests = 0
        self._last = float("-inf")
        self._opener = urllib.request.build_opener(_NoRedirects())

    @property
    def host(self) -> str:
        return urlsplit(self.base_url).netloc

    def fetch(self, game_id: str) -> bytes:
        """The log of ``game_id`` (the plain mjlog), or ``FetchError`` with the reason."""
        pause = BACKOFF
        for attempt in range(RETRIES + 1):
            try:
                return self._following(self.base_url + game_id)
            except _Again as exc:
                if attempt == RETRIES:
                    raise FetchError(f"{exc.why}, {RETRIES + 1} times; try again later") from None
                self.sleep(pause)
                pause *= 2
        raise AssertionError("unreachable")  # pragma: no cover

    def _wait_turn(self) -> None:
        wait = self._last + self.interval - self.clock()
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
        try:
            with self._opener.open(request, timeout=self.timeout) as answer:
                body, gzipped = _read_capped(answer)
        except urllib.error.HTTPError as exc:
            exc.close()
            location = exc.headers.get("Location") if exc.headers else None
            if exc.code in REDIRECTS and location:
                return str(location)
            raise _refusal(exc.code, exc.reason) from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError | socket.timeout):
                raise _Again(f"no answer in {self.timeout:g} s") from None
            raise FetchError(f"cannot reach the log server {self.host} ({exc.reason})") from None
        except TimeoutError:
            raise _Again(f"no answer in {self.timeout:g} s") from None
        except (http.client.HTTPException, ConnectionError) as exc:
            raise _Again(f"the answer was cut short ({type(exc).__name__})") from None
        except OSError as exc:
            raise FetchError(f"cannot reach the log server {self.host} ({exc})") from None
        finally:
            # the next request waits a whole interval after this one has ended: the
            # server sees them at least that far apart, however long each took
            self._last = self.clock()
        return log_from_body(body, gzipped)


def _refusal(code: int, reason: object) -> Exception:
    if code == 404:
        return NotFound(NOT_FOUND)
    if code >= 500 or code == 429:
        return _Again(f"the log server failed (HTTP {code})")
    return Refused(f"the log server refused it (HTTP {code} {str(reason)[:60]})")


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


# --- the cache ---------------------------------------------------------------------------------


def default_cache_folder() -> Path:
    """The user's cache folder for logs: XDG's on Linux, the platform's elsewhere."""
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local") / "pywall"
        return base / "Cache" / "tenhou-logs"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "pywall" / "tenhou-logs"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".cache"
    return base / "pywall" / "tenhou-logs"


class LogCache:
    """Logs kept as ``LOG_ID.xml`` in ``folder`` (ids are checked: ``[0-9a-z-]`` only)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path_for(self, game_id: str) -> Path:
        if not game_id or not all(c.isascii() and (c.isalnum() or c == "-") for c in game_id):
            raise FetchError(f"{game_id[:60]!r} is not a log id")
        return self.folder / f"{game_id}.xml"

    def has(self, game_id: str) -> bool:
        return self.path_for(game_id).is_file()

    def read(self, game_id: str) -> bytes:
        return read_capped(self.path_for(game_id))

    def write(self, game_id: str, data: bytes) -> Path:
        return write_atomically(self.path_for(game_id), data)


def write_atomically(path: Path, data: bytes) -> Path:
    """``data`` in ``path``, all or nothing: a temporary file in the same folder, renamed.

    The temporary file's name is known before it exists, so an interrupt landing at any
    point (even between its creation and the write) leaves nothing behind.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.parent / f".part-{os.getpid()}-{path.name}"
    try:
        fd = os.open(
            temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), 0o644
        )
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return path
