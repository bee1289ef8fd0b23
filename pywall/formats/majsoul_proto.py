"""Mahjong Soul records as the protobuf JSON mapping writes them (``MessageToJson``,
``MessageToDict``): what Python downloaders save.

Such a downloader (PyMajsoul's, for one) saves the lobby's ``ResGameRecord`` with
``MessageToJson``, then decodes each record of the game and appends it to a
``details`` list as ``MessageToDict(record)`` with its message name under ``@type``
(``RecordNewRound``; a ``google.protobuf.Any`` writes
``type.googleapis.com/lq.RecordNewRound``). The mapping differs from the export
script's JSON in three ways, and ``proto_event`` undoes them so that
``pywall.formats.majsoul`` reads one shape:

- field names are lowerCamelCase (``leftTileCount``, ``liDoras``, ``isLiqi``): made
  snake_case again, at every depth;
- fields at their default value are left out (proto3): a seat 0, a chi (call type 0),
  a ``zimo`` false; the seats and call type are put back;
- 64-bit integers are written as strings (``"1629039063"``): the record's readers take
  digit strings wherever they take a number (``jsonrecord.integer``).
"""

from __future__ import annotations

import re
from typing import Any

TYPE_KEY = "@type"
_CAMEL_RE = re.compile(r"(?<=[a-z0-9])([A-Z])")
#: Fields proto3 leaves out at 0 that the reader needs, by event.
_DEFAULTS: dict[str, dict[str, int]] = {
    "DealTile": {"seat": 0},
    "DiscardTile": {"seat": 0},
    "ChiPengGang": {"seat": 0, "type": 0},
    "AnGangAddGang": {"seat": 0},
    "BaBei": {"seat": 0},
}


def short_name(name: str) -> str:
    """``.lq.RecordNewRound``, ``RecordNewRound``, ``type.googleapis.com/lq.RecordNewRound``
    -> ``NewRound``."""
    name = name.rpartition("/")[2]
    return name.removeprefix(".").removeprefix("lq.").removeprefix("Record")


def snake(key: str) -> str:
    """``leftTileCount`` -> ``left_tile_count`` (snake_case keys are kept as they are)."""
    return _CAMEL_RE.sub(r"_\1", key).lower() if not key.islower() else key


def snake_keys(value: Any) -> Any:
    """``value`` with every object's keys made snake_case, at every depth."""
    if isinstance(value, dict):
        return {snake(k): snake_keys(v) for k, v in value.items() if k != TYPE_KEY}
    if isinstance(value, list):
        return [snake_keys(v) for v in value]
    return value


def is_proto_event(item: Any) -> bool:
    return isinstance(item, dict) and isinstance(item.get(TYPE_KEY), str)


def proto_event(item: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A ``details`` item as (short name, data in the export script's shape)."""
    name = short_name(item[TYPE_KEY])
    data: dict[str, Any] = {**_DEFAULTS.get(name, {}), **snake_keys(item)}
    if name == "Hule" and isinstance(data.get("hules"), list):
        data["hules"] = [{"seat": 0, **h} if isinstance(h, dict) else h for h in data["hules"]]
    return name, data
