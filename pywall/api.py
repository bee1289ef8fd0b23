"""JSON in, JSON out: the calls the web worker makes.

Strings cross the worker boundary (no PyProxy juggling). No function here
raises for bad input: problems come back as reports with status ``error``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from pywall import tenhou
from pywall.archives import is_zip, iter_zip
from pywall.errors import PywallError
from pywall.report import (
    CSV_COLUMNS,
    SCHEMA,
    FileReport,
    batch_dict,
    check_log,
    csv_text,
    report_for_entry,
    wall_dict,
)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def reports_for(name: str, data: bytes, detail: bool = True) -> list[FileReport]:
    """One report per log: a plain or gzip log gives one, a zip one per member."""
    if not is_zip(data[:4]):
        return [check_log(name, data, detail)]
    return [report_for_entry(member, content, detail) for member, content in iter_zip(io.BytesIO(data), name)]


def verify_file(name: str, data: bytes, detail: bool = True) -> str:
    """The report of one log file (zip files: use ``verify_any``)."""
    return _dumps(check_log(name, bytes(data), detail).to_dict())


def verify_any(name: str, data: bytes, detail: bool = True) -> str:
    """A batch document (``files`` + ``summary``) for a log or a zip of logs."""
    return _dumps(batch_dict(reports_for(name, bytes(data), detail)))


# --- warming up the page's interpreter ---------------------------------------------
# A browser compiles WebAssembly lazily and optimises a function only once it has
# run a while: the first logs after the page loads were checked about 1.7x slower
# than the next ones. The worker runs ``warm_up`` once, right after it says it is
# ready, on a game made up here, so a person's first log is checked at full speed.

_WARM_SEED = "".join(chr(65 + i % 26) for i in range(3328))  # base64 of 2496 bytes


def made_up_log(rounds: int = 4) -> str:
    """A 4-player mjlog dealt and drawn from the walls of a fixed seed: every round
    is dealt from the wall and drawn to its end, each tile discarded as drawn."""
    from pywall.verify import deal_positions  # only here: not needed to import api

    dora = tenhou.layout_for(tenhou.Scheme.CURRENT, 4).dora_position(0)
    live = range(135 - 13 * 4, 13, -1)  # below the deal, down to the dead wall's 14 tiles
    parts = [(f'<mjloggm ver="2.3"><SHUFFLE seed="{tenhou.PREFIX}{_WARM_SEED}" ref=""/>'
              '<GO type="169" lobby="0"/><UN n0="a" n1="b" n2="c" n3="d"/><TAIKYOKU oya="0"/>')]
    hands = deal_positions(0, 4, 136)
    for r, wall in enumerate(tenhou.walls(_WARM_SEED, rounds)):
        t = wall.tiles
        dealt = " ".join(f'hai{s}="{",".join(str(t[p]) for p in hands[s])}"' for s in range(4))
        parts.append(f'<INIT seed="{r},0,0,{wall.dice[0] - 1},{wall.dice[1] - 1},{t[dora]}" '
                     f'ten="250,250,250,250" oya="0" {dealt}/>')
        parts += [f'<{"TUVW"[k % 4]}{t[p]}/><{"DEFG"[k % 4]}{t[p]}/>' for k, p in enumerate(live)]
        parts.append('<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0"/>')
    return "".join(parts) + "</mjloggm>"


def warm_up(times: int = 3) -> str:
    """Check the made-up game ``times`` times, as the page checks a log; its status."""
    data = made_up_log().encode()
    for _ in range(max(1, int(times))):
        report = verify_any("warm-up.xml", data)
    return str(json.loads(report)["files"][0]["status"])


# --- archives in the page, a chunk at a time ---------------------------------------
# A zip or phoenix-logs database may hold 100,000 games: the worker asks
# ``ArchiveRun.next_chunk`` for a few dozen at a time (progress and cancel in
# between) and the page keeps one compact row per game (``ROW_FIELDS``). Wall
# detail travels only for the first ``DETAIL_FIRST`` games and the first
# ``DETAIL_MISMATCHES`` mismatches; any other game is checked again on demand
# with ``verify_item`` when a person opens it, so memory stays bounded.

DETAIL_FIRST = 20
DETAIL_MISMATCHES = 50
#: One game of an archive in the page and in its exports (CSV: the CLI's columns).
ROW_FIELDS = ("i", "path", "status", "round_count", "checked", "errors", "first_problem")

Entry = tuple[str, "bytes | PywallError"]


def compact_row(index: int, report: FileReport) -> dict[str, Any]:
    errors = report.errors
    return {"i": index, "path": report.path, "status": report.status, "round_count": len(report.rounds),
            "checked": report.checked, "errors": len(errors),
            "first_problem": errors[0].message if errors else ""}


class ArchiveRun:
    """The logs of one archive, checked ``limit`` at a time, in the archive's order."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self._entries: Iterator[Entry] = iter(entries)
        self.done = 0
        self.mismatches_kept = 0
        self.finished = False

    def _report(self, name: str, content: bytes | PywallError) -> tuple[FileReport, bool]:
        """The game's report and whether it carries its walls (checked again if it must)."""
        if self.done < DETAIL_FIRST:
            return report_for_entry(name, content, detail=True), True
        report = report_for_entry(name, content)
        if report.status == "mismatch" and self.mismatches_kept < DETAIL_MISMATCHES:
            self.mismatches_kept += 1
            return report_for_entry(name, content, detail=True), True
        return report, False

    def next_chunk(self, limit: int) -> str:
        """``{"rows": [...], "details": [reports with walls], "done": bool}`` for the next games."""
        rows: list[dict[str, Any]] = []
        details: list[dict[str, Any]] = []
        for name, content in islice(self._entries, max(1, int(limit))):
            report, detailed = self._report(name, content)
            if detailed:
                details.append({"i": self.done, **report.to_dict()})
            rows.append(compact_row(self.done, report))
            self.done += 1
        self.finished = len(rows) < max(1, int(limit))
        return _dumps({"rows": rows, "details": details, "done": self.finished})

    def close(self) -> None:
        """Stop early (cancel): the source's generator closes its file or database."""
        close = getattr(self._entries, "close", None)
        if close:
            close()
        self.finished = True


