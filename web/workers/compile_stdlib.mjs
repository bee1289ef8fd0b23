// Build-time (not shipped): bytecode for the modules the page imports after its start-up
// snapshot, compiled by Pyodide's own Python, so that the page reads them compiled instead of
// compiling their sources in the browser (the archive warm-up's imports took 3.3 s in WebKit
// at load 7). Pyodide starts on IN_ZIP (build.py's page_stdlib: the page's standard library,
// sources only) and does what make_snapshot.mjs does (the glue imported, the made-up game
// checked): what is imported then is in the snapshot's memory and keeps its source. Then the
// archive warm-up runs and pywall.page.api.LAZY_MODULES are imported: each module of IN_ZIP
// imported by these is compiled, and OUT_ZIP holds MEMBER.pyc for each (only those): the
// interpreter's own bytecode, marked unchecked-hash (PEP 552) so that zipimport loads it with
// no source and no time stamp, named in tracebacks by the path the page mounts the zip at.
// The same input gives the same bytes: a fixed hash seed (sets in the bytecode keep their
// order), members in the input's order, a fixed date.
//
//   node compile_stdlib.mjs PYODIDE_DIR IN_ZIP GLUE_FILE OUT_ZIP

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [index, input, glue, output] = process.argv.slice(2).map((p) => path.resolve(p));
const { loadPyodide } = await import(pathToFileURL(path.join(index, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: index + path.sep,
  stdLibURL: input,
  env: { PYTHONHASHSEED: "0" },
});
pyodide.FS.writeFile("/home/pyodide/pywall_worker.py", readFileSync(glue, "utf8"));
const report = pyodide.runPython(`
import importlib, importlib.util, json, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

assert sys.flags.hash_randomization == 0, "the hash seed is not fixed"
mount = json.__file__[: -len("json/__init__.py")]  # the standard library's zip, as mounted


def members() -> set[str]:
    files = (getattr(m, "__file__", None) for m in list(sys.modules.values()))
    return {f[len(mount) :] for f in files if isinstance(f, str) and f.startswith(mount)}


import pywall_worker

assert pywall_worker.pywall.__file__.startswith(mount), pywall_worker.pywall.__file__
pywall_worker.handle("warm_up", json.dumps({"times": 1}))
in_snapshot = members()
pywall_worker.warm_archive()
for name in pywall_worker.api.LAZY_MODULES:
    importlib.import_module(name)
later = members() - in_snapshot
with zipfile.ZipFile(mount.rstrip("/")) as src, zipfile.ZipFile("/tmp/out.zip", "w") as out:
    for info in src.infolist():
        if info.filename not in later:
            continue
        source = src.read(info)
        code = compile(source, mount + info.filename, "exec", dont_inherit=True, optimize=0)
        pyc = _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
        out.writestr(zipfile.ZipInfo(info.filename + "c", (1980, 1, 1, 0, 0, 0)), bytes(pyc))
json.dumps({"compiled": len(later), "in_snapshot": len(in_snapshot), "magic": importlib.util.MAGIC_NUMBER.hex()})
`);
writeFileSync(output, pyodide.FS.readFile("/tmp/out.zip"));
console.error(`compile_stdlib: ${report}`);
