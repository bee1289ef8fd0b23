"""``ordered_map``: a function over a stream of items in worker processes,
results in input order, memory bounded whatever the stream's length.

Items go out in batches (a few dozen logs per task, to amortise the cost of
passing them between processes). Each worker has its own pipe and at most one
batch at a time: the parent sends a worker its next batch as soon as it has
read the worker's results, whichever worker answers first, so a huge archive is
read only as fast as it is checked, and neither side can block writing while the
other writes. Results are yielded in input order: those of a worker that ran
ahead wait (at most ``2 * jobs`` batches; then it waits too).
(``multiprocessing.Pool`` was tried: ``imap`` reads the whole input ahead, and
``terminate()`` can hang for good when it kills a worker that holds the shared
result queue's lock.) Stopping is just killing the workers: they share no lock
with anyone.

Workers come from 'forkserver' where the platform has it (else 'spawn'): no
forked copy of the parent's state, the module ``func`` lives in imported once
in the server. Workers ignore SIGINT, so Ctrl-C at a terminal reaches only the
parent, which decides what to do (``pywall.run.interrupts.deferred_interrupt``: the first Ctrl-C
becomes a flag the caller checks between two results, so that what was
printed and what is counted agree; a second raises ``KeyboardInterrupt``).

Small inputs (fewer items than one batch) are processed in-process, as is
everything with ``jobs=1``: starting processes would cost more than it saves.
"""

from __future__ import annotations

import gc
import multiprocessing
import signal
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import closing
from functools import partial
from itertools import chain, islice
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any, TypeVar, cast

from pywall.run.interrupts import held_interrupts
from pywall.run.items import Item, part_game_for, record_for, weight

if TYPE_CHECKING:
    from pywall.audits.parts import PartGame
    from pywall.audits.records import GameRecord

T = TypeVar("T")
R = TypeVar("R")

BATCH = 64
#: The worker's threshold for collecting young objects (Python's default: 700).
GC_YOUNG = 10_000
#: A batch also closes once its items weigh this much (``weight``): bytes in
#: flight stay bounded even when every item is a 16 MiB log.
BATCH_BYTES = 16 * 1024 * 1024


class WorkerDied(RuntimeError):
    """A worker process ended without answering (killed, out of memory, ...)."""


