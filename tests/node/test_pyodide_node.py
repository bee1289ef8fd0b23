"""The built wheel inside real Pyodide (Node): installs from the site's lock and
with micropip, and gives exactly the JSON that CPython gives, through the page's
own glue (web/workers/worker_py.py: ``handle(kind, payload_json, data)``)."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pywall.page import api
from pywall.results.check import check_log
from tests.helpers import TENHOU, fixture_paths, load_build, vector_seed

pytestmark = pytest.mark.node

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "run_wheel.mjs"
TIMEOUT = 300


def run_node(
    node: str,
    index: Path,
    mode: str,
    jobs: list[dict[str, Any]],
    tmp: Path,
    snapshot: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    jobs_file = tmp / f"jobs-{mode}.json"
    jobs_file.write_text(json.dumps(jobs))
    cmd = [
        node,
        str(RUNNER),
        "--index",
        str(index),
        "--mode",
        mode,
        "--jobs",
        str(jobs_file),
        "--glue",
        str(load_build().SITE / "workers" / "worker_py.py"),
    ]
    if snapshot is not None:
        cmd += ["--snapshot", str(snapshot)]
    else:  # the wheel installed on Pyodide's own standard library (the site's holds pywall)
        cmd += ["--stdlib", str(index / load_build().RUNTIME_STDLIB)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, check=False)


def odd_inputs(tmp: Path) -> list[Path]:
    """Inputs that must come back as error reports, the same way on both sides."""
    some_log = (TENHOU / "dnovikoff" / "example.xml").read_bytes()
    cases = {
        "empty.xml": b"",
        "garbage.bin": bytes(range(256)) * 4,
        "truncated.mjlog": gzip.compress(some_log, mtime=0)[:300],
        "half.xml": some_log[: len(some_log) // 2],
        "names.xml": re.sub(
            rb'n0="[^"]*"', b'n0="%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"', some_log
        ),
    }
    out = []
    for name, data in cases.items():
        path = tmp / name
        path.write_bytes(data)
        out.append(path)
    return out


def name_of(p: Path) -> str:
    return p.relative_to(TENHOU).as_posix() if p.is_relative_to(TENHOU) else p.name


def verify_jobs(paths: list[Path]) -> list[dict[str, Any]]:
    return [{"kind": "verify", "payload": {"name": name_of(p)}, "path": str(p)} for p in paths]


def cpython_answer(job: dict[str, Any]) -> str:
    data = Path(job["path"]).read_bytes() if job.get("path") else None
    return api.handle(job["kind"], json.dumps(job["payload"]), data)


WALL_JOBS: list[dict[str, Any]] = [
    {"kind": "walls", "payload": {"seed": vector_seed(), "rounds": 3, "players": 4}},
    {"kind": "walls", "payload": {"seed": vector_seed(), "rounds": 2, "players": 3}},
    {"kind": "walls", "payload": {"seed": "not a seed", "rounds": 1, "players": 4}},
    {"kind": "shanten", "payload": {"hand": "1234m406p789s1122z"}},
    {"kind": "no_such_request", "payload": {}},
]


def every_job(tmp: Path) -> list[dict[str, Any]]:
    """Every fixture verified, the odd inputs, the wall and shanten requests."""
    return verify_jobs(fixture_paths() + odd_inputs(tmp)) + WALL_JOBS


def answer_of(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stderr[-3000:]
    answer: dict[str, Any] = json.loads(proc.stdout)
    return answer


#: The jobs of a run and the runner's answer.
LockRun = tuple[list[dict[str, Any]], dict[str, Any]]


@pytest.fixture(scope="module")
def lock_run(node: str, runtime: Path, tmp_path_factory: pytest.TempPathFactory) -> LockRun:
    """Every job in one Node process that installed the wheel from the lock file (the
    way a Pyodide user installs it, on Pyodide's own standard library), read by the tests below: (the jobs, the runner's answer)."""
    tmp = tmp_path_factory.mktemp("lock")
    jobs = every_job(tmp)
    return jobs, answer_of(run_node(node, runtime, "lock", jobs, tmp))


def verified_in_lock(lock_run: LockRun, paths: list[Path]) -> list[str]:
    """The lock run's answers to verifying ``paths``, in their order."""
    jobs, answer = lock_run
    by_path = {
        job["path"]: got
        for job, got in zip(jobs, answer["results"], strict=True)
        if job["kind"] == "verify"
    }
    return [by_path[str(p)] for p in paths]


