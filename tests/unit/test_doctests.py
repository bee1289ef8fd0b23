"""The examples in the docstrings of the functions a library user calls run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["pywall.core.tiles", "pywall.analysis.shanten", "pywall.analysis.efficiency"]


@pytest.mark.parametrize("name", MODULES, ids=MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
