"""The cache of Tenhou logs: each kept as ``LOG_ID.xml`` in a folder, never fetched again.

What comes back from the cache is input: a log is read only from a regular file (a
symbolic link named ``LOG_ID.xml`` is refused, never followed) and only if it reads
as a game that fits its id (``tenhou_logs.checked_log``); otherwise the game counts as
not in the cache, and ``pywall fetch`` asks for it again. Each log is written through
a fresh temporary file in the folder, created exclusively, and renamed into place
(``files.write_atomically``), so a run stopped at any moment (Ctrl-C) leaves whole logs
only, the next run goes on from where it stopped, and nothing planted in the folder is
written through.

``Turns`` keeps, in the same folder, the time before which the next request to the
log server may not start, so runs that share a cache keep one request a second
between them, and a ``Retry-After`` that stopped one run holds for the next.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

from pywall.core.errors import PywallError
from pywall.inputs.files import read_capped, write_atomically
from pywall.inputs.tenhou_logs import FetchError, checked_log

#: The file of ``Turns`` (no log's name: a log is ``LOG_ID.xml``).
TURNS_FILE = ".next-request"


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
        """Whether a regular file (not a link) is kept for the game (not read: cheap)."""
        path = self.path_for(game_id)
        return path.is_file() and not path.is_symlink()

    def holds(self, game_id: str) -> bool:
        """Whether the game's log is kept and fits its id (read and checked)."""
        try:
            self.read(game_id)
        except PywallError:
            return False
        return True

    def read(self, game_id: str) -> bytes:
        """The game's log, if it is a regular file that reads as a game fitting its id."""
        try:
            data = read_capped(self.path_for(game_id), follow=False)
        except FetchError:
            raise
        except PywallError as exc:
            raise FetchError(f"in the cache, but unreadable: {exc.message}") from None
        try:
            return checked_log(game_id, data, "the log in the cache")
        except FetchError as exc:
            raise FetchError(f"{exc.message}; pywall fetch asks for it again") from None

    def write(self, game_id: str, data: bytes) -> Path:
        return write_atomically(self.path_for(game_id), data)

    @property
    def turns(self) -> Turns:
        return Turns(self.folder / TURNS_FILE)


class Turns:
    """When the next request to the log server may start (a wall-clock time), kept in a
    file of the cache folder: read without following a link, written atomically; a file
    that cannot be read or written only loses the pace between runs."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> float:
        try:
            at = float(read_capped(self.path, 64, follow=False).decode("ascii"))
        except (PywallError, ValueError, UnicodeDecodeError):
            return 0.0
        return at if math.isfinite(at) else 0.0

    def write(self, at: float) -> None:
        try:
            write_atomically(self.path, f"{at:.3f}\n".encode("ascii"))
        except OSError:
            pass
