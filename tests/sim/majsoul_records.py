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

from tests.sim import biased_wall

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


def game_record(
    index: int, names: Sequence[str], share: float, rounds: int = 4, seed: int = 44
) -> dict[str, Any]:
    """Game ``index``: ``rounds`` rounds, honours moved to ``BIASED`` with chance ``share``."""
    rng = random.Random(f"{seed}-{index}")
    events: list[dict[str, Any]] = []
    for r in range(rounds):
        events += round_record(biased_wall(rng, BIASED, share), r % PLAYERS)
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
