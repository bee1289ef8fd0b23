"""The audit's numbers use IEEE operations only (docs/audit.md, "one answer everywhere"):
no module that computes a float the audit's JSON carries calls a C library function that
may round differently on another platform (``math.exp``, ``log``, ``erfc``, ``lgamma``,
``pow``, ``fsum``, ...), nor ``**`` on anything but a whole-number base."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: every module on the way from a game to `pywall audit --json` (audit_html draws the HTML
#: report, whose bars are rounded pictures, not the JSON's numbers)
MODULES = [
    "pywall/analysis/stats.py",
    "pywall/analysis/draws.py",
    "pywall/analysis/draw_walk.py",
    "pywall/analysis/walls.py",
    "pywall/audits/draw_wall_tests.py",
    "pywall/analysis/hands.py",
    "pywall/analysis/shanten_distribution.py",
    "pywall/audits/verdicts.py",
    "pywall/audits/counts.py",
    "pywall/audits/tally.py",
    "pywall/audits/records.py",
    "pywall/page/audit_reports.py",
]

#: exact in IEEE arithmetic (or no arithmetic at all): the same bits everywhere
EXACT = {"sqrt", "ldexp", "frexp", "floor", "ceil", "isnan", "isinf", "isfinite", "inf", "nan"}
EXACT |= {"factorial", "comb", "gcd", "isqrt"}


def forbidden(source: str) -> list[str]:
    """What in ``source`` may round differently on another platform."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "math"
            and node.attr not in EXACT
        ):
            found.append(f"line {node.lineno}: math.{node.attr}")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            base = node.left
            if not (isinstance(base, ast.Constant) and type(base.value) is int):
                found.append(f"line {node.lineno}: ** on {ast.unparse(base)}")
        if isinstance(node, ast.ImportFrom) and node.module == "math":
            found += [
                f"line {node.lineno}: math.{a.name}" for a in node.names if a.name not in EXACT
            ]
    return found


@pytest.mark.parametrize("module", MODULES)
def test_no_c_library_rounding(module: str) -> None:
    assert forbidden((ROOT / module).read_text(encoding="utf-8")) == []


def test_the_check_finds_what_it_forbids() -> None:
    bad = "import math\nfrom math import comb, pow\nx = 0.5\ny = math.exp(x) + x ** 2 + 2 ** 3\n"
    assert sorted(forbidden(bad)) == ["line 2: math.pow", "line 4: ** on x", "line 4: math.exp"]
