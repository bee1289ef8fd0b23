"""Games named by log id or link, on the command line or in lists (``--from FILE``),
fetched from Tenhou's log server into the cache: the inputs ``fetch``, ``verify`` and
``audit`` share.

A command-line word is a path when it exists; otherwise a log id (with ``&tw=N``
or not) or a link naming one game is that game, and anything else stays a path
(whose error then says it does not exist). ``--from FILE`` (``-``: standard input)
reads every game a text names (``formats.game_lists``). Each game is taken once,
at most ``MAX_GAMES`` a run. ``fetch_games`` brings the games not in the cache
(one request a second, ``inputs.tenhou_logs``); ``entries`` then yields every input
in order, a game as ``(log id, its log)`` from the cache or ``(log id, why not)``,
which the checks turn into an ``error`` row.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pywall.cli.output import escaped, plural
from pywall.cli.progress import Progress
from pywall.core.archives import PackedEntry
from pywall.core.errors import PywallError, ValueInputError
from pywall.formats.game_lists import MAX_GAMES, games_from_text
from pywall.formats.links import GameLink
from pywall.inputs import Skipped, iter_packed_inputs
from pywall.inputs.files import read_named
from pywall.inputs.log_cache import LogCache, default_cache_folder
from pywall.inputs.tenhou_logs import (
    DEFAULT_LOG_URL,
    TIMEOUT,
    FetchError,
    LogServer,
    NotCached,
    TryLater,
    check_base_url,
)

ENV_LOG_URL = "PYWALL_TENHOU_LOG_URL"
#: A word that is one log id, as typed or in a file name (``…&tw=3``, ``…_tw3.mjlog``).
_BARE_ID = re.compile(r"[0-9]{10}gm-[0-9a-fx-]+(?:(?:&|_)tw=?[0-3])?(?:\.mjlog|\.xml)?", re.ASCII)
OFFLINE = "not in the cache, and --offline: not fetched"


@dataclass
class GameRequest:
    """What a run was asked for: paths and games in order, every game once."""

    inputs: list[str | GameLink] = field(default_factory=list)
    games: dict[str, GameLink] = field(default_factory=dict)
    cache: LogCache = field(default_factory=lambda: LogCache(default_cache_folder()))
    offline: bool = False
    timeout: float = TIMEOUT
    log_url: str = DEFAULT_LOG_URL

    @property
    def paths(self) -> list[str]:
        return [i for i in self.inputs if isinstance(i, str)]

    def add(self, game: GameLink) -> None:
        if game.game_id not in self.games:
            self.games[game.game_id] = game
            self.inputs.append(game)


def add_game_arguments(p: argparse.ArgumentParser, offline: bool = True) -> None:
    """``--from FILE``, ``--cache DIR``, ``--timeout S`` (and ``--offline``)."""
    p.add_argument(
        "--from",
        dest="from_files",
        action="append",
        default=[],
        metavar="FILE",
        help="a text file (or - for standard input) naming Tenhou games: log ids or links, "
        "one a line or inside any text (a saved page, a forum post); may be given again",
    )
    p.add_argument(
        "--cache",
        metavar="DIR",
        help=f"where fetched logs are kept (default: {default_cache_folder()}); "
        "a log there is never fetched again",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=TIMEOUT,
        metavar="SECONDS",
        help="how long one request to the log server may take, connecting, the headers and "
        f"the whole answer together (default {TIMEOUT:g})",
    )
    if offline:
        p.add_argument(
            "--offline",
            action="store_true",
            help="never touch the network: games not in the cache are errors, listed",
        )


def game_of_word(word: str, paths_first: bool = True) -> GameLink | None:
    """The game a command-line word names (when it is no existing path, ``paths_first``)."""
    if paths_first and os.path.lexists(word):
        return None
    if not (_BARE_ID.fullmatch(word) or "://" in word or word.startswith("tenhou.net/")):
        return None
    found = games_from_text(word)
    return found.games[0] if len(found.games) == 1 else None


def request_from(
    args: argparse.Namespace, words: list[str], paths_first: bool = True
) -> GameRequest:
    """The run's inputs (``ValueInputError`` and the like, with words, on a bad list)."""
    if args.timeout is None or not 0 < args.timeout <= 600:
        raise ValueInputError("--timeout must be more than 0 and at most 600 seconds")
    folder = Path(args.cache) if args.cache else default_cache_folder()
    request = GameRequest(
        cache=LogCache(folder),
        offline=getattr(args, "offline", False),
        timeout=args.timeout,
        log_url=check_base_url(os.environ.get(ENV_LOG_URL) or DEFAULT_LOG_URL),
    )
    for word in words:
        game = game_of_word(word, paths_first)
        if game is None:
            request.inputs.append(word)
        else:
            request.add(game)
    for name in args.from_files:
        for game in games_in_file(name):
            request.add(game)
    if len(request.games) > MAX_GAMES:
        raise ValueInputError(
            f"{len(request.games):,} games named; pywall takes at most {MAX_GAMES:,} a run: "
            "split the list"
        )
    return request


