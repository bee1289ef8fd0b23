"""The core does no I/O: only the drivers (cli) may open files, print or exit."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pywall

PACKAGE = Path(pywall.__file__).parent
#: Drivers read files and run processes: the CLI, the input layer, the runner, the public API, Dask.
DRIVERS = {"cli", "inputs", "run", "api", "scale"}
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


def test_nothing_outside_the_cli_imports_it() -> None:
    """The CLI is a front door, not a library: the public API, Dask, the page and every
    layer below stand on ``pywall.run`` and the modules that own each job, so a change to
    the command's arguments or printing cannot break them."""
    outside = [
        f"{p.relative_to(PACKAGE)}: {sorted(i for i in pywall_imports(p) if i.split('.')[0] == 'cli')}"
        for p in PACKAGE.rglob("*.py")
        if p.relative_to(PACKAGE).parts[0] != "cli"
        and p.name != "__main__.py"
        and any(i.split(".")[0] == "cli" for i in pywall_imports(p))
    ]
    assert not outside, "\n".join(outside)
    texts = [
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if p.relative_to(PACKAGE).parts[0] != "cli"
        and p.name != "__main__.py"
        and "pywall.cli" in p.read_text(encoding="utf-8")
    ]
    assert not texts, f"modules that name pywall.cli (even lazily, in a string): {texts}"


def test_the_cli_check_sees_a_lazy_import(tmp_path: Path) -> None:
    bad = tmp_path / "x.py"
    bad.write_text("def f() -> None:\n    from pywall.cli.pool import ordered_map\n")
    assert pywall_imports(bad) == {"cli.pool"}


def test_core_never_imports_the_drivers() -> None:
    for path in core_modules():
        text = path.read_text(encoding="utf-8")
        assert "pywall.cli" not in text, path


# --- the layer table: imports flow downward only, and never in a circle -------------

#: One layer per folder of the package: core (tiles, errors and findings, the caps on work,
#: bounded decoding of bytes, the model and its wall's layout) -> formats (one module per
#: vendor format, and links) -> the algorithms (checks: the walls regenerated and compared;
#: analysis: shanten, efficiency, statistics, the draw and wall tests' mathematics) ->
#: results (a game's check, its report and views; audits: the audit of many games, its
#: tally, parts, verdicts and report; pictures: the wall drawn from what a report carries)
#: -> drivers (the page's JSON API, the input layer, and ``run``: how many games are run,
#: which every front door stands on) -> the front doors (the CLI, the public API ``api``,
#: ``scale``: the audit on Dask; ``pywall/__init__.py``). Inside a layer imports are free
#: (the cycle test still holds), but no front door imports the CLI
#: (``test_nothing_outside_the_cli_imports_it``); no module is an exception to its
#: folder's layer.
LAYERS: dict[str, int] = {
    "core": 0,
    "formats": 1,
    "checks": 2,
    "analysis": 2,
    "results": 3,
    "audits": 3,
    "pictures": 3,
    "page": 4,
    "inputs": 4,
    "run": 4,
    "cli": 5,
    "__main__": 5,
    "api": 5,
    "scale": 5,
    "__init__": 5,
}
LAYER_NAMES = ("core", "formats", "algorithms", "results", "drivers", "front doors")
#: The only modules at pywall/'s top level: everything else sits in the folder of its job.
TOP_LEVEL = {"__init__.py", "__main__.py"}


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
            found |= {f"{base}.{a.name}" for a in node.names}
    names = {m.removeprefix("pywall.") for m in found if m != "pywall"}
    modules = {module_name(p) for p in PACKAGE.rglob("*.py")}
    # "from pywall.core import tiles" names the submodule; "from pywall.core.tiles import f" the module
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
    bad.write_text("from pywall.results.report import check_log\nfrom pywall.core import tiles\n")
    assert pywall_imports(bad) == {"results.report", "core.tiles"}
    assert layer_of("core.tiles") < layer_of("results.report")


def test_every_module_sits_in_the_folder_of_its_job() -> None:
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in TOP_LEVEL)
    assert not loose, f"modules at pywall/'s top level (move each into its folder): {loose}"
    folders = {p.parent.relative_to(PACKAGE).parts[0] for p in PACKAGE.rglob("*/*.py")}
    assert folders <= set(LAYERS), f"folders in no layer: {sorted(folders - set(LAYERS))}"
    assert all((PACKAGE / f / "__init__.py").is_file() for f in folders)
