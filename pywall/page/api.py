"""The page's API: one entry point, ``handle(kind, payload_json, data) -> reply_json``.

Strings cross the worker boundary (no PyProxy juggling); a file's bytes come as
``data``. Each request type is a handler in ``HANDLERS``: a few lines that check
their payload and call the core. Validation lives with the code it protects and
raises ``PywallError``; ``handle`` turns that into ``{"error": {"code",
"message"}}``. It is also the one boundary that turns an unexpected exception (a
bug) into ``{"error": {"code": "internal", ...}}``, so the page never sees a
traceback as its only explanation; a payload holding text no file or record holds (a NUL,
half of a surrogate pair: ``payload.impossible_text``) is a ``bad_request`` before any
handler sees it. Nothing here opens a file: archive requests
take an ``Opener`` from the driver (web/workers/worker_py.py).

Archive runs: ``archive_open`` answers the archive's survey (game count, seek marks);
the page hands that survey to every other worker that opens the same file, and asks
each for chunks (``archive_next`` with ``start``). A shared run sends its games' audit
records back (``records``: ``GameRecord.to_dict``), and the page gives them to one
worker's ``tally_add`` in the archive's order (a chunk is read and checked whole before
any record of it is added: a bad one changes nothing and names the record; with ``path``,
the archive that worker keeps open for the tally, a game with one copy keeps no record:
``page.runs``); ``audit`` with ``runs`` counts those
tallies, and reads the page's own reports (``reports``) with ``page.audit_reports``.

The page is ready once this module is imported, so it loads only what checking a
record needs: the tools' handlers (``pywall.page.tool_api``), the audit, the archive runs
and the wall pictures (``pywall.pictures.picture``) are imported on their first request (in Pyodide they were a third of the
start-up); ``LAZY_MODULES`` lists them, and a test checks that they stay out.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pywall.checks import tenhou
from pywall.core.archives import Entry, is_sqlite, is_zip
from pywall.core.errors import PywallError, ValueInputError
from pywall.core.limits import MAX_JSON_DEPTH, json_depth_problem
from pywall.page.payload import BadRequest, Handler, Payload, arg, bounded, impossible_text
from pywall.page.warmup import warm_up_report
from pywall.results.check import report_for_entry
from pywall.results.exports import CSV_COLUMNS, batch_dict, compact_row, csv_text, wall_dict
from pywall.results.report import SCHEMA

if TYPE_CHECKING:
    from pywall.audits.tally import AuditTally, Reread
    from pywall.inputs.sources import Survey
    from pywall.page.runs import ArchiveRun, SharedRunTally
    from pywall.run.items import Source

MAX_JSON = 64 * 1024 * 1024

#: What the driver gives archive requests: path, label -> the file's games
#: (``inputs.sources.ArchiveSource``).
Opener = Callable[[str, str], "Source"]


def dumps(obj: Any) -> str:
    """Compact JSON text. Non-ASCII as \\u escapes and no check for cycles (a reply is a
    tree): together a third faster on the page's verify replies than the defaults."""
    return json.dumps(obj, separators=(",", ":"), check_circular=False)


def survey_of(data: Mapping[str, Any]) -> Survey:
    """The survey another worker's ``archive_open`` answered, read back from the page's JSON
    (``survey_dict``'s form); anything else is a bad request."""
    from pywall.inputs.sources import Survey

    total, marks, parallel = data.get("total"), data.get("marks"), data.get("parallel", False)
    if (
        type(total) is not int
        or total < 0
        or type(parallel) is not bool
        or not (marks is None or isinstance(marks, list) and all(type(m) is int for m in marks))
    ):
        raise BadRequest("'survey' must be what archive_open answered")
    return Survey(total, tuple(marks) if marks is not None else None, parallel)


def survey_dict(survey: Survey) -> dict[str, Any]:
    """A survey as the page passes it from worker to worker (read back by ``survey_of``)."""
    marks = list(survey.marks) if survey.marks is not None else None
    return {"total": survey.total, "marks": marks, "parallel": survey.parallel}


