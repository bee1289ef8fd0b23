// Build-time (not shipped): a memory snapshot of a freshly started Pyodide
// interpreter, so that the page can skip Python's ~3 s start-up on this kind of
// machine. Only the bare interpreter is captured: pywall itself is still loaded
// afterwards with loadPackage, hash-checked against pyodide-lock.json.
// The snapshot API is Pyodide's own (private, underscored) and tied to the exact
// build it came from; build.py makes a new one whenever the runtime changes and
// worker.mjs falls back to a normal start if restoring fails.
//
//   node make_snapshot.mjs PYODIDE_DIR OUT_FILE

import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [index, out] = process.argv.slice(2).map((p) => path.resolve(p));
const { loadPyodide } = await import(pathToFileURL(path.join(index, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: index + path.sep, _makeSnapshot: true });
const snapshot = pyodide.makeMemorySnapshot();
writeFileSync(out, snapshot);
console.error(`snapshot: ${snapshot.length} bytes`);
