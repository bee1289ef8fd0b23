"""What a Tenhou record's numbers say about its game: the GO tag's type bits (lobby,
length, red fives, open tanyao, speed, against the computer) and a log id's date; and
whether a log fits the id it came under (``log_misfit``: the fetcher keeps no other).

Decoding these is the Tenhou reader's business (docs/tenhou.md); the report only
shows the text made here.
"""

from __future__ import annotations

import re

from pywall.core.model import Game

#: The lobby bits (0xA0) of a GO type: English name and Tenhou's one-character code.
_LEVELS = {
    0x00: ("Ippan", "般"),
    0x80: ("Joukyuu", "上"),
    0x20: ("Tokujou", "特"),
    0xA0: ("Houou", "鳳"),
}


def rule_from_type(go_type: int | None, players: int) -> tuple[str, str]:
    """English description and Tenhou's short code (e.g. "鳳南喰赤") of a GO type."""
    if go_type is None:
        return f"{players}-player, rule unknown", ""
    level, level_ja = _LEVELS[go_type & 0xA0]
    parts = [f"{players}-player", f"{level} lobby", "East-South" if go_type & 0x08 else "East only"]
    code = ("三" if players == 3 else "") + level_ja + ("南" if go_type & 0x08 else "東")
    if not go_type & 0x04:
        parts.append("open tanyao")
        code += "喰"
    if not go_type & 0x02:
        parts.append("red fives")
        code += "赤"
    if go_type & 0x40:
        parts.append("fast")
        code += "速"
    if vs_computer(go_type):
        parts.append("vs computer")
    return ", ".join(parts), code


def vs_computer(go_type: int | None) -> bool:
    """Whether a Tenhou GO type is a game against the computer: bit 0x01 (a game
    between people) clear. Tenhou's short code has no letter for it."""
    return go_type is not None and not go_type & 0x01


def date_from_log_id(log_id: str | None) -> str | None:
    """``2016022509gm-...`` -> ``2016-02-25T09:00+09:00`` (Tenhou ids are in JST)."""
    if not log_id:
        return None
    d = log_id[:10]
    return f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:00+09:00"


#: A log id as Tenhou writes it: date and hour (JST), ``gm``, the GO type in hex, the
#: lobby, the game's own part.
_LOG_ID = re.compile(r"([0-9]{4})([0-9]{2})[0-9]{4}gm-([0-9a-f]{4})-([0-9a-f]{4,5})-", re.ASCII)
#: The months (year * 12 + month - 1) of the log ids each seed format can be on, from the
#: dates real logs show (docs/tenhou.md: the eight-word INIT seeds from September 2008, the
#: 32-word ``mt19937ar-sha512-n288`` seeds to February 2010, today's from March 2010),
#: with some months to spare either side.
_SEED_MONTHS = (
    ("mt19937ar-sha512-n288-base64,", 2010 * 12, None),
    ("mt19937ar-sha512-n288,", 2009 * 12 + 6, 2010 * 12 + 11),
)
_INIT_SEED_MONTHS = (2008 * 12, 2009 * 12 + 11)


def log_misfit(log_id: str, game: Game) -> str | None:
    """Why ``game`` cannot be the game ``log_id`` names, in words, or ``None`` when what
    the log shows fits: its GO type (the id's hex part), its lobby (the id's lobby part,
    read as decimal or hex) and its seed's format (used on logs of some months only)."""
    found = _LOG_ID.match(log_id)
    if found is None:
        return None
    year, month, type_hex, lobby_text = found.groups()
    if game.go_type is not None and game.go_type != int(type_hex, 16):
        shown, _ = rule_from_type(game.go_type, game.player_count)
        return f"its rule is type {game.go_type} ({shown}), the id's is {int(type_hex, 16)}"
    lobbies = {int(lobby_text, 16)} | ({int(lobby_text)} if lobby_text.isdigit() else set())
    if game.lobby is not None and game.lobby not in lobbies:
        return f"its lobby is {game.lobby}, the id's is {lobby_text}"
    months = _seed_months(game)
    at = int(year) * 12 + int(month) - 1
    if months is not None and not (months[0] <= at and (months[1] is None or at <= months[1])):
        return f"its seed's format was not used in {year}-{month}, the id's date"
    return None


def _seed_months(game: Game) -> tuple[int, int | None] | None:
    """The months a game's seed format can be from (``None``: no seed to tell)."""
    if game.seed is not None:
        for prefix, first, last in _SEED_MONTHS:
            if game.seed.startswith(prefix):
                return first, last
        return None
    if any(r.shuffle for r in game.rounds):
        return _INIT_SEED_MONTHS
    return None
