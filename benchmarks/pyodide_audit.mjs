// The page's audit of an archive inside Pyodide (the engine the page runs), for
// bench_hostile.py's many-players row:
//
//   node benchmarks/pyodide_audit.mjs build/pyodide ZIP
//
// Loads the built pywall wheel through the site's lock (hash-checked), copies the zip
// into Pyodide's memory file system, runs it through pywall.page.api's archive requests
// as a page worker does, then the `audit` request; prints one JSON line: the games the
// audit used, the reply's size, the seconds of the audit request and the WebAssembly
// memory at the end (MB).
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [index, zip] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(index, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: index + path.sep });
const problems = [];
await pyodide.loadPackage("pywall", { checkIntegrity: true, messageCallback: () => {}, errorCallback: (m) => problems.push(m) });
if (problems.length) throw new Error(problems.join("; "));
pyodide.FS.writeFile("/archive.zip", readFileSync(zip));
const out = pyodide.runPython(`
import json, time
from pathlib import Path
from pywall.inputs.sources import ArchiveSource
from pywall.page import api
worker = api.Api(lambda path, label: ArchiveSource(Path(path), label))
ask = lambda kind, **p: json.loads(api.handle(kind, json.dumps(p), None, worker))
ask("archive_open", run="r", path="/archive.zip", label="a.zip")
while not ask("archive_next", run="r", limit=200)["done"]:
    pass
start = time.perf_counter()
reply = api.handle("audit", json.dumps({"runs": ["r"]}), None, worker)
seconds = time.perf_counter() - start
json.dumps({"used": json.loads(reply)["games"]["used"], "reply_mb": len(reply) / 2**20, "audit_s": seconds})
`);
const answer = JSON.parse(out);
answer.wasm_mb = pyodide._module.HEAP8.length / 2 ** 20;
process.stdout.write(JSON.stringify(answer) + "\n");
