"""``pywall fetch [--out DIR] [--cache DIR] GAME... | --from FILE``: download Tenhou logs.

GAMEs are log ids (``2022060222gm-0001-0000-a87679bc``, hidden ``x`` ids too) or
viewer links (``https://tenhou.net/0/?log=...&tw=3``); --from FILE (- for standard
input) reads every game a text names, one a line or inside any text (a saved page,
a forum post). Each log comes from Tenhou's log server (the address is the setting
PYWALL_TENHOU_LOG_URL, the log id appended; default https://tenhou.net/0/log/?) into
the cache (--cache DIR, default the user's cache folder), at most one request a second
(runs sharing a cache too), each request given --timeout seconds in all; a log is kept
only if it reads as the game asked for, and one in the cache is never fetched again, so
a run stopped by Ctrl-C goes on where it stopped. A Retry-After of over a minute stops
the run, naming the time to try again. --out DIR writes a copy of each log there too
(LOG_ID.xml).

One line per game (fetched, in the cache, or ERROR with the reason), then a summary.
Exit code 0 when every game is in the cache, 2 when any could not be fetched (the
others are kept), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pywall.cli.games import (
    Fetched,
    add_game_arguments,
    fetch_games,
    game_of_word,
    request_from,
)
from pywall.cli.output import escaped, fail, plural
from pywall.cli.progress import Progress
from pywall.core.errors import PywallError
from pywall.inputs.files import write_atomically
from pywall.inputs.log_cache import LogCache
from pywall.inputs.tenhou_logs import FetchError

WORDS = {"fetched": "fetched", "cached": "cached ", "error": "ERROR  "}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "fetch",
        help="download Tenhou logs by id or link into the cache, politely",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("games", nargs="*", metavar="GAME", help="Tenhou log ids or viewer links")
    add_game_arguments(p, offline=False)
    p.add_argument("--out", metavar="DIR", help="also write each log to DIR as LOG_ID.xml")
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it is shown only when stderr is a terminal)",
    )
    p.set_defaults(run=run, usage=p.format_usage())


def line_for(f: Fetched) -> str:
    head = f"{WORDS[f.status]}  {f.game.game_id}"
    if f.error is not None:
        return f"{head}: {f.error.message}"
    return head + (f" ({f.size:,} bytes)" if f.status == "fetched" else "")


def run(args: argparse.Namespace) -> int:
    if not args.games and not args.from_files:
        print(args.usage, end="", file=sys.stderr)
        return fail("name Tenhou log ids or links, or --from FILE")
    unknown = [w for w in args.games if game_of_word(w, paths_first=False) is None]
    if unknown:
        return fail(f"not a Tenhou log id or link: {unknown[0][:100]}")
    try:
        request = request_from(args, args.games, paths_first=False)
    except PywallError as exc:
        return fail(exc.message)
    if not request.games:
        return fail("no Tenhou game named")
    out = Path(args.out) if args.out else None
    progress = Progress(
        sys.stderr, len(request.games), Progress.wanted(sys.stderr, args.no_progress)
    )
    counts = dict.fromkeys(WORDS, 0)
    for f in fetch_games(request, progress, check_cached=True):
        if f.error is None and out is not None:
            f = _copy_out(request.cache, out, f)
        counts[f.status] += 1
        progress.clear()
        print(escaped(line_for(f)), flush=True)
    print(
        f"{plural(len(request.games), 'game')}: {counts['fetched']:,} fetched, "
        f"{counts['cached']:,} already in the cache, {counts['error']:,} failed; "
        f"cache: {escaped(str(request.cache.folder))}"
    )
    return 2 if counts["error"] else 0


def _copy_out(cache: LogCache, out: Path, f: Fetched) -> Fetched:
    game_id = f.game.game_id
    try:
        write_atomically(out / cache.path_for(game_id).name, cache.read(game_id))
    except FetchError as exc:
        return Fetched(f.game, "error", exc)
    except OSError as exc:
        return Fetched(f.game, "error", FetchError(f"cannot write to {out}: {exc.strerror or exc}"))
    return f
