"""A whole archive checked through the requests a page worker makes (``archive_open``,
then ``archive_next`` chunks, through ``pywall.page.api.handle``), timed. No I/O of its own
beyond the archive's file: bench_web_archive.py runs it in CPython, and
pyodide_archive.mjs copies this file into Pyodide and runs it there."""

from __future__ import annotations

import json
import time
from pathlib import Path

from pywall.inputs.sources import ArchiveSource
from pywall.page import api


def archive_rate(path: str) -> tuple[int, float]:
    """(games checked, games per second)."""
    # as web/workers/worker_py.py opens it
    runs = api.Api(lambda p, label: ArchiveSource(Path(p), label))
    start = time.perf_counter()
    api.handle(
        "archive_open",
        json.dumps({"run": "bench", "label": Path(path).name, "path": path}),
        None,
        runs,
    )
    done = 0
    while True:
        out = json.loads(
            api.handle("archive_next", json.dumps({"run": "bench", "limit": 100}), None, runs)
        )
        done += len(out["rows"])
        if out["done"]:
            break
    return done, done / (time.perf_counter() - start)
