// Build-time (not shipped): a memory snapshot of a Pyodide interpreter with pywall
// already imported, so that the page skips Python's start-up (~3 s on this kind of
// machine) and pywall's first import. pywall is in the site's standard library
// (build.py's page_stdlib: nothing to install); the interpreter imports the page's glue
// (worker_py.py, as the module pywall_worker) and checks the made-up game once, which imports what a
// first log needs (a first log after start-up: ~0.25 s instead of ~0.6-1.6 s under
// Node). The tools, the audit and the archive runs stay lazy (pywall.page.api.LAZY_MODULES):
// in the snapshot they would cost 0.48 MB of gzip. The snapshot holds memory, not
// files: the modules the page imports later are read from the standard library's zip,
// the same file the page mounts (those it imports after start-up as bytecode: build.py's
// compiled_stdlib), and the glue's module lives in memory only.
// The snapshot API is Pyodide's own (private, underscored) and tied to the exact
// build it came from; build.py makes a new one whenever the runtime, the wheel or the
// glue change, and worker.mjs falls back to a normal start if restoring fails.
//
//   node make_snapshot.mjs PYODIDE_DIR GLUE_FILE OUT_FILE

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

// What Python freed is still in the memory as it was, and the snapshot's gzip paid for it
// (0.79 MB). Each free block of the C heap is taken, zeroed and given back: blocks from
// the free lists only, so the heap's end and the memory's size stay as they are.
function zeroFreeMemory(module) {
  const { length } = module.HEAP8;
  const taken = [];
  for (let size = 1 << 17; size >= 16; size >>= 1) {
    for (;;) {
      const end = module._sbrk(0);
      const block = module._malloc(size);
      if (!block) break;
      if (module._sbrk(0) !== end || module.HEAP8.length !== length) {
        module._free(block); // it came from the heap's end: no free block of this size is left
        break;
      }
      module.HEAPU8.fill(0, block, block + size);
      taken.push(block);
    }
  }
  for (const block of taken) module._free(block);
  if (module.HEAP8.length !== length) throw new Error("the memory grew while its free blocks were zeroed");
}

const [index, glue, out] = process.argv.slice(2).map((p) => path.resolve(p));
const { loadPyodide } = await import(pathToFileURL(path.join(index, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: index + path.sep, _makeSnapshot: true });
pyodide.FS.writeFile("/home/pyodide/pywall_worker.py", readFileSync(glue, "utf8"));
pyodide.runPython(`
import gc, json
import pywall_worker
assert pywall_worker.pywall.__file__.startswith("/lib/python"), pywall_worker.pywall.__file__
pywall_worker.handle("warm_up", json.dumps({"times": 1}))
gc.collect()
`);
zeroFreeMemory(pyodide._module);
const snapshot = pyodide.makeMemorySnapshot();
writeFileSync(out, snapshot);
console.error(`snapshot: ${snapshot.length} bytes`);
