"""The audit on a Dask cluster: ``audit_on_dask`` (the optional extra ``pywall[dask]``).

The inputs are cut into shards on the machine that calls it (``shards.plan_shards``:
files, zip members, ranges of a phoenix-logs database's rows; nothing is loaded whole),
each shard is checked on a worker (``shards.shard_records``), and the shards' records are
added in shard order into one tally, as ``pywall audit --merge`` adds saved parts: the
result is the one ``pywall audit`` gives for the same inputs, to the last digit
(docs/scale.md). Dask itself is never imported here: the caller's ``client`` (a
``distributed.Client``) runs the work, so ``import pywall.scale`` needs no extra.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Protocol

from pywall.api.audit import AuditResult
from pywall.audits.parts import ShardTally
from pywall.audits.tally import AuditTally
from pywall.core.errors import ValueInputError
from pywall.scale.shards import Piece, Shard, ShardError, plan_shards, shard_records


class Client(Protocol):
    """What ``audit_on_dask`` asks of its client: ``distributed.Client``'s methods."""

    def nthreads(self) -> Mapping[str, int]: ...

    def map(
        self, func: Callable[..., Any], *iterables: Collection[Any], pure: bool = ...
    ) -> Any: ...

    def cancel(self, futures: Any) -> Any: ...


#: Shards per worker thread when the caller does not say: enough that a slow shard does
#: not leave the others idle at the end, few enough that scheduling costs little.
SHARDS_PER_THREAD = 4

__all__ = ["Piece", "Shard", "ShardError", "audit_on_dask", "plan_shards", "shard_records"]


def audit_on_dask(
    sources: Sequence[bytes | str | os.PathLike[str]] | bytes | str | os.PathLike[str],
    client: Client,
    shards: int | None = None,
) -> AuditResult:
    """Audit ``sources`` (paths: files, folders, zips, phoenix-logs databases; or records'
    bytes) on the Dask cluster ``client`` is connected to, in ``shards`` shards (default:
    four per worker thread). The workers must see the paths (a shared file system).
    Gives what ``pywall.audit(sources)`` gives, every game planned counted or left out
    with its reason (a file that changed since the plan: ``shards.shard_records``);
    raises ``ValueInputError`` (a ``PywallError``) when no game can be counted, and
    ``ShardError`` (one too) naming the shard and its inputs when a shard's work raises."""
    if isinstance(sources, bytes | bytearray | str | os.PathLike):
        sources = [sources]
    if shards is not None and shards < 1:
        raise ValueInputError("shards must be at least 1")
    wanted = shards or SHARDS_PER_THREAD * max(1, sum(client.nthreads().values()))
    plan = plan_shards(sources, wanted)
    tally = AuditTally()
    futures: list[Any] = client.map(shard_records, plan, pure=False)
    try:
        for number, (shard, future) in enumerate(zip(plan, futures, strict=True), 1):
            # in shard order: the records are added as one run adds them
            for record in _shard_result(future, number, plan, shard).records:
                tally.add(record)
            future.release()
    finally:
        client.cancel(futures)
    return AuditResult.from_tally(tally)


def _shard_result(future: Any, number: int, plan: list[Shard], shard: Shard) -> ShardTally:
    """A shard's records from its worker, or a ``ShardError`` naming the shard and its
    inputs with what its work raised (the worker's exception, or Dask's when the worker
    was lost)."""
    try:
        done: ShardTally = future.result()
    except Exception as exc:  # anything the work raised, on a worker of any kind
        raise ShardError(number, len(plan), shard, exc) from exc
    return done
