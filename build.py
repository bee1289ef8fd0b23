#!/usr/bin/env python3
"""Build, serve and test pywall's offline web page.

    python3 build.py site                 build the wheel and assemble site/
    python3 build.py serve [--port N]     build if stale, serve site/ on 127.0.0.1
    python3 build.py test [PYTEST ARGS]   install what tests need, build, run every test
    python3 build.py fuzz [--minutes N]   fuzz every reader (tests/fuzz.py) for N minutes

Standard library only (and pywall itself: the tile faces come from pywall.pictures.tile_art).
On first use it makes a virtualenv in .venv (the project
installed editable with its test extras) and re-runs itself there; the page's
runtime comes from the npm package `pyodide`, pinned in web/package.json and
web/package-lock.json and installed with `npm ci`.

site/ is generated and git-ignored: the page (web/), the tile faces (tiles/CODE.svg,
written from pywall.pictures.tile_art, with the licence of their kanji outlines), the Pyodide files it needs
under site/pyodide/ (the standard library with pywall in it: page_stdlib; the pywall wheel,
written here byte-for-byte reproducible, goes to build/ and to the tests' runtime
build/pyodide with micropip, registered in its pyodide-lock.json), a service worker that
precaches every file under a cache name derived from the site's content, and
.br/.gz copies of the large files for the server to send when the browser
accepts them.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import http.server
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
WEB = ROOT / "web"
SITE = ROOT / "site"
BUILD = ROOT / "build"
CACHE = BUILD / "cache"
PYODIDE_NPM = WEB / "node_modules" / "pyodide"
PYODIDE_VERSION = "314.0.7"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
)
# micropip as PyPI serves it (Pyodide's own lock lists a different build's hash).
MICROPIP = "micropip==0.11.1"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
# Files the page itself consists of, in the site as in web/ (docs/architecture.md, "The page's
# rooms"); everything else in web/ is source for tests, the build or npm.
PAGE_FILES = (
    # the entry pages, the installed app's manifest and icons (tools/make_icons.py)
    "index.html",
    "embed.html",
    "calc.html",
    "manifest.webmanifest",
    "icon.svg",
    "icon-192.png",
    "icon-512.png",
    "icon-maskable-512.png",
    "apple-touch-icon.png",
    # shell/: each page's start, and the tools and the audit wired into the verifier
    "shell/app.js",
    "shell/embed.js",
    "shell/calc.mjs",
    "shell/protocol-check.js",
    "shell/panels.mjs",
    # kit/: the element builder, the store, the URL fragment
    "kit/dom.mjs",
    "kit/store.mjs",
    "kit/fragment.mjs",
    # words/: the words of every language
    "words/i18n.mjs",
    "words/audit-i18n.mjs",
    "words/batch-i18n.mjs",
    "words/game-list-i18n.mjs",
    "words/help-i18n.mjs",
    "words/panels-i18n.mjs",
    "words/pool-i18n.mjs",
    "words/reading-i18n.mjs",
    "words/records-i18n.mjs",
    "words/report-i18n.mjs",
    # workers/: Python in module workers, and the page's pool of them
    "workers/rpc.mjs",
    "workers/early.mjs",
    "workers/pool.mjs",
    "workers/session.mjs",
    "workers/pool-setting.mjs",
    "workers/worker.mjs",
    "workers/runtime-files.mjs",
    "workers/snapshot-delta.mjs",
    "workers/worker_py.py",
    # verdict/: one game's verdict drawn
    "verdict/render.mjs",
    "verdict/tile.mjs",
    "verdict/findings.mjs",
    "verdict/finding-words.mjs",
    "verdict/stated-walls.mjs",
    "verdict/hand-view.mjs",
    "verdict/picture.mjs",
    "verdict/meaning.mjs",
    # tools/: the tool panels
    "tools/panel-kit.mjs",
    "tools/tool-section.mjs",
    "tools/commitment.mjs",
    "tools/start-hands.mjs",
    "tools/sega.mjs",
    "tools/majsoul.mjs",
    # batch/: a batch of games and archives, its export
    "batch/batch.mjs",
    "batch/archives.mjs",
    "batch/archive-run.mjs",
    "batch/export.mjs",
    # audit/: the audit of a batch
    "audit/audit.mjs",
    "audit/audit-draws.mjs",
    "audit/charts.mjs",
    # inputs/: files, game links, the bookmarklet, lists of games, seeds, the sample games
    "inputs/files.mjs",
    "inputs/answer.mjs",
    "inputs/links.mjs",
    "inputs/handoff.mjs",
    "inputs/game-list.mjs",
    "inputs/seeds.mjs",
    "inputs/samples.mjs",
    "inputs/records.mjs",
    # styles/
    "styles/style.css",
    "styles/panels.css",
    "samples/sample-game.xml",
    "samples/sample-game-one-draw-changed.xml",
)
# The page's standard library (page_stdlib): Pyodide's python_stdlib.zip with pywall in it, so
# that the page installs nothing at start-up, less what no import of the page can reach.
STDLIB_ZIP = "python_stdlib.zip"
# Kept whole whatever imports them: Pyodide's own packages (its start imports them from its
# C and JavaScript code) and the modules the page's features need (archives, databases).
STDLIB_ROOTS = (
    "_pyodide",
    "pyodide",
    "site",
    "encodings",
    "zipfile",
    "gzip",
    "bz2",
    "lzma",
    "zlib",
    "sqlite3",
    "json",
    "csv",
)
# The codecs kept (encodings looks a codec up by name, never by an import): pywall reads
# UTF-8 and ASCII only; zipfile reads legacy names as cp437, json UTF-16 and UTF-32.
CODECS = frozenset(
    [
        "__init__",
        "aliases",
        "ascii",
        "base64_codec",
        "charmap",
        "cp437",
        "hex_codec",
        "idna",
        "latin_1",
        "punycode",
        "raw_unicode_escape",
        "undefined",
        "unicode_escape",
        "utf_16",
        "utf_16_be",
        "utf_16_le",
        "utf_32",
        "utf_32_be",
        "utf_32_le",
        "utf_7",
        "utf_8",
        "utf_8_sig",
    ]
)
# pywall's folders the page never imports (the command, Dask: tests/unit/test_layers.py).
NOT_IN_PAGE = ("cli", "scale")
SW_TEMPLATE = "sw.js"
SNAPSHOT_SCRIPT = "workers/make_snapshot.mjs"
# Compiles the modules the page imports after start-up with Pyodide's Python (compiled_stdlib).
COMPILE_SCRIPT = "workers/compile_stdlib.mjs"
# The page's glue, run in the worker's Python (and in the snapshot).
GLUE = "workers/worker_py.py"
SNAPSHOT_NAME = "python-snapshot.bin"
# The runtime files the worker fetches itself (not Pyodide's JavaScript, which is imported):
# the site ships them named by their content (NAME.HASH, gzipped as NAME.HASH.gz when that
# saves COMPRESS_MIN_SAVING), so any static host sends them small and the browser unpacks them
# (DecompressionStream); written in site/pyodide/packed.mjs for the worker and sw.js.
PACKED_FILES = ("pyodide.asm.wasm", "python_stdlib.zip", SNAPSHOT_NAME)
PACKED_MODULE = "pyodide/packed.mjs"
# The site's runtime as Pyodide under Node reads it (nothing packed): tests and benchmarks.
RUNTIME = BUILD / "pyodide"
# There, Pyodide's own standard library (no pywall in it, nothing left out).
RUNTIME_STDLIB = "pyodide_stdlib.zip"
COMPRESS_MIN_BYTES = 8 * 1024
COMPRESS_MIN_SAVING = 0.10
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "connect-src 'self'; style-src 'self'; img-src 'self' data: blob:; object-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)
MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".py": "text/x-python; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
    ".xml": "text/xml; charset=utf-8",
}


def log(message: str) -> None:
    print(f"build.py: {message}", file=sys.stderr, flush=True)


def run(cmd: list[str], cwd: Path = ROOT, **kwargs: object) -> None:
    log("$ " + " ".join(str(c) for c in cmd))
    subprocess.run(cmd, cwd=cwd, check=True, **kwargs)  # type: ignore[call-overload]


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    return sha256_bytes(path.read_bytes())


# --- the virtualenv -------------------------------------------------------------


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def in_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def ensure_venv() -> None:
    """Make .venv with the project and its test, dev and dask extras (pytest, Playwright, ruff,
    mypy, Dask for pywall.scale); re-run this script inside it."""
    if sys.version_info < (3, 11):  # noqa: UP036 - people run this with any python3
        sys.exit("build.py needs Python 3.11 or newer")
    stamp = VENV / ".pywall-installed"
    extras = ".[test,dev,dask]"
    want = sha256_file(ROOT / "pyproject.toml") + " " + extras
    if not venv_python().exists():
        log("creating the virtualenv .venv")
        run([sys.executable, "-m", "venv", str(VENV)])
    if not stamp.exists() or stamp.read_text() != want:
        py = str(venv_python())
        run([py, "-m", "pip", "install", "--quiet", "-e", extras])
        stamp.write_text(want)
    if not in_venv():
        py = str(venv_python())
        os.execv(py, [py, str(Path(__file__).resolve()), *sys.argv[1:]])


# --- the wheel ------------------------------------------------------------------


def project_meta() -> dict[str, Any]:
    import tomllib  # after the version check: Python 3.11+

    with open(ROOT / "pyproject.toml", "rb") as f:
        meta: dict[str, Any] = tomllib.load(f)["project"]
    return meta


def wheel_members() -> list[tuple[str, bytes]]:
    files = sorted(
        p
        for p in (ROOT / "pywall").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo")
    )
    return [(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in files]


def dist_info(meta: dict[str, Any]) -> list[tuple[str, bytes]]:
    """The wheel's metadata (core metadata 2.4: the licence as an SPDX expression and its
    file, the extras and what each requires, the README as the description)."""
    name, version = str(meta["name"]), str(meta["version"])
    lines = [
        "Metadata-Version: 2.4",
        f"Name: {name}",
        f"Version: {version}",
        f"Summary: {meta.get('description', '')}",
        f"Requires-Python: {meta.get('requires-python', '>=3.11')}",
    ]
    lines += [f"Author: {a['name']}" for a in meta.get("authors", []) if "name" in a]
    if meta.get("keywords"):
        lines.append(f"Keywords: {','.join(meta['keywords'])}")
    if isinstance(meta.get("license"), str):
        lines.append(f"License-Expression: {meta['license']}")
    licences = [str(f) for f in meta.get("license-files", [])]
    lines += [f"License-File: {f}" for f in licences]
    lines += [f"Classifier: {c}" for c in meta.get("classifiers", [])]
    lines += [f"Requires-Dist: {d}" for d in meta.get("dependencies", [])]
    for extra, needs in (meta.get("optional-dependencies") or {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {d}; extra == "{extra}"' for d in needs]
    readme = meta.get("readme")
    if isinstance(readme, str):
        lines.append("Description-Content-Type: text/markdown")
        body = (ROOT / readme).read_text(encoding="utf-8")
    else:
        body = ""
    wheel = (
        "Wheel-Version: 1.0\nGenerator: pywall build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    out = [("METADATA", "\n".join(lines) + "\n\n" + body), ("WHEEL", wheel)]
    scripts = meta.get("scripts") or {}
    if scripts:
        body = "".join(f"{k} = {v}\n" for k, v in sorted(scripts.items()))
        out.append(("entry_points.txt", "[console_scripts]\n" + body))
    out += [(f"licenses/{f}", (ROOT / f).read_text(encoding="utf-8")) for f in licences]
    info = f"{name}-{version}.dist-info"
    return [(f"{info}/{n}", text.encode()) for n, text in out]


def record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def build_wheel(dest: Path) -> Path:
    """Write pywall's pure-Python wheel; the same sources give the same bytes."""
    meta = project_meta()
    name, version = str(meta["name"]), str(meta["version"])
    members = wheel_members() + dist_info(meta)
    record_path = f"{name}-{version}.dist-info/RECORD"
    rows = [record_line(p, d) for p, d in members] + [f"{record_path},,"]
    members.append((record_path, ("\n".join(rows) + "\n").encode()))
    dest.mkdir(parents=True, exist_ok=True)
    wheel = dest / f"{name}-{version}-py3-none-any.whl"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for path, data in members:
            info = zipfile.ZipInfo(path, ZIP_EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data, compresslevel=9)
    wheel.write_bytes(buf.getvalue())
    return wheel