@pytest.mark.parametrize(
    ("mode", "snapshot"),
    [("lock", False), ("micropip", False), ("lock", True)],
    ids=["lock", "micropip", "lock-from-snapshot"],
)
def test_wheel_in_pyodide_matches_cpython(
    request: pytest.FixtureRequest,
    node: str,
    runtime: Path,
    tmp_path: Path,
    mode: str,
    snapshot: bool,
) -> None:
    snap = runtime / "python-snapshot.bin"
    if snapshot and not snap.exists():
        pytest.fail("the site has no start-up snapshot (build.py could not make one)")
    if mode == "lock" and not snapshot:  # the module's lock run: the same jobs
        jobs, answer = request.getfixturevalue("lock_run")
    else:
        jobs = every_job(tmp_path)
        answer = answer_of(
            run_node(node, runtime, mode, jobs, tmp_path, snap if snapshot else None)
        )
    assert answer["python"].startswith("3.14")
    assert len(answer["results"]) == len(jobs)
    for job, got in zip(jobs, answer["results"], strict=True):
        assert got == cpython_answer(job), (
            f"{job['kind']} {job.get('path') or job['payload']}: Pyodide and CPython differ"
        )


def test_the_snapshot_holds_pywall_imported(node: str, runtime: Path, tmp_path: Path) -> None:
    """Started from the site's snapshot, Python has the page's glue and what checking a
    log needs imported before the wheel is installed (the page imports none of it at
    start-up), the tools and the audit still lazy; it answers as CPython does, and each
    start draws its own random numbers (the snapshot is the same memory for everyone)."""
    jobs = verify_jobs([TENHOU / "dnovikoff" / "example.xml"])
    snap = runtime / "python-snapshot.bin"
    answers = []
    for _ in range(2):
        answers.append(answer_of(run_node(node, runtime, "lock", jobs, tmp_path, snap)))
    for answer in answers:
        imported = set(answer["imported"])
        assert {
            "pywall_worker",
            "pywall.page.api",
            "pywall.results.report",
            "pywall.analysis.shanten_table",
        } <= imported
        assert not imported & {
            "pywall.page.tool_api",
            "pywall.audits.verdicts",
            "pywall.audits.tally",
            "pywall.page.runs",
            "pywall.pictures.picture",
        }
        assert answer["results"] == [cpython_answer(job) for job in jobs]
    assert answers[0]["random"] != answers[1]["random"]


def test_every_current_fixture_verifies_in_pyodide(lock_run: LockRun) -> None:
    paths = [p for p in fixture_paths() if "legacy-2009" not in p.parts]
    files = [f for r in verified_in_lock(lock_run, paths) for f in json.loads(r)["files"]]
    statuses = {f["path"]: f["status"] for f in files}
    assert statuses and set(statuses.values()) == {"verified"}, statuses


def test_every_2009_log_verifies_in_pyodide_and_says_its_era(lock_run: LockRun) -> None:
    """The three 2009 eras (June, July, late) read right in the page's Python too."""
    paths = [p for p in fixture_paths() if "legacy-2009" in p.parts]
    files = [f for r in verified_in_lock(lock_run, paths) for f in json.loads(r)["files"]]
    assert [f["status"] for f in files] == ["verified"] * 5
    assert [f["game"]["era"] for f in files] == [
        "june-2009",
        "july-2009",
        "late-2009",
        "late-2009",
        "late-2009",
    ]


def test_dealer_dora_and_hands_match_cpython_on_every_fixture(lock_run: LockRun) -> None:
    """The page's answer (``handle("verify")`` in Pyodide) and the CLI's (CPython's
    ``check_log`` with detail) give every fixture round the same dealer, dora
    indicators and dealt hands."""
    paths = fixture_paths()
    results = verified_in_lock(lock_run, paths)
    assert len(results) == len(paths)
    rounds = 0
    for path, got in zip(paths, results, strict=True):
        [page] = json.loads(got)["files"]
        cli = check_log(name_of(path), path.read_bytes(), detail=True).to_dict()
        assert page["path"] == cli["path"] and page["status"] == cli["status"], name_of(path)
        assert len(page["rounds"]) == len(cli["rounds"]), name_of(path)
        for mine, theirs in zip(page["rounds"], cli["rounds"], strict=True):
            where = f"{name_of(path)} round {theirs['index']}"
            assert theirs["hands"] and theirs["dora_indicators"], where
            assert mine["dealer"] == theirs["dealer"], where
            assert mine["dora_indicators"] == theirs["dora_indicators"], where
            assert mine["hands"] == theirs["hands"], where
            rounds += 1
    assert rounds > 300  # every round of every fixture, not a few


def test_site_lock_lists_what_the_site_ships(built_site: Path, runtime: Path) -> None:
    """The site installs no package (pywall is in its standard library); the tests'
    runtime lists the wheel and micropip, their hashes matching."""
    site_lock = json.loads((built_site / "pyodide" / "pyodide-lock.json").read_text())
    assert site_lock["packages"] == {}
    assert not list((built_site / "pyodide").glob("*.whl"))
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    assert set(lock["packages"]) == {"pywall", "micropip"}
    entry = lock["packages"]["pywall"]
    assert entry["imports"] == ["pywall"] and entry["depends"] == []
    assert entry["package_type"] == "package" and entry["install_dir"] == "site"
    for pkg in lock["packages"].values():
        wheel = runtime / pkg["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == pkg["sha256"]