def _serve(conn: Connection, func: Callable[[Any], Any]) -> None:
    """A worker: batches in, lists of results out, until None or the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A game makes thousands of short-lived containers: collecting young objects every
    # 10,000 allocations rather than 700 took the audit's collector time from about
    # 1.4% of a worker's CPU to 0.4% (the caches it keeps are bounded either way).
    gc.set_threshold(GC_YOUNG, 10, 10)
    while True:
        try:
            batch = conn.recv()
        except (EOFError, OSError):
            return
        if batch is None:
            return
        conn.send([func(item) for item in batch])


def _module_of(func: Callable[..., Any]) -> str:
    while isinstance(func, partial):
        func = func.func
    return func.__module__


def _context(func: Callable[..., Any]) -> Any:
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload([_module_of(func)])
    return ctx


def batches(
    items: Iterable[T],
    size: int,
    weight: Callable[[T], int] | None = None,
    max_weight: int = BATCH_BYTES,
) -> Iterator[list[T]]:
    """Lists of at most ``size`` items, each closed early once its weight reaches ``max_weight``."""
    it = iter(items)
    if weight is None:
        while batch := list(islice(it, size)):
            yield batch
        return
    batch, total = [], 0
    for item in it:
        batch.append(item)
        total += weight(item)
        if len(batch) >= size or total >= max_weight:
            yield batch
            batch, total = [], 0
    if batch:
        yield batch


def ordered_map(
    func: Callable[[T], R],
    items: Iterable[T],
    jobs: int,
    batch: int = BATCH,
    weight: Callable[[T], int] | None = None,
) -> Generator[R, None, None]:
    """``map(func, items)`` over ``jobs`` processes; ``func`` must be picklable
    (a module-level function or a ``functools.partial`` of one). Closing the
    generator early stops the workers. With ``weight``, batches are bounded in
    weight (bytes) as well as in count."""
    chunks = batches(items, batch, weight)
    first = next(chunks, [])
    second = next(chunks, None) if jobs > 1 else None
    if second is None:
        yield from (func(item) for item in first)
        for chunk in chunks:
            yield from (func(item) for item in chunk)
        return
    yield from _parallel(func, first, chain([second], chunks), jobs)


def _parallel(
    func: Callable[[T], R], first: list[T], chunks: Iterator[list[T]], jobs: int
) -> Generator[R, None, None]:
    ctx = _context(func)
    workers: list[tuple[BaseProcess, Connection]] = []
    finished = False
    try:
        # Started with SIGINT held: the processes inherit the blocked signal, so a Ctrl-C
        # while the fork server or a worker starts up (before it ignores SIGINT) no longer
        # kills it (the parent failed with EOFError, the worker printed a traceback); the
        # parent sees the Ctrl-C once they are up. multiprocessing's resource tracker,
        # started by the first process, unblocks SIGINT when it starts: start it first.
        resource_tracker.ensure_running()
        with held_interrupts():
            for _ in range(jobs):
                parent_end, child_end = ctx.Pipe()
                process = ctx.Process(target=_serve, args=(child_end, func), daemon=True)
                process.start()
                child_end.close()
                workers.append((process, parent_end))
        # Each worker holds at most one batch; whichever answers first gets the next
        # one at once (waiting for the workers in input order left one idle whenever
        # the other's batch took longer), and results wait in ``done`` to be yielded
        # in input order: at most ``jobs * 2`` batches of them, past which a worker
        # that answered waits for the slow one.
        in_flight: dict[Connection, tuple[int, int]] = {}  # pipe -> (worker, batch number)
        done: dict[int, list[R]] = {}
        idle = list(range(jobs))
        sent = yielded = 0
        pending: Iterator[list[T]] = chain([first], chunks)

        def feed() -> None:
            nonlocal sent
            while idle and len(done) < jobs * 2:
                more = next(pending, None)
                if more is None:
                    return
                w = idle.pop()
                _send(workers[w], more)
                in_flight[workers[w][1]] = (w, sent)
                sent += 1

        feed()
        while in_flight:
            for conn in wait(list(in_flight)):
                w, number = in_flight.pop(cast("Connection", conn))
                done[number] = _receive(workers[w])
                idle.append(w)
            feed()
            while yielded in done:
                yield from done.pop(yielded)
                yielded += 1
            feed()
        finished = True
    finally:
        _stop(workers, gently=finished)


def _died(process: BaseProcess) -> WorkerDied:
    process.join(1)
    return WorkerDied(f"a worker process stopped unexpectedly (exit code {process.exitcode})")


def _send(worker: tuple[BaseProcess, Connection], batch: list[Any]) -> None:
    try:
        worker[1].send(batch)
    except OSError:
        raise _died(worker[0]) from None


def _receive(worker: tuple[BaseProcess, Connection]) -> Any:
    try:
        return worker[1].recv()
    except (EOFError, OSError):
        raise _died(worker[0]) from None


def _stop(workers: list[tuple[BaseProcess, Connection]], gently: bool) -> None:
    for process, conn in workers:
        if gently:
            try:
                conn.send(None)
            except OSError:
                pass
        else:
            process.kill()
    for process, conn in workers:
        process.join(5)
        if process.exitcode is None:
            process.kill()
            process.join()
        conn.close()


def records(items: Iterable[Item], jobs: int) -> Generator[GameRecord, None, None]:
    """The audit's record of each item (``items.record_for``), over ``jobs`` processes, in
    input order; batches bounded in bytes (``items.weight``). Closing it stops the workers."""
    return ordered_map(record_for, items, jobs, weight=weight)


def rereader(
    items: Callable[[], Iterable[Item]], jobs: int
) -> Callable[[Sequence[int]], Iterator[GameRecord]]:
    """What ``AuditTally.reread`` asks of a run whose items can be read again: the records
    of the games at these places (0-based, increasing) of ``items()``, read again in one
    pass (the others skipped unchecked) over ``jobs`` processes."""

    def read(places: Sequence[int]) -> Iterator[GameRecord]:
        wanted = frozenset(places)
        again = (item for at, item in enumerate(items()) if at in wanted)
        with closing(records(again, jobs)) as found:
            yield from found

    return read


def part_games(items: Iterable[Item], jobs: int) -> Generator[PartGame, None, None]:
    """``records``, each with the game's bytes compressed, for a part to save
    (``items.part_game_for``, in the workers)."""
    return ordered_map(part_game_for, items, jobs, weight=weight)
