"""The built wheel inside real Pyodide (Node): installs from the site's lock and
with micropip, and gives exactly the JSON that CPython gives."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import subprocess
from pathlib import Path

import pytest

from pywall import api
from tests.helpers import TENHOU, fixture_paths, vector_seed

pytestmark = pytest.mark.node

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "run_wheel.mjs"
TIMEOUT = 300


def run_node(node: str, index: Path, mode: str, jobs: list[dict[str, object]], tmp: Path,
             snapshot: Path | None = None) -> subprocess.CompletedProcess[str]:
    jobs_file = tmp / f"jobs-{mode}.json"
    jobs_file.write_text(json.dumps(jobs))
    cmd = [node, str(RUNNER), "--index", str(index), "--mode", mode, "--jobs", str(jobs_file)]
    if snapshot is not None:
        cmd += ["--snapshot", str(snapshot)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, check=False)


def odd_inputs(tmp: Path) -> list[Path]:
    """Inputs that must come back as error reports, the same way on both sides."""
    some_log = (TENHOU / "dnovikoff" / "example.xml").read_bytes()
    cases = {
        "empty.xml": b"",
        "garbage.bin": bytes(range(256)) * 4,
        "truncated.mjlog": gzip.compress(some_log, mtime=0)[:300],
        "half.xml": some_log[: len(some_log) // 2],
        "names.xml": re.sub(rb'n0="[^"]*"', b'n0="%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"', some_log),
    }
    out = []
    for name, data in cases.items():
        path = tmp / name
        path.write_bytes(data)
        out.append(path)
    return out


def verify_jobs(paths: list[Path]) -> list[dict[str, object]]:
    jobs: list[dict[str, object]] = []
    for p in paths:
        name = p.relative_to(TENHOU).as_posix() if p.is_relative_to(TENHOU) else p.name
        jobs.append({"kind": "verify", "name": name, "path": str(p)})
    return jobs


def cpython_answer(job: dict[str, object]) -> str:
    if job["kind"] == "verify":
        return api.verify_file(str(job["name"]), Path(str(job["path"])).read_bytes())
    return api.walls_json(str(job["seed"]), int(job["rounds"]), int(job["players"]))  # type: ignore[call-overload]


WALL_JOBS: list[dict[str, object]] = [
    {"kind": "walls", "seed": vector_seed(), "rounds": 3, "players": 4},
    {"kind": "walls", "seed": vector_seed(), "rounds": 2, "players": 3},
    {"kind": "walls", "seed": "not a seed", "rounds": 1, "players": 4},
]


@pytest.mark.parametrize(("mode", "snapshot"), [("lock", False), ("micropip", False), ("lock", True)],
                         ids=["lock", "micropip", "lock-from-snapshot"])
def test_wheel_in_pyodide_matches_cpython(node: str, built_site: Path, tmp_path: Path, mode: str,
                                          snapshot: bool) -> None:
    jobs = verify_jobs(fixture_paths() + odd_inputs(tmp_path)) + WALL_JOBS
    snap = built_site / "pyodide" / "python-snapshot.bin"
    if snapshot and not snap.exists():
        pytest.fail("the site has no start-up snapshot (build.py could not make one)")
    proc = run_node(node, built_site / "pyodide", mode, jobs, tmp_path, snap if snapshot else None)
    assert proc.returncode == 0, proc.stderr[-3000:]
    answer = json.loads(proc.stdout)
    assert answer["python"].startswith("3.14")
    assert len(answer["results"]) == len(jobs)
    for job, got in zip(jobs, answer["results"], strict=True):
        assert got == cpython_answer(job), f"{job.get('name') or job}: Pyodide and CPython differ"


def test_every_current_fixture_verifies_in_pyodide(node: str, built_site: Path, tmp_path: Path) -> None:
    paths = [p for p in fixture_paths() if "legacy-2009" not in p.parts]
    proc = run_node(node, built_site / "pyodide", "lock", verify_jobs(paths), tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    statuses = {json.loads(r)["path"]: json.loads(r)["status"] for r in json.loads(proc.stdout)["results"]}
    assert statuses and set(statuses.values()) == {"verified"}, statuses


def test_site_lock_lists_what_the_site_ships(built_site: Path) -> None:
    lock = json.loads((built_site / "pyodide" / "pyodide-lock.json").read_text())
    assert set(lock["packages"]) == {"pywall", "micropip"}
    entry = lock["packages"]["pywall"]
    assert entry["imports"] == ["pywall"] and entry["depends"] == []
    assert entry["package_type"] == "package" and entry["install_dir"] == "site"
    for pkg in lock["packages"].values():
        wheel = built_site / "pyodide" / pkg["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == pkg["sha256"]
