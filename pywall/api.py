"""The page's API: one entry point, ``handle(kind, payload_json, data) -> reply_json``.

Strings cross the worker boundary (no PyProxy juggling); a file's bytes come as
``data``. Each request type is a handler in ``HANDLERS``: a few lines that check
their payload and call the core. Validation lives with the code it protects and
raises ``PywallError``; ``handle`` turns that into ``{"error": {"code",
"message"}}``. It is also the one boundary that turns an unexpected exception (a
bug) into ``{"error": {"code": "internal", ...}}``, so the page never sees a
traceback as its only explanation. Nothing here opens a file: archive requests
take an ``Opener`` from the driver (web/worker_py.py).

Archive runs: ``archive_open`` answers the archive's survey (game count, seek marks);
the page hands that survey to every other worker that opens the same file, and asks
each for chunks (``archive_next`` with ``start``). A shared run sends its games' audit
records back (``records``), and the page gives them to one worker's ``tally_add`` in
the archive's order; ``audit`` with ``runs`` counts those tallies.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pywall import commitment, majsoul, sega, tenhou
from pywall.archives import Entry, is_sqlite, is_zip
from pywall.audit import Tally, audit_dict
from pywall.errors import PywallError
from pywall.formats import majsoul as majsoul_format
from pywall.hands import round_hands, starting_table
from pywall.inputs.zips import iter_zip
from pywall.links import link_from_text
from pywall.report import (
    SCHEMA,
    batch_dict,
    compact_row,
    csv_text,
    report_for_entry,
    wall_dict,
)
from pywall.runs import ArchiveRun, RunTally, Source
from pywall.tiles import face_from_code
from pywall.warmup import warm_up_report

MAX_TEXT = 8 * 1024 * 1024
MAX_JSON = 64 * 1024 * 1024

#: What the driver gives archive requests: path, label -> the file's games
#: (``inputs.sources.ArchiveSource``).
Opener = Callable[[str, str], Source]
Payload = Mapping[str, Any]


class BadRequest(PywallError):
    code = "bad_request"


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def arg(payload: Payload, key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
    """A payload field of the given type (bool is not an int), or the default."""
    value = payload.get(key, default)
    if value is default and default is not None:
        return value
    if value is None or isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise BadRequest(f"{key!r} must be {getattr(kind, '__name__', 'of another type')}")
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise BadRequest(f"{key!r} is over {MAX_TEXT // 2**20} MiB")
    return value


def bounded(payload: Payload, key: str, lo: int, hi: int, default: int | None = None) -> int:
    value: int = arg(payload, key, int, default)
    if not lo <= value <= hi:
        raise BadRequest(f"{key!r} must be from {lo} to {hi}")
    return value


def batch_reply(name: str, data: bytes) -> dict[str, Any]:
    """Reports (with walls and starting hands) for a log or a zip of logs, and their rows."""
    if is_zip(data[:4]):
        entries: Iterable[Entry] = iter_zip(io.BytesIO(data), name)
    else:
        entries = ((name, data),)
    reports = [report_for_entry(n, c, detail=True, starting=True) for n, c in entries]
    return {**batch_dict(reports), "rows": [compact_row(i, r) for i, r in enumerate(reports)]}


class Api:
    """The handlers, with the archive runs of one worker."""

    def __init__(self, opener: Opener | None = None) -> None:
        self.opener = opener
        self.runs: dict[str, ArchiveRun] = {}
        self.tallies: dict[str, RunTally] = {}

    def _open(self, payload: Payload) -> Source:
        """The file's source, with the survey the page passed on (if any) adopted."""
        if self.opener is None:
            raise BadRequest("this worker reads no archives")
        source = self.opener(arg(payload, "path", str), arg(payload, "label", str))
        survey = arg(payload, "survey", Mapping, {})
        if survey:
            marks = survey.get("marks")
            if not isinstance(survey.get("total"), int) or not (
                marks is None or isinstance(marks, list) and all(type(m) is int for m in marks)
            ):
                source.close()
                raise BadRequest("'survey' must be what archive_open answered")
            source.adopt(survey)
        return source

    def archive_open(self, payload: Payload, data: bytes | None) -> dict[str, Any]:
        """A run of the archive at ``path`` (``records``: shared, see above); its survey."""
        run = arg(payload, "run", str)
        self.archive_close({"run": run}, None)
        source = self._open(payload)
        self.runs[run] = ArchiveRun(
            source,
            records=arg(payload, "records", bool, False),
            mismatch_details=bounded(payload, "mismatch_details", 0, 10_000, 50),
        )
        return {"total": source.survey()["total"], "survey": source.survey()}

    def archive_next(self, payload: Payload, data: bytes | None) -> dict[str, Any]:
        run = self.runs.get(arg(payload, "run", str))
        if run is None:
            raise BadRequest("no such archive run (it was closed)")
        start = bounded(payload, "start", 0, 10**9) if "start" in payload else None
        return run.next_chunk(bounded(payload, "limit", 1, 10_000), start)

    def archive_close(self, payload: Payload, data: bytes | None) -> dict[str, Any]:
        name = arg(payload, "run", str)
        done = self.runs.pop(name, None)
        if done is not None:
            done.close()
        tally = self.tallies.pop(name, None)
        return {"closed": done is not None or tally is not None}

    def archive_game(self, payload: Payload, data: bytes | None) -> dict[str, Any]:
        index = bounded(payload, "index", 0, 10**9)
        source = self._open(payload)
        try:
            entries = source.entries(index)
            found = next(entries, None)
            close = getattr(entries, "close", None)
            if close:
                close()
        finally:
            source.close()
        if found is None:
            raise BadRequest(f"the archive has no game number {index + 1}")
        return report_for_entry(*found, detail=True, starting=True).to_dict()

    def tally_add(self, payload: Payload, data: bytes | None) -> dict[str, Any]:
        """A shared run's audit records, from game ``start`` on, in the archive's order."""
        run = arg(payload, "run", str)
        tally = self.tallies.setdefault(run, RunTally())
        added = tally.add(bounded(payload, "start", 0, 10**9), arg(payload, "records", list))
        return {"added": added}

    def audit(self, payload: Payload, data: bytes | None) -> dict[str, Any]:
        """Verified games of the page's reports and archive runs, in one audit."""
        tally = Tally()
        for report in arg(payload, "reports", list, []):
            tally.add_report(report if isinstance(report, Mapping) else {})
        for run in arg(payload, "runs", list, []):
            if not isinstance(run, str):
                raise BadRequest("'runs' must be a list of run names")
            if run in self.runs:
                tally.merge(self.runs[run].tally)
            if run in self.tallies:
                tally.merge(self.tallies[run].tally)
        for part in arg(payload, "tallies", list, []):
            tally.merge(Tally.from_dict(part))
        return audit_dict(tally)

    def tally(self, payload: Payload, data: bytes | None) -> dict[str, Any]:
        name = arg(payload, "run", str)
        run, shared = self.runs.get(name), self.tallies.get(name)
        return (shared.tally if shared else run.tally if run else Tally()).to_dict()


