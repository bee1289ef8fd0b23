"""The examples in the docstrings of the functions a library user calls, and in
docs/python.md (the public API), run as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

MODULES = ["pywall.core.tiles", "pywall.analysis.shanten", "pywall.analysis.efficiency"]


@pytest.mark.parametrize("name", MODULES, ids=MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0


ROOT = Path(__file__).resolve().parents[2]


def test_the_python_guide_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # its examples name the records in tests/data/ from the root
    result = doctest.testfile(
        str(ROOT / "docs" / "python.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted >= 20, "docs/python.md lost its examples"
    assert result.failed == 0
