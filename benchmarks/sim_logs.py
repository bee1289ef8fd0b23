"""Distinct Tenhou games for the benchmarks: each from its own random seed, played by
the test simulator's bots (tests/sim) on the walls pywall rebuilds from that seed,
written as mjlog XML that ``pywall verify`` checks tile by tile.

Copies of the ~50 fixture games repeat the same hands, so the draw test's caches stay
warm on them; a corpus of real size needs games that differ. These are not real play
(the bots call only pon and kans, never chi, and every game has ``ROUNDS`` rounds), but
every tile of them comes from a real seed's walls, in Tenhou's layout and log format.

``logs(n, seed)`` yields n mjlog texts; ``build(path, n)`` writes them bz2-compressed
into a phoenix-logs-schema SQLite database (as bench_archive.py's copies).
"""

from __future__ import annotations

import base64
import bz2
import hashlib
import multiprocessing
import random
import sys
import zipfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import bench_archive
from pywall.checks.tenhou import PREFIX, SEED_BYTES, iter_walls
from pywall.core.layout import WallScheme, layout_for
from pywall.core.model import Call, Discard, DoraReveal, Draw, MeldKind, Riichi, Round, Win
from tests.sim import play_round

UN = '<UN n0="a" n1="b" n2="c" n3="d" dan="16,16,16,16" rate="2000,2000,2000,2000" sx="M,M,M,M"/>'
ROUNDS = 8
PLAYERS = 4
LAYOUT = layout_for(WallScheme.TENHOU, PLAYERS)


def meld_code(kind: MeldKind, called: int, taken: tuple[int, ...], relative: int) -> int:
    """Tenhou's ``m`` code of a pon, an open kan or a closed kan (docs/tenhou.md)."""
    if kind is MeldKind.CLOSED_KAN:
        return taken[0] // 4 * 4 << 8
    if kind is MeldKind.OPEN_KAN:
        return called << 8 | relative
    kind_base = called // 4 * 4
    held = {called, *taken}
    unused = next(i for i in range(4) if kind_base + i not in held)
    three = [kind_base + i for i in range(4) if i != unused]
    return (called // 4 * 3 + three.index(called)) << 9 | unused << 5 | 0x8 | relative


def _round_tags(rnd: Round, number: int, dice: tuple[int, int], last: bool) -> Iterator[str]:
    dealer = number % PLAYERS
    seat = [(s + dealer) % PLAYERS for s in range(PLAYERS)]  # the sim's seat 0 deals
    hands = {seat[s]: ",".join(map(str, rnd.hands[s])) for s in range(PLAYERS)}  # deal order
    yield (
        f'<INIT seed="{number},0,0,{dice[0] - 1},{dice[1] - 1},{rnd.dora_indicator}" '
        f'ten="250,250,250,250" oya="{dealer}" '
        + " ".join(f'hai{s}="{hands[s]}"' for s in range(PLAYERS))
        + "/>"
    )
    discarder = called = -1
    owari = ' owari="250,0.0,250,0.0,250,0.0,250,0.0"' if last else ""
    for ev in rnd.events:
        if type(ev) is Draw:
            yield f"<{'TUVW'[seat[ev.seat]]}{ev.tile}/>"
        elif type(ev) is Discard:
            discarder, called = seat[ev.seat], ev.tile
            yield f"<{'DEFG'[seat[ev.seat]]}{ev.tile}/>"
        elif type(ev) is Call:
            who = seat[ev.seat]
            code = meld_code(ev.kind, called, ev.taken, (discarder - who) % PLAYERS)
            yield f'<N who="{who}" m="{code}"/>'
        elif type(ev) is DoraReveal:
            yield f'<DORA hai="{ev.tile}"/>'
        elif type(ev) is Riichi:
            yield f'<REACH who="{seat[ev.seat]}" step="1"/>'
        elif type(ev) is Win:
            yield (
                f'<AGARI ba="0,0" who="{seat[ev.seat]}" fromWho="{seat[ev.from_seat]}" '
                f'sc="250,0,250,0,250,0,250,0"{owari}/>'
            )
        else:
            yield f'<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0"{owari}/>'


def mjlog(rng: random.Random, rounds: int = ROUNDS, names: tuple[str, ...] = ()) -> str:
    """One game: a fresh seed, ``rounds`` rounds played on its walls; the players ``a`` to
    ``d``, or ``names`` (percent-encoded here)."""
    seed = PREFIX + base64.b64encode(rng.randbytes(SEED_BYTES)).decode()
    un = UN
    if names:
        encoded = (quote(n, safe="") for n in names)
        un = UN.replace(
            'n0="a" n1="b" n2="c" n3="d"', " ".join(f'n{i}="{n}"' for i, n in enumerate(encoded))
        )
    tags = [
        '<mjloggm ver="2.3">',
        f'<SHUFFLE seed="{seed}" ref=""/>',
        '<GO type="169" lobby="0"/>',
        un,
        '<TAIKYOKU oya="0"/>',
    ]
    walls = iter_walls(seed, PLAYERS)
    for number in range(rounds):
        wall = next(walls)
        assert wall.dice is not None
        rnd = play_round(wall.tiles, random.Random(rng.random()), number, layout=LAYOUT)
        tags += _round_tags(rnd, number, wall.dice, number == rounds - 1)
    return "".join(tags) + "</mjloggm>"


def many_players_game(index: int, seed: int = 2026) -> str:
    """Game ``index`` of a corpus where no name comes back: one round, four new players
    (``p{4 * index}`` to ``p{4 * index + 3}``): the audit's many-players case."""
    names = tuple(f"p{4 * index + seat}" for seat in range(PLAYERS))
    return mjlog(random.Random(f"{seed}-players-{index}"), 1, names)


def many_players_zip(path: Path, games: int) -> Path:
    """A zip (stored) of ``games`` many-players games, made on every core (reused if it exists)."""
    if not path.exists():
        with multiprocessing.get_context("spawn").Pool() as pool:
            texts = pool.imap(many_players_game, range(games), chunksize=32)
            with zipfile.ZipFile(path, "w") as z:
                for i, text in enumerate(texts):
                    z.writestr(f"g{i:06d}.xml", text)
    return path


def game(index: int, seed: int = 2026) -> str:
    """Game ``index`` of the corpus ``seed`` (each game its own generator: any order)."""
    return mjlog(random.Random(f"{seed}-{index}"))


def logs(games: int, seed: int = 2026) -> Iterator[str]:
    """The corpus's games in order, made on every core."""
    with multiprocessing.get_context("spawn").Pool() as pool:
        yield from pool.imap(partial(game, seed=seed), range(games), chunksize=16)


def rows(games: int) -> Iterator[tuple[object, ...]]:
    """The corpus's games as phoenix-logs rows (bz2, as that database stores them)."""
    for i, text in enumerate(logs(games)):
        blob = bz2.compress(text.encode())
        lid = f"2019{1 + i // 4000 % 12:02d}01{i // 200 % 24:02d}gm-00a9-0000-{i:08x}"
        yield lid, 0, 0, 1, 0, blob, hashlib.sha256(blob).hexdigest()


def build(path: Path, games: int) -> None:
    """A phoenix-logs-schema database of ``games`` distinct games (reused if it exists)."""
    bench_archive.build(path, games, rows)