# --- npm and micropip -----------------------------------------------------------


def ensure_npm() -> None:
    stamp = WEB / "node_modules" / ".pywall-lock-sha256"
    want = sha256_file(WEB / "package-lock.json")
    have_version = None
    if (PYODIDE_NPM / "package.json").exists():
        have_version = json.loads((PYODIDE_NPM / "package.json").read_text())["version"]
    if have_version == PYODIDE_VERSION and stamp.exists() and stamp.read_text() == want:
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("build.py: npm is needed (Node.js 18 or newer); install it and run again")
    run([npm, "ci", "--no-audit", "--no-fund"], cwd=WEB)
    stamp.write_text(want)


def ensure_micropip() -> Path:
    CACHE.mkdir(parents=True, exist_ok=True)
    wheel = CACHE / "micropip-0.11.1-py3-none-any.whl"
    if wheel.exists() and sha256_file(wheel) == MICROPIP_SHA256:
        return wheel
    req = CACHE / "micropip-requirements.txt"
    req.write_text(f"{MICROPIP} --hash=sha256:{MICROPIP_SHA256}\n")
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--python-version",
            "3.14",
            "--require-hashes",
            "-r",
            str(req),
            "-d",
            str(CACHE),
        ]
    )
    return wheel


# --- the site -------------------------------------------------------------------


