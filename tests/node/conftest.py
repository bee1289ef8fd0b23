"""Fixtures for running the built wheel in Pyodide under Node."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import load_build

ROOT = Path(__file__).resolve().parents[2]


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


@pytest.fixture(scope="session")
def runtime(built_site: Path) -> Path:
    """The site's Pyodide runtime as Node reads it (build/pyodide: the site ships the large
    files packed, which only a browser's worker unpacks)."""
    return Path(load_build().RUNTIME)
