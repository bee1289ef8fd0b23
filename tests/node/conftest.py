"""Fixtures for running the built wheel in Pyodide under Node."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_build() -> ModuleType:
    """build.py as a module (named so it cannot clash with PyPI's `build`)."""
    spec = importlib.util.spec_from_file_location("pywall_build", ROOT / "build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def built_site() -> Path:
    """site/, built now if it is missing or older than its sources."""
    build = load_build()
    if not build.site_is_current():
        build.build_site()
    return Path(build.SITE)


@pytest.fixture(scope="session")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.skip("node is not installed (python3 build.py test requires it)")
    return found
