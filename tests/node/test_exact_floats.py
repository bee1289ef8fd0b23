"""One answer everywhere, to the last bit: the audit's numbers in Pyodide (the page: Python
3.14 on WebAssembly, musl's C library) and in CPython (the CLI: the host's C library) are
the same floats. The audit computes them with IEEE operations only (docs/audit.md), so
the page's "Export audit" is exactly what ``pywall audit --json`` prints.

The page's flow, under Node: each log goes to the site's glue as a ``verify`` request, and
the audit is asked for with those reports (``audit_export``, web/batch/batch.mjs's
``withoutDetail``), as the page does after a batch of files."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from pywall.cli import main
from tests.helpers import DATA, first_difference, fixture_paths
from tests.node.stats_grid import grid
from tests.node.test_pyodide_node import answer_of, run_node

pytestmark = pytest.mark.node

#: the grid's module, whose text Pyodide runs too
GRID = Path(__file__).with_name("stats_grid.py")


def audit_files(tmp: Path) -> list[Path]:
    """Real records of every platform the audit counts, copied under one folder so the page
    and the CLI name them alike: the Tenhou fixtures (current and 2009 formats), the
    Mahjong Soul and the Riichi City records."""
    sources = fixture_paths() + sorted((DATA / "majsoul").glob("*.json"))
    sources += sorted((DATA / "riichicity").glob("*.json"))
    out = []
    for p in sources:
        target = tmp / "logs" / p.relative_to(DATA)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(p.read_bytes())
        out.append(target)
    return out


@pytest.fixture(scope="module")
def in_pyodide(
    node: str, runtime: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, list[str], dict[str, Any]]:
    """One Pyodide run for both tests (a start costs seconds of CPU): every record verified
    as the page does, ``audit_export`` of their reports, then the grid (after the audit, so
    that it changes nothing the audit reads). The records' folder, their names, the answer."""
    tmp = tmp_path_factory.mktemp("floats")
    files = audit_files(tmp)
    where = tmp / "logs"
    names = [p.relative_to(where).as_posix() for p in files]
    jobs: list[dict[str, Any]] = [
        {"kind": "verify", "payload": {"name": n}, "path": str(p)}
        for n, p in zip(names, files, strict=True)
    ]
    jobs.append({"kind": "audit_export", "payload": {"lang": "en"}, "with_reports": True})
    jobs.append({"python": GRID.read_text(encoding="utf-8") + "\ngrid()"})
    answer = answer_of(run_node(node, runtime, "lock", jobs, tmp))
    assert answer["python"].startswith("3.14")
    return where, names, answer


def test_stats_give_the_same_bits_in_pyodide_and_cpython(
    in_pyodide: tuple[Path, list[str], dict[str, Any]],
) -> None:
    page = json.loads(in_pyodide[2]["results"][-1])
    cli = json.loads(grid())  # the same module, in this CPython
    for name, values in cli.items():
        assert len(values) > 40, name
        assert page[name] == values, next(
            (
                f"{name}[{i}]: Pyodide {a} against CPython {b}"
                for i, (a, b) in enumerate(zip(page[name], values))
                if a != b
            ),
            f"{name}: {len(page[name])} values against {len(values)}",
        )
    assert len(set(cli["chi2_sf"])) > 100  # the grid reaches many different p-values


def test_the_pages_exported_audit_is_exactly_the_clis(
    in_pyodide: tuple[Path, list[str], dict[str, Any]],
) -> None:
    """``audit_export`` in Pyodide on the page's verify reports of real records equals
    ``pywall audit --json`` on the same files (run in this process): every float to the
    last bit, and the same text."""
    where, names, answer = in_pyodide
    exported = json.loads(answer["results"][-2])
    assert "error" not in exported, exported
    out = io.StringIO()
    with contextlib.chdir(where), contextlib.redirect_stdout(out):
        assert main(["audit", "--json", *names]) == 0
    cli = out.getvalue()
    page, mine = json.loads(exported["json"]), json.loads(cli)
    # the records of three platforms counted, and floats enough to tell a last bit apart
    assert {g["platform"] for g in mine["platforms"]} == {"tenhou", "majsoul", "riichicity"}
    assert mine["games"]["used"] >= 40 and mine["overall"]["draws"]["effective"]["n"] > 1000
    assert first_difference(page, mine) is None, first_difference(page, mine)
    assert exported["json"] == cli
