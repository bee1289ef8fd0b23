"""Riichi City (麻雀一番街) game records as JSON: ``parse(data) -> model.Game``.

Theory of operation (docs/platforms.md; ../shared/FACTS-platforms.md part B):
the record API answers ``{code, message, data: {playerCount, keyValue,
nowTime, handRecord: [round, ...]}}``. Each round states its whole wall as
``handCardEncode`` (2-character codes, red fives ``0``; dealt from the front:
scheme ``front``) and ``handCardsSHA256`` = SHA-256(handCardEncode), unsalted;
the same digest is in every player's start event, and ``paiShan`` (tile ints)
repeats the wall's undealt part ``handCardEncode[13n+1:]``. Its ``handEventRecord`` is a
list of events whose ``data`` is JSON *text*: 1 start (one per player: that
player's hand in deal order, the dealer, dice, the first dora indicator), 2 a
turn (``in_card``: the tile drawn, 0 for none), 4 an action (11 discard, 2-4
chi, 5 pon, 6 open kan, 8 closed kan, 9 added kan, 13 North, 7 ron, 10 tsumo),
5 the hand's end (``li_bao_card``: ura indicators), 7 a kan dora revealed
(``cards``: every kan indicator so far). Tiles are ints: ``c & 0x100`` is a red
five, ``c & 0xFF = 0xHL`` with L the number and H 0 p, 1 s, 2 m, 3-9 the
honours 1z-7z. Seats are numbered as in every record pywall reads (seat 0 = East
of the first round): a player's index in the start event's ``user_info_list`` less
the first round's ``dealer_pos`` (mod the player count), since the list's order is
not the table's first East: in real records the first dealer is listed first,
second or fourth. A call's ``group_cards`` are the tiles it takes from the hand
(a chi's two, a pon's two, a closed kan's three with ``card``); an added kan has none,
and a closed kan without them is four of its ``card``'s kind (the kind it declares).
"""

from __future__ import annotations

from typing import Any

from pywall.core import limits
from pywall.core.errors import LogFormatError
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
    Ryuukyoku,
    Win,
)
from pywall.core.tiles import face_from_code
from pywall.formats.jsonrecord import (
    array,
    date_from_unix,
    document_from_data,
    faces_from_text,
    game_id,
    hashable_text,
    integer,
    loads,
    obj,
    text,
)

_CALLS = {
    2: MeldKind.CHI,
    3: MeldKind.CHI,
    4: MeldKind.CHI,
    5: MeldKind.PON,
    6: MeldKind.OPEN_KAN,
    8: MeldKind.CLOSED_KAN,
    9: MeldKind.ADDED_KAN,
    13: MeldKind.NUKI,
}
_DISCARD, _RON, _TSUMO = 11, 7, 10
_WINS = {0: "ron", 1: "tsumo"}
_ENDS = {7: "exhaustive", 8: "stopped"}
_SUIT_OF_HIGH = {0: "p", 1: "s", 2: "m"}
_MAX_ROUNDS = limits.MAX_ROUNDS
_MAX_EVENTS = limits.MAX_ROUND_EVENTS


def parse(data: bytes | str, name: str | None = None) -> Game:
    """Read a Riichi City game record (JSON). Raises only ``PywallError`` subclasses."""
    return game_from_document(document_from_data(data))


def game_from_document(document: Any) -> Game:
    """The game of a decoded JSON record (``parse`` without the decoding)."""
    game = game_object(document)
    if game is None:
        raise LogFormatError("no handRecord: this is not a Riichi City game record")
    records = array(game["handRecord"], "data.handRecord")
    if not records:
        raise LogFormatError("the record has no rounds", "data.handRecord")
    if len(records) > _MAX_ROUNDS:
        raise LogFormatError(
            f"{len(records):,} rounds: over the {_MAX_ROUNDS} pywall reads (real games have about 30)",
            "data.handRecord",
        )
    players = integer(game.get("playerCount", 4), "data.playerCount", 3, 4)
    shift = _first_dealer(obj(records[0], "round 1"), players)
    rounds = tuple(
        _RoundReader(i, players, shift).read(obj(r, f"round {i + 1}"))
        for i, r in enumerate(records)
    )
    key = game.get("keyValue")
    names = _names(records[0], players)
    return Game(
        seed=None,
        player_count=players,
        names=names[shift:] + names[:shift],
        rounds=rounds,
        complete=rounds[-1].finished,
        platform=Platform.RIICHICITY,
        game_id=game_id(key, "keyValue"),
        date=date_from_unix(game.get("nowTime")),
    )


