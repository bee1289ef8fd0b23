"""Mahjong Soul game records as JSON: ``parse(data) -> model.Game``.

Theory of operation (docs/platforms.md; ../shared/FACTS-platforms.md part A):
a record is the game's protobuf ``GameDetailRecords`` decoded to JSON. Its tile
events are ``{name, data}`` pairs found in one of three places: the export
script's ``data.data.actions[i].result`` (version 210715 on), ``records[i]``
(version 0, before 2021-07-15), an ``events`` list (RiichiEnv's excerpts), or
the ``details`` list of a record saved by the protobuf JSON mapping
(``pywall.formats.majsoul_proto``: lowerCamelCase, defaults left out);
a name may carry ``.lq.`` and ``Record`` or not (``.lq.RecordNewRound``,
``NewRound``). ``RecordNewRound`` states the round's wall as ``paishan``: the
whole wall in the SHA-256 era (136 or 108 tiles, scheme ``front``, with
``sha256 = SHA-256(paishan + salt)`` and ``saltSha256``), only the undealt tiles
before 2023-05-23 (83 or 68, scheme ``undealt``, ``md5 = MD5(paishan)``). The
reader turns each round into the model's events; ``pywall.checks.verify`` then checks
every tile against the wall through ``pywall.core.layout``.

``parse_hashes`` (``pywall.formats.majsoul_hashes``) is the older, tolerant path of
``pywall majsoul``: only the hash fields of every object with a ``paishan`` key.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pywall.core import limits
from pywall.core.errors import LogFormatError
from pywall.core.layout import WallScheme, wall_size
from pywall.core.model import (
    Call,
    Discard,
    DoraReveal,
    Draw,
    Event,
    Game,
    HashClaim,
    MeldKind,
    Platform,
    Riichi,
    Round,
    RoundHashes,
    Ryuukyoku,
    WallCount,
    Win,
)
from pywall.core.tiles import face_from_code
from pywall.formats.jsonrecord import (
    MAX_INPUT_BYTES,
    array,
    date_from_unix,
    document_from_data,
    face,
    faces_from_text,
    hashable_text,
    integer,
    obj,
    optional_text,
    text,
)
from pywall.formats.majsoul_hashes import MajsoulRecord, claims_from_round, head_text, parse_hashes
from pywall.formats.majsoul_proto import TYPE_KEY, is_proto_event, proto_event, short_name

__all__ = [
    "MAX_INPUT_BYTES",
    "MajsoulRecord",
    "document_from_data",
    "is_majsoul",
    "parse",
    "parse_hashes",
]

#: ``head.config.mode.mode``: rooms of 4 or 3 players, East-only or East-South (the
#: rule in words, and its length as ``Game.rule_length`` names it).
_MODES = {
    1: ("4-player, East only", "east"),
    2: ("4-player, East-South", "south"),
    11: ("3-player, East only", "east"),
    12: ("3-player, East-South", "south"),
}
_CHI_PON_KAN = {0: MeldKind.CHI, 1: MeldKind.PON, 2: MeldKind.OPEN_KAN}
_ANGANG_ADDGANG = {3: MeldKind.CLOSED_KAN, 2: MeldKind.ADDED_KAN}
_EVENT_LISTS = ("actions", "records", "events", "details")
_NORTH = face_from_code("4z")
_MAX_ROUNDS = limits.MAX_ROUNDS
_MAX_EVENTS = limits.MAX_ROUND_EVENTS


def parse(data: bytes | str, name: str | None = None) -> Game:
    """Read a Mahjong Soul game record (JSON). Raises only ``PywallError`` subclasses."""
    return game_from_document(document_from_data(data))


def game_from_document(document: Any) -> Game:
    """The game of a decoded JSON record (``parse`` without the decoding)."""
    events = list(events_of(document))
    head = document.get("head") if isinstance(document, dict) else None
    head = head if isinstance(head, dict) else {}
    starts = [i for i, (kind, _, _) in enumerate(events) if kind == "NewRound"]
    if not starts:
        raise LogFormatError(
            "no RecordNewRound: this is not a Mahjong Soul game record with its rounds decoded"
        )
    if len(starts) > _MAX_ROUNDS:
        raise LogFormatError(
            f"{len(starts):,} rounds: over the {_MAX_ROUNDS} pywall reads (real games have about 30)"
        )
    first = obj(events[starts[0]][1], events[starts[0]][2])
    players = player_count(first, events[starts[0]][2])
    rounds = []
    for index, (start, end) in enumerate(zip(starts, starts[1:] + [len(events)])):
        rounds.append(_RoundReader(index, players).read(events[start:end]))
    rule, length = _rule(head)
    return Game(
        seed=None,
        player_count=players,
        names=_names(head, players),
        rounds=tuple(rounds),
        complete="result" in head or bool(rounds and rounds[-1].finished),
        platform=Platform.MAJSOUL,
        game_id=head_text(head, "uuid"),
        rule=rule,
        date=date_from_unix(head.get("start_time", head.get("startTime"))),
        rule_length=length,
        testing_environment=_testing_environment(head),
    )


def _testing_environment(head: dict[str, Any]) -> bool:
    """Whether the room's test settings (``head.config.mode.testing_environment``, where
    a host can preset tiles) are set: present with any value that is not empty or zero."""
    config = head.get("config")
    mode = config.get("mode") if isinstance(config, dict) else None
    setting = (
        mode.get("testing_environment", mode.get("testingEnvironment"))
        if isinstance(mode, dict)
        else None
    )
    if isinstance(setting, dict):
        return any(bool(v) for v in setting.values())
    return bool(setting)


def is_majsoul(document: Any) -> bool:
    """Whether a JSON document is shaped like a Mahjong Soul record (for ``parse_record``)."""
    return next(events_of(document), None) is not None


def events_of(document: Any) -> Iterator[tuple[str, Any, str]]:
    """Every tile event as (short name, data, where), in record order."""
    found = _event_list(document)
    if found is None:
        return
    items, where = found
    for i, item in enumerate(items):
        if is_proto_event(item):
            yield (*proto_event(item), f"{where}[{i}]")
            continue
        if not isinstance(item, dict):
            continue
        event = item.get("result", item)
        if isinstance(event, dict) and isinstance(event.get("name"), str):
            yield short_name(event["name"]), event.get("data"), f"{where}[{i}]"


def _event_list(document: Any) -> tuple[list[Any], str] | None:
    """The first list of events at the places exports put it (depth 3 at most)."""
    holders = [(document, "$")]
    for _ in range(3):
        deeper = []
        for holder, path in holders:
            if not isinstance(holder, dict):
                continue
            for key in _EVENT_LISTS:
                value = holder.get(key)
                if isinstance(value, list) and any(_is_new_round(v) for v in value[:400]):
                    return value, f"{path}.{key}"
            if isinstance(holder.get("data"), dict):
                deeper.append((holder["data"], f"{path}.data"))
        holders = deeper
    return None


def _is_new_round(item: Any) -> bool:
    if is_proto_event(item):
        return short_name(item[TYPE_KEY]) == "NewRound"
    if not isinstance(item, dict):
        return False
    event = item.get("result", item)
    return (
        isinstance(event, dict)
        and isinstance(event.get("name"), str)
        and short_name(event["name"]) == "NewRound"
    )


def player_count(new_round: dict[str, Any], where: str) -> int:
    """3 when ``tiles3`` is empty or absent (the 3-player record), else 4."""
    tiles3 = new_round.get("tiles3")
    if tiles3 is None or tiles3 == []:
        if not new_round.get("tiles2"):
            raise LogFormatError("the round has no starting hands (tiles0..tiles3)", where)
        return 3
    return 4


def tile(value: Any, where: str) -> int:
    return face(value, where)


def tiles(value: Any, where: str) -> tuple[int, ...]:
    return tuple(face(v, where) for v in array(value, where))


def paishan_tiles(value: Any, where: str) -> tuple[int, ...]:
    return faces_from_text(text(value, where), where)


class _RoundReader:
    """One round: its NewRound and the events up to the next."""

    def __init__(self, index: int, players: int) -> None:
        self.index = index
        self.players = players
        self.events: list[Event] = []
        self.doras: list[int] = []
        self.last_from = 0  # who discarded (or declared a kan) last: whom a ron is from

    def read(self, events: list[tuple[str, Any, str]]) -> Round:
        if len(events) > _MAX_EVENTS:
            raise LogFormatError(
                f"{len(events):,} events in one round: over the {_MAX_EVENTS:,} pywall reads "
                "(a real round has a few hundred)",
                events[0][2],
            )
        _, data, where = events[0]
        start = obj(data, where)
        rnd = self._new_round(start, where)
        for kind, data, where in events[1:]:
            handler = _HANDLERS.get(kind)
            if handler is not None:
                handler(self, obj(data, where), where)
        return Round(**rnd, events=tuple(self.events))

    def _new_round(self, d: dict[str, Any], where: str) -> dict[str, Any]:
        n = self.players
        chang = integer(d.get("chang", 0), f"{where}, chang", 0, 3)
        dealer = integer(d.get("ju", 0), f"{where}, ju", 0, n - 1)
        hands = [list(tiles(d.get(f"tiles{s}"), f"{where}, tiles{s}")) for s in range(n)]
        wall = paishan_tiles(d.get("paishan"), f"{where}, paishan")
        scheme = (
            WallScheme.UNDEALT
            if len(wall) == wall_size(WallScheme.UNDEALT, n)
            else WallScheme.FRONT
        )
        if scheme is WallScheme.FRONT and len(hands[dealer]) == 14:
            self.events.append(Draw(dealer, hands[dealer].pop()))
        if "left_tile_count" in d:
            self.events.append(
                WallCount(integer(d["left_tile_count"], f"{where}, left_tile_count", 0, 200))
            )
        self._doras(d, where)
        if not self.doras:
            raise LogFormatError("the round states no dora indicator (doras or dora)", where)
        scores = tuple(
            integer(v, f"{where}, scores", -(10**9), 10**9)
            for v in array(d.get("scores", []), where)
        )
        return {
            "index": self.index,
            "number": chang * 4 + dealer,
            "honba": integer(d.get("ben", 0), f"{where}, ben", 0, 1000),
            "riichi_sticks": integer(d.get("liqibang", 0), f"{where}, liqibang", 0, 1000),
            "dice": None,
            "dora_indicator": self.doras[0],
            "dealer": dealer,
            "hands": tuple(tuple(h) for h in hands),
            "scores": scores,
            "wall": wall,
            "wall_scheme": scheme.value,
            "hashes": hashes(d, scheme, where),
        }

    def _seat(self, d: dict[str, Any], where: str) -> int:
        return integer(d.get("seat"), f"{where}, seat", 0, self.players - 1)

    def _doras(self, d: dict[str, Any], where: str) -> None:
        """New indicators of a cumulative ``doras`` list (or the old single ``dora``) as
        DoraReveal; a list that contradicts an earlier one is emitted whole, so the
        positional check flags it."""
        value = d.get("doras")
        if value is None and "dora" in d and d["dora"] not in (None, ""):
            value = [d["dora"]]
        if not value:
            return
        stated = tiles(value, f"{where}, doras")
        known = self.doras
        if list(stated[: len(known)]) == known:
            new = stated[len(known) :]
        else:
            new = tuple(t for k, t in enumerate(stated) if k >= len(known) or t != known[k])
        for t in new:
            if self.doras:  # the first indicator is the round's, not a reveal
                self.events.append(DoraReveal(t))
            self.doras.append(t)

    def deal_tile(self, d: dict[str, Any], where: str) -> None:
        # An indicator the record attaches to a draw (a closed kan's, on its replacement
        # draw) was revealed before that draw, as Tenhou's and Riichi City's records show
        # it: one moment on every platform (docs/audit.md).
        drawn = Draw(self._seat(d, where), tile(d.get("tile"), f"{where}, tile"))
        self._doras(d, where)
        self.events.append(drawn)
        if d.get("left_tile_count") is not None:
            self.events.append(
                WallCount(integer(d["left_tile_count"], f"{where}, left_tile_count", 0, 200))
            )

    def discard_tile(self, d: dict[str, Any], where: str) -> None:
        seat = self._seat(d, where)
        if d.get("is_liqi") or d.get("is_wliqi"):
            self.events.append(Riichi(seat, 1))
        self.events.append(Discard(seat, tile(d.get("tile"), f"{where}, tile")))
        self.last_from = seat
        self._doras(d, where)

    def chi_peng_gang(self, d: dict[str, Any], where: str) -> None:
        kind = _CHI_PON_KAN.get(integer(d.get("type"), f"{where}, type", 0, 9))
        if kind is None:
            raise LogFormatError("a call of unknown type", f"{where}, type")
        called = tiles(d.get("tiles"), f"{where}, tiles")
        seat = self._seat(d, where)
        froms = d.get("froms")
        taken = (
            tuple(t for t, who in zip(called, froms) if who == seat)
            if isinstance(froms, list) and len(froms) == len(called)
            else ()
        )
        self.events.append(Call(seat, called[-1] if called else 0, kind, taken))
        self._doras(d, where)

    def an_gang_add_gang(self, d: dict[str, Any], where: str) -> None:
        kind = _ANGANG_ADDGANG.get(integer(d.get("type"), f"{where}, type", 0, 9))
        if kind is None:
            raise LogFormatError("a kan of unknown type", f"{where}, type")
        value = d.get("tiles")
        code = tile(value[0] if isinstance(value, list) and value else value, f"{where}, tiles")
        seat = self._seat(d, where)
        # the kan the record names: a closed kan takes four of that kind from the hand, an
        # added kan the one that joins its pon
        taken = (code,) * 4 if kind is MeldKind.CLOSED_KAN else (code,)
        self.events.append(Call(seat, code, kind, taken))
        self.last_from = seat  # a robbed kan (chankan) is won from its declarer
        self._doras(d, where)

    def ba_bei(self, d: dict[str, Any], where: str) -> None:
        seat = self._seat(d, where)
        self.events.append(Call(seat, _NORTH, MeldKind.NUKI))
        self.last_from = seat
        self._doras(d, where)

    def hule(self, d: dict[str, Any], where: str) -> None:
        hules = array(d.get("hules", []), f"{where}, hules")
        if len(hules) > limits.MAX_WINS:
            raise LogFormatError(f"{len(hules):,} wins in one result", f"{where}, hules")
        for i, h in enumerate(hules):
            at = f"{where}, hules[{i}]"
            h = obj(h, at)
            seat = self._seat(h, at)
            self._doras(h, at)
            dora = tiles(h["doras"], f"{at}, doras") if h.get("doras") else ()
            ura = tiles(h["li_doras"], f"{at}, li_doras") if h.get("li_doras") else ()
            self.events.append(Win(seat, seat if h.get("zimo") else self.last_from, dora, ura))

    def no_tile(self, d: dict[str, Any], where: str) -> None:
        self.events.append(Ryuukyoku("exhaustive"))

    def liu_ju(self, d: dict[str, Any], where: str) -> None:
        self.events.append(Ryuukyoku(f"abortive {d.get('type', '')}".strip()))


_HANDLERS = {
    "DealTile": _RoundReader.deal_tile, "DiscardTile": _RoundReader.discard_tile,
    "ChiPengGang": _RoundReader.chi_peng_gang, "AnGangAddGang": _RoundReader.an_gang_add_gang,
    "BaBei": _RoundReader.ba_bei, "Hule": _RoundReader.hule, "NoTile": _RoundReader.no_tile,
    "LiuJu": _RoundReader.liu_ju,
}  # fmt: skip


def hashes(d: dict[str, Any], scheme: WallScheme, where: str) -> tuple[HashClaim, ...]:
    """The digests the round states, each with the exact text it was computed over."""
    paishan = text(d.get("paishan"), f"{where}, paishan")
    salt = optional_text(d, "salt", where)
    sha256 = optional_text(d, "sha256", where)
    salt_sha256 = optional_text(d, "saltSha256", where) or optional_text(d, "salt_sha256", where)
    md5 = optional_text(d, "md5", where)
    if salt is not None:
        salt = hashable_text(salt, f"{where}, salt")
    # Without the salt (exports made with older protos may drop it) the digests are
    # stated but cannot be checked: message None, and pywall.checks.digests says salt_missing.
    stated = RoundHashes(paishan, salt, sha256, salt_sha256, md5)
    return claims_from_round(stated, undealt=scheme is WallScheme.UNDEALT)


def _names(head: dict[str, Any], players: int) -> tuple[str, ...]:
    names = [""] * players
    accounts = head.get("accounts")
    for account in accounts if isinstance(accounts, list) else []:
        if isinstance(account, dict) and isinstance(account.get("nickname"), str):
            seat = str(account.get("seat", 0))  # a number, or its digits (protobuf JSON)
            if seat in map(str, range(players)):
                names[int(seat)] = account["nickname"]
    return tuple(names)


def _rule(head: dict[str, Any]) -> tuple[str, str] | tuple[None, None]:
    config = head.get("config")
    mode = config.get("mode") if isinstance(config, dict) else None
    number = mode.get("mode") if isinstance(mode, dict) else None
    return _MODES.get(number, (None, None)) if isinstance(number, int) else (None, None)
