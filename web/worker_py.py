"""Glue between worker.mjs and pywall.api, run inside Pyodide.

Kept thin on purpose: bytes in, JSON strings out, every decision in pywall.api
(which also opens .zip archives member by member).
"""

from __future__ import annotations

import json
import random
import sys

import pywall
from pywall import api  # imported now, so that "ready" means ready

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


def walls(seed: str, rounds: int, players: int) -> str:
    return str(api.walls_json(seed, int(rounds), int(players)))


def csv(files_json: str) -> str:
    """CSV of the page's reports, in the CLI's columns."""
    return str(api.csv_from_batch(files_json))


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