def batch_reply(name: str, data: bytes) -> dict[str, Any]:
    """Reports (with walls and starting hands) for a log or a zip of logs, and their rows."""
    if is_zip(data[:4]):
        from pywall.inputs.zips import iter_zip

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
        self.tallies: dict[str, SharedRunTally] = {}

    def _open(self, payload: Payload) -> Source:
        """The file's source, with the survey the page passed on (if any) adopted."""
        if self.opener is None:
            raise BadRequest("this worker reads no archives")
        source = self.opener(arg(payload, "path", str), arg(payload, "label", str))
        survey = arg(payload, "survey", Mapping, {})
        if survey:
            try:
                source.adopt(survey_of(survey))
            except BadRequest:
                source.close()
                raise
        return source

    def archive_open(self, payload: Payload, data: bytes | None) -> dict[str, Any]:
        """A run of the archive at ``path`` (``records``: shared, see above); its survey."""
        from pywall.page.runs import ArchiveRun

        run = arg(payload, "run", str)
        self.archive_close({"run": run}, None)
        source = self._open(payload)
        self.runs[run] = ArchiveRun(
            source,
            records=arg(payload, "records", bool, False),
            mismatch_details=bounded(payload, "mismatch_details", 0, 10_000, 50),
        )
        survey = source.survey()
        return {"total": survey.total, "survey": survey_dict(survey)}

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
        from pywall.audits.records import GameRecord
        from pywall.page.runs import SharedRunTally

        run = arg(payload, "run", str)
        records, start = arg(payload, "records", list), bounded(payload, "start", 0, 10**9)
        read = []  # every record read and checked before any is added: all or nothing
        for i, r in enumerate(records):
            try:
                read.append(GameRecord.from_dict(r if isinstance(r, dict) else {}))
            except PywallError as exc:  # a record's content: bad_value, as the audit request's
                raise ValueInputError(
                    f"record {start + i + 1} (game {i + 1} of the chunk): {exc.message}"
                ) from None
        tally = self.tallies.get(run)
        if tally is None:
            tally = self.tallies[run] = SharedRunTally(self._rereader(payload))
        return {"added": tally.add(start, read)}

    def _rereader(self, payload: Payload) -> Reread | None:
        """What reads a shared run's games again: the archive at ``path`` (``label``,
        ``survey`` as ``archive_open`` takes them), when the page gives one that this
        worker can open again for as long as it keeps the tally."""
        from pywall.page.runs import rereader

        if "path" not in payload or self.opener is None:
            return None
        arg(payload, "path", str)
        arg(payload, "label", str)
        survey = arg(payload, "survey", Mapping, {})
        if survey:
            survey_of(survey)  # checked now, not when the archive is read again
        opened = {k: payload[k] for k in ("path", "label", "survey") if k in payload}
        return rereader(lambda: self._open(opened))

    def _audit_tally(self, payload: Payload) -> AuditTally:
        """One tally of the page's reports, its archive runs and any tallies given."""
        from pywall.audits.tally import AuditTally
        from pywall.page.audit_reports import read_record

        tally = AuditTally()
        for report in arg(payload, "reports", list, []):
            tally.add(read_record(report if isinstance(report, Mapping) else {}))
        for run in arg(payload, "runs", list, []):
            if not isinstance(run, str):  # a list is no run's name (unhashable)
                continue
            if run in self.runs:
                tally.merge(self.runs[run].tally)
            if run in self.tallies:
                tally.merge(self.tallies[run].tally)
        for part in arg(payload, "tallies", list, []):
            tally.merge(AuditTally.from_dict(part))
        return tally

    def audit(self, payload: Payload, data: bytes | None) -> dict[str, Any]:
        """Verified games of the page's reports and archive runs, in one audit."""
        from pywall.audits.verdicts import audit_dict

        return audit_dict(self._audit_tally(payload))

    def audit_export(self, payload: Payload, data: bytes | None) -> dict[str, Any]:
        """The same audit as ``pywall audit --json`` prints it (``json``: its text, the same
        bytes: ``verdicts.cli_json``) and as ``pywall audit --html`` writes it
        (``html``), in the page's ``lang``, the chosen ``player`` first."""
        from pywall.audits.html import audit_html, games_of
        from pywall.audits.verdicts import audit_result, cli_json

        tally = self._audit_tally(payload)
        if not tally.hands:
            raise BadRequest("no verified game to audit")
        result = audit_result(tally)
        lang = arg(payload, "lang", str, "en")
        player = arg(payload, "player", str, "")
        return {
            # the text in pieces joined: the series written from their arrays, no object a point
            "json": "".join(cli_json(result, tally)) + "\n",
            "html": audit_html(result, lang, games_of(tally), player or None),
        }

    def tally(self, payload: Payload, data: bytes | None) -> dict[str, Any]:
        from pywall.audits.tally import AuditTally

        name = arg(payload, "run", str)
        run, shared = self.runs.get(name), self.tallies.get(name)
        return (shared.tally if shared else run.tally if run else AuditTally()).to_dict()


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
        "era": parsed.era.value,
        "players": players,
        "rounds": [wall_dict(i, w, players, parsed.era) for i, w in enumerate(made)],
    }