def game_object(document: Any) -> dict[str, Any] | None:
    """The object holding ``handRecord``: the answer's ``data``, or the document itself."""
    for candidate in (document.get("data") if isinstance(document, dict) else None, document):
        if isinstance(candidate, dict) and "handRecord" in candidate:
            return candidate
    return None


def is_riichicity(document: Any) -> bool:
    return game_object(document) is not None


def _face_of_code(c: int) -> int | None:
    red, high, low = c & 0x100, (c & 0xFF) >> 4, c & 0xF
    if high in _SUIT_OF_HIGH and 1 <= low <= 9 and (not red or low == 5):
        return face_from_code(f"{0 if red else low}{_SUIT_OF_HIGH[high]}")
    if 3 <= high <= 9 and low == 1 and not red:
        return face_from_code(f"{high - 2}z")
    return None


#: Every Riichi City tile int -> its face id (one lookup on the hot path).
_FACES = {c: face for c in range(1, 0x200) if (face := _face_of_code(c)) is not None}


def tile(value: Any, where: str) -> int:
    """A Riichi City tile int as a face id (``0x105`` -> red 5p, 52)."""
    face = _FACES.get(value) if type(value) is int else None
    if face is not None:
        return face
    c = integer(value, where, 1, 0x1FF)
    raise LogFormatError(f"{c} (0x{c:x}) is not a Riichi City tile code", where)


def tiles(value: Any, where: str) -> tuple[int, ...]:
    return tuple(tile(v, f"{where}[{i}]") for i, v in enumerate(array(value, where)))


def wall_tiles(value: Any, where: str) -> tuple[int, ...]:
    return faces_from_text(text(value, where), where)


def wall_digest(name: str, encode: str, stated: str, seat: int | None = None) -> HashClaim:
    """A digest the round states of its wall: SHA-256(handCardEncode), unsalted (FACTS B1);
    ``seat``: the seat whose start event states it (the same digest in each)."""
    return HashClaim(name, "sha256", encode, stated, "wall", over="handCardEncode", seat=seat)


def _first_dealer(first: dict[str, Any], players: int) -> int:
    """The first round's ``dealer_pos``: the index in ``user_info_list`` of seat 0 (0 when
    the round has no start event to say it; its reader then says what is missing)."""
    records = first.get("handEventRecord")
    for i, e in enumerate(records if isinstance(records, list) else ()):
        if isinstance(e, dict) and e.get("eventType") == 1:
            where = f"round 1, event {i + 1}"
            raw = e.get("data")
            d = obj(loads(raw, where) if isinstance(raw, str) else raw, f"{where}, data")
            return integer(d.get("dealer_pos"), f"{where}, dealer_pos", 0, players - 1)
    return 0


