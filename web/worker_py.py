"""Glue between worker.mjs and pywall.api, run inside Pyodide.

Kept thin on purpose: bytes in, JSON strings out, every decision in pywall.api
(which also opens .zip archives member by member).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pywall
from pywall import (
    api,  # imported now, so that "ready" means ready
    inputs,  # the input layer the CLI uses too: zip files and databases
)

# The interpreter may come from the site's start-up snapshot, the same memory
# for every visitor: give the shared `random` a fresh seed of its own.
random.seed()


def _bytes(data: object) -> bytes:
    to_bytes = getattr(data, "to_bytes", None)  # a JsProxy of a Uint8Array
    return to_bytes() if to_bytes else bytes(data)  # type: ignore[call-overload]


def info() -> str:
    return json.dumps({"pywall": pywall.__version__, "python": sys.version.split()[0]})


def verify(name: str, data: object) -> str:
    """A batch document: one file report for a log, one per member of a .zip."""
    return str(api.verify_any(name, _bytes(data)))


def warm_up() -> str:
    """Once after start-up, before any request (see pywall.api.warm_up)."""
    return str(api.warm_up())


def walls(seed: str, rounds: int, players: int) -> str:
    return str(api.walls_json(seed, int(rounds), int(players)))


def csv(files_json: str) -> str:
    """CSV of the page's reports, in the CLI's columns."""
    return str(api.csv_from_batch(files_json))


# --- archives (zip, phoenix-logs .db), a chunk at a time --------------------------
# worker.mjs puts the chosen file at ``path`` (read-only); the driver code the CLI
# uses (pywall.inputs) opens it, and pywall.api.ArchiveRun checks its logs.

_runs: dict[str, api.ArchiveRun] = {}


def archive_open(run: str, label: str, path: str) -> str:
    """Start checking an archive; its games are named ``label/...``. Returns ``{"total"}``."""
    archive_close(run)
    total = inputs.count_file(Path(path))
    _runs[run] = api.ArchiveRun(inputs.items_from_file(Path(path), label=label))  # type: ignore[arg-type]
    return json.dumps({"total": total})


def archive_next(run: str, limit: int) -> str:
    return str(_runs[run].next_chunk(int(limit)))


def archive_close(run: str) -> None:
    """Closes the run's database or zip (on finish, cancel or error)."""
    done = _runs.pop(run, None)
    if done is not None:
        done.close()


def archive_game(label: str, path: str, index: int) -> str:
    """Game number ``index`` (0-based) of an archive, checked again with its walls."""
    return str(api.verify_item(*inputs.item_at(Path(path), int(index), label)))


def rows_csv(rows_json: str) -> str:
    """CSV of the page's compact rows, in the CLI's columns."""
    return str(api.csv_from_rows(rows_json))


#: The panels' calls (commitment, SEGA MJ, Mahjong Soul, shanten, audit): each takes
#: keyword arguments as JSON and returns JSON. Only these names are ever called.
CALLS = frozenset({
    "commitment_json", "sega_json", "majsoul_json", "shanten_json", "round_hands_json",
    "audit_json",
})


def call(fn: str, args_json: str) -> str:
    """Dispatch ``{fn, args}`` from the page to a whitelisted ``pywall.api`` function."""
    if fn not in CALLS:
        return json.dumps({"error": {"code": "bad_request", "message": f"unknown call {fn!r}"}})
    try:
        args = json.loads(args_json)
    except ValueError:
        args = None
    if not isinstance(args, dict):
        return json.dumps({"error": {"code": "bad_request", "message": "arguments must be an object"}})
    return str(getattr(api, fn)(**{str(k): v for k, v in args.items()}))
