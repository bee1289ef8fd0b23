"""Test helpers: where the copied data lives, and log tampering by tag."""

from __future__ import annotations

import importlib.util
import math
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
TENHOU = DATA / "tenhou"
VECTOR = (
    DATA / "vectors" / "tenhou-2016022509gm-0009-0000-b327da61" / "2016022509gm-0009-0000-b327da61"
)

TAG_RE = re.compile(r"<[^<>]*>")


def fixture_paths() -> list[Path]:
    return sorted(p for p in TENHOU.rglob("*") if p.is_file())


def current_format_paths() -> list[Path]:
    return [p for p in fixture_paths() if "legacy-2009" not in p.parts]


def rust_literal(ext: str) -> list[int]:
    body = VECTOR.with_suffix(ext).read_text().strip().strip("[]")
    return [int(re.sub(r"u(8|32)$", "", x.strip()), 0) for x in body.split(",") if x.strip()]


def vector_seed() -> str:
    return VECTOR.with_suffix(".seed_str").read_text().strip().strip('"')


def search(pattern: str, text: str) -> re.Match[str]:
    """``re.search`` for what the test knows is there: a missing match fails the test."""
    found = re.search(pattern, text)
    assert found is not None, f"{pattern!r} not found in {text[:200]!r}"
    return found


def log_text(path: Path) -> str:
    from pywall.formats.mjlog_tags import text_from_bytes

    return text_from_bytes(path.read_bytes())


class Tags:
    """A log as a list of tag strings, to alter one and rebuild the text."""

    def __init__(self, text: str) -> None:
        self.tags = TAG_RE.findall(text)

    def text(self) -> str:
        return "".join(self.tags)

    def round_of(self, i: int) -> int:
        return sum(1 for t in self.tags[: i + 1] if t.startswith("<INIT")) - 1

    def find(self, pattern: str) -> list[int]:
        rx = re.compile(pattern)
        return [i for i, t in enumerate(self.tags) if rx.fullmatch(t)]


def load_build() -> ModuleType:
    """build.py as a module (named so it cannot clash with PyPI's `build`)."""
    spec = importlib.util.spec_from_file_location("pywall_build", ROOT / "build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextmanager
def served_site() -> Iterator[str]:
    """The site (built first if it is stale) served by `python3 build.py serve --port 0`;
    its printed URL. The browser and engine tests' ``site_url`` fixture."""
    build = load_build()
    if not build.site_is_current():
        build.build_site()
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "build.py"), "serve", "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert match, f"build.py serve printed {line!r}"
        yield match.group(0)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two JSON values first differ ("players[3].draws.effective.expected"), or None:
    the same keys, the same counts and texts, the same floats to the last bit (the audit
    computes its floats with IEEE operations only, so CPython and Pyodide agree exactly;
    an int and a float of equal value differ)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return f"{path}: keys {sorted(set(a) ^ set(b))}"
        return next((d for k in a if (d := first_difference(a[k], b[k], f"{path}.{k}"))), None)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items against {len(b)}"
        return next(
            (
                d
                for i, (x, y) in enumerate(zip(a, b))
                if (d := first_difference(x, y, f"{path}[{i}]"))
            ),
            None,
        )
    if isinstance(a, float) and isinstance(b, float):
        same = a.hex() == b.hex() or (math.isnan(a) and math.isnan(b))
        return None if same else f"{path}: {a!r} against {b!r} ({a.hex()} against {b.hex()})"
    return None if a == b and type(a) is type(b) else f"{path}: {a!r} against {b!r}"
