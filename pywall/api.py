"""JSON in, JSON out: the calls the web worker makes.

Strings cross the worker boundary (no PyProxy juggling). No function here
raises for bad input: problems come back as reports with status ``error``.
"""

from __future__ import annotations

import io
import json
from typing import Any

from pywall import tenhou
from pywall.archives import is_zip, iter_zip
from pywall.errors import PywallError
from pywall.report import (
    SCHEMA,
    FileReport,
    batch_dict,
    check_log,
    csv_text,
    error_report,
    wall_dict,
)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def reports_for(name: str, data: bytes, detail: bool = True) -> list[FileReport]:
    """One report per log: a plain or gzip log gives one, a zip one per member."""
    if not is_zip(data[:4]):
        return [check_log(name, data, detail)]
    out = []
    for member, content in iter_zip(io.BytesIO(data), name):
        if isinstance(content, PywallError):
            out.append(error_report(member, content.code, content.message))
        else:
            out.append(check_log(member, content, detail))
    return out


def verify_file(name: str, data: bytes, detail: bool = True) -> str:
    """The report of one log file (zip files: use ``verify_any``)."""
    return _dumps(check_log(name, bytes(data), detail).to_dict())


def verify_any(name: str, data: bytes, detail: bool = True) -> str:
    """A batch document (``files`` + ``summary``) for a log or a zip of logs."""
    return _dumps(batch_dict(reports_for(name, bytes(data), detail)))


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