def games_in_file(name: str) -> tuple[GameLink, ...]:
    """The games a list names; what it names and what was not understood go to stderr."""
    text = read_named(name).decode("utf-8", "replace")
    try:
        found = games_from_text(text)
    except ValueInputError as exc:
        raise ValueInputError(f"{name}: {exc.message}") from None
    note(f"{name}: {found.summary()}")
    for piece in found.shown:
        note(f"  not understood: {piece.text!r} ({piece.reason})")
    if found.unread > len(found.shown):
        note(f"  ... and {found.unread - len(found.shown):,} more not understood")
    return found.games


def note(line: str) -> None:
    print(f"pywall: {escaped(line)}", file=sys.stderr)


@dataclass(frozen=True, slots=True)
class Fetched:
    """What became of one game: ``cached`` (there before), ``fetched``, or ``error``."""

    game: GameLink
    status: str
    error: FetchError | None = None
    size: int = 0


def fetch_games(
    request: GameRequest, progress: Progress, check_cached: bool = False
) -> Iterator[Fetched]:
    """Each game of the request, from the cache or fetched into it (one request a
    second). Ctrl-C stops between two writes: the logs fetched so far stay. With
    ``check_cached`` a log in the cache counts only if it reads as its game (else it is
    fetched again); without, the check waits for the read (``entries``)."""
    kept = request.cache.holds if check_cached else request.cache.has
    missing = {g.game_id for g in request.games.values() if not kept(g.game_id)}
    server = (
        None
        if request.offline or not missing
        else LogServer(request.log_url, timeout=request.timeout, turns=request.cache.turns)
    )
    if server is not None:
        note(
            f"fetching {plural(len(missing), 'game')} from {server.host}, one a second "
            f"(about {len(missing):,} s); {len(request.games) - len(missing):,} in the cache "
            f"({request.cache.folder})"
        )
    done = fetched = 0
    stopped: TryLater | None = None
    try:
        for game in request.games.values():
            if game.game_id not in missing:
                yield Fetched(game, "cached")
            elif stopped is not None:
                yield Fetched(game, "error", FetchError(f"not asked: {stopped.message}"))
            else:
                f = _fetch_one(request, server, game)
                if isinstance(f.error, TryLater):
                    stopped = f.error
                    note(stopped.message)
                fetched += f.error is None
                yield f
            done += 1
            progress.update(done)
    except KeyboardInterrupt:
        progress.clear()
        if fetched:
            note(
                f"interrupted: {plural(fetched, 'game')} fetched this time are in the cache "
                f"({request.cache.folder}); the same command goes on from there"
            )
        raise
    finally:
        progress.finish()


def _fetch_one(request: GameRequest, server: LogServer | None, game: GameLink) -> Fetched:
    if server is None:
        return Fetched(game, "error", NotCached(OFFLINE))
    try:
        data = server.fetch(game.game_id)
    except FetchError as exc:
        return Fetched(game, "error", exc)
    except PywallError as exc:  # too large
        return Fetched(game, "error", FetchError(exc.message))
    try:
        request.cache.write(game.game_id, data)
    except OSError as exc:
        return Fetched(game, "error", FetchError(f"cannot write the cache: {exc.strerror or exc}"))
    return Fetched(game, "fetched", size=len(data))


def fetch_missing(request: GameRequest, progress: Progress) -> dict[str, FetchError]:
    """Every game brought into the cache; the ones that could not be, with why."""
    failed = {f.game.game_id: f.error for f in fetch_games(request, progress) if f.error}
    offline = [game_id for game_id, e in failed.items() if isinstance(e, NotCached)]
    if offline:
        note(
            f"--offline: {plural(len(offline), 'game')} not in the cache "
            f"({request.cache.folder}): {', '.join(offline[:5])}"
            + (f" and {len(offline) - 5:,} more" if len(offline) > 5 else "")
        )
    return failed


def entries(
    request: GameRequest, skipped: list[Skipped], failed: dict[str, FetchError]
) -> Iterator[PackedEntry]:
    """Every input in order: paths as the input layer reads them, games from the cache."""
    for item in request.inputs:
        if isinstance(item, str):
            yield from iter_packed_inputs([item], skipped)
        elif item.game_id in failed:
            yield item.game_id, failed[item.game_id]
        else:
            try:
                yield item.game_id, request.cache.read(item.game_id)
            except PywallError as exc:
                yield item.game_id, FetchError(exc.message)


def add_input_arguments(p: argparse.ArgumentParser, what: str) -> None:
    """The inputs ``verify`` and ``audit`` take: paths, games by id or link, lists of them."""
    p.add_argument(
        "paths",
        nargs="*",
        metavar="PATH_OR_GAME",
        help=f"{what}; or Tenhou log ids or links (fetched from Tenhou's log server "
        "unless in the cache)",
    )
    add_game_arguments(p)
    p.set_defaults(usage=p.format_usage())


def request_of(args: argparse.Namespace) -> GameRequest:
    """The inputs ``add_input_arguments`` read (``PywallError`` with words when none or bad)."""
    if not args.paths and not args.from_files:
        print(args.usage, end="", file=sys.stderr)
        raise ValueInputError("name logs, folders, Tenhou log ids or links, or --from FILE")
    return request_from(args, args.paths)


def fetched_entries(
    request: GameRequest, skipped: list[Skipped], progress: Progress
) -> Iterator[PackedEntry]:
    """The request's games fetched first (those not in the cache), then every input in order."""
    failed = fetch_missing(request, progress) if request.games else {}
    return entries(request, skipped, failed)
