"""What one input may cost: the caps on work that every reader and check shares.

Bytes were capped from the start (``archives.MAX_INPUT_BYTES``: 16 MiB a log), but a
small input can still ask for a great deal of work: a 16 MiB log of bare ``<INIT>``
tags is 67,000 rounds, a 16 KB gzip holds 16 MiB of ``{},{},...`` that ``json.loads``
turns into five million objects. These caps are each several times what a real game
has (docs/limits.md), so no real record meets them, and
each one ends the work early with a sentence that says which cap and why.

``json_values_problem`` and ``json_depth_problem`` are the cheap look at JSON text before ``json.loads``: how deep its
brackets nest and how many values it holds, counted at C speed (``str.count``,
``re.sub``, ``str.replace``), so that neither a RecursionError nor millions of
objects can come out of a record or a request.
"""

from __future__ import annotations

import re

#: A game's rounds: real games have about 30 (an East-South game with many
#: repeats and a West round stays under 50).
MAX_ROUNDS = 100
#: Events in one round: a real round has a few hundred at most (70 live draws and
#: their discards, calls, riichi, kan, dora, the result; a Riichi City round's raw
#: events, claim offers included, under 200).
MAX_ROUND_EVENTS = 2048
#: Tile checks in one game (the rows of its report): a real game makes about 4,000.
MAX_ROWS = 20_000
#: Findings kept per game; the rest are counted in one ``more_findings`` finding.
MAX_FINDINGS = 200
#: Wins one result may list (a triple ron is the most any rule has).
MAX_WINS = 4
#: What the audit keeps to tell copies of a game apart (docs/audit.md): with its inputs
#: readable twice (the command, ``pywall.audit``) under 1 KB a game with one copy (its
#: path, fingerprint, a digest of its items, its series' points), and the record and items
#: of each game with several; the page and saved parts keep every game's, about 6 KB.
#: 1 GiB is over a million games. More ends the audit with a message (exit 2).
MAX_AUDIT_KEPT = 1024**3
#: Rounds of walls rebuilt from one seed (``pywall wall --rounds``, ``pywall.walls``): a
#: real game has under 50 (``MAX_ROUNDS``); a thousand takes about a second.
MAX_WALL_ROUNDS = 1000
#: A seed's text (``pywall wall SEED``, ``@FILE``, ``pywall.walls``): a real seed has 3,357
#: characters with its prefix.
MAX_SEED_CHARS = 1 << 16
#: A hand's mpsz text (``pywall.shanten``): 14 tiles take at most 18 characters.
MAX_HAND_CHARS = 1024
#: Worker processes one run may start (``--jobs``, ``pywall.audit(jobs=)``): each is a
#: process; the default, all cores, is held to this too.
MAX_JOBS = 256
#: JSON game records, like logs: 16 MiB of text.
MAX_RECORD_BYTES = 16 * 1024 * 1024
#: How deep JSON may nest: real records nest about 12 levels, requests about 8.
MAX_JSON_DEPTH = 64
#: Values a JSON record may hold (counted as commas and brackets): a real 765 KB
#: record has 25,000, so a 16 MiB one about 600,000.
MAX_JSON_VALUES = 1_000_000

#: A JSON string, escapes included (written unrolled: linear, no backtracking).
_STRING_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS_RE = re.compile(r"[^\[\]{}]+")


def json_values_problem(text: str, max_values: int = MAX_JSON_VALUES) -> str | None:
    """Why ``json.loads(text)`` would make too many objects (more than ``max_values``
    values, counted as commas and opening brackets: commas inside strings are counted
    too, an over-count real records afford), or None."""
    if text.count("[") + text.count("{") + text.count(",") > max_values:
        return f"it holds over {max_values:,} values (a real record has tens of thousands)"
    return None


def json_depth_problem(text: str, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """Why ``json.loads(text)`` could nest deeper than ``max_depth`` (and raise
    RecursionError), or None. An upper bound: brackets inside strings are left out."""
    if text.count("[") + text.count("{") <= max_depth:
        return None
    skeleton = _NOT_BRACKETS_RE.sub("", _STRING_RE.sub("", text))
    skeleton = skeleton.replace("{", "[").replace("}", "]")
    depth = 0  # each pass takes away the innermost pairs: one level of nesting
    while "[]" in skeleton and depth <= max_depth:
        skeleton = skeleton.replace("[]", "")
        depth += 1
    # What is left is "]]]...[[[": brackets never closed nest on top of the rest.
    if depth + skeleton.count("[") > max_depth:
        return f"it nests deeper than {max_depth} levels (a real record nests about 12)"
    return None