class _RoundReader:
    def __init__(self, index: int, players: int, shift: int = 0) -> None:
        self.index = index
        self.players = players
        self.shift = shift  # the first dealer's index in user_info_list: seat 0
        self.events: list[Event] = []
        self.seats: dict[int | str, int] = {}  # user id -> seat
        self.hands: list[tuple[int, ...] | None] = [None] * players
        self.start: dict[str, Any] | None = None
        self.claims: list[HashClaim] = []
        self.kan_doras: list[int] = []
        self.last_from = 0
        self.where = f"round {index + 1}"

    def read(self, r: dict[str, Any]) -> Round:
        where = self.where
        encode = text(r.get("handCardEncode"), f"{where}, handCardEncode")
        wall = wall_tiles(encode, f"{where}, handCardEncode")
        stated = r.get("handCardsSHA256")
        if isinstance(stated, str) and stated:
            self.claims.append(wall_digest("handCardsSHA256", hashable_text(encode, where), stated))
        records = array(r.get("handEventRecord"), f"{where}, handEventRecord")
        if len(records) > _MAX_EVENTS:
            raise LogFormatError(
                f"{len(records):,} events: over the {_MAX_EVENTS:,} pywall reads "
                "(a real round has a few hundred)",
                where,
            )
        for i, e in enumerate(records):
            self.event(obj(e, f"{where}, event {i + 1}"), f"{where}, event {i + 1}", encode)
        copy = r.get("paiShan")
        return self.build(wall, None if copy is None else tiles(copy, f"{where}, paiShan"))

    def build(self, wall: tuple[int, ...], copy: tuple[int, ...] | None) -> Round:
        start, where = self.start, self.where
        if start is None:
            raise LogFormatError("the round has no start event (eventType 1)", where)
        listed = integer(start.get("dealer_pos"), f"{where}, dealer_pos", 0, self.players - 1)
        dealer = (listed - self.shift) % self.players
        missing = [s for s, h in enumerate(self.hands) if h is None]
        if missing:
            raise LogFormatError(f"no start event gives seat {missing[0]}'s hand", where)
        hands = [list(h or ()) for h in self.hands]
        events = self.events
        if len(hands[dealer]) == 14:
            events = [Draw(dealer, hands[dealer].pop()), *events]
        wind = _wind(start.get("quan_feng", 0x31), f"{where}, quan_feng")
        hand_number = integer(start.get("chang_ci", 1), f"{where}, chang_ci", 1, 4)
        dice = start.get("dices")
        users = array(start.get("user_info_list"), f"{where}, user_info_list")
        points = tuple(
            integer(obj(u, where).get("hand_points", 0), f"{where}, hand_points", -(10**9), 10**9)
            for u in users
        )
        scores = points[self.shift :] + points[: self.shift]
        return Round(
            index=self.index,
            number=wind * 4 + hand_number - 1,
            honba=integer(start.get("ben_chang_num", 0), f"{where}, ben_chang_num", 0, 1000),
            riichi_sticks=integer(
                start.get("li_zhi_bang_num", 0), f"{where}, li_zhi_bang_num", 0, 1000
            ),
            dice=_dice(dice, where),
            dora_indicator=tile(start.get("bao_pai_card"), f"{where}, bao_pai_card"),
            dealer=dealer,
            hands=tuple(tuple(h) for h in hands),
            scores=scores,
            events=tuple(events),
            wall=wall,
            wall_scheme="front",
            hashes=tuple(self.claims),
            wall_copy=copy,
        )

    def event(self, e: dict[str, Any], where: str, encode: str) -> None:
        kind = e.get("eventType")
        if kind not in (1, 2, 4, 5, 7):
            return
        raw = e.get("data")
        d = obj(loads(raw, where) if isinstance(raw, str) else raw, f"{where}, data")
        if kind == 1:
            self.start_event(e, d, where)
        elif kind == 2:
            if d.get("in_card"):
                self.events.append(
                    Draw(self.seat(e.get("userId"), where), tile(d["in_card"], f"{where}, in_card"))
                )
        elif kind == 4:
            self.action(d, where)
        elif kind == 5:
            self.end(d, where)
        else:
            self.kan_dora(d, where)

    def seat(self, user: Any, where: str) -> int:
        if _user(user, where) not in self.seats:
            raise LogFormatError(f"user {str(user)[:20]} is not a player of the round", where)
        return self.seats[user]

    def start_event(self, e: dict[str, Any], d: dict[str, Any], where: str) -> None:
        users = array(d.get("user_info_list"), f"{where}, user_info_list")
        if len(users) != self.players:
            raise LogFormatError(f"{len(users)} players in a {self.players}-player record", where)
        n = self.players
        seats = {
            _user(obj(u, where).get("user_id"), where): (s - self.shift) % n
            for s, u in enumerate(users)
        }
        if self.start is None:
            self.start, self.seats = d, seats
        elif seats != self.seats:
            raise LogFormatError("the start events disagree on who sits where", where)
        seat = self.seat(e.get("userId"), where)
        self.hands[seat] = tiles(d.get("hand_cards"), f"{where}, hand_cards")
        stated = d.get("hand_cards_sha_256")
        encode = self.claims[0].message if self.claims else None
        if isinstance(stated, str) and stated and encode is not None:
            self.claims.append(wall_digest("hand_cards_sha_256", encode, stated, seat))

    def action(self, d: dict[str, Any], where: str) -> None:
        code = integer(d.get("action"), f"{where}, action", 0, 100)
        if code not in _CALLS and code not in (_DISCARD, _RON, _TSUMO):
            return
        seat = self.seat(d.get("user_id"), where)
        if code == _DISCARD:
            if d.get("is_li_zhi"):
                self.events.append(Riichi(seat, 1))
            self.events.append(Discard(seat, tile(d.get("card"), f"{where}, card")))
            self.last_from = seat
        elif code in _CALLS:
            kind, card = _CALLS[code], tile(d.get("card"), f"{where}, card")
            self.events.append(Call(seat, card, kind, _taken(kind, card, d, where)))
            if kind in (MeldKind.ADDED_KAN, MeldKind.CLOSED_KAN, MeldKind.NUKI):
                self.last_from = seat  # a robbed kan (or North) is won from its declarer

    def end(self, d: dict[str, Any], where: str) -> None:
        end_type = integer(d.get("end_type"), f"{where}, end_type", 0, 100)
        if end_type not in _WINS:
            self.events.append(Ryuukyoku(_ENDS.get(end_type, f"end_type {end_type}")))
            return
        infos = array(d.get("win_info"), f"{where}, win_info")
        if len(infos) > limits.MAX_WINS:
            raise LogFormatError(f"{len(infos):,} wins in one result", f"{where}, win_info")
        for i, w in enumerate(infos):
            at = f"{where}, win_info[{i}]"
            w = obj(w, at)
            seat = self.seat(w.get("user_id"), at)
            ura = tiles(w["li_bao_card"], f"{at}, li_bao_card") if w.get("li_bao_card") else ()
            self.events.append(Win(seat, seat if end_type == 1 else self.last_from, (), ura))

    def kan_dora(self, d: dict[str, Any], where: str) -> None:
        """``cards`` lists every kan indicator so far: the new ones are reveals (a list
        that contradicts an earlier one is emitted whole, for the positional check)."""
        cards = tiles(d.get("cards"), f"{where}, cards")
        known = self.kan_doras
        if list(cards[: len(known)]) == known:
            new = cards[len(known) :]
        else:
            new = tuple(t for k, t in enumerate(cards) if k >= len(known) or t != known[k])
        for t in new:
            self.events.append(DoraReveal(t))
            known.append(t)


