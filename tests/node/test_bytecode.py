"""The page's standard library ships the modules imported after start-up as bytecode of
Pyodide's own Python (build.py's compiled_stdlib, web/workers/compile_stdlib.mjs): the
page's worker, started from its snapshot, imports them from the ``.pyc`` (no source is
compiled in the browser) and answers as CPython does."""

from __future__ import annotations

import io
import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.helpers import TENHOU, fixture_paths, load_build
from tests.node.test_pyodide_node import WALL_JOBS, answer_of, cpython_answer, run_node

pytestmark = pytest.mark.node

#: In Pyodide, every .pyc member of the mounted standard library: its header (PEP 552) as
#: Pyodide's own importlib writes it (its magic number; flags 1: unchecked hash), and that
#: it loads (marshal) as a code object named by its place in the zip.
CHECK_MEMBERS = """
import importlib.util, json, marshal, sys, types, zipfile
mount = json.__file__[: -len("json/__init__.py")]
bad, names = [], []
with zipfile.ZipFile(mount.rstrip("/")) as z:
    for name in z.namelist():
        if not name.endswith(".pyc"):
            continue
        data = z.read(name)
        names.append(name)
        if data[:4] != importlib.util.MAGIC_NUMBER or int.from_bytes(data[4:8], "little") != 1:
            bad.append(name)
        elif not isinstance(code := marshal.loads(data[16:]), types.CodeType):
            bad.append(name)
        elif code.co_filename != mount + name[:-1]:
            bad.append(name + " " + code.co_filename)
json.dumps({"names": names, "bad": bad})
"""

#: Where each module NAMES names was loaded from (its spec's origin), imported if it is not yet.
ORIGINS = """
import importlib, json
json.dumps({n: importlib.import_module(n).__spec__.origin for n in NAMES})
"""

FROM_BYTECODE = [
    "pywall.page.tool_api",
    "pywall.page.runs",
    "pywall.audits.tally",
]
FROM_SNAPSHOT = ["pywall.page.api", "pywall.inputs.zips", "zipfile"]


def test_the_later_modules_ship_as_pyodides_bytecode(
    node: str, runtime: Path, tmp_path: Path
) -> None:
    stdlib = zipfile.ZipFile(io.BytesIO((runtime / "python_stdlib.zip").read_bytes()))
    names = set(stdlib.namelist())
    for module in FROM_BYTECODE:
        member = module.replace(".", "/") + ".py"
        assert member + "c" in names and member not in names, module
    for module in FROM_SNAPSHOT:  # in the snapshot's memory: their sources stay
        member = module.replace(".", "/")
        assert {member + ".py", member + "/__init__.py"} & names, module
    jobs = [{"python": CHECK_MEMBERS}]
    answer = answer_of(
        run_node(node, runtime, "lock", jobs, tmp_path, runtime / "python-snapshot.bin")
    )
    checked = json.loads(answer["results"][0])
    assert checked["bad"] == []
    assert {m.replace(".", "/") + ".pyc" for m in FROM_BYTECODE} <= set(checked["names"])


def test_the_worker_imports_the_archive_modules_from_bytecode_and_answers_the_same(
    node: str, runtime: Path, tmp_path: Path
) -> None:
    logs = [p for p in fixture_paths() if p.suffix in (".xml", ".mjlog")][:3]
    archive = tmp_path / "three.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for p in logs:
            z.write(p, p.relative_to(TENHOU).as_posix())
    jobs = [
        {"kind": "verify", "payload": {"name": "three.zip"}, "path": str(archive)},
        *WALL_JOBS[:1],
        {"python": "import pywall_worker; pywall_worker.warm_archive()"},
        {"python": f"NAMES = {FROM_BYTECODE + FROM_SNAPSHOT!r}\n" + ORIGINS},
    ]
    answer = answer_of(
        run_node(node, runtime, "lock", jobs, tmp_path, runtime / "python-snapshot.bin")
    )
    verified, walls, warmed, origins = answer["results"]
    assert verified == cpython_answer(jobs[0])
    assert len(json.loads(verified)["files"]) == len(logs)
    assert walls == cpython_answer(jobs[1])
    assert json.loads(warmed)["games"] == 3
    where = json.loads(origins)
    for module in FROM_BYTECODE:
        assert where[module].endswith(".pyc"), (module, where[module])
    for module in FROM_SNAPSHOT:
        assert where[module].endswith(".py"), (module, where[module])


def test_the_same_input_gives_the_same_bytecode(node: str, runtime: Path, tmp_path: Path) -> None:
    """The site is cached by its inputs: compiling the page's zip again gives the same bytes
    (a fixed hash seed, a fixed order and date), as the site ships them."""
    build = load_build()
    stdlib = build.page_stdlib((build.PYODIDE_NPM / build.STDLIB_ZIP).read_bytes())
    src = tmp_path / "page.zip"
    src.write_bytes(stdlib)
    outs = []
    for i in range(2):
        out = tmp_path / f"pyc-{i}.zip"
        script = build.WEB / build.COMPILE_SCRIPT
        cmd = [
            node,
            str(script),
            str(build.PYODIDE_NPM),
            str(src),
            str(build.WEB / build.GLUE),
            str(out),
        ]
        subprocess.run(cmd, check=True, capture_output=True, timeout=300)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert build.with_bytecode(stdlib, outs[0]) == (runtime / build.STDLIB_ZIP).read_bytes()
