"""The core does no I/O: only the drivers (cli) may open files, print or exit."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pywall

PACKAGE = Path(pywall.__file__).parent
DRIVERS = {"cli", "inputs"}
FORBIDDEN_MODULES = {
    "os",
    "sys",
    "subprocess",
    "socket",
    "pathlib",
    "shutil",
    "tempfile",
    "sqlite3",
}
FORBIDDEN_CALLS = {"print", "open", "input", "exit", "quit"}


def core_modules() -> list[Path]:
    return sorted(
        p
        for p in PACKAGE.rglob("*.py")
        if p.relative_to(PACKAGE).parts[0] not in DRIVERS and p.name != "__main__.py"
    )


@pytest.mark.parametrize("path", core_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_module_does_no_io(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = (
                {a.name.split(".")[0] for a in node.names}
                if isinstance(node, ast.Import)
                else {(node.module or "").split(".")[0]}
            )
            assert not names & FORBIDDEN_MODULES, (
                f"{path.name}:{node.lineno} imports {names & FORBIDDEN_MODULES}"
            )
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, (
                f"{path.name}:{node.lineno} calls {node.func.id}()"
            )


def test_core_never_imports_the_drivers() -> None:
    for path in core_modules():
        text = path.read_text(encoding="utf-8")
        assert "pywall.cli" not in text, path


# --- the layer table: imports flow downward only, and never in a circle -------------

#: base (tiles, errors, bounded decoding of bytes) -> model -> formats -> algorithms ->
#: report (and what reads reports) -> drivers.
#: (Kept from the formatter: a row per layer, a comment per group of names.)
# fmt: off
LAYERS: dict[str, int] = {
    "errors": 0, "findings": 0, "tiles": 0, "archives": 0,
    "limits": 0,  # what one input may cost: the caps on work
    "tile_glyphs": 0, "tile_art": 0,  # the tile faces as vector shapes
    "model": 1, "layout": 1,  # where a round's tiles sit in its wall: part of what a record means
    "formats": 2,
    "links": 2,
    "mt19937": 3, "tenhou": 3, "sega": 3, "majsoul": 3, "riichicity": 3,
    "commitment": 3, "verify": 3, "round_checks": 3, "wall_sources": 3, "stated": 3, "digests": 3, "shanten": 3, "shanten_table": 3, "shanten_distribution": 3,
    "efficiency": 3, "draws": 3, "walls": 3,  # the draw test and the wall-position test
    "stats": 3,
    "report": 4, "exports": 4, "check": 4, "audit": 4, "audit_records": 4, "audit_draws": 4, "hands": 4, "warmup": 4, "runs": 4,
    "picture": 4, "picture_svg": 4,  # a round's wall (as the report carries it) drawn as SVG
    "api": 5, "payload": 5, "tool_api": 5, "cli": 5, "inputs": 5, "__main__": 5, "__init__": 5,
}
# fmt: on
LAYER_NAMES = ("base", "model", "formats", "algorithms", "report", "drivers")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts) or "__init__"


def layer_of(name: str) -> int:
    top = name.split(".")[0]
    assert top in LAYERS, f"pywall.{name} is in no layer: add it to LAYERS in {__file__}"
    return LAYERS[top]


def pywall_imports(path: Path) -> set[str]:
    """The pywall modules a file imports (anywhere in it), as names below ``pywall``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("pywall.")}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pywall"):
            base = node.module
            found |= {f"{base}.{a.name}" if base == "pywall" else base for a in node.names}
    names = {m.removeprefix("pywall.") for m in found if m != "pywall"}
    modules = {module_name(p) for p in PACKAGE.rglob("*.py")}
    # "from pywall.formats import mjlog" names the submodule; "from pywall.x import f" the module
    return {n if n in modules else n.rsplit(".", 1)[0] if "." in n else "__init__" for n in names}


def import_graph() -> dict[str, set[str]]:
    return {module_name(p): pywall_imports(p) - {module_name(p)} for p in PACKAGE.rglob("*.py")}


def test_every_import_goes_down_the_layers() -> None:
    upward = []
    for module, imports in import_graph().items():
        for target in imports:
            if layer_of(target) > layer_of(module):
                upward.append(
                    f"pywall.{module} ({LAYER_NAMES[layer_of(module)]}) imports pywall.{target} "
                    f"({LAYER_NAMES[layer_of(target)]})"
                )
    assert not upward, "\n".join(sorted(upward))


def test_no_import_cycle() -> None:
    graph = import_graph()
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                raise AssertionError(
                    "import cycle: " + " -> ".join([*path[path.index(nxt) :], nxt])
                )
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])


def test_the_layer_check_sees_an_upward_import(tmp_path: Path) -> None:
    bad = tmp_path / "x.py"
    bad.write_text("from pywall.report import check_log\nfrom pywall import tiles\n")
    assert pywall_imports(bad) == {"report", "tiles"}