def csv(payload: Payload, data: bytes | None) -> dict[str, Any]:
    """CSV of compact rows (``exports.compact_row``) in the CLI's columns."""
    rows = arg(payload, "rows", list)
    if not all(isinstance(r, Mapping) for r in rows):
        raise BadRequest("'rows' must be a list of objects")
    return {"csv": csv_text([tuple(r.get(c) for c in CSV_COLUMNS) for r in rows])}


def sniff(payload: Payload, data: bytes | None) -> dict[str, Any]:
    """What a file is, from its first bytes: ``zip``, ``sqlite`` or ``record``."""
    head = (data or b"")[:16]
    return {"kind": "zip" if is_zip(head) else "sqlite" if is_sqlite(head) else "record"}


def warm_up(payload: Payload, data: bytes | None) -> dict[str, Any]:
    return {"status": warm_up_report(bounded(payload, "times", 1, 10, 3))}


def wall_svg(payload: Payload, data: bytes | None) -> dict[str, Any]:
    """A picture of one round's wall (``pywall.pictures.picture``, imported on the first request):
    the round as the page's report or walls reply carries it (read by
    ``pywall.page.picture_round``), the players' names, the title, the page's words for its
    labels and the caption (which game it is)."""
    from pywall.page.picture_round import drawing_from
    from pywall.pictures.picture import wall_svg as draw

    names, labels = arg(payload, "names", list, []), arg(payload, "labels", Mapping, {})
    if not all(isinstance(n, str) for n in names):
        raise BadRequest("'names' must be a list of texts")
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in labels.items()):
        raise BadRequest("'labels' must map words to texts")
    caption = arg(payload, "caption", Mapping, {})
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in caption.items()):
        raise BadRequest("'caption' must map facts to texts")
    rnd = arg(payload, "round", Mapping)
    red, title = arg(payload, "red", bool, True), arg(payload, "title", str, "")
    return {"svg": draw(drawing_from(rnd), names, red, title, labels, caption)}


def tool(kind: str) -> Handler:
    """A tool panel's handler, from ``pywall.page.tool_api`` (imported on the first call)."""

    def handler(payload: Payload, data: bytes | None) -> dict[str, Any]:
        from pywall.page import tool_api

        return tool_api.HANDLERS[kind](payload, data)

    return handler


TOOLS = ("commitment", "sega", "majsoul", "shanten", "hands", "link", "games")
HANDLERS: dict[str, Handler] = {
    "verify": verify,
    "walls": walls,
    "csv": csv,
    "warm_up": warm_up,
    "sniff": sniff,
    "wall_svg": wall_svg,
    **{kind: tool(kind) for kind in TOOLS},
}
#: Modules the handlers import on first use (the module's docstring says why).
LAZY_MODULES = (
    "pywall.page.tool_api",
    "pywall.audits.verdicts",
    "pywall.audits.tally",
    "pywall.audits.counts",
    "pywall.audits.html",
    "pywall.audits.words",
    "pywall.page.runs",
    "pywall.page.audit_reports",
    "pywall.inputs.zips",
    "pywall.page.picture_round",
    "pywall.pictures.picture",
    "pywall.pictures.picture_svg",
    "pywall.pictures.tile_art",
)
RUN_HANDLERS = (
    "archive_open",
    "archive_next",
    "archive_close",
    "archive_game",
    "audit",
    "audit_export",
    "tally",
    "tally_add",
)


def _payload(payload_json: str) -> Any:
    """The request's payload, or None when it is not JSON pywall parses: too long, or
    nested too deep for ``json.loads`` (``limits.json_depth_problem``: 200,000 ``[`` would
    raise RecursionError in it)."""
    if not isinstance(payload_json, str) or len(payload_json) > MAX_JSON:
        return None
    if json_depth_problem(payload_json) is not None:
        raise BadRequest(f"the request's payload nests deeper than {MAX_JSON_DEPTH} levels")
    try:
        value = json.loads(payload_json)
    except (TypeError, ValueError, RecursionError):
        return None
    problem = impossible_text(payload_json, value)
    if problem is not None:
        raise BadRequest(problem)
    return value


def handle(kind: str, payload_json: str, data: bytes | None = None, api: Api | None = None) -> str:
    """Answer one request: its reply as JSON text, or ``{"error": {...}}``. Never raises."""
    try:
        payload = _payload(payload_json)
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
