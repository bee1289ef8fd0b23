"""The page's tool panels (commitment, SEGA MJ, Mahjong Soul hashes, the hand calculator,
starting hands, links and lists of games): their requests' handlers. ``pywall.page.api`` imports this module
on a tool's first request, so the page is ready before any tool is loaded."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pywall.analysis.hands import DealtRound, round_hands, starting_table
from pywall.checks import commitment, majsoul, sega
from pywall.core.errors import PywallError, ValueInputError
from pywall.core.layout import WallScheme, layout_for
from pywall.core.tiles import face_from_code
from pywall.formats import majsoul as majsoul_format
from pywall.formats.game_lists import games_from_text
from pywall.formats.links import link_from_text
from pywall.page.payload import BadRequest, Handler, Payload, arg, bounded


def commitment_check(payload: Payload, data: bytes | None) -> dict[str, Any]:
    text = arg(payload, "text", str, "")
    if not text.strip():
        raise PywallError("paste a published hash (128 hex digits) or the saved hash list page")
    seed, names = arg(payload, "seed", str), arg(payload, "names", list)
    if len(text.strip()) == commitment.HASH_HEX_LENGTH:
        return {**commitment.check_hash(seed, names, text).to_dict(), "mode": "hash"}
    return {**commitment.check_list(seed, names, text).to_dict(), "mode": "list"}


def sega_wall(payload: Payload, data: bytes | None) -> dict[str, Any]:
    seeds = arg(payload, "seeds", list)
    if not all(isinstance(s, str) for s in seeds):
        raise BadRequest("the player seeds must be a list of texts")
    result = sega.sega_wall(
        [s.strip() for s in seeds], sega.uncertainty_from(payload.get("uncertainty"))
    )
    return result.to_dict()


def majsoul_hashes(payload: Payload, data: bytes | None) -> dict[str, Any]:
    """Mahjong Soul: every round of a record (JSON text), or one round typed by hand."""
    record = arg(payload, "record", str, "")
    if record.strip():
        parsed = majsoul_format.parse_hashes(record)
        rounds, uuid = parsed.rounds, parsed.uuid
    else:
        typed = {
            k: arg(payload, k, str, "").strip() or None
            for k in ("paishan", "salt", "sha256", "md5", "salt_sha256")
        }
        rounds, uuid = (majsoul.typed_round(**typed),), None
    out = majsoul.verify_rounds(rounds).to_dict()
    for r in out["rounds"]:
        r["tiles"] = list(majsoul.tiles_from_paishan(r["paishan"]))
        r["tile_ids"] = [face_from_code(code) for code in r["tiles"]]
    return {**out, "uuid": uuid}


def shanten(payload: Payload, data: bytes | None) -> dict[str, Any]:
    return starting_table(arg(payload, "hand", str), arg(payload, "visible", str, ""))


def hands(payload: Payload, data: bytes | None) -> dict[str, Any]:
    """A round's starting hands (from the report's round: wall, hands, dealer, layout)."""
    return round_hands(dealt_round(arg(payload, "round", Mapping)))


def link(payload: Payload, data: bytes | None) -> dict[str, Any]:
    """The game a pasted link or id names (the page fetches nothing: it says where the record is).
    ``round`` and ``seat``, when given, point its viewer address at that round (0: the
    first) and that seat (a checked log's round links)."""
    found = link_from_text(arg(payload, "text", str))
    if found and found.platform == "tenhou":
        at_round = bounded(payload, "round", 0, 255) if "round" in payload else found.round
        seat = bounded(payload, "seat", 0, 3) if "seat" in payload else found.seat
        found = replace(found, round=at_round, seat=seat)
    return {"link": found.to_dict() if found else None}


def games(payload: Payload, data: bytes | None) -> dict[str, Any]:
    """Every Tenhou game a pasted list or a tenhou.net page's text names, each once, in order,
    and what was not understood (``formats.game_lists``: at most 1,000 games, 4 MiB of text)."""
    return games_from_text(arg(payload, "text", str)).to_dict()


HANDLERS: dict[str, Handler] = {
    "commitment": commitment_check,
    "games": games,
    "sega": sega_wall,
    "majsoul": majsoul_hashes,
    "shanten": shanten,
    "hands": hands,
    "link": link,
}


def dealt_round(rnd: Mapping[str, Any]) -> DealtRound:
    """A report's round as the page hands it back (its dict form), checked: a
    ``ValueInputError`` that says what is missing for anything else."""
    wall, hands, dealer, layout = (
        rnd.get("wall"),
        rnd.get("hands"),
        rnd.get("dealer"),
        rnd.get("layout"),
    )
    if (
        not isinstance(hands, list)
        or len(hands) not in (3, 4)
        or not all(
            isinstance(h, list) and all(isinstance(t, int) and 0 <= t < 136 for t in h)
            for h in hands
        )
    ):
        raise ValueInputError("a round needs 3 or 4 dealt hands of tile ids")
    if not isinstance(layout, Mapping) or layout.get("scheme") not in {s.value for s in WallScheme}:
        raise ValueInputError("a round needs its layout (a report of schema 2)")
    scheme = layout_for(WallScheme(layout["scheme"]), len(hands))
    if (
        not isinstance(wall, list)
        or len(wall) != scheme.size
        or not all(isinstance(t, int) and 0 <= t < 136 for t in wall)
    ):
        raise ValueInputError(f"a round's wall has {scheme.size} tile ids")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < len(hands):
        raise ValueInputError("a round needs its dealer's seat")
    return DealtRound(wall, hands, dealer, scheme)