def verify(payload: Payload, data: bytes | None) -> dict[str, Any]:
    if data is None:
        raise BadRequest("verify needs the file's bytes")
    return batch_reply(arg(payload, "name", str), data)


def walls(payload: Payload, data: bytes | None) -> dict[str, Any]:
    seed = arg(payload, "seed", str)
    rounds, players = bounded(payload, "rounds", 1, 64, 1), arg(payload, "players", int, 4)
    parsed = tenhou.parse_seed(seed)
    made = tenhou.walls(seed, rounds, players)
    return {
        "schema": SCHEMA,
        "seed_scheme": parsed.scheme.value,
        "players": players,
        "rounds": [wall_dict(i, w, players, parsed.scheme) for i, w in enumerate(made)],
    }


def csv(payload: Payload, data: bytes | None) -> dict[str, Any]:
    """CSV of compact rows (``report.compact_row``) in the CLI's columns."""
    rows = arg(payload, "rows", list)
    if not all(isinstance(r, Mapping) for r in rows):
        raise BadRequest("'rows' must be a list of objects")
    return {"csv": csv_text(rows)}


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
    return round_hands(arg(payload, "round", Mapping))


def link(payload: Payload, data: bytes | None) -> dict[str, Any]:
    """The game a pasted link or id names (the page fetches nothing: it says where the record is)."""
    found = link_from_text(arg(payload, "text", str))
    return {"link": found.to_dict() if found else None}


def sniff(payload: Payload, data: bytes | None) -> dict[str, Any]:
    """What a file is, from its first bytes: ``zip``, ``sqlite`` or ``record``."""
    head = (data or b"")[:16]
    return {"kind": "zip" if is_zip(head) else "sqlite" if is_sqlite(head) else "record"}


def warm_up(payload: Payload, data: bytes | None) -> dict[str, Any]:
    return {"status": warm_up_report(bounded(payload, "times", 1, 10, 3))}


Handler = Callable[[Payload, "bytes | None"], dict[str, Any]]
HANDLERS: dict[str, Handler] = {
    "verify": verify,
    "walls": walls,
    "csv": csv,
    "commitment": commitment_check,
    "sega": sega_wall,
    "majsoul": majsoul_hashes,
    "shanten": shanten,
    "hands": hands,
    "warm_up": warm_up,
    "sniff": sniff,
    "link": link,
}
RUN_HANDLERS = (
    "archive_open",
    "archive_next",
    "archive_close",
    "archive_game",
    "audit",
    "tally",
    "tally_add",
)


def handle(kind: str, payload_json: str, data: bytes | None = None, api: Api | None = None) -> str:
    """Answer one request: its reply as JSON text, or ``{"error": {...}}``. Never raises."""
    try:
        try:
            payload = json.loads(payload_json) if len(payload_json) <= MAX_JSON else None
        except (TypeError, ValueError):
            payload = None
        if not isinstance(payload, dict):
            raise BadRequest("the request's payload must be a JSON object")
        if kind in RUN_HANDLERS:
            reply = getattr(api or Api(), kind)(payload, data)
        elif kind in HANDLERS:
            reply = HANDLERS[kind](payload, data)
        else:
            raise BadRequest(f"unknown request {str(kind)[:40]!r}")
        return dumps(reply)
    except PywallError as exc:
        return dumps({"error": {"code": exc.code, "message": exc.message}})
    except Exception as exc:  # noqa: BLE001 - the outermost boundary: a bug, said plainly
        return dumps(
            {
                "error": {
                    "code": "internal",
                    "message": f"internal error ({type(exc).__name__}: {exc}); please report it",
                }
            }
        )
