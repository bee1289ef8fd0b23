"""Issue 23's reproducers through the page's API in real Pyodide (Node), as the page's
worker makes its requests (web/workers/worker_py.py's ``handle``): each ends in a clear error,
the node process stays under 300 MB (Pyodide itself takes about 170 MB: the peak of a
run without requests), and a good log checked after them still verifies. Before
pywall.core.limits the log of repeated altered rounds took 104 s and 1.76 GB here, the 16 KB
gzip JSON record 500 MB."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import TENHOU
from tests.node.test_pyodide_node import RUNNER, TIMEOUT
from tests.unit.test_cli_hostile import MAX_RSS_MB, PeakWatcher
from tests.unit.test_cli_work import altered_rounds, bare_inits, gzip_of_objects

pytestmark = pytest.mark.node

LOG = TENHOU / "tenhou-python-bot" / "1.txt"


def run_measured(
    node: str, index: Path, jobs: list[dict[str, Any]], tmp: Path
) -> tuple[dict[str, Any], float]:
    """The runner's answer and the node process's peak RSS (MB)."""
    jobs_file = tmp / "jobs.json"
    jobs_file.write_text(json.dumps(jobs))
    # build/pyodide's page glue is the site's
    glue = index.parent.parent / "site" / "workers" / "worker_py.py"
    proc = subprocess.Popen(
        [
            node,
            str(RUNNER),
            "--index",
            str(index),
            "--mode",
            "lock",
            "--jobs",
            str(jobs_file),
            "--glue",
            str(glue),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watcher = PeakWatcher(proc.pid)
    watcher.start()
    timer = threading.Timer(TIMEOUT, proc.kill)
    timer.start()
    try:
        out, err = proc.communicate()
    finally:
        timer.cancel()
        watcher.done.set()
    assert proc.returncode == 0, err[-3000:]
    return json.loads(out), watcher.peak


def test_inputs_large_in_work_are_clear_errors_in_pyodide(
    node: str, runtime: Path, tmp_path: Path
) -> None:
    files = [
        bare_inits(tmp_path / "inits.xml"),
        altered_rounds(tmp_path / "altered.xml"),
        gzip_of_objects(tmp_path / "objects.json.gz"),
        LOG,
    ]
    jobs: list[dict[str, Any]] = [
        {"kind": "verify", "payload": {"name": p.name}, "path": str(p)} for p in files
    ]
    jobs.insert(3, {"kind": "verify", "payload_text": "[" * 200_000, "path": str(LOG)})
    answer, peak = run_measured(node, runtime, jobs, tmp_path)
    replies = [json.loads(r) for r in answer["results"]]
    messages = [
        r["files"][0]["findings"][0]["message"] if "files" in r else r["error"]["message"]
        for r in replies[:4]
    ]
    assert "a game of over 100 rounds" in messages[0] and "a game of over 100 rounds" in messages[1]
    assert "holds over 1,000,000 values" in messages[2]
    assert replies[3]["error"]["code"] == "bad_request" and "nests deeper than 64" in messages[3]
    assert replies[4]["files"][0]["status"] == "verified"
    assert peak < MAX_RSS_MB, (peak, answer["seconds"])
