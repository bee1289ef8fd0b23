"""What a Tenhou record's numbers say about its game: the GO tag's type bits (lobby,
length, red fives, open tanyao, speed, against the computer) and a log id's date.

Decoding these is the Tenhou reader's business (docs/tenhou.md); the report only
shows the text made here.
"""

from __future__ import annotations

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
