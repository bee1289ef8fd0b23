"""Mahjong Soul game records (SHA-256 era: the whole wall stated) built from simulated walls,
for the page's audit tests: a corpus on one platform whose walls carry a positional bias.

Each round is dealt by FACTS A2 from the wall (the dealer's 14th at P[52]) and played
draw-and-discard (every player discards the tile just drawn) until the live wall is
empty: a round the verifier checks tile by tile and the draw test follows, with a fair
shuffle's draws whatever the bias leaves in the dead wall. Seat ``r % 4`` deals round
``r``, so every player of a game deals as often and is dealt as many hands (a tie).
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import zipfile
from collections.abc import Sequence
from typing import Any

from pywall.analysis.shanten import shanten
from tests.sim import biased_wall, counts_of, fair_wall

SALT = "0123456789abcdef0123456789abcdef"
PLAYERS = 4
SIZE = 136
DEAD = 14
#: Dead-wall positions the biased dealer fills with honours (the first indicator, P[131],
#: stays a fair tile): the positions and dead-wall tests see them, no draw does.
BIASED = tuple(range(122, 130))


def code(tile: int) -> str:
    """A tile id (0-135, as pywall numbers them) as Mahjong Soul writes it ("0m": red five)."""
    kind = tile // 4
    if kind >= 27:
        return f"{kind - 26}z"
    number = kind % 9 + 1
    red = number == 5 and tile % 4 == 0
    return f"{0 if red else number}{'mps'[kind // 9]}"


def round_record(wall: Sequence[int], dealer: int) -> list[dict[str, Any]]:
    tiles = [code(t) for t in wall]
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    p = 0
    for size in (4, 4, 4, 1):
        for j in range(PLAYERS):
            hands[(dealer + j) % PLAYERS] += tiles[p : p + size]
            p += size
    hands[dealer].append(tiles[p])  # the dealer's 14th, P[52]
    live, left = p + 1, SIZE - DEAD - p - 1
    paishan = "".join(tiles)
    start = {
        "chang": 0, "ju": dealer, "ben": 0, "liqibang": 0, "scores": [25000] * PLAYERS,
        **{f"tiles{s}": hands[s] for s in range(PLAYERS)},
        "paishan": paishan, "left_tile_count": left, "doras": [tiles[SIZE - 5]],
        "salt": SALT, "sha256": hashlib.sha256((paishan + SALT).encode()).hexdigest(),
        "saltSha256": hashlib.sha256(SALT.encode()).hexdigest(),
    }  # fmt: skip
    events: list[dict[str, Any]] = [{"name": "NewRound", "data": start}]
    events.append({"name": "DiscardTile", "data": {"seat": dealer, "tile": hands[dealer][-1]}})
    seat = dealer
    while left:
        seat = (seat + 1) % PLAYERS
        left -= 1
        drawn = tiles[live]
        live += 1
        events.append({"name": "DealTile", "data": {"seat": seat, "tile": drawn, "left_tile_count": left}})  # fmt: skip
        events.append({"name": "DiscardTile", "data": {"seat": seat, "tile": drawn}})
    events.append({"name": "NoTile", "data": {}})
    return events


def dealt(wall: Sequence[int], dealer: int, seat: int) -> list[int]:
    """The tiles ``round_record`` deals ``seat`` from ``wall`` (14 for the dealer)."""
    j = (seat - dealer) % PLAYERS
    tiles = [wall[k * 16 + j * 4 + i] for k in range(3) for i in range(4)] + [wall[48 + j]]
    return tiles + ([wall[52]] if j == 0 else [])


def best_wall(rng: random.Random, dealer: int, seat: int, candidates: int) -> list[int]:
    """A dealer that shuffles ``candidates`` fair walls and deals the one whose starting
    hand for ``seat`` is the best (lowest shanten; the first of equals)."""
    walls = [fair_wall(rng) for _ in range(candidates)]
    return min(walls, key=lambda w: shanten(counts_of(dealt(w, dealer, seat))))


def game_record(
    index: int,
    names: Sequence[str],
    share: float,
    rounds: int = 4,
    seed: int = 44,
    favoured: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """Game ``index``: ``rounds`` rounds, honours moved to ``BIASED`` with chance ``share``;
    ``favoured`` (seat, candidates): instead, each wall the best of ``candidates`` fair
    ones for that seat's starting hand (``best_wall``)."""
    rng = random.Random(f"{seed}-{index}")
    events: list[dict[str, Any]] = []
    for r in range(rounds):
        if favoured is None:
            wall = biased_wall(rng, BIASED, share)
        else:
            wall = best_wall(rng, r % PLAYERS, *favoured)
        events += round_record(wall, r % PLAYERS)
    accounts = [{"seat": s, "nickname": n} for s, n in enumerate(names)]
    head = {"uuid": f"sim-{seed}-{index}", "accounts": accounts, "config": {"mode": {"mode": 2}}}
    return {"head": head, "events": events}


def corpus_zip(
    games: int, names: Sequence[str] = ("BotA", "BotB", "BotC", "BotD"), share: float = 1.0
) -> bytes:
    """A zip of ``games`` such records (stored: small and quick to read)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for i in range(games):
            zf.writestr(f"game{i:03d}.json", json.dumps(game_record(i, names, share)))
    return out.getvalue()


def seat_rigged_zip(games: int, candidates: int = 3, seat: int = 1) -> bytes:
    """A zip of ``games`` records where "Target" sits in ``seat`` (index) in even games and
    every wall of those is the best of ``candidates`` for Target's starting hand; in odd
    games "BotE" sits there and the walls are fair. Target's group and the seat's are
    flagged; the seat's only because of Target (``explained_by``)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for i in range(games):
            names = ["BotA", "BotB", "BotC", "BotD"]
            names[seat] = "Target" if i % 2 == 0 else "BotE"
            rig = (seat, candidates) if i % 2 == 0 else (seat, 1)
            zf.writestr(f"game{i:03d}.json", json.dumps(game_record(i, names, 0.0, favoured=rig)))
    return out.getvalue()
