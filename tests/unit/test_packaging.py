"""The wheel and the source distribution, built as a release builds them, and checked.

The wheel is build.py's (the one the page ships); the sdist is the standard
``python -m build --sdist`` through setuptools (pyproject.toml's build backend).
"""

from __future__ import annotations

import email
import email.message
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import build as project_build

ROOT = Path(__file__).resolve().parents[2]
PLATFORMS = ("Tenhou", "SEGA MJ", "Mahjong Soul", "Riichi City")


def package_files() -> set[str]:
    return {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "pywall").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def check_metadata(meta: email.message.Message) -> None:
    assert meta["Name"] == "pywall" and meta["Version"] == project_build.project_meta()["version"]
    assert all(p in meta["Summary"] for p in PLATFORMS), meta["Summary"]
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"
    assert meta["Requires-Python"] == ">=3.11"
    assert "dask" in meta.get_all("Provides-Extra", [])
    needs = meta.get_all("Requires-Dist", [])
    assert 'dask==2026.8.0; extra == "dask"' in needs
    assert 'distributed==2026.8.0; extra == "dask"' in needs
    assert not [d for d in needs if "extra ==" not in d], "the core has no runtime dependency"
    assert "pywall" in meta.get_payload()  # the README as the description


def test_the_wheel_holds_the_package_its_data_and_its_metadata(tmp_path: Path) -> None:
    wheel = project_build.build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        info = "pywall-0.1.0.dist-info"
        meta = email.message_from_bytes(zf.read(f"{info}/METADATA"))
        licence = zf.read(f"{info}/licenses/LICENSE").decode()
    package = {n for n in names if not n.startswith(f"{info}/")}
    assert package == package_files()
    assert {"pywall/py.typed", "pywall/OFL-noto-cjk.txt", "pywall/__init__.py"} <= package
    assert {n.removeprefix(f"{info}/") for n in names - package} == {
        "METADATA",
        "WHEEL",
        "RECORD",
        "entry_points.txt",
        "licenses/LICENSE",
    }
    assert licence.startswith("MIT License") and "the pywall authors" in licence
    check_metadata(meta)


def test_the_sdist_holds_docs_tests_and_the_licence(tmp_path: Path) -> None:
    # run from tmp_path: from the project's root, ``-m build`` would find build.py
    done = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path), str(ROOT)],
        cwd=tmp_path,
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (sdist,) = tmp_path.glob("pywall-*.tar.gz")
    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
        pkg_info = tf.extractfile("pywall-0.1.0/PKG-INFO")
        assert pkg_info is not None
        meta = email.message_from_bytes(pkg_info.read())
    docs = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")}
    tests = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "tests").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }
    missing = (docs | tests | package_files() | {"LICENSE", "CHANGELOG.md", "README.md"}) - names
    assert not missing, sorted(missing)[:20]
    assert not [n for n in names if n.startswith(("web/node_modules/", ".venv/", "site/"))]
    check_metadata(meta)


@pytest.mark.parametrize("name", ["LICENSE", "CHANGELOG.md"])
def test_the_release_files_exist(name: str) -> None:
    assert (ROOT / name).read_text(encoding="utf-8").strip()
