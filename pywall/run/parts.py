"""A saved part of an audit checked again: every game's record re-derived from its log.

``pywall.audits.parts`` reads a part's shape (``SavedPart``) and compares what it states
with what its games give; this module runs the games, through the same job and pool as
any audit (``items.record_for`` over ``pool.records``, ``jobs`` processes), so a part
counts exactly what one run over its logs counts, or is refused naming the game.
"""

from __future__ import annotations

from contextlib import closing

from pywall.audits.parts import SavedPart, ShardTally, checked_part, checked_record
from pywall.run.pool import records


def verified_part(part: SavedPart, jobs: int) -> ShardTally:
    """The part's records, each re-derived from its log and equal to the one it states, its
    tally what they add up to; ``ValueInputError`` naming the part and the game otherwise
    (the workers are stopped at the first game that differs)."""
    made = []
    with closing(records(part.items(), jobs)) as found:
        for game, record in zip(part.games, found, strict=True):
            made.append(checked_record(game, record))
    return checked_part(part, made)