def lock_entry(wheel: Path, name: str, version: str, imports: list[str]) -> dict[str, Any]:
    return {
        "name": name,
        "version": version,
        "file_name": wheel.name,
        "install_dir": "site",
        "sha256": sha256_file(wheel),
        "package_type": "package",
        "imports": imports,
        "depends": [],
        "unvendored_tests": False,
        "tool": {},
    }


def write_lock(pyodide_dir: Path, pywall_whl: Path | None, micropip_whl: Path | None) -> None:
    """Pyodide's lock with only the packages given (their hashes matching): none for the
    site (pywall is in its standard library), the wheel and micropip for build/pyodide."""
    lock = json.loads((PYODIDE_NPM / "pyodide-lock.json").read_text())
    meta = project_meta()
    packages = {}
    if micropip_whl is not None:
        micropip = dict(lock["packages"]["micropip"])
        micropip.update(file_name=micropip_whl.name, sha256=sha256_file(micropip_whl))
        packages["micropip"] = micropip
    if pywall_whl is not None:
        version = str(meta["version"])
        packages["pywall"] = lock_entry(pywall_whl, "pywall", version, ["pywall"])
    lock["packages"] = packages
    text = json.dumps(lock, indent=1, sort_keys=True) + "\n"
    (pyodide_dir / "pyodide-lock.json").write_text(text)