def verify_item(name: str, content: bytes | PywallError) -> str:
    """One archive game again, with its walls, for the page's "open this game"."""
    return _dumps(report_for_entry(name, content, detail=True).to_dict())


def csv_from_rows(rows_json: str) -> str:
    """CSV of compact rows (``ROW_FIELDS``), in the CLI's columns (``report.CSV_COLUMNS``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in json.loads(rows_json):
        writer.writerow((r["path"], r["status"], r["round_count"], r["checked"], r["errors"],
                         r["first_problem"]))
    return out.getvalue()


def walls_json(seed: str, rounds: int = 1, players: int = 4) -> str:
    """The walls a bare seed defines, for the seed-only view and the embed page."""
    try:
        if not 1 <= int(rounds) <= 64:
            raise PywallError("rounds must be from 1 to 64")
        parsed = tenhou.parse_seed(seed)
        walls = tenhou.walls(seed, int(rounds), int(players))
    except PywallError as exc:
        return _dumps({"schema": SCHEMA, "error": {"code": exc.code, "message": exc.message}})
    return _dumps({"schema": SCHEMA, "seed_scheme": parsed.scheme.value, "players": int(players),
                   "rounds": [wall_dict(i, w, int(players), parsed.scheme) for i, w in enumerate(walls)]})


def csv_from_batch(batch_json: str) -> str:
    """CSV export of a list of file reports (as the page holds them)."""
    files = json.loads(batch_json)
    return csv_text(FileReport.from_dict(f) for f in files)


# --- panels: commitment, SEGA MJ, Mahjong Soul, shanten, audit -------------------------
# Called by the page's worker through ``call(fn, args_json)`` (web/worker_py.py) with
# keyword arguments; each returns JSON and never raises for bad input: a problem comes
# back as ``{"error": {"code", "message"}}`` with a message for a person.

_MAX_TEXT = 8 * 1024 * 1024
import functools
from collections.abc import Callable


def _error(code: str, message: str) -> str:
    return _dumps({"error": {"code": code, "message": message}})


def _panel(fn: Callable[..., dict[str, Any]]) -> Callable[..., str]:
    """Wrap a panel call: pywall's errors and malformed arguments become error JSON."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> str:
        try:
            return _dumps(fn(*args, **kwargs))
        except PywallError as exc:
            return _error(exc.code, exc.message)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError) as exc:
            return _error("bad_input", f"the input could not be read ({type(exc).__name__}: {exc})")

    return wrapper