#: How many tiles a call's ``group_cards`` lists, by kind (a closed kan's fourth is ``card``).
_GROUP_SIZE = {
    MeldKind.CHI: 2,
    MeldKind.PON: 2,
    MeldKind.OPEN_KAN: 3,
    MeldKind.CLOSED_KAN: 3,
}


def _taken(kind: MeldKind, card: int, d: dict[str, Any], where: str) -> tuple[int, ...]:
    """The tiles a call takes from the hand, as the record names them: ``group_cards``
    (with ``card`` for a closed kan), an added kan's ``card``, a closed kan's ``card``
    four times where it has no ``group_cards`` (its ``card`` names the kind: the hand
    holds all four); () where the record has no ``group_cards``, or lists another number
    of tiles than the real records show (an open kan's three is inferred: none of them
    has one), and the draw walk finds them."""
    if kind is MeldKind.ADDED_KAN:
        return (card,)
    group = d.get("group_cards")
    size = _GROUP_SIZE.get(kind)
    named = () if group is None or size is None else tiles(group, f"{where}, group_cards")
    if kind is MeldKind.CLOSED_KAN:
        return (*named, card) if len(named) == size else (card,) * 4
    if len(named) != size:  # another shape than the real records show: the walk finds them
        return ()
    return named


def _user(value: Any, where: str) -> int | str:
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        return value
    raise LogFormatError("a user id is neither a number nor text", where)


def _wind(value: Any, where: str) -> int:
    """``quan_feng`` is the round wind as a tile code: 0x31 East ... 0x61 North."""
    c = integer(value, where, 0, 0x1FF)
    return (c - 0x31) >> 4 if c in (0x31, 0x41, 0x51, 0x61) else 0


def _dice(value: Any, where: str) -> tuple[int, int] | None:
    if not isinstance(value, list) or len(value) != 2:
        return None
    return integer(value[0], f"{where}, dices", 1, 6), integer(value[1], f"{where}, dices", 1, 6)


def _names(first: Any, players: int) -> tuple[str, ...]:
    names = [""] * players
    found = first.get("players") if isinstance(first, dict) else None
    for p in found if isinstance(found, list) else []:
        if isinstance(p, dict) and isinstance(p.get("nickname"), str):
            pos = p.get("position")
            if isinstance(pos, int) and not isinstance(pos, bool) and 0 <= pos < players:
                names[pos] = p["nickname"]
    return tuple(names)