_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)|import[ \t]+([^\n#;]+))",
    re.MULTILINE,
)


def module_of(member: str) -> str | None:
    """The module a zip member holds (``a/b/__init__.py`` -> ``a.b``), or None."""
    if not member.endswith(".py"):
        return None
    name = member[:-3].replace("/", ".")
    return name.removesuffix(".__init__")


def imported_names(module: str, package: bool, text: str) -> set[str]:
    """Every module name an import line of ``text`` may name, with its parents: read from
    the text (the host's Python may not parse the runtime's), so it keeps too much, never
    too little (an import inside a function counts; ``from a import b`` counts ``a.b``)."""
    here = module if package else module.rpartition(".")[0]
    found = set()
    for source, names, plain in _IMPORT.findall(text):
        if plain:
            found |= {part.split(" as ")[0].strip() for part in plain.split(",")}
            continue
        base = source.lstrip(".")
        if source.startswith("."):
            parts = here.split(".")
            up = len(source) - len(base) - 1
            base = ".".join(parts[: len(parts) - up] + ([base] if base else []))
        found.add(base)
        for name in re.split(r"[\s,()\\]+", names):
            if name and name != "*" and name != "as":
                found.add(f"{base}.{name}")
    return {".".join(n.split(".")[:i]) for n in found for i in range(1, n.count(".") + 2)}


def stdlib_kept(stdlib: zipfile.ZipFile, roots: set[str]) -> set[str]:
    """The members of the standard library that the modules in ``roots`` (and every
    module of a package in STDLIB_ROOTS) can import, directly or not."""
    members = {m: n for n in stdlib.namelist() if (m := module_of(n))}
    whole = [
        m for m in members if m.split(".")[0] in STDLIB_ROOTS and m.split(".")[0] != "encodings"
    ]
    codecs = [f"encodings.{c}" for c in CODECS if f"encodings.{c}" in members]
    todo, seen = [*roots, *whole, *codecs], set()
    while todo:
        module = todo.pop()
        if module in seen or module not in members:
            continue
        seen.add(module)
        member = members[module]
        text = stdlib.read(member).decode("utf-8", "replace")
        names = imported_names(module, member.endswith("__init__.py"), text)
        parents = {module.rsplit(".", i)[0] for i in range(1, module.count(".") + 1)}
        todo += [n for n in names | parents if n not in seen and not n.startswith("encodings.")]
    return {members[m] for m in seen}


def page_members() -> list[tuple[str, bytes]]:
    """pywall's files as the page's standard library holds them (NOT_IN_PAGE left out)."""
    return [(path, data) for path, data in wheel_members() if path.split("/")[1] not in NOT_IN_PAGE]


def page_stdlib(stdlib: bytes) -> bytes:
    """Pyodide's standard library with pywall in it, less the modules nothing of the page
    can import (stdlib_kept), its members stored: gzipped whole (pack_runtime) it is a
    third smaller than its members deflated one by one, and imports read it unpacked."""
    source = zipfile.ZipFile(io.BytesIO(stdlib))
    ours = page_members()
    glue = (WEB / GLUE).read_text(encoding="utf-8")
    roots = imported_names("pywall_worker", False, glue)
    for path, data in ours:
        module = module_of(path)
        if module:
            package = path.endswith("__init__.py")
            roots |= imported_names(module, package, data.decode("utf-8", "replace"))
    kept = stdlib_kept(source, roots)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as out:
        for info in source.infolist():
            if info.filename in kept or module_of(info.filename) is None:
                out.writestr(zipfile.ZipInfo(info.filename, ZIP_EPOCH), source.read(info))
        for path, data in ours:
            out.writestr(zipfile.ZipInfo(path, ZIP_EPOCH), data)
    return buf.getvalue()


def with_bytecode(stdlib: bytes, pyc: bytes) -> bytes:
    """``stdlib`` with each member NAME.py that ``pyc`` holds as NAME.pyc replaced by it, in
    its place; the other members as they were."""
    compiled = zipfile.ZipFile(io.BytesIO(pyc))
    have = set(compiled.namelist())
    source = zipfile.ZipFile(io.BytesIO(stdlib))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as out:
        for info in source.infolist():
            name = info.filename + "c"
            if name in have:
                out.writestr(zipfile.ZipInfo(name, ZIP_EPOCH), compiled.read(name))
            else:
                out.writestr(zipfile.ZipInfo(info.filename, ZIP_EPOCH), source.read(info))
    return buf.getvalue()


def compiled_stdlib(stdlib: bytes) -> bytes:
    """The page's standard library (page_stdlib) with the modules the page imports after
    its start-up snapshot as bytecode instead of sources, compiled by Pyodide's own Python
    (web/workers/compile_stdlib.mjs), cached by its inputs. Only those: bytecode is about
    twice its source's size gzipped, and the snapshot's modules are in its memory already.

    Without node, or if compiling fails, the page gets the sources (only slower): a warning."""
    glue = WEB / GLUE
    digest = hashlib.sha256(sha256_bytes(stdlib).encode())
    for path in [WEB / COMPILE_SCRIPT, glue, *(PYODIDE_NPM / n for n in PYODIDE_FILES)]:
        digest.update(sha256_file(path).encode())
    cached = CACHE / "bytecode" / f"{digest.hexdigest()}.zip"
    src = cached.with_suffix(".in.tmp")
    made = node_cached(
        cached,
        [COMPILE_SCRIPT, str(PYODIDE_NPM), str(src), str(glue)],
        "the page's modules ship as sources (compiled in the browser)",
        "compiling the page's modules failed: they ship as sources (slower)",
        given=(src, stdlib),
    )
    return with_bytecode(stdlib, cached.read_bytes()) if made else stdlib


def node_cached(
    cached: Path,
    command: list[str],
    without_node: str,
    failed: str,
    given: tuple[Path, bytes] | None = None,
) -> bool:
    """Make ``cached`` (named by the digest of its inputs) unless it exists, by running
    ``node web/SCRIPT ARGS... OUT`` (``command``: the script, then its arguments) and
    renaming OUT over it when node succeeds; ``given``: a file written for the script to
    read, removed after. False (logged: ``without_node``, ``failed``) when it could not be
    made: what it makes is an optimisation, the site works without it."""
    if cached.exists():
        return True
    node = shutil.which("node")
    if node is None:
        log(f"node not found: {without_node}")
        return False
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(".tmp")
    if given is not None:
        given[0].write_bytes(given[1])
    try:
        run([node, str(WEB / command[0]), *command[1:], str(tmp)])
    except subprocess.CalledProcessError:
        log(failed)
        return False
    finally:
        if given is not None:
            given[0].unlink()
    tmp.replace(cached)
    return True


def make_snapshot(pyodide_dir: Path) -> None:
    """The interpreter's memory with pywall and the page's glue imported (see
    web/workers/make_snapshot.mjs), cached by its inputs: the runtime (its standard library
    holds pywall: page_stdlib), the lock, the glue.

    The page works without it (only slower), so a failure here is a warning.
    """
    glue = WEB / GLUE
    digest = hashlib.sha256((WEB / SNAPSHOT_SCRIPT).read_bytes())
    inputs = [pyodide_dir / name for name in (*PYODIDE_FILES, "pyodide-lock.json")]
    for path in [*inputs, glue]:
        digest.update(sha256_file(path).encode())
    cached = CACHE / "snapshots" / f"{digest.hexdigest()}.bin"
    if node_cached(
        cached,
        [SNAPSHOT_SCRIPT, str(pyodide_dir), str(glue)],
        "the site gets no start-up snapshot (Python starts slower)",
        "making the start-up snapshot failed: the site goes without (Python starts slower)",
    ):
        shutil.copyfile(cached, pyodide_dir / SNAPSHOT_NAME)


def write_tile_faces() -> None:
    """tiles/CODE.svg for each of the 37 faces, from the one source of the art (pywall.pictures.tile_art),
    and tiles/LICENSE.txt for the kanji outlines they hold (SIL OFL 1.1)."""
    from pywall.pictures.tile_art import CODES, face_svg

    tiles = SITE / "tiles"
    tiles.mkdir(parents=True, exist_ok=True)
    for code in CODES:
        (tiles / f"{code}.svg").write_text(face_svg(code), encoding="utf-8")
    shutil.copyfile(ROOT / "pywall" / "OFL-noto-cjk.txt", tiles / "LICENSE.txt")


def site_files() -> list[Path]:
    """Every file of the site, without the .br/.gz copies precompress() writes beside one."""
    return sorted(
        p
        for p in SITE.rglob("*")
        if p.is_file()
        and p.name != ".stamp"
        and not (p.suffix in (".br", ".gz") and p.with_suffix("").is_file())
    )


def _leb128(data: bytes, at: int, signed: bool = False) -> tuple[int, int]:
    """A LEB128 number of a WebAssembly module at ``at``: (its value, the offset after it)."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            break
    if signed and byte & 0x40:
        value -= 1 << shift
    return value, at


def _data_segment(wasm: bytes, at: int) -> tuple[int | None, bytes, int]:
    """One segment of the data section at ``at``: (its offset in memory, None when it is
    passive, its bytes, the offset after it)."""
    flags, at = _leb128(wasm, at)
    if flags == 2:
        memory, at = _leb128(wasm, at)
        if memory != 0:
            raise ValueError(f"a data segment for memory {memory}")
    offset = None
    if flags in (0, 2):
        if wasm[at] != 0x41:  # i32.const
            raise ValueError("a data segment placed by an expression other than i32.const")
        offset, at = _leb128(wasm, at + 1, signed=True)
        if wasm[at] != 0x0B:
            raise ValueError("a data segment's offset is not one constant")
        at += 1
    elif flags != 1:
        raise ValueError(f"a data segment with flags {flags}")
    size, at = _leb128(wasm, at)
    return offset, wasm[at : at + size], at + size


def wasm_data_segments(wasm: bytes) -> list[tuple[int, bytes]]:
    """The active data segments of a WebAssembly module, (offset, bytes): what its
    instantiation writes into a fresh memory (runtime-files.mjs reads them the same way)."""
    if wasm[:4] != b"\0asm":
        raise ValueError("not a WebAssembly module")
    segments, at = [], 8
    while at < len(wasm):
        section, body = wasm[at], at + 1
        size, body = _leb128(wasm, body)
        at = body + size
        if section != 11:  # the data section
            continue
        count, body = _leb128(wasm, body)
        for _ in range(count):
            offset, data, body = _data_segment(wasm, body)
            if offset is not None:
                segments.append((offset, data))
    return segments


def snapshot_delta(snapshot: bytes, wasm: bytes) -> bytes:
    """The snapshot with the interpreter's initial memory XOR-ed out of its memory.

    The first ~3 MB of the memory are the module's static data, most of it as the module
    itself holds it (and ships it): XOR-ed with it they are mostly zeros, 1.4 MB less of
    gzip. The same XOR again gives the snapshot back (runtime-files.mjs, in the page)."""
    start = int.from_bytes(snapshot[4:8], "little")  # Pyodide's header: where the memory starts
    segments = wasm_data_segments(wasm)
    image = bytearray(max((offset + len(data) for offset, data in segments), default=0))
    for offset, data in segments:  # in order, as instantiation writes them
        image[offset : offset + len(data)] = data
    if start + len(image) > len(snapshot):
        raise ValueError("the snapshot's memory is smaller than the module's data")
    memory = snapshot[start : start + len(image)]
    mixed = int.from_bytes(memory, "little") ^ int.from_bytes(image, "little")
    return snapshot[:start] + mixed.to_bytes(len(image), "little") + snapshot[start + len(image) :]


SNAPSHOT_PAGE = 4096
SNAPSHOT_PAGES_MAGIC = b"PWSP"


def _nonzero_runs(data: bytes, page: int) -> list[tuple[int, int]]:
    """The runs of ``page``-byte pages of ``data`` that are not all zeros: (first, count)."""
    runs: list[tuple[int, int]] = []
    zero = bytes(page)
    for index in range(-(-len(data) // page)):
        chunk = data[index * page : (index + 1) * page]
        if chunk == zero[: len(chunk)]:
            continue
        if runs and sum(runs[-1]) == index:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((index, 1))
    return runs


def snapshot_pages(data: bytes, page: int = SNAPSHOT_PAGE) -> bytes:
    """The snapshot's delta without its pages of zeros, as the page's worker reads it
    (runtime-files.mjs, expandPages).

    Two thirds of the memory's 4 KiB pages are all zeros: gzip sends them in a few KB, but
    unpacking them in the page wrote 20 MB of zeros, the most of the worker's time before
    Python starts. This form is the header ``PWSP``, the unpacked length, the page size
    and the count of runs (four little-endian u32), each run's first page and page count
    (two u32), then the runs' bytes one after the other (the last page may be short)."""
    runs = _nonzero_runs(data, page)
    header = SNAPSHOT_PAGES_MAGIC + b"".join(
        n.to_bytes(4, "little")
        for n in (len(data), page, len(runs), *(x for run in runs for x in run))
    )
    return header + b"".join(data[first * page : (first + count) * page] for first, count in runs)


def snapshot_from_pages(packed: bytes) -> bytes:
    """snapshot_pages undone (what the worker's expandPages does)."""
    if packed[:4] != SNAPSHOT_PAGES_MAGIC:
        raise ValueError("not a snapshot in pages")
    length, page, count = (int.from_bytes(packed[at : at + 4], "little") for at in (4, 8, 12))
    out, at = bytearray(length), 16 + 8 * count
    for i in range(count):
        first, pages = (
            int.from_bytes(packed[16 + 8 * i + k : 20 + 8 * i + k], "little") for k in (0, 4)
        )
        start = first * page
        size = min(pages * page, length - start)
        out[start : start + size] = packed[at : at + size]
        at += size
    if at != len(packed):
        raise ValueError("a snapshot in pages with bytes beyond its runs")
    return bytes(out)


def pack_runtime(pyodide_dir: Path) -> dict[str, str]:
    """Replace each of PACKED_FILES in pyodide_dir by its packed copy; {name: packed name}.

    pyodide/packed.mjs lists them, with each one's SHA-256 (whose first 16 hex digits are in
    its name) and that of its content unpacked (what the page is handed when a host sends
    the .gz with Content-Encoding: gzip); write_service_worker adds the site's VERSION.
    The snapshot ships as its delta from the interpreter (snapshot_delta), without its
    pages of zeros (snapshot_pages)."""
    packed = {}
    sha256 = {}
    for name in PACKED_FILES[::-1]:  # the snapshot, then the interpreter it is XOR-ed with
        src = pyodide_dir / name
        if not src.exists():
            continue
        data = src.read_bytes()
        if name == SNAPSHOT_NAME:
            data = snapshot_pages(
                snapshot_delta(data, (pyodide_dir / "pyodide.asm.wasm").read_bytes())
            )
        gz = compressed(data, "gz")
        small = len(gz) <= len(data) * (1 - COMPRESS_MIN_SAVING)
        body = gz if small else data
        packed[name] = f"{name}.{sha256_bytes(body)[:16]}" + (".gz" if small else "")
        sha256[packed[name]] = {"packed": sha256_bytes(body), "plain": sha256_bytes(data)}
        (pyodide_dir / packed[name]).write_bytes(body)
        src.unlink()
    module = (
        "// Written by build.py: the runtime files this site ships packed (named by their\n"
        "// content; .gz: gzipped), by the name Pyodide knows them by.\n"
        f"export const PACKED = {json.dumps(packed, indent=1, sort_keys=True)};\n"
        "// Each one's SHA-256 as shipped (its name holds the first 16 hex digits) and unpacked.\n"
        f"export const SHA256 = {json.dumps(sha256, indent=1, sort_keys=True)};\n"
    )
    (SITE / PACKED_MODULE).write_text(module)
    return packed


def read_packed(site: Path = SITE) -> dict[str, str]:
    """site/pyodide/packed.mjs's table: {name: packed name}."""
    text = (site / PACKED_MODULE).read_text()
    found = re.search(r"export const PACKED = (\{.*?\});", text, re.DOTALL)
    if not found:
        raise ValueError(f"{PACKED_MODULE} has no PACKED table")
    table: dict[str, str] = json.loads(found.group(1))
    return table


def read_sha256(site: Path = SITE) -> dict[str, dict[str, str]]:
    """site/pyodide/packed.mjs's hashes: {packed name: {"packed": hex, "plain": hex}}."""
    text = (site / PACKED_MODULE).read_text()
    found = re.search(r"export const SHA256 = (\{.*?\n\});", text, re.DOTALL)
    if not found:
        raise ValueError(f"{PACKED_MODULE} has no SHA256 table")
    table: dict[str, dict[str, str]] = json.loads(found.group(1))
    return table


def write_service_worker() -> str:
    """sw.js precaching every site file, its cache named by the site's VERSION: a digest of
    every file's path and content (but packed.mjs, which gains the VERSION, and sw.js) and
    of sw.js's template. The page's worker names its cache by the same VERSION
    (pyodide/packed.mjs), so every cache belongs to one version of the site."""
    files = [p for p in site_files() if p.name != "sw.js"]
    digest = hashlib.sha256()
    for p in files:
        if p.relative_to(SITE).as_posix() == PACKED_MODULE:
            continue  # its tables are a function of the packed files' names and bytes
        digest.update(p.relative_to(SITE).as_posix().encode() + b"\0" + sha256_file(p).encode())
    template = (WEB / SW_TEMPLATE).read_text()
    digest.update(template.encode())
    version = digest.hexdigest()[:16]
    module = SITE / PACKED_MODULE
    module.write_text(
        module.read_text()
        + "// The site's version (build.py): the one cache this version uses is pywall-VERSION.\n"
        + f"export const VERSION = {json.dumps(version)};\n"
    )
    packed = {f"pyodide/{name}" for name in read_packed().values()}
    hashes = {f"pyodide/{name}": sums for name, sums in read_sha256().items()}
    urls = ["./"] + [u for p in files if (u := p.relative_to(SITE).as_posix()) not in packed]
    text = (
        template.replace('"__PYWALL_VERSION__"', json.dumps(version))
        .replace("[/*__PYWALL_PRECACHE__*/]", json.dumps(urls, indent=1))
        .replace("[/*__PYWALL_PACKED__*/]", json.dumps(sorted(packed), indent=1))
        .replace("{/*__PYWALL_SHA256__*/}", json.dumps(hashes, indent=1, sort_keys=True))
    )
    (SITE / "sw.js").write_text(text)
    return version


def compressed(data: bytes, kind: str) -> bytes:
    """gzip or brotli bytes, cached by content so rebuilds stay quick."""
    # brotli quality 11 takes ~40 s on the 9 MB wasm for 12% less than 9: 9 there
    level = 9 if kind == "gz" or len(data) >= 4 * 1024 * 1024 else 11
    key = CACHE / "compressed" / f"{sha256_bytes(data)}.{kind}{level}"
    if key.exists():
        return key.read_bytes()
    if kind == "gz":
        out = gzip.compress(data, compresslevel=level, mtime=0)
    else:
        import brotli  # type: ignore[import-untyped]  # the test extras install it

        out = brotli.compress(data, quality=level)
    key.parent.mkdir(parents=True, exist_ok=True)
    key.write_bytes(out)
    return out


def brotli_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("brotli") is not None


def precompress() -> None:
    kinds = ["gz"] + (["br"] if brotli_available() else [])
    if "br" not in kinds:
        log("brotli is not installed: writing .gz copies only")
    for p in site_files():
        data = p.read_bytes()
        if len(data) < COMPRESS_MIN_BYTES:
            continue
        for kind in kinds:
            out = compressed(data, kind)
            if len(out) <= len(data) * (1 - COMPRESS_MIN_SAVING):
                Path(f"{p}.{kind}").write_bytes(out)


def inputs_digest() -> str:
    """What the site is made from; the site is stale when this changes."""
    paths = [ROOT / "build.py", ROOT / "pyproject.toml", WEB / "package-lock.json"]
    paths += [WEB / n for n in PAGE_FILES + (SW_TEMPLATE, SNAPSHOT_SCRIPT, COMPILE_SCRIPT)]
    paths += sorted(p for p in (ROOT / "pywall").rglob("*.py") if "__pycache__" not in p.parts)
    paths.append(ROOT / "pywall" / "OFL-noto-cjk.txt")
    digest = hashlib.sha256()
    for p in paths:
        digest.update(p.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(p.read_bytes() if p.exists() else b"<missing>")
    return digest.hexdigest()


def site_is_current() -> bool:
    stamp = SITE / ".stamp"
    return stamp.exists() and stamp.read_text() == inputs_digest()


def write_runtime(pyodide_dir: Path, wheel: Path, micropip: Path) -> None:
    """build/pyodide: the site's runtime unpacked, with the wheel and micropip in its lock
    and Pyodide's own standard library as RUNTIME_STDLIB (the tests install the wheel in
    Pyodide under Node there, as pip users would)."""
    if RUNTIME.exists():
        shutil.rmtree(RUNTIME)
    shutil.copytree(pyodide_dir, RUNTIME)
    shutil.copyfile(PYODIDE_NPM / STDLIB_ZIP, RUNTIME / RUNTIME_STDLIB)
    shutil.copyfile(wheel, RUNTIME / wheel.name)
    shutil.copyfile(micropip, RUNTIME / micropip.name)
    write_lock(RUNTIME, RUNTIME / wheel.name, RUNTIME / micropip.name)


def build_site() -> None:
    ensure_npm()
    micropip_src = ensure_micropip()
    wheel = build_wheel(BUILD)
    log(f"wheel {wheel.relative_to(ROOT)} sha256 {sha256_file(wheel)}")
    if SITE.exists():
        shutil.rmtree(SITE)
    pyodide_dir = SITE / "pyodide"
    pyodide_dir.mkdir(parents=True)
    for name in PAGE_FILES:
        (SITE / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(WEB / name, SITE / name)
    write_tile_faces()
    for name in PYODIDE_FILES:
        if name == STDLIB_ZIP:
            stdlib = page_stdlib((PYODIDE_NPM / name).read_bytes())
            (pyodide_dir / name).write_bytes(compiled_stdlib(stdlib))
        else:
            shutil.copyfile(PYODIDE_NPM / name, pyodide_dir / name)
    write_lock(pyodide_dir, None, None)
    make_snapshot(pyodide_dir)
    write_runtime(pyodide_dir, wheel, micropip_src)
    pack_runtime(pyodide_dir)
    version = write_service_worker()
    precompress()
    (SITE / ".stamp").write_text(inputs_digest())
    log(f"site/ ready ({len(site_files())} files, cache version {version})")


# --- serving --------------------------------------------------------------------


def accepted_encodings(header: str) -> set[str]:
    accepted = set()
    for part in header.split(","):
        token, _, params = part.strip().partition(";")
        q = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
        try:
            if float(q) > 0:
                accepted.add(token.strip().lower())
        except ValueError:
            continue
    return accepted


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the page's headers and precompressed bodies."""

    extensions_map = {  # noqa: RUF012 - the base class's own attribute, extended
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **MIME_TYPES,
    }

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, directory=str(SITE), **kwargs)  # type: ignore[arg-type]

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
            if not self.path.split("?", 1)[0].endswith("/"):
                return super().send_head()
        if not path.is_file() or path.suffix in (".br", ".gz"):
            return super().send_head()
        accepted = accepted_encodings(self.headers.get("Accept-Encoding", ""))
        for kind, encoding in (("br", "br"), ("gz", "gzip")):
            variant = Path(f"{path}.{kind}")
            if encoding in accepted and variant.is_file():
                return self.send_file(variant, self.guess_type(str(path)), encoding)
        return self.send_file(path, self.guess_type(str(path)), None)

    def send_file(self, path: Path, ctype: str, encoding: str | None):  # type: ignore[no-untyped-def]
        st = path.stat()
        etag = f'"{st.st_mtime_ns:x}-{st.st_size:x}-{encoding or "identity"}"'
        if etag in self.headers.get("If-None-Match", ""):
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return None
        f = open(path, "rb")  # noqa: SIM115 - closed by copyfile's caller
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(st.st_size))
        self.send_header("ETag", etag)
        self.send_header("Vary", "Accept-Encoding")
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.end_headers()
        return f

    def log_message(self, format: str, *args: object) -> None:
        if os.environ.get("PYWALL_SERVE_LOG"):
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the browser went away mid-response (a closed tab): nothing to report
        super().handle_error(request, client_address)  # type: ignore[arg-type]


def serve(port: int) -> None:
    if not site_is_current():
        build_site()
    server = SiteServer(("127.0.0.1", port), SiteHandler)
    print(f"Serving pywall at http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# --- tests ----------------------------------------------------------------------


def find_chromium() -> str | None:
    candidates = [os.environ.get("PYWALL_CHROMIUM"), "/usr/bin/chromium"]
    for c in candidates:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return c
    return None


def apt_install(*packages: str) -> bool:
    """``apt-get install`` of Debian packages, when we are root on a Debian-like
    system; whether it was tried."""
    is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if not (is_root and shutil.which("apt-get")):
        return False
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    run(["apt-get", "update", "-qq"], env=env)
    run(["apt-get", "install", "-y", "-qq", *packages], env=env)
    return True


def has_cjk_fonts() -> bool:
    """Whether fontconfig has fonts for Japanese and Chinese (or cannot say)."""
    if shutil.which("fc-list") is None:
        return True
    found = [
        subprocess.run(
            ["fc-list", f":lang={lang}"], capture_output=True, text=True, check=False
        ).stdout
        for lang in ("ja", "zh-cn")
    ]
    return all(out.strip() for out in found)


def ensure_cjk_fonts() -> None:
    """The Japanese and Chinese pages' screenshots need CJK fonts (without them every
    character is drawn as a box): Debian's fonts-noto-cjk, installed when missing and we may."""
    if has_cjk_fonts():
        return
    log("No Japanese or Chinese font: installing Debian's fonts-noto-cjk with apt-get")
    try:
        tried = apt_install("fonts-noto-cjk")
    except subprocess.CalledProcessError:  # no package registry: the screenshot test says so
        tried = False
    if not tried or not has_cjk_fonts():
        log(
            "build.py: no CJK font (on Debian: sudo apt-get install fonts-noto-cjk); "
            "the ja and zh screenshots will show boxes"
        )


def ensure_chromium() -> str:
    found = find_chromium()
    if found:
        return found
    log("Chromium not found: installing Debian's chromium with apt-get")
    if apt_install("chromium"):
        found = find_chromium()
        if found:
            return found
    sys.exit(
        "build.py: the browser tests need Chromium at /usr/bin/chromium or $PYWALL_CHROMIUM "
        "(on Debian: sudo apt-get install chromium)"
    )


#: The other engines' tests (tests/engines): a program each needs, and its Debian package.
ENGINE_PACKAGES = {
    "/usr/bin/firefox-esr": "firefox-esr",
    "/usr/bin/WebKitWebDriver": "webkit2gtk-driver",
    "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser": "libwebkit2gtk-4.1-0",
    "/usr/bin/xvfb-run": "xvfb",
}


def ensure_engines() -> None:
    """Firefox ESR, WebKitGTK's MiniBrowser with WebKitWebDriver and a virtual display, for
    tests/engines: installed with apt-get when missing and we may; else said here, and the
    tests of that engine fail saying which package they need."""
    lacking = sorted({pkg for path, pkg in ENGINE_PACKAGES.items() if not Path(path).is_file()})
    if not lacking:
        return
    log(f"Installing Debian's {' '.join(lacking)} for the Firefox and WebKit tests with apt-get")
    try:
        apt_install(*lacking)
    except subprocess.CalledProcessError:  # one of them cannot be had: the others, one by one
        for package in lacking:
            try:
                apt_install(package)
            except subprocess.CalledProcessError:
                log(f"build.py: apt-get could not install {package}")
    still = sorted({pkg for path, pkg in ENGINE_PACKAGES.items() if not Path(path).is_file()})
    if still:
        log(
            f"build.py: could not install {' '.join(still)} (on Debian: sudo apt-get install "
            f"{' '.join(still)}); the Firefox and WebKit tests that need them will fail"
        )


#: What ruff and mypy check: the package and the worker's Python, and the code around them
#: (the tests, this file, the benchmarks). One run of each tool over all of them.
LINTED = ("pywall", "web/workers/worker_py.py", "tests", "build.py", "benchmarks")


def lint() -> list[str]:
    """ruff check, ruff format --check and mypy --strict over LINTED (each tool prints its
    findings); the names of those that failed."""
    checks = {
        "ruff check": [sys.executable, "-m", "ruff", "check", *LINTED],
        "ruff format --check": [sys.executable, "-m", "ruff", "format", "--check", *LINTED],
        "mypy --strict": [sys.executable, "-m", "mypy", "--strict", *LINTED],
    }
    failed = []
    for name, cmd in checks.items():
        log("$ " + " ".join(cmd[2:]))
        if subprocess.run(cmd, cwd=ROOT, check=False).returncode:
            failed.append(name)
    return failed


#: pytest's processes in the whole test run (pytest-xdist): two, as on the 2-core machine CI
#: runs on; each takes the next test file when nearly free (tests/conftest.py orders them).
TEST_PROCESSES = 2


def busy_core_seconds() -> float | None:
    """The whole machine's busy CPU time since boot, in core-seconds (``/proc/stat``: user,
    nice, system, irq, softirq and steal; idle and I/O wait left out); None where there is
    no ``/proc/stat``. Two readings' difference is what a run cost the machine's cores."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu" or len(fields) < 9:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _busy_since(busy_at: float | None) -> float | None:
    now = busy_core_seconds()
    return None if now is None or busy_at is None else now - busy_at


def stage_figures(name: str, seconds: float, busy: float | None) -> str:
    """A stage in ``PYWALL_STAGE_TIMES``: ``name=seconds``, with ``/core-seconds`` (the
    machine's busy CPU over it) where /proc/stat was read (tests/conftest.py's table)."""
    return f"{name}={seconds:.1f}" + ("" if busy is None else f"/{busy:.1f}")


def test(pytest_args: list[str]) -> int:
    """Every test (or pytest with ``pytest_args``); the whole run ends with a table of each
    stage's time, printed by tests/conftest.py before pytest's closing line."""
    start = time.monotonic()
    started_at = time.time()  # the whole command's start, for the table's last line
    busy_at = busy_core_seconds()  # and the machine's busy CPU then, for the table's last
    chromium = ensure_chromium()
    ensure_cjk_fonts()
    ensure_engines()
    if shutil.which("node") is None:
        sys.exit("build.py: the Pyodide-in-Node tests need node (Node.js 18 or newer)")
    if not site_is_current():
        build_site()
    env = {**os.environ, "PYWALL_CHROMIUM": chromium}
    # The tests start many Python processes (the CLI, --jobs workers, Dask's): with
    # PYTHONDONTWRITEBYTECODE each would compile pywall's modules from source again; the
    # bytecode caches (``__pycache__``, ignored by git) are written once and shared.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not pytest_args:  # the whole run: the code's own checks first (a lint failure fails the run)
        stages = [("set-up and site", time.monotonic() - start, _busy_since(busy_at))]
        start, busy = time.monotonic(), busy_core_seconds()
        failed = lint()
        stages.append(("lint (ruff, mypy)", time.monotonic() - start, _busy_since(busy)))
        if failed:
            log(f"build.py: {', '.join(failed)} failed: see above")
            return 1
        start, busy = time.monotonic(), busy_core_seconds()
        if node_unit_tests():
            log("build.py: the page's node unit tests (tests/js) failed: see above")
            return 1
        stages.append(("node --test tests/js", time.monotonic() - start, _busy_since(busy)))
        env["PYWALL_STAGE_TIMES"] = ";".join(stage_figures(*stage) for stage in stages)
        env["PYWALL_TEST_STARTED"] = f"{started_at:.3f}"
        if busy_at is not None:
            env["PYWALL_BUSY_STARTED"] = f"{busy_at:.2f}"
    # the whole run in two processes, each taking the next test file when nearly free, the
    # browser tests first (tests/conftest.py orders them; a file's tests share one process)
    whole = ["-n", str(TEST_PROCESSES), "--dist", "loadscope", "--no-loadscope-reorder", "tests"]
    cmd = [sys.executable, "-m", "pytest", *(pytest_args or whole)]
    log("$ " + " ".join(cmd))
    return subprocess.run(cmd, cwd=ROOT, env=env, check=False).returncode


def node_unit_tests() -> int:
    """``node --test`` over tests/js: the page's pure modules (the URL fragment, the words
    of every language, the archive scheduler), in well under a second."""
    tests = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    cmd = ["node", "--test", *tests]
    log("$ " + " ".join(cmd))
    return subprocess.run(cmd, cwd=ROOT, check=False).returncode


def fuzz(minutes: float, seed: int | None) -> int:
    """tests/fuzz.py: any exception outside PywallError, any case over 10 s or a
    process over 300 MB fails, printed with the command that replays it."""
    cmd = [sys.executable, "-m", "tests.fuzz", "--seconds", str(minutes * 60)]
    cmd += ["--seed", str(seed)] if seed is not None else []
    log("$ " + " ".join(cmd))
    return subprocess.run(cmd, cwd=ROOT, check=False).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("site", help="build the wheel and assemble site/")
    p_serve = sub.add_parser("serve", help="build if needed and serve site/ on 127.0.0.1")
    p_serve.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    sub.add_parser(
        "test",
        help="install what tests need, build, run every test; further arguments go to pytest",
    )
    p_fuzz = sub.add_parser(
        "fuzz", help="fuzz every reader with mutated logs, random bytes and hypothesis"
    )
    p_fuzz.add_argument("--minutes", type=float, default=5.0, help="how long (default 5)")
    p_fuzz.add_argument("--seed", type=int, default=None, help="replay a run (its seed is printed)")
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    ensure_venv()
    if args.command == "site":
        build_site()
        return 0
    if args.command == "serve":
        serve(args.port)
        return 0
    if args.command == "fuzz":
        return fuzz(args.minutes, args.seed)
    return test(extra)


if __name__ == "__main__":
    sys.exit(main())