def _loaded(value: Any) -> Any:
    """A JSON argument that may arrive as text or already parsed."""
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode("utf-8-sig")
    if isinstance(value, str):
        if len(value) > 64 * 1024 * 1024:
            raise PywallError("the input is over 64 MiB")
        try:
            return json.loads(value)
        except ValueError as exc:
            raise PywallError(f"not JSON: {exc}") from None
    return value


def _text_arg(value: Any, what: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise PywallError(f"{what} must be text")
    if len(value) > _MAX_TEXT:
        raise PywallError(f"{what} is over {_MAX_TEXT // 2**20} MiB")
    return value


@_panel
def commitment_json(seed: str, names: Any, text: str) -> dict[str, Any]:
    """A game's seed and names by seat against a pasted hash or a saved hash-list page."""
    from pywall import commitment

    text = _text_arg(text, "the pasted text")
    if not text.strip():
        raise PywallError("paste a published hash (128 hex digits) or the saved hash list page")
    names = _loaded(names)
    if not isinstance(names, list):
        raise PywallError("player names must be a list")
    seed = _text_arg(seed, "the seed")
    if text.strip() and len(text.strip()) == commitment.HASH_HEX_LENGTH:
        result, mode = commitment.check_hash(seed, names, text), "hash"
    else:
        result, mode = commitment.check_list(seed, names, text), "list"
    return {**commitment.dict_from_result(result), "mode": mode}


def _uncertainty(value: Any) -> int:
    if isinstance(value, bool):
        raise PywallError("the uncertainty value must be a whole number")
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise PywallError("enter the uncertainty value (a whole number, 0-4294967295)")
        if not (text.isascii() and text.isdigit()):
            raise PywallError(f"the uncertainty value {text[:40]!r} is not a whole number (digits 0-9)")
        if len(text) > 12:
            raise PywallError("the uncertainty value is outside 0-4294967295 (32 bits)")
        value = int(text)
    if not isinstance(value, int):
        raise PywallError("the uncertainty value must be a whole number")
    return value


@_panel
def sega_json(seeds: Any, uncertainty: Any) -> dict[str, Any]:
    """SEGA MJ: the wall and dice from four player seeds and the uncertainty value."""
    from pywall import sega

    seeds = _loaded(seeds) if isinstance(seeds, str) and seeds.startswith("[") else seeds
    if not isinstance(seeds, list) or not all(isinstance(s, str) for s in seeds):
        raise PywallError("the player seeds must be a list of texts")
    result = sega.sega_wall([s.strip() for s in seeds], _uncertainty(uncertainty))
    out = sega.dict_from_sega_wall(result)
    out["break"]["index"] = (result.dice[0] + result.dice[1] - 1) % 4
    return out


def _majsoul_tile_id(code: str) -> int:
    """A Tenhou-style id of the same kind for drawing; red fives get 16, 52, 88."""
    suit = "mpsz".index(code[1])
    if code[0] == "0":
        return (16, 52, 88)[suit]
    return (suit * 9 + int(code[0]) - 1) * 4 + (2 if code[0] == "5" else 0)


@_panel
def majsoul_json(
    record: Any = None, paishan: Any = None, salt: Any = None, sha256: Any = None,
    md5: Any = None, salt_sha256: Any = None,
) -> dict[str, Any]:
    """Mahjong Soul: every round of a record (JSON text), or one round typed by hand."""
    from pywall import majsoul
    from pywall.formats import majsoul as record_format

    typed = {k: _text_arg(v, k).strip() or None for k, v in
             (("paishan", paishan), ("salt", salt), ("sha256", sha256), ("md5", md5),
              ("salt_sha256", salt_sha256))}
    uuid = None
    if record is not None and not (isinstance(record, str) and not record.strip()):
        if isinstance(record, (bytes, bytearray, str)):
            parsed = record_format.parse(record if isinstance(record, str) else bytes(record))
        else:
            parsed = record_format.parse(_dumps(record))
        rounds, uuid = parsed.rounds, parsed.uuid
    else:
        if typed["paishan"] is None:
            raise PywallError("choose a record file, or enter a paishan with its hash")
        if typed["sha256"] is None and typed["md5"] is None:
            raise PywallError("enter the stated hash: sha256 (with the salt) or md5")
        if typed["sha256"] is not None and typed["salt"] is None:
            raise PywallError("sha256 needs the salt: the hash is SHA-256(paishan + salt)")
        majsoul.paishan_from_text(typed["paishan"])
        rounds = (majsoul.RoundHashes(typed["paishan"], typed["salt"], typed["sha256"],
                                      typed["salt_sha256"], typed["md5"]),)
    out = majsoul.dict_from_report(majsoul.verify_rounds(rounds))
    for r in out["rounds"]:
        tiles = majsoul.tiles_from_paishan(r["paishan"])
        r["tiles"] = list(tiles)
        r["tile_ids"] = [_majsoul_tile_id(code) for code in tiles]
    out["uuid"] = uuid
    return out


def _hand_dict(counts: list[int], visible: list[int] | None) -> dict[str, Any]:
    from pywall.efficiency import discard_table, effective_tiles
    from pywall.shanten import shanten_by_form

    forms = shanten_by_form(counts)
    out: dict[str, Any] = {
        "tiles": sum(counts),
        "shanten": {"regular": forms.regular, "chiitoi": forms.chiitoi,
                    "kokushi": forms.kokushi, "minimum": forms.minimum},
    }
    if sum(counts) % 3 == 1:
        out["effective"] = effective_tiles(counts, visible).to_dict()
    else:
        out["discards"] = discard_table(counts, visible).to_dict()["discards"]
    return out


@_panel
def shanten_json(hand: Any, visible: Any = "") -> dict[str, Any]:
    """The hand calculator: shanten per form and effective tiles or the 牌理 table."""
    from pywall.tiles import counts_from_mpsz, kinds_from_mpsz, mpsz_from_counts

    hand = _text_arg(hand, "the hand")
    visible = _text_arg(visible, "the visible tiles")
    if len(hand) > 200 or len(visible) > 600:
        raise PywallError("that is far more tiles than a hand has")
    kinds = kinds_from_mpsz(hand)
    if not kinds:
        raise PywallError("type a hand in mpsz, e.g. 123m456p789s1122z")
    counts = counts_from_mpsz(hand)
    if sum(counts) > 14 or sum(counts) % 3 == 0:
        raise PywallError(f"a hand has 1-14 tiles and not a multiple of 3 (13 or 14 before calls); "
                          f"this one has {sum(counts)}")
    seen = counts_from_mpsz(visible) if visible.strip() else None
    red = [i for i, ch in enumerate(_digits_with_suits(hand)) if ch[0] == "0"]
    out = {"hand": mpsz_from_counts(counts), "kinds": sorted(kinds),
           "red": sorted({kinds[i] for i in red}), **_hand_dict(counts, seen)}
    if seen is not None:
        out["visible"] = mpsz_from_counts(seen)
    return out


def _digits_with_suits(text: str) -> list[str]:
    """``"05m1z"`` -> ``["0m", "5m", "1z"]`` (text already checked by kinds_from_mpsz)."""
    out, pending = [], []
    for ch in text:
        if ch.isdigit():
            pending.append(ch)
        elif ch.lower() in "mpsz":
            out += [d + ch.lower() for d in pending]
            pending = []
    return out


def _round_layout(wall: Any, hands: Any) -> tuple[list[int], list[list[int]], int, int]:
    """Check a page round's wall and hands; (wall, hands, players, dealer seat)."""
    if not isinstance(wall, list) or len(wall) not in (136, 108):
        raise PywallError("a round's wall has 136 or 108 tiles")
    if sorted(wall) != (list(range(136)) if len(wall) == 136 else
                        list(range(4)) + list(range(32, 136))):
        raise PywallError("a round's wall must hold every tile id once")
    players = 4 if len(wall) == 136 else 3
    if not isinstance(hands, list) or len(hands) < players or any(
            not isinstance(h, list) or len(h) != 13 for h in hands[:players]):
        raise PywallError(f"a round needs {players} dealt hands of 13 tiles")
    firsts = [h[0] for h in hands[:players]]
    if wall[-1] not in firsts:
        raise PywallError("no hand starts with the wall's first dealt tile: cannot tell the dealer")
    return wall, [list(h) for h in hands[:players]], players, firsts.index(wall[-1])


@_panel
def round_hands_json(round_json: Any) -> dict[str, Any]:
    """A round's starting hands: each seat's 13 (the dealer's 14, with the first live
    draw) sorted, with shanten and effective tiles or the 牌理 table; the dora indicator
    counts as a visible tile."""
    rnd = _loaded(round_json)
    if not isinstance(rnd, dict):
        raise PywallError("a round must be an object with its wall and hands")
    wall, hands, players, dealer = _round_layout(rnd.get("wall"), rnd.get("hands"))
    n = len(wall)
    draw = wall[n - 1 - 13 * players]
    indicator = wall[5 if players == 4 else 9]
    visible = [0] * 34
    visible[indicator // 4] += 1
    seats = []
    for seat, hand in enumerate(hands):
        tiles = hand + ([draw] if seat == dealer else [])
        counts = [0] * 34
        for t in tiles:
            counts[t // 4] += 1
        seats.append({"seat": seat, "dealer": seat == dealer, "ids": sorted(tiles),
                      "draw": draw if seat == dealer else None, **_hand_dict(counts, visible)})
    return {"players": players, "dealer": dealer, "dora_indicator": indicator, "seats": seats}


def _report_hands(report: dict[str, Any]) -> list[Any]:
    """Starting hands of one verified 4-player detailed report (the audit's rule:
    the dealer's 14th tile is the first live draw, when the round has one)."""
    from pywall.audit import StartingHand

    names = report["game"]["players"]
    out = []
    for rnd in report["rounds"]:
        wall, hands, players, dealer = _round_layout(rnd.get("wall"), rnd.get("hands"))
        live = len(wall) - 1 - 13 * players
        events = rnd.get("events")
        drew = events is None or any(e[0] == live and e[1] == "draw" for e in events)
        for seat, hand in enumerate(hands):
            name = names[seat] if seat < len(names) and names[seat] else f"seat {seat}"
            if seat != dealer:
                out.append(StartingHand.from_tiles(name, False, hand, wall[5]))
            elif drew:
                out.append(StartingHand.from_tiles(name, True, hand + [wall[live]], wall[5]))
    return out


def _audit_exclusion(report: Any, seen: dict[str, str]) -> tuple[str, str] | None:
    if not isinstance(report, dict):
        return "unreadable", "not a report"
    status, game = report.get("status"), report.get("game")
    if status != "verified":
        first = next((f.get("message") for f in report.get("findings") or []
                      if isinstance(f, dict) and f.get("severity") == "error"), None)
        kind = status if status in ("mismatch", "error") else "unreadable"
        return kind, f"{kind}: {first}" if first else str(kind)
    if not isinstance(game, dict) or game.get("player_count") != 4:
        return "three_player", ("3-player game: the exact distributions are over 136 tiles; "
                                "3-player walls have 108")
    if not game.get("seed") or not all(r.get("wall") and r.get("hands") for r in report["rounds"]):
        return "no_detail", "the report has no seed or walls (verify the log on this page)"
    if game["seed"] in seen:
        return "duplicate", f"the same game as {seen[game['seed']]}"
    return None


@_panel
def audit_json(reports_json: Any) -> dict[str, Any]:
    """The starting-hand audit of the page's detailed reports: verified 4-player games
    only, each game once (by seed); exclusions with reasons; fair probabilities as
    floats and exact counts as strings (they exceed 2**53)."""
    from pywall.audit import ALPHA, audit_hands
    from pywall.shanten_distribution import distribution

    reports = _loaded(reports_json)
    if isinstance(reports, dict):
        reports = reports.get("files")
    if not isinstance(reports, list):
        raise PywallError("the audit needs a list of reports")
    hands: list[Any] = []
    excluded: list[dict[str, str]] = []
    seen: dict[str, str] = {}
    for report in reports:
        path = str(report.get("path", "?")) if isinstance(report, dict) else "?"
        reason = _audit_exclusion(report, seen)
        if reason is None:
            try:
                hands.extend(_report_hands(report))
            except PywallError as exc:
                reason = ("unreadable", exc.message)
            else:
                seen[report["game"]["seed"]] = path
        if reason is not None:
            excluded.append({"path": path, "kind": reason[0], "reason": reason[1]})
    games = {"used": len(seen), "hands": len(hands), "excluded": excluded}
    if not hands:
        return {"error": {"code": "no_games", "message":
                          "no verified 4-player game to audit"}, "games": games}
    out = audit_hands(hands).to_dict()
    fair = {}
    for tiles in (13, 14):
        counts = distribution(tiles)
        total = sum(counts.values())
        fair[str(tiles)] = {"total": str(total),
                            "counts": {str(s): str(c) for s, c in counts.items()},
                            "probability": {str(s): c / total for s, c in counts.items()}}
    return {**out, "games": games, "fair": fair, "alpha": ALPHA}
