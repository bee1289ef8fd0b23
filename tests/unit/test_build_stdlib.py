"""build.py's page_stdlib: the site's standard library holds pywall (the page installs
nothing at start-up) and leaves out what no import of the page can reach (issue 45)."""

from __future__ import annotations

import io
import zipfile

from tests.helpers import load_build

build = load_build()


def names_of(text: str, module: str = "pkg.mod", package: bool = False) -> set[str]:
    found: set[str] = build.imported_names(module, package, text)
    return found


def test_import_lines_are_read_inside_functions_relative_and_over_lines() -> None:
    text = (
        "import os, json as j\n"
        "def f():\n"
        "    from email import (\n"
        "        parser,\n"
        "        utils as u,\n"
        "    )\n"
        "from . import sibling\n"
        "from ..up import thing  # a comment\n"
        "x = 'import nothing'\n"
    )
    found = names_of(text, "pkg.sub.mod")
    assert {"os", "json", "email", "email.parser", "email.utils"} <= found
    assert {"pkg.sub.sibling", "pkg.up", "pkg.up.thing", "pkg", "pkg.sub"} <= found
    assert "nothing" not in found


def test_a_packages_relative_import_is_from_the_package_itself() -> None:
    assert "pkg.inner" in names_of("from . import inner\n", "pkg", package=True)


def stdlib(members: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in members.items():
            z.writestr(name, text)
    return buf.getvalue()


def test_the_page_stdlib_keeps_what_is_reached_and_holds_pywall() -> None:
    source = stdlib(
        {
            "json/__init__.py": "from .decoder import JSONDecoder\n",
            "json/decoder.py": "import re\n",
            "re/__init__.py": "",
            "dataclasses.py": "import inspect\n",  # pywall imports dataclasses
            "inspect.py": "def f():\n    import dis\n",
            "dis.py": "",
            "turtle.py": "import tkinter\n",  # nothing reaches it
            "tkinter/__init__.py": "",
            "encodings/__init__.py": "",
            "encodings/utf_8.py": "",
            "encodings/cp437.py": "",
            "encodings/cp1251.py": "",
            "_pyodide/__init__.py": "",
            "_pyodide/_base.py": "",
            "sysconfig.txt": "not a module",
        }
    )
    page = zipfile.ZipFile(io.BytesIO(build.page_stdlib(source)))
    names = set(page.namelist())
    kept = {
        "json/__init__.py",
        "json/decoder.py",
        "re/__init__.py",
        "dataclasses.py",
        "inspect.py",
        "dis.py",
        "encodings/__init__.py",
        "encodings/utf_8.py",
        "encodings/cp437.py",
        "_pyodide/__init__.py",
        "_pyodide/_base.py",
        "sysconfig.txt",
    }
    assert kept <= names
    assert not names & {"turtle.py", "tkinter/__init__.py", "encodings/cp1251.py"}
    assert "pywall/__init__.py" in names and "pywall/page/api.py" in names
    assert not [n for n in names if n.startswith(("pywall/cli/", "pywall/scale/"))]
    assert {i.compress_type for i in page.infolist()} == {zipfile.ZIP_STORED}
    assert build.page_stdlib(source) == build.page_stdlib(source)  # reproducible


def test_the_compiled_modules_take_their_sources_place_and_the_rest_stay() -> None:
    """compiled_stdlib's merge (with_bytecode): each NAME.py the compiler gave bytecode for is
    NAME.pyc in its place (zipimport reads no source for it), every other member as it was,
    stored, the same bytes each time."""
    source = stdlib({"a.py": "A = 1\n", "pkg/__init__.py": "", "b.py": "B = 2\n", "x.txt": "x"})
    pyc = stdlib({"pkg/__init__.pyc": "code of pkg", "b.pyc": "code of b"})
    merged = build.with_bytecode(source, pyc)
    z = zipfile.ZipFile(io.BytesIO(merged))
    assert z.namelist() == ["a.py", "pkg/__init__.pyc", "b.pyc", "x.txt"]
    assert z.read("b.pyc") == b"code of b" and z.read("a.py") == b"A = 1\n"
    assert {i.compress_type for i in z.infolist()} == {zipfile.ZIP_STORED}
    assert build.with_bytecode(source, pyc) == merged
